//! Sorted sets across keys and pops: ZUNION ZINTER ZDIFF (WEIGHTS, AGGREGATE, WITHSCORES) and
//! their STORE forms, ZINTERCARD (`zunionInterDiffGenericCommand`; plain sets count as members
//! scored 1), ZPOPMIN ZPOPMAX ZMPOP and the blocking BZPOPMIN BZPOPMAX BZMPOP, which answer at
//! once when there is something to pop and otherwise as a call that timed out (`*-1`).

use super::{arg, bulk, double, settle, store, string2d, strtod, write, Res, Score, ZSet};
use crate::core::server::command::parse_i64;
use crate::core::server::data::set::{positive_long, range_long};
use crate::core::server::data::{Db, Value};
use crate::core::server::reply::{ErrorReply, Reply};
use std::collections::BTreeMap;

/// Members with their scores, in order.
type Scored = Vec<(Vec<u8>, f64)>;

/// Runs `name` if this module owns it (`None` otherwise).
pub(super) fn run(db: &mut Db, now: i64, name: &str, args: &[Vec<u8>]) -> Option<Reply> {
    let reply = match name {
        "zunion" => combine(db, now, args, None, Op::Union, name),
        "zinter" => combine(db, now, args, None, Op::Inter, name),
        "zdiff" => combine(db, now, args, None, Op::Diff, name),
        "zintercard" => combine(db, now, args, None, Op::Card, name),
        "zunionstore" => combine(db, now, args, args.get(1), Op::Union, name),
        "zinterstore" => combine(db, now, args, args.get(1), Op::Inter, name),
        "zdiffstore" => combine(db, now, args, args.get(1), Op::Diff, name),
        "zpopmin" => zpop(db, now, args, false),
        "zpopmax" => zpop(db, now, args, true),
        "bzpopmin" => bzpop(db, now, args, false),
        "bzpopmax" => bzpop(db, now, args, true),
        "zmpop" => zmpop(db, now, args, 1, false),
        "bzmpop" => zmpop(db, now, args, 2, true),
        _ => return None,
    };
    Some(reply.unwrap_or_else(Reply::Error))
}

#[derive(Clone, Copy, PartialEq)]
enum Op {
    Union,
    Inter,
    Diff,
    Card,
}

#[derive(Clone, Copy, PartialEq)]
enum Aggregate {
    Sum,
    Min,
    Max,
}

fn aggregate(target: &mut f64, val: f64, how: Aggregate) {
    match how {
        Aggregate::Sum => {
            *target += val;
            if target.is_nan() {
                *target = 0.0;
            }
        }
        Aggregate::Min => {
            if val < *target {
                *target = val;
            }
        }
        Aggregate::Max => {
            if val > *target {
                *target = val;
            }
        }
    }
}

/// One input: its members with scores (a plain set's score 1), and its weight.
struct Source {
    key: Vec<u8>,
    members: Vec<(Vec<u8>, f64)>,
    index: BTreeMap<Vec<u8>, f64>,
    weight: f64,
}

fn combine(
    db: &mut Db,
    now: i64,
    args: &[Vec<u8>],
    dst: Option<&Vec<u8>>,
    op: Op,
    name: &str,
) -> Res {
    let numkeys_at = if dst.is_some() { 2 } else { 1 };
    let setnum = parse_i64(arg(args, numkeys_at)).ok_or(ErrorReply::NotInteger)?;
    if setnum < 1 {
        let command = match name {
            "zunion" => "zunion",
            "zinter" => "zinter",
            "zdiff" => "zdiff",
            "zintercard" => "zintercard",
            "zunionstore" => "zunionstore",
            "zinterstore" => "zinterstore",
            _ => "zdiffstore",
        };
        return Err(ErrorReply::NeedOneInputKey { command });
    }
    let rest = args.get(numkeys_at + 1..).unwrap_or(&[]);
    if setnum as u64 > rest.len() as u64 {
        return Err(ErrorReply::Syntax);
    }
    let (keys, opts) = rest.split_at(setnum as usize);
    let mut srcs = Vec::with_capacity(keys.len());
    for k in keys {
        let members: Vec<(Vec<u8>, f64)> = match db.value(k, now) {
            None => Vec::new(),
            Some(Value::ZSet(z)) => z.iter().map(|(m, s)| (m.to_vec(), s)).collect(),
            Some(Value::Set(s)) => s.members().into_iter().map(|m| (m.to_vec(), 1.0)).collect(),
            Some(_) => return Err(ErrorReply::WrongType),
        };
        let index = members.iter().cloned().collect();
        srcs.push(Source {
            key: k.clone(),
            members,
            index,
            weight: 1.0,
        });
    }
    let mut how = Aggregate::Sum;
    let mut withscores = false;
    let mut limit = 0u64;
    let mut j = 0;
    while j < opts.len() {
        let o = arg(opts, j);
        let remaining = opts.len() - j;
        let plain = op != Op::Diff && op != Op::Card;
        if plain && remaining > srcs.len() && o.eq_ignore_ascii_case(b"weights") {
            for (i, src) in srcs.iter_mut().enumerate() {
                src.weight = string2d(arg(opts, j + 1 + i)).ok_or(ErrorReply::WeightNotFloat)?;
            }
            j += 1 + srcs.len();
        } else if plain && remaining >= 2 && o.eq_ignore_ascii_case(b"aggregate") {
            how = match arg(opts, j + 1).to_ascii_lowercase().as_slice() {
                b"sum" => Aggregate::Sum,
                b"min" => Aggregate::Min,
                b"max" => Aggregate::Max,
                _ => return Err(ErrorReply::Syntax),
            };
            j += 2;
        } else if dst.is_none() && op != Op::Card && o.eq_ignore_ascii_case(b"withscores") {
            withscores = true;
            j += 1;
        } else if op == Op::Card && remaining >= 2 && o.eq_ignore_ascii_case(b"limit") {
            limit = range_long(
                arg(opts, j + 1),
                0,
                i64::MAX,
                Some(ErrorReply::LimitNegative),
            )? as u64;
            j += 2;
        } else {
            return Err(ErrorReply::Syntax);
        }
    }
    if op != Op::Diff {
        crate::core::sort::sort_by_key(&mut srcs, |s| s.members.len());
    }
    let mut result: Vec<(Vec<u8>, f64)> = Vec::new();
    match op {
        Op::Inter | Op::Card => {
            if let Some((first, others)) = srcs.split_first() {
                for (m, s) in &first.members {
                    let mut score = first.weight * s;
                    if score.is_nan() {
                        score = 0.0;
                    }
                    let mut all = true;
                    for o in others {
                        match o.index.get(m) {
                            Some(v) => aggregate(&mut score, v * o.weight, how),
                            None => {
                                all = false;
                                break;
                            }
                        }
                    }
                    if all {
                        result.push((m.clone(), score));
                        if op == Op::Card && limit > 0 && result.len() as u64 >= limit {
                            break;
                        }
                    }
                }
            }
        }
        Op::Union => {
            let mut acc: BTreeMap<Vec<u8>, f64> = BTreeMap::new();
            for src in &srcs {
                for (m, s) in &src.members {
                    let mut score = src.weight * s;
                    if score.is_nan() {
                        score = 0.0;
                    }
                    match acc.get_mut(m) {
                        Some(t) => aggregate(t, score, how),
                        None => {
                            acc.insert(m.clone(), score);
                        }
                    }
                }
            }
            result = acc.into_iter().collect();
        }
        Op::Diff => {
            if let Some((first, others)) = srcs.split_first() {
                for (m, s) in &first.members {
                    let gone = others
                        .iter()
                        .any(|o| o.key == first.key || o.index.contains_key(m));
                    if !gone {
                        result.push((m.clone(), *s));
                    }
                }
            }
        }
    }
    if op == Op::Card {
        return Ok(Reply::Int(result.len() as i64));
    }
    crate::core::sort::sort_by(&mut result, |a, b| {
        (Score(a.1), &a.0).cmp(&(Score(b.1), &b.0))
    });
    if let Some(dst) = dst {
        return Ok(store(db, now, dst, ZSet::built(result)));
    }
    let mut out = Vec::with_capacity(result.len() * 2);
    for (m, s) in result {
        out.push(bulk(&m));
        if withscores {
            out.push(double(s));
        }
    }
    Ok(Reply::Array(out))
}

/// Pops up to `count` members from the first key (of `keys`) that holds a sorted set; `None`
/// when none does.
fn pop_from(
    db: &mut Db,
    now: i64,
    keys: &[Vec<u8>],
    max: bool,
    count: usize,
) -> Result<Option<(Vec<u8>, Scored)>, ErrorReply> {
    for key in keys {
        let Some(z) = write(db, now, key)? else {
            continue;
        };
        let picked: Vec<(Vec<u8>, f64)> = if max {
            z.iter()
                .rev()
                .take(count)
                .map(|(m, s)| (m.to_vec(), s))
                .collect()
        } else {
            z.iter().take(count).map(|(m, s)| (m.to_vec(), s)).collect()
        };
        for (m, _) in &picked {
            z.remove(m);
        }
        if !picked.is_empty() {
            settle(db, now, key);
        }
        return Ok(Some((key.clone(), picked)));
    }
    Ok(None)
}

fn flat(picked: Vec<(Vec<u8>, f64)>) -> Vec<Reply> {
    let mut out = Vec::with_capacity(picked.len() * 2);
    for (m, s) in picked {
        out.push(bulk(&m));
        out.push(double(s));
    }
    out
}

fn zpop(db: &mut Db, now: i64, args: &[Vec<u8>], max: bool) -> Res {
    if args.len() > 3 {
        return Err(ErrorReply::Syntax);
    }
    let count = match args.get(2) {
        Some(c) => positive_long(c)?,
        None => 1,
    };
    let key = args.get(1..2).unwrap_or(&[]);
    if count == 0 {
        // The key's type is still checked first.
        if let Some(k) = key.first() {
            write(db, now, k)?;
        }
        return Ok(Reply::Array(vec![]));
    }
    let count = usize::try_from(count).unwrap_or(usize::MAX);
    Ok(match pop_from(db, now, key, max, count)? {
        Some((_, picked)) => Reply::Array(flat(picked)),
        None => Reply::Array(vec![]),
    })
}

/// A blocking command's timeout in seconds (`getTimeoutFromObjectOrReply`: `string2ld`, then
/// `(long long)ceill(t * 1000)`). Redis reads a long double, so `1e400` is a number (whose
/// milliseconds overflow to a negative `long long`), and a tiny one is 0.
fn check_timeout(b: &[u8]) -> Result<(), ErrorReply> {
    const LLONG: f64 = 9_223_372_036_854_775_808.0;
    let (v, used, _) = strtod(b);
    let blank = b
        .first()
        .is_some_and(|c| matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r'));
    if b.is_empty() || b.len() >= 5 * 1024 || blank || used != b.len() || v.is_nan() {
        return Err(ErrorReply::TimeoutNotFloat);
    }
    let ms = (v * 1000.0).ceil();
    if !(-LLONG..LLONG).contains(&ms) || ms < 0.0 {
        return Err(ErrorReply::TimeoutNegative);
    }
    Ok(())
}

fn bzpop(db: &mut Db, now: i64, args: &[Vec<u8>], max: bool) -> Res {
    let keys = args.get(1..args.len().saturating_sub(1)).unwrap_or(&[]);
    check_timeout(args.last().map_or(&[][..], Vec::as_slice))?;
    Ok(match pop_from(db, now, keys, max, 1)? {
        Some((key, picked)) => {
            let mut out = vec![bulk(&key)];
            out.extend(flat(picked));
            Reply::Array(out)
        }
        None => Reply::NilArray,
    })
}

fn zmpop(db: &mut Db, now: i64, args: &[Vec<u8>], numkeys_at: usize, blocking: bool) -> Res {
    let numkeys = range_long(
        arg(args, numkeys_at),
        1,
        i64::MAX,
        Some(ErrorReply::NumkeysPositive),
    )?;
    let where_at = (numkeys_at as u64)
        .saturating_add(numkeys as u64)
        .saturating_add(1);
    if where_at >= args.len() as u64 {
        return Err(ErrorReply::Syntax);
    }
    let where_at = where_at as usize;
    let max = match arg(args, where_at).to_ascii_lowercase().as_slice() {
        b"min" => false,
        b"max" => true,
        _ => return Err(ErrorReply::Syntax),
    };
    let mut count: i64 = -1;
    let mut j = where_at + 1;
    while j < args.len() {
        let more = args.len() - 1 - j;
        if count == -1 && arg(args, j).eq_ignore_ascii_case(b"count") && more > 0 {
            count = range_long(
                arg(args, j + 1),
                1,
                i64::MAX,
                Some(ErrorReply::CountPositive),
            )?;
            j += 2;
        } else {
            return Err(ErrorReply::Syntax);
        }
    }
    if blocking {
        check_timeout(arg(args, 1))?;
    }
    let count = if count == -1 { 1 } else { count };
    let keys = args.get(numkeys_at + 1..where_at).unwrap_or(&[]);
    let count = usize::try_from(count).unwrap_or(usize::MAX);
    Ok(match pop_from(db, now, keys, max, count)? {
        Some((key, picked)) => Reply::Array(vec![
            bulk(&key),
            Reply::Array(
                picked
                    .into_iter()
                    .map(|(m, s)| Reply::Array(vec![bulk(&m), double(s)]))
                    .collect(),
            ),
        ]),
        None => Reply::NilArray,
    })
}
