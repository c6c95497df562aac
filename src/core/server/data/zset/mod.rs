//! Sorted sets as Redis 7.0.15's `t_zset.c` keeps and answers them: the [`ZSet`] type
//! (ordered by score, then member bytes; `listpack` up to 128 members of at most 64 bytes,
//! else `skiplist` for good) and ZADD ZINCRBY ZREM ZSCORE ZMSCORE ZCARD ZRANK ZREVRANK
//! ZRANDMEMBER ZSCAN here; the range commands in `range`, the multi-key ones and the pops in
//! `ops`, number reading and writing in `num`.

mod num;
mod ops;
mod range;

pub(super) use num::{fmt_double, fmt_human, string2d, strtod};

use super::set::{parse_cursor, range_long, scan_opts, scan_step, Rng};
use super::{Db, Value};
use crate::core::server::reply::{ErrorReply, Reply};
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// `zset-max-listpack-entries`' default.
const MAX_LISTPACK_ENTRIES: usize = 128;
/// `zset-max-listpack-value`' default.
const MAX_LISTPACK_VALUE: usize = 64;

/// A score ordered as Redis compares them (`-0 == 0`; a sorted set never holds NaN).
#[derive(Clone, Copy, Debug)]
struct Score(f64);

impl PartialEq for Score {
    fn eq(&self, other: &Score) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Score {}
impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Score) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Score {
    fn cmp(&self, other: &Score) -> Ordering {
        self.0.partial_cmp(&other.0).unwrap_or(Ordering::Equal)
    }
}

/// A sorted set's members and scores.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ZSet {
    scores: BTreeMap<Vec<u8>, f64>,
    order: BTreeSet<(Score, Vec<u8>)>,
    /// Converted to a skip list (sticky, as in Redis).
    skiplist: bool,
}

impl ZSet {
    /// An empty sorted set (a listpack).
    pub fn new() -> ZSet {
        ZSet::default()
    }

    /// How many members.
    pub fn len(&self) -> usize {
        self.scores.len()
    }

    /// Whether there is no member.
    pub fn is_empty(&self) -> bool {
        self.scores.is_empty()
    }

    /// The score of `member`.
    pub fn score(&self, member: &[u8]) -> Option<f64> {
        self.scores.get(member).copied()
    }

    /// Sets `member`'s score (adding it if new); whether it was new. Converts to a skip list as
    /// Redis does; a listpack keeps `-0` as `0` (it stores the score as the integer 0).
    pub fn insert(&mut self, member: Vec<u8>, score: f64) -> bool {
        // A new member that does not fit converts the listpack first (`zsetAdd`), so it goes
        // into the skip list with its score as given.
        if !self.scores.contains_key(&member)
            && (self.scores.len() + 1 > MAX_LISTPACK_ENTRIES || member.len() > MAX_LISTPACK_VALUE)
        {
            self.skiplist = true;
        }
        let score = if !self.skiplist && score == 0.0 {
            0.0
        } else {
            score
        };
        let old = self.scores.insert(member.clone(), score);
        if let Some(old) = old {
            self.order.remove(&(Score(old), member.clone()));
        }
        self.order.insert((Score(score), member));
        old.is_none()
    }

    /// A sorted set built whole as a skip list and then made a listpack if it fits (what
    /// ZUNIONSTORE, ZINTERSTORE, ZDIFFSTORE and the geo STORE forms do, Redis's
    /// `zsetConvertToListpackIfNeeded`); a listpack keeps `-0` as `0`.
    pub fn built<I: IntoIterator<Item = (Vec<u8>, f64)>>(items: I) -> ZSet {
        let mut z = ZSet {
            skiplist: true,
            ..ZSet::default()
        };
        for (m, s) in items {
            z.insert(m, s);
        }
        let fits = z.len() <= MAX_LISTPACK_ENTRIES
            && z.scores.keys().all(|m| m.len() <= MAX_LISTPACK_VALUE);
        if fits {
            z.skiplist = false;
            let negative_zeros: Vec<Vec<u8>> = z
                .scores
                .iter()
                .filter(|(_, s)| **s == 0.0 && s.is_sign_negative())
                .map(|(m, _)| m.clone())
                .collect();
            for m in negative_zeros {
                z.insert(m, 0.0);
            }
        }
        z
    }

    /// An empty skip list (ZRANGESTORE of a rank range longer than a listpack holds).
    fn skiplist() -> ZSet {
        ZSet {
            skiplist: true,
            ..ZSet::default()
        }
    }

    /// Removes `member`; whether it was there.
    pub fn remove(&mut self, member: &[u8]) -> bool {
        match self.scores.remove(member) {
            Some(score) => {
                self.order.remove(&(Score(score), member.to_vec()));
                true
            }
            None => false,
        }
    }

    /// The members with their scores, lowest first (ties by member bytes).
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&[u8], f64)> + ExactSizeIterator {
        self.order.iter().map(|(s, m)| (m.as_slice(), s.0))
    }

    /// `member`'s rank from the lowest score, from 0.
    pub fn rank(&self, member: &[u8]) -> Option<usize> {
        let score = self.score(member)?;
        Some(self.order.range(..(Score(score), member.to_vec())).count())
    }

    /// Turns a listpack into a skip list for good (SORT does this to the set it reads).
    pub fn convert_to_skiplist(&mut self) {
        self.skiplist = true;
    }

    /// `OBJECT ENCODING`: `listpack` or `skiplist`.
    pub fn encoding(&self) -> &'static str {
        if self.skiplist {
            "skiplist"
        } else {
            "listpack"
        }
    }
}

/// Runs `name` if this module owns it (`None` otherwise).
pub(super) fn run(db: &mut Db, now: i64, name: &str, args: &[Vec<u8>]) -> Option<Reply> {
    let reply = match name {
        "zadd" => zadd(db, now, args, false),
        "zincrby" => zadd(db, now, args, true),
        "zrem" => zrem(db, now, args),
        "zscore" => zscore(db, now, args),
        "zmscore" => zmscore(db, now, args),
        "zcard" => read(db, now, arg(args, 1)).map(|z| Reply::Int(z.map_or(0, ZSet::len) as i64)),
        "zrank" => zrank(db, now, args, false),
        "zrevrank" => zrank(db, now, args, true),
        "zrandmember" => zrandmember(db, now, args),
        "zscan" => zscan(db, now, args),
        _ => return range::run(db, now, name, args).or_else(|| ops::run(db, now, name, args)),
    };
    Some(reply.unwrap_or_else(Reply::Error))
}

type Res = Result<Reply, ErrorReply>;

fn arg(args: &[Vec<u8>], i: usize) -> &[u8] {
    args.get(i).map_or(&[][..], Vec::as_slice)
}

fn bulk(b: &[u8]) -> Reply {
    Reply::Bulk(Some(b.to_vec()))
}

fn double(d: f64) -> Reply {
    Reply::Bulk(Some(fmt_double(d).into_bytes()))
}

/// The sorted set at `key` (`None` when absent), or WRONGTYPE.
pub(super) fn read<'a>(db: &'a Db, now: i64, key: &[u8]) -> Result<Option<&'a ZSet>, ErrorReply> {
    match db.value(key, now) {
        None => Ok(None),
        Some(Value::ZSet(z)) => Ok(Some(z)),
        Some(_) => Err(ErrorReply::WrongType),
    }
}

/// The sorted set at `key` to change in place (`None` when absent), or WRONGTYPE.
pub(super) fn write<'a>(
    db: &'a mut Db,
    now: i64,
    key: &[u8],
) -> Result<Option<&'a mut ZSet>, ErrorReply> {
    match db.value_mut(key, now) {
        None => Ok(None),
        Some(Value::ZSet(z)) => Ok(Some(z)),
        Some(_) => Err(ErrorReply::WrongType),
    }
}

/// Removes `key` if its sorted set became empty, and records the write.
fn settle(db: &mut Db, now: i64, key: &[u8]) {
    if matches!(db.value(key, now), Some(Value::ZSet(z)) if z.is_empty()) {
        db.remove(key, now);
    }
    db.touch(key);
}

/// Stores `z` at `dst` (or deletes `dst` when `z` is empty); the count, as the STORE forms
/// reply.
fn store(db: &mut Db, now: i64, dst: &[u8], z: ZSet) -> Reply {
    let n = z.len() as i64;
    if n > 0 {
        db.insert(dst, Value::ZSet(z), now, false);
    } else {
        db.remove(dst, now);
    }
    Reply::Int(n)
}

/// The outcome of adding one member (Redis's `zsetAdd` out flags).
enum Added {
    /// Nothing was done (NX on an existing member, XX on a missing one, GT/LT refused).
    Nop,
    /// A new member, with its score.
    New(f64),
    /// An existing member, with its new score and whether it changed.
    Updated(f64, bool),
}

#[derive(Clone, Copy, Default)]
struct Flags {
    nx: bool,
    xx: bool,
    gt: bool,
    lt: bool,
    incr: bool,
}

fn zset_add(z: &mut ZSet, member: &[u8], mut score: f64, f: Flags) -> Result<Added, ErrorReply> {
    if score.is_nan() {
        return Err(ErrorReply::ScoreNan);
    }
    match z.score(member) {
        Some(cur) => {
            if f.nx {
                return Ok(Added::Nop);
            }
            if f.incr {
                score += cur;
                if score.is_nan() {
                    return Err(ErrorReply::ScoreNan);
                }
            }
            if (f.lt && score >= cur) || (f.gt && score <= cur) {
                return Ok(Added::Nop);
            }
            let changed = score != cur;
            if changed {
                z.insert(member.to_vec(), score);
            }
            Ok(Added::Updated(score, changed))
        }
        None if f.xx => Ok(Added::Nop),
        None => {
            z.insert(member.to_vec(), score);
            Ok(Added::New(score))
        }
    }
}

fn zadd(db: &mut Db, now: i64, args: &[Vec<u8>], zincrby: bool) -> Res {
    let key = arg(args, 1);
    let mut f = Flags {
        incr: zincrby,
        ..Flags::default()
    };
    let mut ch = false;
    let mut idx = 2;
    if !zincrby {
        while let Some(opt) = args.get(idx) {
            match opt.to_ascii_lowercase().as_slice() {
                b"nx" => f.nx = true,
                b"xx" => f.xx = true,
                b"ch" => ch = true,
                b"incr" => f.incr = true,
                b"gt" => f.gt = true,
                b"lt" => f.lt = true,
                _ => break,
            }
            idx += 1;
        }
    }
    let pairs = args.get(idx..).unwrap_or(&[]);
    if pairs.is_empty() || pairs.len() % 2 != 0 {
        return Err(ErrorReply::Syntax);
    }
    if f.nx && f.xx {
        return Err(ErrorReply::XxAndNx);
    }
    if (f.nx && (f.gt || f.lt)) || (f.gt && f.lt) {
        return Err(ErrorReply::GtLtNx);
    }
    if f.incr && pairs.len() > 2 {
        return Err(ErrorReply::IncrSinglePair);
    }
    let mut scored = Vec::with_capacity(pairs.len() / 2);
    for pair in pairs.chunks(2) {
        let (Some(s), Some(m)) = (pair.first(), pair.get(1)) else {
            return Err(ErrorReply::Syntax);
        };
        scored.push((string2d(s).ok_or(ErrorReply::NotFloat)?, m));
    }
    let created = match write(db, now, key)? {
        Some(_) => false,
        None if f.xx => {
            return Ok(if f.incr {
                Reply::Bulk(None)
            } else {
                Reply::Int(0)
            });
        }
        None => {
            db.insert(key, Value::ZSet(ZSet::new()), now, false);
            true
        }
    };
    let (mut added, mut updated, mut processed) = (0i64, 0i64, 0i64);
    let mut last = 0.0;
    let mut failure = None;
    if let Ok(Some(z)) = write(db, now, key) {
        for (score, member) in scored {
            match zset_add(z, member, score, f) {
                Err(e) => {
                    failure = Some(e);
                    break;
                }
                Ok(Added::Nop) => {}
                Ok(Added::New(s)) => {
                    added += 1;
                    processed += 1;
                    last = s;
                }
                Ok(Added::Updated(s, changed)) => {
                    updated += i64::from(changed);
                    processed += 1;
                    last = s;
                }
            }
        }
    }
    if created || added + updated > 0 {
        settle(db, now, key);
    }
    if let Some(e) = failure {
        return Err(e);
    }
    Ok(if f.incr {
        if processed > 0 {
            double(last)
        } else {
            Reply::Bulk(None)
        }
    } else {
        Reply::Int(if ch { added + updated } else { added })
    })
}

fn zrem(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Res {
    let key = arg(args, 1);
    let Some(z) = write(db, now, key)? else {
        return Ok(Reply::Int(0));
    };
    let mut removed = 0;
    for m in args.get(2..).unwrap_or(&[]) {
        if z.remove(m) {
            removed += 1;
        }
        if z.is_empty() {
            break;
        }
    }
    if removed > 0 {
        settle(db, now, key);
    }
    Ok(Reply::Int(removed))
}

fn zscore(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Res {
    let z = read(db, now, arg(args, 1))?;
    Ok(z.and_then(|z| z.score(arg(args, 2)))
        .map_or(Reply::Bulk(None), double))
}

fn zmscore(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Res {
    let z = read(db, now, arg(args, 1))?;
    Ok(Reply::Array(
        args.get(2..)
            .unwrap_or(&[])
            .iter()
            .map(|m| z.and_then(|z| z.score(m)).map_or(Reply::Bulk(None), double))
            .collect(),
    ))
}

fn zrank(db: &mut Db, now: i64, args: &[Vec<u8>], rev: bool) -> Res {
    let Some(z) = read(db, now, arg(args, 1))? else {
        return Ok(Reply::Bulk(None));
    };
    Ok(match z.rank(arg(args, 2)) {
        Some(r) if rev => Reply::Int((z.len() - 1 - r) as i64),
        Some(r) => Reply::Int(r as i64),
        None => Reply::Bulk(None),
    })
}

fn zrandmember(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Res {
    let key = arg(args, 1);
    if args.len() < 3 {
        let Some(z) = read(db, now, key)? else {
            return Ok(Reply::Bulk(None));
        };
        let mut rng = Rng::seeded(key, z.len(), now);
        return Ok(z
            .iter()
            .nth(rng.below(z.len()))
            .map_or(Reply::Bulk(None), |(m, _)| bulk(m)));
    }
    let l = range_long(arg(args, 2), -i64::MAX, i64::MAX, None)?;
    let withscores = match args.get(3) {
        _ if args.len() > 4 => return Err(ErrorReply::Syntax),
        Some(w) if !w.eq_ignore_ascii_case(b"withscores") => return Err(ErrorReply::Syntax),
        Some(_) => {
            if !(-i64::MAX / 2..=i64::MAX / 2).contains(&l) {
                return Err(ErrorReply::ValueOutOfRange);
            }
            true
        }
        None => false,
    };
    let Some(z) = read(db, now, key)? else {
        return Ok(Reply::Array(vec![]));
    };
    if l == 0 {
        return Ok(Reply::Array(vec![]));
    }
    let all: Vec<(&[u8], f64)> = z.iter().collect();
    let mut rng = Rng::seeded(key, all.len(), now);
    let count = l.unsigned_abs();
    let picks: Vec<usize> = if l < 0 || count == 1 {
        (0..count.min(1 << 20))
            .map(|_| rng.below(all.len()))
            .collect()
    } else if count >= all.len() as u64 {
        // The whole set, as Redis's iterator walks it: from the highest score down.
        (0..all.len()).rev().collect()
    } else {
        rng.distinct(all.len(), count as usize)
    };
    let mut out = Vec::new();
    for i in picks {
        if let Some((m, s)) = all.get(i) {
            out.push(bulk(m));
            if withscores {
                out.push(double(*s));
            }
        }
    }
    Ok(Reply::Array(out))
}

fn zscan(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Res {
    let cursor = parse_cursor(arg(args, 2))?;
    // As 7.0.15's s/zscanCommand: the cursor, then the key (a missing one is the empty scan,
    // whatever the options), then the options in scanGenericCommand.
    let Some(z) = read(db, now, arg(args, 1))? else {
        return Ok(Reply::Array(vec![bulk(b"0"), Reply::Array(vec![])]));
    };
    let opts = scan_opts(args.get(3..).unwrap_or(&[]))?;
    let items = z
        .iter()
        .map(|(m, s)| vec![m.to_vec(), fmt_double(s).into_bytes()])
        .collect();
    Ok(scan_step(items, !z.skiplist, cursor, &opts))
}
