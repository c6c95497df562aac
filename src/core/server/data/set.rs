//! Sets: SADD SREM SMEMBERS SISMEMBER SMISMEMBER SCARD SPOP SRANDMEMBER SMOVE SINTER SINTERCARD
//! SUNION SDIFF (and their STORE forms) SSCAN, as Redis 7.0.15's `t_set.c` answers them; also
//! the helpers the other collection modules share (SCAN options, a seeded
//! pseudo-random source).
//!
//! A set is an `intset` while every member is an integer (Redis's `string2ll`) and there are at
//! most 512 of them, listed in numeric order; otherwise a `hashtable` for good (Redis never
//! converts back), listed here in byte order (Redis's dict order cannot be reproduced).

use super::{Db, Value};
use crate::core::server::command::parse_i64;
use crate::core::server::reply::{ErrorReply, Reply};
use std::collections::BTreeSet;

/// `set-max-intset-entries`' default.
const MAX_INTSET_ENTRIES: usize = 512;

/// A set's members and its encoding.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Set {
    members: BTreeSet<Vec<u8>>,
    /// Converted to a hash table (sticky, as in Redis).
    hashtable: bool,
}

impl Set {
    /// An empty set that starts as an intset (Redis's `createIntsetObject`).
    pub fn new() -> Set {
        Set::default()
    }

    /// A set holding `members` (encoded as Redis would build it member by member).
    pub fn from_members<I: IntoIterator<Item = Vec<u8>>>(members: I) -> Set {
        let mut set = Set::new();
        for m in members {
            set.add(m);
        }
        set
    }

    /// How many members.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Whether there is no member.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// Whether `member` is in the set.
    pub fn contains(&self, member: &[u8]) -> bool {
        self.members.contains(member)
    }

    /// Adds `member`; whether it was new. Converts to a hash table as Redis does.
    pub fn add(&mut self, member: Vec<u8>) -> bool {
        if !self.hashtable && parse_i64(&member).is_none() {
            self.hashtable = true;
        }
        let added = self.members.insert(member);
        if !self.hashtable && self.members.len() > MAX_INTSET_ENTRIES {
            self.hashtable = true;
        }
        added
    }

    /// Removes `member`; whether it was there.
    pub fn remove(&mut self, member: &[u8]) -> bool {
        self.members.remove(member)
    }

    /// The members in the order this set lists them (an intset numerically, a hash table in
    /// byte order).
    pub fn members(&self) -> Vec<&[u8]> {
        let mut out: Vec<&[u8]> = self.members.iter().map(Vec::as_slice).collect();
        if !self.hashtable {
            crate::core::sort::sort_by_key(&mut out, |m| parse_i64(m).unwrap_or(0));
        }
        out
    }

    /// `OBJECT ENCODING`: `intset` or `hashtable`.
    pub fn encoding(&self) -> &'static str {
        if self.hashtable {
            "hashtable"
        } else {
            "intset"
        }
    }
}

/// Runs `name` if this module owns it (`None` otherwise).
pub(super) fn run(db: &mut Db, now: i64, name: &str, args: &[Vec<u8>]) -> Option<Reply> {
    let reply = match name {
        "sadd" => sadd(db, now, args),
        "srem" => srem(db, now, args),
        "smembers" => combine(db, now, key_args(args, 1, 1), Op::Inter, None),
        "sismember" => sismember(db, now, args),
        "smismember" => smismember(db, now, args),
        "scard" => scard(db, now, args),
        "spop" => spop(db, now, args),
        "srandmember" => srandmember(db, now, args),
        "smove" => smove(db, now, args),
        "sinter" => combine(db, now, key_args(args, 1, usize::MAX), Op::Inter, None),
        "sinterstore" => combine(
            db,
            now,
            key_args(args, 2, usize::MAX),
            Op::Inter,
            args.get(1),
        ),
        "sunion" => combine(db, now, key_args(args, 1, usize::MAX), Op::Union, None),
        "sunionstore" => combine(
            db,
            now,
            key_args(args, 2, usize::MAX),
            Op::Union,
            args.get(1),
        ),
        "sdiff" => combine(db, now, key_args(args, 1, usize::MAX), Op::Diff, None),
        "sdiffstore" => combine(
            db,
            now,
            key_args(args, 2, usize::MAX),
            Op::Diff,
            args.get(1),
        ),
        "sintercard" => sintercard(db, now, args),
        "sscan" => sscan(db, now, args),
        _ => return None,
    };
    Some(reply.unwrap_or_else(Reply::Error))
}

type Res = Result<Reply, ErrorReply>;

fn arg(args: &[Vec<u8>], i: usize) -> &[u8] {
    args.get(i).map_or(&[][..], Vec::as_slice)
}

fn key_args(args: &[Vec<u8>], from: usize, count: usize) -> &[Vec<u8>] {
    let rest = args.get(from..).unwrap_or(&[]);
    rest.get(..count.min(rest.len())).unwrap_or(rest)
}

fn bulk(b: &[u8]) -> Reply {
    Reply::Bulk(Some(b.to_vec()))
}

/// The set at `key` (`None` when absent), or WRONGTYPE.
fn read<'a>(db: &'a Db, now: i64, key: &[u8]) -> Result<Option<&'a Set>, ErrorReply> {
    match db.value(key, now) {
        None => Ok(None),
        Some(Value::Set(s)) => Ok(Some(s)),
        Some(_) => Err(ErrorReply::WrongType),
    }
}

/// The set at `key` to change in place (`None` when absent), or WRONGTYPE.
fn write<'a>(db: &'a mut Db, now: i64, key: &[u8]) -> Result<Option<&'a mut Set>, ErrorReply> {
    match db.value_mut(key, now) {
        None => Ok(None),
        Some(Value::Set(s)) => Ok(Some(s)),
        Some(_) => Err(ErrorReply::WrongType),
    }
}

/// Removes `key` if its set became empty, and records the write.
fn settle(db: &mut Db, now: i64, key: &[u8]) {
    if matches!(db.value(key, now), Some(Value::Set(s)) if s.is_empty()) {
        db.remove(key, now);
    }
    db.touch(key);
}

fn sadd(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Res {
    let key = arg(args, 1);
    let members = args.get(2..).unwrap_or(&[]);
    let added = match write(db, now, key)? {
        Some(set) => members.iter().filter(|m| set.add(m.to_vec())).count(),
        None => {
            let set = Set::from_members(members.iter().cloned());
            let n = set.len();
            db.insert(key, Value::Set(set), now, false);
            n
        }
    };
    if added > 0 {
        db.touch(key);
    }
    Ok(Reply::Int(added as i64))
}

fn srem(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Res {
    let key = arg(args, 1);
    let Some(set) = write(db, now, key)? else {
        return Ok(Reply::Int(0));
    };
    let mut removed = 0;
    for m in args.get(2..).unwrap_or(&[]) {
        if set.remove(m) {
            removed += 1;
            if set.is_empty() {
                break;
            }
        }
    }
    if removed > 0 {
        settle(db, now, key);
    }
    Ok(Reply::Int(removed))
}

fn sismember(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Res {
    let found = read(db, now, arg(args, 1))?.is_some_and(|s| s.contains(arg(args, 2)));
    Ok(Reply::Int(i64::from(found)))
}

fn smismember(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Res {
    let set = read(db, now, arg(args, 1))?;
    let items = args.get(2..).unwrap_or(&[]).iter();
    Ok(Reply::Array(
        items
            .map(|m| Reply::Int(i64::from(set.is_some_and(|s| s.contains(m)))))
            .collect(),
    ))
}

fn scard(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Res {
    Ok(Reply::Int(
        read(db, now, arg(args, 1))?.map_or(0, Set::len) as i64
    ))
}

/// A deterministic pseudo-random source (splitmix64), seeded from what the command sees, so a
/// replay gives the same picks.
pub(super) struct Rng(u64);

impl Rng {
    /// Seeds from the key, the collection's size and the clock.
    pub(super) fn seeded(key: &[u8], size: usize, now: i64) -> Rng {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for &b in key {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        Rng(h ^ (size as u64).rotate_left(32) ^ now as u64)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (0 when `n` is 0).
    pub(super) fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    /// `count` distinct positions below `n`, in increasing order (`count <= n`).
    pub(super) fn distinct(&mut self, n: usize, count: usize) -> Vec<usize> {
        let mut picked = BTreeSet::new();
        if count.saturating_mul(2) > n {
            let mut drop = BTreeSet::new();
            while drop.len() < n - count {
                drop.insert(self.below(n));
            }
            return (0..n).filter(|i| !drop.contains(i)).collect();
        }
        while picked.len() < count {
            picked.insert(self.below(n));
        }
        picked.into_iter().collect()
    }
}

/// Redis's `getRangeLongFromObjectOrReply`: an integer in `min..=max`, else `msg` (or the
/// standard texts).
pub(super) fn range_long(
    bytes: &[u8],
    min: i64,
    max: i64,
    msg: Option<ErrorReply>,
) -> Result<i64, ErrorReply> {
    let Some(v) = parse_i64(bytes) else {
        return Err(msg.unwrap_or(ErrorReply::NotInteger));
    };
    if v < min || v > max {
        return Err(msg.unwrap_or(ErrorReply::OutOfRangeBetween { min, max }));
    }
    Ok(v)
}

/// `getPositiveLongFromObjectOrReply` without a message of its own.
pub(super) fn positive_long(bytes: &[u8]) -> Result<i64, ErrorReply> {
    range_long(bytes, 0, i64::MAX, Some(ErrorReply::OutOfRangePositive))
}

fn spop(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Res {
    let key = arg(args, 1);
    if args.len() > 3 {
        return Err(ErrorReply::Syntax);
    }
    let with_count = args.len() == 3;
    let count = if with_count {
        positive_long(arg(args, 2))? as usize
    } else {
        1
    };
    let Some(set) = write(db, now, key)? else {
        return Ok(if with_count {
            Reply::Array(vec![])
        } else {
            Reply::Bulk(None)
        });
    };
    if count == 0 {
        return Ok(Reply::Array(vec![]));
    }
    let members: Vec<Vec<u8>> = set.members().into_iter().map(<[u8]>::to_vec).collect();
    let mut rng = Rng::seeded(key, members.len(), now);
    let picks = if count >= members.len() {
        (0..members.len()).collect()
    } else if with_count {
        rng.distinct(members.len(), count)
    } else {
        vec![rng.below(members.len())]
    };
    let mut out = Vec::with_capacity(picks.len());
    for i in picks {
        if let Some(m) = members.get(i) {
            set.remove(m);
            out.push(bulk(m));
        }
    }
    // Popping most of a set, Redis builds a new one from the members that stay (SPOP's
    // "case 3"), which is an intset again if they are all integers.
    let remaining = members.len().saturating_sub(count);
    if with_count && count < members.len() && remaining.saturating_mul(5) <= count {
        let kept: Vec<Vec<u8>> = set.members().into_iter().map(<[u8]>::to_vec).collect();
        *set = Set::from_members(kept);
    }
    settle(db, now, key);
    if with_count {
        Ok(Reply::Array(out))
    } else {
        Ok(out.pop().unwrap_or(Reply::Bulk(None)))
    }
}

fn srandmember(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Res {
    let key = arg(args, 1);
    if args.len() > 3 {
        return Err(ErrorReply::Syntax);
    }
    if args.len() < 3 {
        let Some(set) = read(db, now, key)? else {
            return Ok(Reply::Bulk(None));
        };
        let members = set.members();
        let mut rng = Rng::seeded(key, members.len(), now);
        return Ok(members
            .get(rng.below(members.len()))
            .map_or(Reply::Bulk(None), |m| bulk(m)));
    }
    let l = range_long(arg(args, 2), -i64::MAX, i64::MAX, None)?;
    let Some(set) = read(db, now, key)? else {
        return Ok(Reply::Array(vec![]));
    };
    let members = set.members();
    let mut rng = Rng::seeded(key, members.len(), now);
    if l == 0 {
        return Ok(Reply::Array(vec![]));
    }
    let count = l.unsigned_abs();
    if l < 0 || count == 1 {
        // Repeats allowed: `count` independent picks (capped: the page never builds more).
        let n = count.min(1 << 20) as usize;
        return Ok(Reply::Array(
            (0..n)
                .filter_map(|_| members.get(rng.below(members.len())).map(|m| bulk(m)))
                .collect(),
        ));
    }
    let count = usize::try_from(count).unwrap_or(usize::MAX);
    let picks = if count >= members.len() {
        (0..members.len()).collect()
    } else {
        rng.distinct(members.len(), count)
    };
    Ok(Reply::Array(
        picks
            .into_iter()
            .filter_map(|i| members.get(i).map(|m| bulk(m)))
            .collect(),
    ))
}

fn smove(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Res {
    let (src, dst, member) = (arg(args, 1), arg(args, 2), arg(args, 3));
    let Some(source) = read(db, now, src)? else {
        return Ok(Reply::Int(0));
    };
    let has = source.contains(member);
    read(db, now, dst)?;
    if src == dst {
        return Ok(Reply::Int(i64::from(has)));
    }
    if !has {
        return Ok(Reply::Int(0));
    }
    if let Ok(Some(s)) = write(db, now, src) {
        s.remove(member);
    }
    settle(db, now, src);
    match write(db, now, dst)? {
        Some(d) => {
            if d.add(member.to_vec()) {
                db.touch(dst);
            }
        }
        None => {
            db.insert(
                dst,
                Value::Set(Set::from_members([member.to_vec()])),
                now,
                false,
            );
        }
    }
    Ok(Reply::Int(1))
}

/// Members in the order a reply lists them.
type Members = Vec<Vec<u8>>;

#[derive(Clone, Copy, PartialEq)]
enum Op {
    Inter,
    Union,
    Diff,
}

/// The result of SINTER/SUNION/SDIFF over `keys` (missing keys are empty sets), after checking
/// every key's type.
/// Also the order SINTER replies in: the smallest set's own (SUNION and SDIFF list the set
/// they built).
fn compute(
    db: &Db,
    now: i64,
    keys: &[Vec<u8>],
    op: Op,
) -> Result<(Set, Option<Members>), ErrorReply> {
    let mut sets = Vec::with_capacity(keys.len());
    for k in keys {
        sets.push(read(db, now, k)?);
    }
    let mut out = Set::new();
    match op {
        Op::Inter => {
            if sets.iter().any(Option::is_none) {
                return Ok((out, None));
            }
            let all: Vec<&Set> = sets.iter().flatten().copied().collect();
            let Some(smallest) = all.iter().min_by_key(|s| s.len()) else {
                return Ok((out, None));
            };
            let mut order = Vec::new();
            for m in smallest.members() {
                if all.iter().all(|s| s.contains(m)) {
                    out.add(m.to_vec());
                    order.push(m.to_vec());
                }
            }
            return Ok((out, Some(order)));
        }
        Op::Union => {
            for s in sets.iter().flatten() {
                for m in s.members() {
                    out.add(m.to_vec());
                }
            }
        }
        Op::Diff => {
            let Some(Some(first)) = sets.first() else {
                return Ok((out, None));
            };
            let same = keys.iter().skip(1).any(|k| Some(k) == keys.first());
            if same {
                return Ok((out, None));
            }
            for m in first.members() {
                if !sets.iter().skip(1).flatten().any(|s| s.contains(m)) {
                    out.add(m.to_vec());
                }
            }
        }
    }
    Ok((out, None))
}

/// SINTER/SUNION/SDIFF (and SMEMBERS, an intersection of one), or their STORE forms.
fn combine(db: &mut Db, now: i64, keys: &[Vec<u8>], op: Op, dst: Option<&Vec<u8>>) -> Res {
    let (result, order) = compute(db, now, keys, op)?;
    let Some(dst) = dst else {
        return Ok(Reply::Array(match order {
            Some(order) => order.iter().map(|m| bulk(m)).collect(),
            None => result.members().into_iter().map(bulk).collect(),
        }));
    };
    let n = result.len() as i64;
    if n > 0 {
        db.insert(dst, Value::Set(result), now, false);
    } else {
        db.remove(dst, now);
    }
    Ok(Reply::Int(n))
}

fn sintercard(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Res {
    let numkeys = range_long(arg(args, 1), 1, i64::MAX, Some(ErrorReply::NumkeysPositive))?;
    let rest = args.get(2..).unwrap_or(&[]);
    if numkeys as u64 > rest.len() as u64 {
        return Err(ErrorReply::TooManyKeys);
    }
    let (keys, opts) = rest.split_at(numkeys as usize);
    let mut limit = 0u64;
    let mut i = 0;
    while i < opts.len() {
        if opts[i].eq_ignore_ascii_case(b"limit") && i + 1 < opts.len() {
            limit = range_long(&opts[i + 1], 0, i64::MAX, Some(ErrorReply::LimitNegative))? as u64;
            i += 2;
        } else {
            return Err(ErrorReply::Syntax);
        }
    }
    let n = compute(db, now, keys, Op::Inter)?.0.len() as u64;
    Ok(Reply::Int(if limit > 0 { n.min(limit) } else { n } as i64))
}

/// SCAN's options over a collection (`COUNT`, `MATCH`): parsed from `opts`.
pub(super) struct ScanOpts {
    /// How many elements a hash table returns per call.
    pub(super) count: usize,
    /// The MATCH pattern, unless it is `*` or absent.
    pub(super) pattern: Option<Vec<u8>>,
}

/// Parses a collection SCAN's cursor (`parseScanCursorOrReply`).
pub(super) fn parse_cursor(bytes: &[u8]) -> Result<u64, ErrorReply> {
    // Redis's strtoul: an empty cursor reads as 0.
    super::util::parse_cursor(bytes).ok_or(ErrorReply::InvalidCursor)
}

/// Parses `COUNT n` and `MATCH p` after a collection SCAN's cursor.
pub(super) fn scan_opts(opts: &[Vec<u8>]) -> Result<ScanOpts, ErrorReply> {
    let mut out = ScanOpts {
        count: 10,
        pattern: None,
    };
    let mut i = 0;
    while i < opts.len() {
        let has_value = i + 1 < opts.len();
        if opts[i].eq_ignore_ascii_case(b"count") && has_value {
            let n = parse_i64(&opts[i + 1]).ok_or(ErrorReply::NotInteger)?;
            if n < 1 {
                return Err(ErrorReply::Syntax);
            }
            out.count = usize::try_from(n).unwrap_or(usize::MAX);
        } else if opts[i].eq_ignore_ascii_case(b"match") && has_value {
            let p = &opts[i + 1];
            out.pattern = (p.as_slice() != b"*").then(|| p.clone());
        } else {
            return Err(ErrorReply::Syntax);
        }
        i += 2;
    }
    Ok(out)
}

/// One SCAN step over `items` (whole elements: a member, or a member and its score): a compact
/// encoding returns everything at once; a hash table returns `count` elements from `cursor` on
/// (the cursor is a position, not Redis's reversed-bit cursor). Filtered by MATCH on the first
/// part of each element.
pub(super) fn scan_step(
    items: Vec<Vec<Vec<u8>>>,
    compact: bool,
    cursor: u64,
    opts: &ScanOpts,
) -> Reply {
    let (from, to) = if compact {
        (0, items.len())
    } else {
        let from = usize::try_from(cursor)
            .unwrap_or(usize::MAX)
            .min(items.len());
        (from, from.saturating_add(opts.count).min(items.len()))
    };
    let next = if to >= items.len() { 0 } else { to };
    let mut out = Vec::new();
    for item in items.get(from..to).unwrap_or(&[]) {
        let keep = match (&opts.pattern, item.first()) {
            (Some(p), Some(first)) => super::util::glob_match(p, first, false),
            _ => true,
        };
        if keep {
            out.extend(item.iter().map(|b| bulk(b)));
        }
    }
    Reply::Array(vec![bulk(next.to_string().as_bytes()), Reply::Array(out)])
}

fn sscan(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Res {
    let cursor = parse_cursor(arg(args, 2))?;
    // As 7.0.15's s/zscanCommand: the cursor, then the key (a missing one is the empty scan,
    // whatever the options), then the options in scanGenericCommand.
    let Some(set) = read(db, now, arg(args, 1))? else {
        return Ok(Reply::Array(vec![bulk(b"0"), Reply::Array(vec![])]));
    };
    let opts = scan_opts(args.get(3..).unwrap_or(&[]))?;
    let items = set
        .members()
        .into_iter()
        .map(|m| vec![m.to_vec()])
        .collect();
    Ok(scan_step(items, !set.hashtable, cursor, &opts))
}
