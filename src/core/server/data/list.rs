//! Lists: LPUSH RPUSH LPUSHX RPUSHX LPOP RPOP LLEN LRANGE LINDEX LSET LREM LTRIM LINSERT LPOS
//! LMOVE RPOPLPUSH LMPOP, and the blocking pops (BLPOP BRPOP BLMOVE BRPOPLPUSH BLMPOP), which
//! answer as Redis does when there is data, with the nil array when a timeout would run out,
//! and with the page's note when timeout 0 would block for ever.

use super::util::{arg, bulk, derr, err, int_arg, is, nil, parse_i64};
use super::{DataError, Db, Value};
use crate::core::server::reply::{ErrorReply, NotRun, Reply};
use std::collections::VecDeque;

const LIST_CMDS: &[&str] = &[
    "lpush",
    "rpush",
    "lpushx",
    "rpushx",
    "lpop",
    "rpop",
    "llen",
    "lrange",
    "lindex",
    "lset",
    "lrem",
    "ltrim",
    "linsert",
    "lpos",
    "lmove",
    "rpoplpush",
    "lmpop",
    "blpop",
    "brpop",
    "blmove",
    "brpoplpush",
    "blmpop",
];

/// Runs `name` if this module owns it (`None` otherwise).
pub(super) fn run(db: &mut Db, now: i64, name: &str, args: &[Vec<u8>]) -> Option<Reply> {
    if !LIST_CMDS.contains(&name) {
        return None;
    }
    let key = arg(args, 1);
    // Arguments Redis reads before it looks the key up (each command's own order).
    let early = match name {
        "lrange" | "ltrim" => int_arg(arg(args, 2))
            .and_then(|_| int_arg(arg(args, 3)))
            .err(),
        "lrem" => int_arg(arg(args, 2)).err(),
        "linsert" if side_word(arg(args, 2)).is_none() => Some(err(ErrorReply::Syntax)),
        "lpos" => lpos_opts(args).err(),
        "lpop" | "rpop" => pop_count(name, args).err(),
        "lmove" | "blmove" => side(arg(args, 3))
            .and(side(arg(args, 4)))
            .is_none()
            .then(|| err(ErrorReply::Syntax)),
        _ => None,
    };
    if let Some(e) = early {
        return Some(e);
    }
    let typed = read(db, now, key);
    let wrong = typed.is_err();
    let list = typed.ok().flatten();
    // Multi-key and blocking commands check each key as they reach it.
    if wrong && !matches!(name, "blpop" | "brpop" | "lmpop" | "blmpop" | "lpos") {
        return Some(err(ErrorReply::WrongType));
    }
    Some(match name {
        "lpush" | "rpush" | "lpushx" | "rpushx" => {
            if name.ends_with('x') && list.is_none() {
                return Some(Reply::Int(0));
            }
            let l = list_mut(db, now, key);
            for v in args.iter().skip(2) {
                if name.starts_with('l') {
                    l.items.push_front(v.clone());
                } else {
                    l.items.push_back(v.clone());
                }
            }
            let n = l.items.len();
            db.touch(key);
            Reply::Int(n as i64)
        }
        "lpop" | "rpop" => pop(db, now, key, name == "lpop", args),
        "llen" => Reply::Int(list.map_or(0, |l| l.items.len()) as i64),
        "lindex" => match (list, int_arg(arg(args, 2))) {
            (None, _) => nil(),
            (Some(_), Err(e)) => e,
            (Some(l), Ok(i)) => index(l.items.len(), i)
                .and_then(|i| l.items.get(i))
                .map_or(nil(), |v| bulk(v)),
        },
        "lrange" => match (int_arg(arg(args, 2)), int_arg(arg(args, 3))) {
            (Err(e), _) | (_, Err(e)) => e,
            (Ok(s), Ok(e)) => Reply::Array(
                list.map(|l| {
                    range(l.items.len(), s, e)
                        .map(|(a, b)| l.items.range(a..=b).map(|v| bulk(v)).collect())
                        .unwrap_or_default()
                })
                .unwrap_or_default(),
            ),
        },
        "lset" => {
            let Some(len) = list.map(|l| l.items.len()) else {
                return Some(err(ErrorReply::NoSuchKey));
            };
            let i = match int_arg(arg(args, 2)) {
                Ok(i) => i,
                Err(e) => return Some(e),
            };
            match index(len, i) {
                None => derr(DataError::IndexOutOfRange),
                Some(i) => {
                    if let Some(slot) = list_mut(db, now, key).items.get_mut(i) {
                        *slot = arg(args, 3).to_vec();
                    }
                    db.touch(key);
                    Reply::Ok
                }
            }
        }
        "lrem" => {
            let count = match int_arg(arg(args, 2)) {
                Ok(c) => c,
                Err(e) => return Some(e),
            };
            if list.is_none() {
                return Some(Reply::Int(0));
            }
            let target = arg(args, 3).to_vec();
            let l = list_mut(db, now, key);
            let mut removed = 0i64;
            let limit = if count == 0 {
                u64::MAX
            } else {
                count.unsigned_abs()
            };
            if count >= 0 {
                let mut i = 0;
                while i < l.items.len() && (removed as u64) < limit {
                    if l.items.get(i) == Some(&target) {
                        l.items.remove(i);
                        removed += 1;
                    } else {
                        i += 1;
                    }
                }
            } else {
                let mut i = l.items.len();
                while i > 0 && (removed as u64) < limit {
                    i -= 1;
                    if l.items.get(i) == Some(&target) {
                        l.items.remove(i);
                        removed += 1;
                    }
                }
            }
            finish(db, now, key, removed > 0);
            Reply::Int(removed)
        }
        "ltrim" => match (int_arg(arg(args, 2)), int_arg(arg(args, 3))) {
            (Err(e), _) | (_, Err(e)) => e,
            (Ok(s), Ok(e)) => {
                if let Some(len) = list.map(|l| l.items.len()) {
                    let keep = range(len, s, e);
                    let l = list_mut(db, now, key);
                    match keep {
                        None => l.items.clear(),
                        Some((a, b)) => {
                            l.items.truncate(b + 1);
                            l.items.drain(..a);
                        }
                    }
                    finish(db, now, key, true);
                }
                Reply::Ok
            }
        },
        "linsert" => {
            let before = side_word(arg(args, 2)) == Some(true);
            if list.is_none() {
                return Some(Reply::Int(0));
            }
            let pivot = arg(args, 3).to_vec();
            let value = arg(args, 4).to_vec();
            let l = list_mut(db, now, key);
            match l.items.iter().position(|v| *v == pivot) {
                None => Reply::Int(-1),
                Some(i) => {
                    l.items.insert(if before { i } else { i + 1 }, value);
                    let n = l.items.len();
                    db.touch(key);
                    Reply::Int(n as i64)
                }
            }
        }
        "lpos" if list.is_none() && wrong => err(ErrorReply::WrongType),
        "lpos" => lpos(list, args),
        "lmove" | "rpoplpush" => {
            let (from_left, to_left) = if name == "rpoplpush" {
                (false, true)
            } else {
                match (side(arg(args, 3)), side(arg(args, 4))) {
                    (Some(a), Some(b)) => (a, b),
                    _ => return Some(err(ErrorReply::Syntax)),
                }
            };
            lmove(db, now, key, arg(args, 2), from_left, to_left).unwrap_or_else(|e| e)
        }
        "blmove" | "brpoplpush" => {
            let (from_left, to_left, t) = if name == "brpoplpush" {
                (false, true, arg(args, 3))
            } else {
                match (side(arg(args, 3)), side(arg(args, 4))) {
                    (Some(a), Some(b)) => (a, b, arg(args, 5)),
                    _ => return Some(err(ErrorReply::Syntax)),
                }
            };
            let forever = match timeout(t) {
                Ok(f) => f,
                Err(e) => return Some(e),
            };
            if wrong {
                return Some(err(ErrorReply::WrongType));
            }
            match lmove(db, now, key, arg(args, 2), from_left, to_left) {
                Ok(Reply::Bulk(None)) => blocked(db, name, forever, Reply::NilArray),
                Ok(r) | Err(r) => r,
            }
        }
        "blpop" | "brpop" => {
            let forever = match timeout(arg(args, args.len().saturating_sub(1))) {
                Ok(f) => f,
                Err(e) => return Some(e),
            };
            let keys = args.get(1..args.len().saturating_sub(1)).unwrap_or(&[]);
            for k in keys {
                match read(db, now, k) {
                    Err(e) => return Some(e),
                    Ok(None) => {}
                    Ok(Some(_)) => {
                        if let Some(v) = pop_one(db, now, k, name == "blpop") {
                            return Some(Reply::Array(vec![bulk(k), bulk(&v)]));
                        }
                    }
                }
            }
            blocked(db, name, forever, Reply::NilArray)
        }
        "lmpop" => mpop(db, now, name, args, 1, None),
        "blmpop" => {
            let forever = match timeout(arg(args, 1)) {
                Ok(f) => f,
                Err(e) => return Some(e),
            };
            mpop(db, now, name, args, 2, Some(forever))
        }
        _ => return None,
    })
}

/// The list at `key`: `Ok(None)` if absent, WRONGTYPE for another type.
fn read<'a>(db: &'a Db, now: i64, key: &[u8]) -> Result<Option<&'a List>, Reply> {
    match db.value(key, now) {
        None => Ok(None),
        Some(Value::List(l)) => Ok(Some(l)),
        Some(_) => Err(err(ErrorReply::WrongType)),
    }
}

fn list_mut<'a>(db: &'a mut Db, now: i64, key: &[u8]) -> &'a mut List {
    if !matches!(db.value(key, now), Some(Value::List(_))) {
        db.insert(key, Value::List(List::default()), now, false);
    }
    match db.value_mut(key, now) {
        Some(Value::List(l)) => l,
        // Unreachable: inserted just above. A throwaway keeps the page from panicking.
        _ => Box::leak(Box::default()),
    }
}

/// Records a write, removing the key if its list became empty.
fn finish(db: &mut Db, now: i64, key: &[u8], changed: bool) {
    let empty = matches!(db.value(key, now), Some(Value::List(l)) if l.items.is_empty());
    if empty {
        db.remove(key, now);
    } else if changed {
        db.touch(key);
    }
}

/// LINSERT's BEFORE (true) or AFTER (false).
fn side_word(v: &[u8]) -> Option<bool> {
    if is(v, "before") {
        Some(true)
    } else if is(v, "after") {
        Some(false)
    } else {
        None
    }
}

fn side(v: &[u8]) -> Option<bool> {
    if is(v, "left") {
        Some(true)
    } else if is(v, "right") {
        Some(false)
    } else {
        None
    }
}

/// An index (negative from the end) inside a list of `len`.
fn index(len: usize, i: i64) -> Option<usize> {
    let i = if i < 0 {
        (len as i64).checked_add(i)?
    } else {
        i
    };
    (0..len as i64).contains(&i).then_some(i as usize)
}

/// LRANGE/LTRIM's start and end, clamped as Redis clamps them; `None` for an empty range.
fn range(len: usize, mut s: i64, mut e: i64) -> Option<(usize, usize)> {
    let len = len as i64;
    if s < 0 {
        s = len.saturating_add(s);
    }
    if e < 0 {
        e = len.saturating_add(e);
    }
    s = s.max(0);
    if s > e || s >= len {
        return None;
    }
    e = e.min(len - 1);
    Some((s as usize, e as usize))
}

fn pop_one(db: &mut Db, now: i64, key: &[u8], left: bool) -> Option<Vec<u8>> {
    let v = match db.value_mut(key, now) {
        Some(Value::List(l)) => {
            if left {
                l.items.pop_front()
            } else {
                l.items.pop_back()
            }
        }
        _ => None,
    };
    finish(db, now, key, v.is_some());
    v
}

/// LPOP/RPOP's optional count, read before the key.
fn pop_count(name: &str, args: &[Vec<u8>]) -> Result<Option<u64>, Reply> {
    if args.len() > 3 {
        return Err(wrong(name));
    }
    match args.get(2) {
        None => Ok(None),
        Some(c) => match int_arg(c) {
            Ok(n) if n >= 0 => Ok(Some(n as u64)),
            _ => Err(derr(DataError::MustBePositive)),
        },
    }
}

fn pop(db: &mut Db, now: i64, key: &[u8], left: bool, args: &[Vec<u8>]) -> Reply {
    let count = match pop_count(if left { "lpop" } else { "rpop" }, args) {
        Ok(c) => c,
        Err(e) => return e,
    };
    let exists = matches!(db.value(key, now), Some(Value::List(_)));
    match count {
        None => pop_one(db, now, key, left).map_or(nil(), |v| bulk(&v)),
        Some(_) if !exists => Reply::NilArray,
        Some(n) => {
            let mut out = Vec::new();
            for _ in 0..n {
                match pop_one(db, now, key, left) {
                    Some(v) => out.push(bulk(&v)),
                    None => break,
                }
            }
            Reply::Array(out)
        }
    }
}

fn wrong(name: &str) -> Reply {
    super::util::wrong_args(name)
}

fn lmove(
    db: &mut Db,
    now: i64,
    src: &[u8],
    dst: &[u8],
    from_left: bool,
    to_left: bool,
) -> Result<Reply, Reply> {
    if read(db, now, src)?.is_none() {
        return Ok(nil());
    }
    read(db, now, dst)?;
    let Some(v) = pop_one(db, now, src, from_left) else {
        return Ok(nil());
    };
    let l = list_mut(db, now, dst);
    if to_left {
        l.items.push_front(v.clone());
    } else {
        l.items.push_back(v.clone());
    }
    db.touch(dst);
    Ok(bulk(&v))
}

/// A blocking command's timeout (seconds, a long double), read as Redis 7.0.15's
/// `getTimeoutFromObjectOrReply`: whether it is 0 (wait for ever). A value past the 64-bit
/// range converts to the smallest integer, so Redis calls it negative.
fn timeout(v: &[u8]) -> Result<bool, Reply> {
    let ld = super::ld::LongDouble::parse(v).ok_or(derr(DataError::TimeoutNotFloat))?;
    let negative = || derr(DataError::TimeoutNegative);
    if ld.is_inf() {
        return Err(negative());
    }
    let secs: f64 = ld.human().parse().map_err(|_| negative())?;
    let ms = (secs * 1000.0).ceil();
    if !(0.0..9_223_372_036_854_775_808.0).contains(&ms) {
        return Err(negative());
    }
    Ok(ms == 0.0)
}

/// What a blocking command with nothing to pop answers: inside MULTI or a script at once
/// (BLMOVE and BRPOPLPUSH the nil bulk, the others the nil array); otherwise the timed-out
/// reply, or the page's note when it would wait for ever.
fn blocked(db: &Db, name: &str, forever: bool, timed_out: Reply) -> Reply {
    if db.deny_blocking {
        return if matches!(name, "blmove" | "brpoplpush") {
            nil()
        } else {
            Reply::NilArray
        };
    }
    if forever {
        err(ErrorReply::NotRun(NotRun::BlocksForever {
            name: name.to_owned(),
        }))
    } else {
        timed_out
    }
}

/// LMPOP numkeys key … LEFT|RIGHT [COUNT n] (`first` is where numkeys is); BLMPOP with
/// `forever` set.
fn mpop(
    db: &mut Db,
    now: i64,
    name: &str,
    args: &[Vec<u8>],
    first: usize,
    forever: Option<bool>,
) -> Reply {
    let numkeys = match int_arg(arg(args, first)) {
        Ok(n) if n > 0 => usize::try_from(n).unwrap_or(usize::MAX),
        _ => return derr(DataError::NumkeysZero),
    };
    let Some(where_at) = (first + 1).checked_add(numkeys) else {
        return err(ErrorReply::Syntax);
    };
    if where_at >= args.len() {
        return err(ErrorReply::Syntax);
    }
    let Some(left) = side(arg(args, where_at)) else {
        return err(ErrorReply::Syntax);
    };
    let mut count: Option<u64> = None;
    let mut j = where_at + 1;
    while j < args.len() {
        if is(arg(args, j), "count") && count.is_none() && j + 1 < args.len() {
            match int_arg(arg(args, j + 1)) {
                Ok(n) if n > 0 => count = Some(n as u64),
                _ => return derr(DataError::CountZero),
            }
            j += 2;
        } else {
            return err(ErrorReply::Syntax);
        }
    }
    let count = count.unwrap_or(1);
    for k in args.get(first + 1..where_at).unwrap_or(&[]) {
        match read(db, now, k) {
            Err(e) => return e,
            Ok(None) => {}
            Ok(Some(_)) => {
                let mut out = Vec::new();
                for _ in 0..count {
                    match pop_one(db, now, k, left) {
                        Some(v) => out.push(bulk(&v)),
                        None => break,
                    }
                }
                return Reply::Array(vec![bulk(k), Reply::Array(out)]);
            }
        }
    }
    match forever {
        None => Reply::NilArray,
        Some(f) => blocked(db, name, f, Reply::NilArray),
    }
}

/// LPOS's RANK, COUNT and MAXLEN, read before the key.
fn lpos_opts(args: &[Vec<u8>]) -> Result<(i64, Option<i64>, i64), Reply> {
    let (mut rank, mut count, mut maxlen): (i64, Option<i64>, i64) = (1, None, 0);
    let mut j = 3;
    while j < args.len() {
        let opt = arg(args, j);
        let more = j + 1 < args.len();
        let value = arg(args, j + 1);
        if is(opt, "rank") && more {
            rank = int_arg(value)?;
            if rank == 0 {
                return Err(derr(DataError::RankZero));
            }
        } else if is(opt, "count") && more {
            match parse_i64(value) {
                Some(n) if n >= 0 => count = Some(n),
                _ => return Err(derr(DataError::Text("ERR COUNT can't be negative"))),
            }
        } else if is(opt, "maxlen") && more {
            match parse_i64(value) {
                Some(n) if n >= 0 => maxlen = n,
                _ => return Err(derr(DataError::Text("ERR MAXLEN can't be negative"))),
            }
        } else {
            return Err(err(ErrorReply::Syntax));
        }
        j += 2;
    }
    Ok((rank, count, maxlen))
}

fn lpos(list: Option<&List>, args: &[Vec<u8>]) -> Reply {
    let (rank, count, maxlen) = match lpos_opts(args) {
        Ok(o) => o,
        Err(e) => return e,
    };
    let Some(l) = list else {
        return if count.is_some() {
            Reply::Array(Vec::new())
        } else {
            nil()
        };
    };
    let target = arg(args, 2);
    let len = l.items.len();
    // RANK of the smallest integer overflows in Redis's `-rank`: every match counts, from
    // the tail, and COUNT never stops it.
    let want = match count {
        Some(_) if rank == i64::MIN => u64::MAX,
        Some(0) => u64::MAX,
        Some(c) => c as u64,
        None => 1,
    };
    let mut skip = if rank == i64::MIN {
        0
    } else {
        rank.unsigned_abs() - 1
    };
    let mut found = Vec::new();
    let order: Box<dyn Iterator<Item = usize>> = if rank > 0 {
        Box::new(0..len)
    } else {
        Box::new((0..len).rev())
    };
    for (checked, i) in order.enumerate() {
        if maxlen != 0 && checked as i64 >= maxlen {
            break;
        }
        if l.items.get(i).map(Vec::as_slice) == Some(target) {
            if skip > 0 {
                skip -= 1;
                continue;
            }
            found.push(Reply::Int(i as i64));
            if found.len() as u64 >= want {
                break;
            }
        }
    }
    if count.is_some() {
        Reply::Array(found)
    } else {
        found.into_iter().next().unwrap_or(nil())
    }
}

/// A list's elements, head first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct List {
    /// The elements, head first.
    pub items: VecDeque<Vec<u8>>,
}

impl List {
    /// Redis 7.0 keeps every list as a `quicklist` (checked on redis-server 7.0.15).
    pub fn encoding(&self) -> &'static str {
        "quicklist"
    }
}
