//! Sorted-set ranges: ZRANGE (BYSCORE, BYLEX, REV, LIMIT, WITHSCORES), ZRANGESTORE,
//! ZREVRANGE, ZRANGEBYSCORE, ZREVRANGEBYSCORE, ZRANGEBYLEX, ZREVRANGEBYLEX, ZCOUNT, ZLEXCOUNT
//! and ZREMRANGEBYRANK/SCORE/LEX, as `zrangeGenericCommand` and its helpers parse and walk them.

use super::{arg, bulk, double, read, settle, store, strtod, write, Res, ZSet};
use crate::core::server::command::parse_i64;
use crate::core::server::data::Db;
use crate::core::server::reply::{ErrorReply, Reply};

/// Runs `name` if this module owns it (`None` otherwise).
pub(super) fn run(db: &mut Db, now: i64, name: &str, args: &[Vec<u8>]) -> Option<Reply> {
    use Dir::{Auto, Fwd, Rev};
    use Kind::{Lex, Rank, Score};
    let reply = match name {
        "zrange" => zrange(db, now, args, 1, None, Kind::Auto, Auto),
        "zrangestore" => zrange(db, now, args, 2, args.get(1), Kind::Auto, Auto),
        "zrevrange" => zrange(db, now, args, 1, None, Rank, Rev),
        "zrangebyscore" => zrange(db, now, args, 1, None, Score, Fwd),
        "zrevrangebyscore" => zrange(db, now, args, 1, None, Score, Rev),
        "zrangebylex" => zrange(db, now, args, 1, None, Lex, Fwd),
        "zrevrangebylex" => zrange(db, now, args, 1, None, Lex, Rev),
        "zcount" => zcount(db, now, args, false),
        "zlexcount" => zcount(db, now, args, true),
        "zremrangebyrank" => zremrange(db, now, args, Rank),
        "zremrangebyscore" => zremrange(db, now, args, Score),
        "zremrangebylex" => zremrange(db, now, args, Lex),
        _ => return None,
    };
    Some(reply.unwrap_or_else(Reply::Error))
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Auto,
    Rank,
    Score,
    Lex,
}

#[derive(Clone, Copy, PartialEq)]
enum Dir {
    Auto,
    Fwd,
    Rev,
}

/// A score interval (`zrangespec`).
#[derive(Clone, Copy)]
pub(in crate::core::server::data) struct ScoreRange {
    min: f64,
    max: f64,
    minex: bool,
    maxex: bool,
}

impl ScoreRange {
    fn gte_min(&self, v: f64) -> bool {
        if self.minex {
            v > self.min
        } else {
            v >= self.min
        }
    }
    fn lte_max(&self, v: f64) -> bool {
        if self.maxex {
            v < self.max
        } else {
            v <= self.max
        }
    }
    fn contains(&self, v: f64) -> bool {
        self.gte_min(v) && self.lte_max(v)
    }
}

fn parse_bound(b: &[u8]) -> Option<(f64, bool)> {
    // An integer-encoded argument is read as the integer (same value as strtod gives).
    let (ex, text) = match b.split_first() {
        Some((b'(', rest)) if parse_i64(b).is_none() => (true, rest),
        _ => (false, b),
    };
    let end = text.iter().position(|&c| c == 0).unwrap_or(text.len());
    let (v, used, _) = strtod(text);
    (used == end && !v.is_nan()).then_some((v, ex))
}

/// `zslParseRange`: `(` makes a bound exclusive; anything `strtod` reads whole (also `inf`,
/// `1e400`, an empty string) is a bound; NaN is not.
pub(in crate::core::server::data) fn parse_score_range(
    min: &[u8],
    max: &[u8],
) -> Result<ScoreRange, ErrorReply> {
    let ((min, minex), (max, maxex)) = parse_bound(min)
        .zip(parse_bound(max))
        .ok_or(ErrorReply::MinMaxNotFloat)?;
    Ok(ScoreRange {
        min,
        max,
        minex,
        maxex,
    })
}

/// One end of a lexicographic range.
#[derive(Clone)]
enum LexBound {
    Min,
    Max,
    Incl(Vec<u8>),
    Excl(Vec<u8>),
}

struct LexRange {
    min: LexBound,
    max: LexBound,
}

fn parse_lex_item(b: &[u8]) -> Option<LexBound> {
    match b.split_first() {
        Some((b'+', [])) => Some(LexBound::Max),
        Some((b'-', [])) => Some(LexBound::Min),
        Some((b'(', rest)) => Some(LexBound::Excl(rest.to_vec())),
        Some((b'[', rest)) => Some(LexBound::Incl(rest.to_vec())),
        _ => None,
    }
}

fn parse_lex_range(min: &[u8], max: &[u8]) -> Result<LexRange, ErrorReply> {
    // Integer-encoded arguments are refused outright, as Redis does.
    if parse_i64(min).is_some() || parse_i64(max).is_some() {
        return Err(ErrorReply::MinMaxNotLex);
    }
    let (Some(min), Some(max)) = (parse_lex_item(min), parse_lex_item(max)) else {
        return Err(ErrorReply::MinMaxNotLex);
    };
    Ok(LexRange { min, max })
}

impl LexRange {
    fn gte_min(&self, v: &[u8]) -> bool {
        match &self.min {
            LexBound::Min => true,
            LexBound::Max => false,
            LexBound::Incl(m) => v >= m.as_slice(),
            LexBound::Excl(m) => v > m.as_slice(),
        }
    }
    fn lte_max(&self, v: &[u8]) -> bool {
        match &self.max {
            LexBound::Min => false,
            LexBound::Max => true,
            LexBound::Incl(m) => v <= m.as_slice(),
            LexBound::Excl(m) => v < m.as_slice(),
        }
    }
    /// Whether the range can hold anything (`zslIsInLexRange`'s first test).
    fn empty(&self) -> bool {
        let (minex, maxex) = (
            matches!(self.min, LexBound::Excl(_) | LexBound::Min | LexBound::Max),
            matches!(self.max, LexBound::Excl(_) | LexBound::Min | LexBound::Max),
        );
        let key = |b: &LexBound| match b {
            LexBound::Min => (0u8, Vec::new()),
            LexBound::Max => (2u8, Vec::new()),
            LexBound::Incl(v) | LexBound::Excl(v) => (1u8, v.clone()),
        };
        let (a, b) = (key(&self.min), key(&self.max));
        a > b || (a == b && (minex || maxex))
    }
}

/// A lexicographic range walked as a listpack walks it (`zzlFirstInLexRange` /
/// `zzlLastInLexRange`, then element by element while in range): on members of equal score
/// this is the range; on mixed scores it is what Redis answers (the first member in score
/// order past the start bound, and the run after it). `all` is in walking order (reversed for
/// REV); `offset` members are skipped unchecked, then at most `count` (negative: all) taken.
fn lex_walk<'a>(
    r: &LexRange,
    all: &[(&'a [u8], f64)],
    rev: bool,
    offset: usize,
    count: i64,
) -> Vec<(&'a [u8], f64)> {
    // zzlIsInLexRange: a range that can hold something, whose ends the set reaches.
    let (lowest, highest) = if rev {
        (all.last(), all.first())
    } else {
        (all.first(), all.last())
    };
    let (Some(lowest), Some(highest)) = (lowest, highest) else {
        return Vec::new();
    };
    if r.empty() || !r.gte_min(highest.0) || !r.lte_max(lowest.0) {
        return Vec::new();
    }
    let enter = |m: &[u8]| if rev { r.lte_max(m) } else { r.gte_min(m) };
    let stay = |m: &[u8]| if rev { r.gte_min(m) } else { r.lte_max(m) };
    let Some(start) = all.iter().position(|(m, _)| enter(m)) else {
        return Vec::new();
    };
    if all.get(start).is_some_and(|(m, _)| !stay(m)) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for item in all.iter().skip(start.saturating_add(offset)) {
        if count >= 0 && out.len() as u64 >= count as u64 {
            break;
        }
        if !stay(item.0) {
            break;
        }
        out.push(*item);
    }
    out
}

/// `[start, end]` of a rank range over `len` members, Redis's clamping; `None` when empty.
pub(in crate::core::server::data) fn rank_span(
    start: i64,
    end: i64,
    len: usize,
) -> Option<(usize, usize)> {
    let len = len as i128;
    let (mut s, mut e) = (i128::from(start), i128::from(end));
    if s < 0 {
        s += len;
    }
    if e < 0 {
        e += len;
    }
    if s < 0 {
        s = 0;
    }
    if s > e || s >= len {
        return None;
    }
    if e >= len {
        e = len - 1;
    }
    Some((s as usize, e as usize))
}

/// The members (with scores) a range selects, in reply order.
fn select(
    z: &ZSet,
    kind: Kind,
    rev: bool,
    a: &[u8],
    b: &[u8],
    limit: (i64, i64),
) -> Result<Vec<(Vec<u8>, f64)>, ErrorReply> {
    let _ = (a, b);
    let all: Vec<(&[u8], f64)> = if rev {
        z.iter().rev().collect()
    } else {
        z.iter().collect()
    };
    let own = |v: &[(&[u8], f64)]| v.iter().map(|(m, s)| (m.to_vec(), *s)).collect::<Vec<_>>();
    Ok(match kind {
        Kind::Rank | Kind::Auto => {
            let (start, end) = (parse_i64(a).unwrap_or(0), parse_i64(b).unwrap_or(0));
            match rank_span(start, end, all.len()) {
                Some((s, e)) => own(all.get(s..=e).unwrap_or(&[])),
                None => Vec::new(),
            }
        }
        Kind::Score => {
            let r = parse_score_range(a, b)?;
            let (offset, count) = limit;
            if offset > 0 && offset as u64 >= all.len() as u64 || offset < 0 {
                return Ok(Vec::new());
            }
            let hits: Vec<(&[u8], f64)> = all.into_iter().filter(|(_, s)| r.contains(*s)).collect();
            let taken = hits.into_iter().skip(offset as usize);
            let taken: Vec<_> = if count < 0 {
                taken.collect()
            } else {
                taken.take(count as usize).collect()
            };
            own(&taken)
        }
        Kind::Lex => {
            let r = parse_lex_range(a, b)?;
            let (offset, count) = limit;
            if (offset > 0 && offset as u64 >= all.len() as u64) || offset < 0 {
                return Ok(Vec::new());
            }
            own(&lex_walk(&r, &all, rev, offset as usize, count))
        }
    })
}

fn zrange(
    db: &mut Db,
    now: i64,
    args: &[Vec<u8>],
    at: usize,
    dst: Option<&Vec<u8>>,
    mut kind: Kind,
    mut dir: Dir,
) -> Res {
    let key = arg(args, at);
    let (mut minidx, mut maxidx) = (at + 1, at + 2);
    let mut withscores = false;
    let mut limit = (0i64, -1i64);
    let mut has_limit = false;
    let mut j = at + 3;
    while j < args.len() {
        let opt = arg(args, j);
        let left = args.len() - j - 1;
        if dst.is_none() && opt.eq_ignore_ascii_case(b"withscores") {
            withscores = true;
        } else if opt.eq_ignore_ascii_case(b"limit") && left >= 2 {
            let offset = parse_i64(arg(args, j + 1)).ok_or(ErrorReply::NotInteger)?;
            let count = parse_i64(arg(args, j + 2)).ok_or(ErrorReply::NotInteger)?;
            limit = (offset, count);
            has_limit = count != -1;
            j += 2;
        } else if dir == Dir::Auto && opt.eq_ignore_ascii_case(b"rev") {
            dir = Dir::Rev;
        } else if kind == Kind::Auto && opt.eq_ignore_ascii_case(b"bylex") {
            kind = Kind::Lex;
        } else if kind == Kind::Auto && opt.eq_ignore_ascii_case(b"byscore") {
            kind = Kind::Score;
        } else {
            return Err(ErrorReply::Syntax);
        }
        j += 1;
    }
    if kind == Kind::Auto {
        kind = Kind::Rank;
    }
    let rev = dir == Dir::Rev;
    if has_limit && kind == Kind::Rank {
        return Err(ErrorReply::LimitNeedsByScoreOrLex);
    }
    if withscores && kind == Kind::Lex {
        return Err(ErrorReply::WithScoresWithLex);
    }
    if rev && kind != Kind::Rank {
        std::mem::swap(&mut minidx, &mut maxidx);
    }
    let (a, b) = (arg(args, minidx), arg(args, maxidx));
    match kind {
        Kind::Rank | Kind::Auto => {
            parse_i64(a).ok_or(ErrorReply::NotInteger)?;
            parse_i64(b).ok_or(ErrorReply::NotInteger)?;
        }
        Kind::Score => {
            parse_score_range(a, b)?;
        }
        Kind::Lex => {
            parse_lex_range(a, b)?;
        }
    }
    let picked = match read(db, now, key)? {
        None => Vec::new(),
        Some(z) => select(z, kind, rev, a, b, limit)?,
    };
    if let Some(dst) = dst {
        // Redis sizes the destination by the rank range's length when it knows it.
        let mut out = if kind == Kind::Rank && picked.len() > super::MAX_LISTPACK_ENTRIES {
            ZSet::skiplist()
        } else {
            ZSet::new()
        };
        for (m, s) in picked {
            out.insert(m, s);
        }
        return Ok(store(db, now, dst, out));
    }
    let mut out = Vec::with_capacity(picked.len() * 2);
    for (m, s) in picked {
        out.push(bulk(&m));
        if withscores {
            out.push(double(s));
        }
    }
    Ok(Reply::Array(out))
}

fn zcount(db: &mut Db, now: i64, args: &[Vec<u8>], lex: bool) -> Res {
    let (a, b) = (arg(args, 2), arg(args, 3));
    let n = if lex {
        let r = parse_lex_range(a, b)?;
        read(db, now, arg(args, 1))?.map_or(0, |z| {
            let all: Vec<(&[u8], f64)> = z.iter().collect();
            lex_walk(&r, &all, false, 0, -1).len()
        })
    } else {
        let r = parse_score_range(a, b)?;
        read(db, now, arg(args, 1))?.map_or(0, |z| z.iter().filter(|(_, s)| r.contains(*s)).count())
    };
    Ok(Reply::Int(n as i64))
}

fn zremrange(db: &mut Db, now: i64, args: &[Vec<u8>], kind: Kind) -> Res {
    let key = arg(args, 1);
    let (a, b) = (arg(args, 2), arg(args, 3));
    match kind {
        Kind::Score => {
            parse_score_range(a, b)?;
        }
        Kind::Lex => {
            parse_lex_range(a, b)?;
        }
        _ => {
            parse_i64(a).ok_or(ErrorReply::NotInteger)?;
            parse_i64(b).ok_or(ErrorReply::NotInteger)?;
        }
    }
    let Some(z) = write(db, now, key)? else {
        return Ok(Reply::Int(0));
    };
    let doomed = select(z, kind, false, a, b, (0, -1))?;
    for (m, _) in &doomed {
        z.remove(m);
    }
    if !doomed.is_empty() {
        settle(db, now, key);
    }
    Ok(Reply::Int(doomed.len() as i64))
}
