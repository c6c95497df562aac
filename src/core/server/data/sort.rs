//! SORT and SORT_RO over lists, sets and sorted sets, as 7.0.15's `sortCommandGeneric` runs
//! on a cluster node: ASC/DESC, ALPHA, LIMIT, STORE (a list), `BY` a constant (no sorting);
//! `BY` a pattern with `*` and every `GET` are refused in cluster mode, as Redis refuses them.
//!
//! One quirk is not reproduced: Redis reads numbers with `strtod` without clearing `errno`, so
//! after one element out of range, later numeric SORTs on that server fail until some other
//! command clears it; here each SORT stands alone.

use super::zset::strtod;
use super::{Db, List, Value};
use crate::core::server::command::parse_i64;
use crate::core::server::reply::{ErrorReply, Reply};
use std::cmp::Ordering;

/// Runs `name` if this module owns it (`None` otherwise).
pub(super) fn run(db: &mut Db, now: i64, name: &str, args: &[Vec<u8>]) -> Option<Reply> {
    let reply = match name {
        "sort" => sort(db, now, args, false),
        "sort_ro" => sort(db, now, args, true),
        _ => return None,
    };
    Some(reply.unwrap_or_else(Reply::Error))
}

/// A numeric sort key as `sortCommandGeneric` reads it (`strtod`, whole text, no `ERANGE`,
/// not NaN); `None` when it cannot be converted.
fn score_of(b: &[u8]) -> Option<f64> {
    let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
    let (v, used, erange) = strtod(b);
    let subnormal = v != 0.0 && v.abs() < f64::MIN_POSITIVE;
    (used == end && !erange && !subnormal && !v.is_nan()).then_some(v)
}

fn sort(db: &mut Db, now: i64, args: &[Vec<u8>], readonly: bool) -> Res {
    let key = args.get(1).map_or(&[][..], Vec::as_slice);
    let (mut desc, mut alpha, mut dontsort) = (false, false, false);
    let (mut limit_start, mut limit_count) = (0i64, -1i64);
    let mut store: Option<Vec<u8>> = None;
    let mut j = 2;
    while j < args.len() {
        let left = args.len() - j - 1;
        let opt = args
            .get(j)
            .map_or(&[][..], Vec::as_slice)
            .to_ascii_lowercase();
        let at = |i: usize| args.get(i).map_or(&[][..], Vec::as_slice);
        match opt.as_slice() {
            b"asc" => desc = false,
            b"desc" => desc = true,
            b"alpha" => alpha = true,
            b"limit" if left >= 2 => {
                limit_start = parse_i64(at(j + 1)).ok_or(ErrorReply::NotInteger)?;
                limit_count = parse_i64(at(j + 2)).ok_or(ErrorReply::NotInteger)?;
                j += 2;
            }
            b"store" if !readonly && left >= 1 => {
                store = Some(at(j + 1).to_vec());
                j += 1;
            }
            b"by" if left >= 1 => {
                if at(j + 1).contains(&b'*') {
                    return Err(ErrorReply::SortByInCluster);
                }
                dontsort = true;
                j += 1;
            }
            b"get" if left >= 1 => return Err(ErrorReply::SortGetInCluster),
            _ => return Err(ErrorReply::Syntax),
        }
        j += 1;
    }
    enum Kind {
        List,
        Set,
        ZSet,
    }
    let (kind, elements): (Kind, Vec<Vec<u8>>) = match db.value(key, now) {
        None => (Kind::List, Vec::new()),
        Some(Value::List(l)) => (Kind::List, l.items.iter().cloned().collect()),
        Some(Value::Set(s)) => (
            Kind::Set,
            s.members().into_iter().map(<[u8]>::to_vec).collect(),
        ),
        Some(Value::ZSet(z)) => (Kind::ZSet, z.iter().map(|(m, _)| m.to_vec()).collect()),
        Some(_) => return Err(ErrorReply::WrongType),
    };
    if dontsort && matches!(kind, Kind::Set) && store.is_some() {
        dontsort = false;
        alpha = true;
    }
    // SORT turns a listpack sorted set into a skip list for good, as Redis does.
    if let (Kind::ZSet, Some(Value::ZSet(z))) = (&kind, db.value_mut(key, now)) {
        z.convert_to_skiplist();
    }
    let len = elements.len() as i64;
    let mut start = limit_start.max(0).min(len);
    let count = limit_count.max(-1).min(len);
    let mut end = if count < 0 {
        len - 1
    } else {
        start + count - 1
    };
    if start >= len {
        start = len - 1;
        end = len - 2;
    }
    if end >= len {
        end = len - 1;
    }
    let mut vector = elements;
    let directly = dontsort && matches!(kind, Kind::List | Kind::ZSet);
    if directly && desc {
        vector.reverse();
    }
    if !dontsort {
        if alpha {
            // Byte order (what strcoll gives in the C locale, and what STORE uses).
            crate::core::sort::sort(&mut vector);
        } else {
            let mut scored = Vec::with_capacity(vector.len());
            let mut bad = false;
            for v in vector {
                let s = score_of(&v);
                bad |= s.is_none();
                scored.push((s.unwrap_or(0.0), v));
            }
            if bad {
                return Err(ErrorReply::SortNotDouble);
            }
            crate::core::sort::sort_by(&mut scored, |a, b| {
                a.0.partial_cmp(&b.0)
                    .unwrap_or(Ordering::Equal)
                    .then_with(|| a.1.cmp(&b.1))
            });
            vector = scored.into_iter().map(|(_, v)| v).collect();
        }
        if desc {
            vector.reverse();
        }
    }
    let picked: Vec<Vec<u8>> = if end >= start && start >= 0 {
        vector
            .get(start as usize..=end as usize)
            .unwrap_or(&[])
            .to_vec()
    } else {
        Vec::new()
    };
    match store {
        None => Ok(Reply::Array(
            picked.into_iter().map(|v| Reply::Bulk(Some(v))).collect(),
        )),
        Some(dst) => {
            let n = picked.len() as i64;
            if n > 0 {
                let mut list = List::default();
                list.items.extend(picked);
                db.insert(&dst, Value::List(list), now, false);
            } else {
                db.remove(&dst, now);
            }
            Ok(Reply::Int(n))
        }
    }
}

type Res = Result<Reply, ErrorReply>;
