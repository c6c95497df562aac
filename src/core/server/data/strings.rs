//! Strings: GET SET (every option) GETSET GETDEL GETEX SETNX SETEX PSETEX MGET MSET MSETNX
//! INCR DECR INCRBY DECRBY INCRBYFLOAT APPEND STRLEN SETRANGE GETRANGE SUBSTR LCS, as Redis
//! 7.0.15's `t_string.c` answers them (which keep the TTL: INCR…, APPEND, SETRANGE; which
//! clear it: SET without KEEPTTL, GETSET, MSET).

use super::expire::expire_arg;
use super::ld::LongDouble;
use super::util::{arg, bulk, derr, err, get_str, int_arg, is, nil, parse_i64, wrong_args};
use super::{DataError, Db, Value};
use crate::core::server::reply::{ErrorReply, NotRun, Reply};

/// Redis's `proto-max-bulk-len`: the largest string (512 MB).
const MAX_STRING: u64 = 512 * 1024 * 1024;
/// The largest string the page builds (SETRANGE, SETBIT, APPEND): beyond it, a note.
pub(super) const PAGE_MAX_STRING: u64 = 64 * 1024 * 1024;

/// Runs `name` if this module owns it (`None` otherwise).
pub(super) fn run(db: &mut Db, now: i64, name: &str, args: &[Vec<u8>]) -> Option<Reply> {
    let key = arg(args, 1);
    Some(match name {
        "get" => match get_str(db, key, now) {
            Ok(v) => v.map_or(nil(), |v| bulk(v)),
            Err(e) => e,
        },
        "set" => set_command(db, now, args),
        "setnx" => set_generic(db, now, key, arg(args, 2), Opts::nx(), None, SetReply::Int),
        "setex" | "psetex" => match expire_arg(arg(args, 2), name == "setex", true, now, name) {
            Ok(ms) => set_generic(
                db,
                now,
                key,
                arg(args, 3),
                Opts::default(),
                Some(ms),
                SetReply::Ok,
            ),
            Err(e) => e,
        },
        "getset" => match get_str(db, key, now) {
            Ok(old) => {
                let old = old.cloned();
                db.insert(key, Value::Str(arg(args, 2).to_vec()), now, false);
                Reply::Bulk(old)
            }
            Err(e) => e,
        },
        "getdel" => match get_str(db, key, now) {
            Ok(Some(v)) => {
                let v = v.clone();
                db.remove(key, now);
                Reply::Bulk(Some(v))
            }
            Ok(None) => nil(),
            Err(e) => e,
        },
        "getex" => getex(db, now, args),
        "mget" => Reply::Array(
            args.iter()
                .skip(1)
                .map(|k| match db.value(k, now) {
                    Some(Value::Str(v)) => bulk(v),
                    _ => nil(),
                })
                .collect(),
        ),
        "mset" | "msetnx" => {
            if args.len().is_multiple_of(2) {
                return Some(wrong_args(name));
            }
            let pairs = args.get(1..).unwrap_or(&[]).chunks_exact(2);
            if name == "msetnx" && pairs.clone().any(|p| db.entry(arg(p, 0), now).is_some()) {
                return Some(Reply::Int(0));
            }
            for p in pairs {
                db.insert(arg(p, 0), Value::Str(arg(p, 1).to_vec()), now, false);
            }
            if name == "msetnx" {
                Reply::Int(1)
            } else {
                Reply::Ok
            }
        }
        "incr" => incr_by(db, now, key, 1),
        "decr" => incr_by(db, now, key, -1),
        "incrby" => match int_arg(arg(args, 2)) {
            Ok(by) => incr_by(db, now, key, by),
            Err(e) => e,
        },
        "decrby" => match int_arg(arg(args, 2)) {
            Ok(i64::MIN) => err(ErrorReply::DecrementOverflow),
            Ok(by) => incr_by(db, now, key, -by),
            Err(e) => e,
        },
        "incrbyfloat" => incr_by_float(db, now, key, arg(args, 2)),
        "append" => append(db, now, key, arg(args, 2)),
        "strlen" => match get_str(db, key, now) {
            Ok(v) => Reply::Int(v.map_or(0, Vec::len) as i64),
            Err(e) => e,
        },
        "setrange" => setrange(db, now, key, arg(args, 2), arg(args, 3)),
        "getrange" | "substr" => getrange(db, now, key, arg(args, 2), arg(args, 3)),
        "lcs" => lcs(db, now, args),
        _ => return None,
    })
}

#[derive(Clone, Copy, Default)]
struct Opts {
    nx: bool,
    xx: bool,
    get: bool,
    keepttl: bool,
}

impl Opts {
    fn nx() -> Opts {
        Opts {
            nx: true,
            ..Opts::default()
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
enum SetReply {
    /// `+OK`, or nil when NX/XX stops it (SET, SETEX).
    Ok,
    /// `1`, or `0` when NX stops it (SETNX).
    Int,
}

/// SET's options, as `parseExtendedStringArgumentsOrReply` reads them.
fn set_command(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Reply {
    let mut o = Opts::default();
    // Which of EX PX EXAT PXAT was given (0 none), and its argument.
    let mut unit: Option<(&str, &[u8])> = None;
    let mut j = 3;
    while let Some(opt) = args.get(j) {
        let has_next = j + 1 < args.len();
        let no_ttl_but = |w: &str| unit.is_none_or(|(u, _)| u == w);
        if is(opt, "nx") && !o.xx {
            o.nx = true;
        } else if is(opt, "xx") && !o.nx {
            o.xx = true;
        } else if is(opt, "get") {
            o.get = true;
        } else if is(opt, "keepttl") && unit.is_none() {
            o.keepttl = true;
        } else if let Some(w) = ["ex", "px", "exat", "pxat"]
            .into_iter()
            .find(|w| is(opt, w))
            && !o.keepttl
            && no_ttl_but(w)
            && has_next
        {
            unit = Some((w, arg(args, j + 1)));
            j += 1;
        } else {
            return err(ErrorReply::Syntax);
        }
        j += 1;
    }
    let expire = match unit {
        None => None,
        Some((w, v)) => match expire_arg(v, w.starts_with('e'), !w.ends_with("at"), now, "set") {
            Ok(ms) => Some(ms),
            Err(e) => return e,
        },
    };
    set_generic(db, now, arg(args, 1), arg(args, 2), o, expire, SetReply::Ok)
}

/// Redis's `setGenericCommand`.
fn set_generic(
    db: &mut Db,
    now: i64,
    key: &[u8],
    value: &[u8],
    o: Opts,
    expire: Option<i64>,
    reply: SetReply,
) -> Reply {
    let old = if o.get {
        match get_str(db, key, now) {
            Ok(v) => Some(v.cloned()),
            Err(e) => return e,
        }
    } else {
        None
    };
    let found = db.entry(key, now).is_some();
    if (o.nx && found) || (o.xx && !found) {
        return match (old, reply) {
            (Some(old), _) => Reply::Bulk(old),
            (None, SetReply::Int) => Reply::Int(0),
            (None, SetReply::Ok) => nil(),
        };
    }
    db.insert(key, Value::Str(value.to_vec()), now, o.keepttl);
    if let Some(ms) = expire
        && let Some(e) = db.entry_mut(key, now)
    {
        e.expire_at = Some(ms);
    }
    match (old, reply) {
        (Some(old), _) => Reply::Bulk(old),
        (None, SetReply::Int) => Reply::Int(1),
        (None, SetReply::Ok) => Reply::Ok,
    }
}

/// GETEX key [EX s | PX ms | EXAT t | PXAT t | PERSIST].
fn getex(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Reply {
    let mut persist = false;
    let mut unit: Option<(&str, &[u8])> = None;
    let mut j = 2;
    while let Some(opt) = args.get(j) {
        let has_next = j + 1 < args.len();
        if is(opt, "persist") && unit.is_none() {
            persist = true;
        } else if let Some(w) = ["ex", "px", "exat", "pxat"]
            .into_iter()
            .find(|w| is(opt, w))
            && !persist
            && unit.is_none_or(|(u, _)| u == w)
            && has_next
        {
            unit = Some((w, arg(args, j + 1)));
            j += 1;
        } else {
            return err(ErrorReply::Syntax);
        }
        j += 1;
    }
    let key = arg(args, 1);
    let value = match get_str(db, key, now) {
        Ok(Some(v)) => v.clone(),
        Ok(None) => return nil(),
        Err(e) => return e,
    };
    if let Some((w, v)) = unit {
        let ms = match expire_arg(v, w.starts_with('e'), !w.ends_with("at"), now, "getex") {
            Ok(ms) => ms,
            Err(e) => return e,
        };
        if w.ends_with("at") && ms <= now {
            db.remove(key, now);
        } else if let Some(e) = db.entry_mut(key, now) {
            e.expire_at = Some(ms);
            db.touch(key);
        }
    } else if persist
        && let Some(e) = db.entry_mut(key, now)
        && e.expire_at.is_some()
    {
        e.expire_at = None;
        db.touch(key);
    }
    bulk(&value)
}

fn incr_by(db: &mut Db, now: i64, key: &[u8], by: i64) -> Reply {
    let old = match get_str(db, key, now) {
        Ok(None) => 0,
        Ok(Some(v)) => match parse_i64(v) {
            Some(n) => n,
            None => return err(ErrorReply::NotInteger),
        },
        Err(e) => return e,
    };
    let Some(new) = old.checked_add(by) else {
        return err(ErrorReply::Overflow);
    };
    db.insert(key, Value::Str(new.to_string().into_bytes()), now, true);
    Reply::Int(new)
}

fn incr_by_float(db: &mut Db, now: i64, key: &[u8], by: &[u8]) -> Reply {
    let old = match get_str(db, key, now) {
        Ok(None) => LongDouble::parse(b"0"),
        Ok(Some(v)) => LongDouble::parse(v),
        Err(e) => return e,
    };
    let (Some(old), Some(by)) = (old, LongDouble::parse(by)) else {
        return err(ErrorReply::NotFloat);
    };
    let new = match old.add(&by) {
        Some(n) if !n.is_inf() => n.human(),
        _ => return derr(DataError::NanOrInfinity),
    };
    db.insert(key, Value::Str(new.clone().into_bytes()), now, true);
    db.set_str_encoding(key, "embstr");
    bulk(new.as_bytes())
}

fn append(db: &mut Db, now: i64, key: &[u8], tail: &[u8]) -> Reply {
    match get_str(db, key, now) {
        Err(e) => e,
        Ok(None) => {
            db.insert(key, Value::Str(tail.to_vec()), now, false);
            Reply::Int(tail.len() as i64)
        }
        Ok(Some(v)) => {
            let total = v.len() as u64 + tail.len() as u64;
            if total > MAX_STRING {
                return derr(DataError::StringTooLong);
            }
            if total > PAGE_MAX_STRING {
                return too_large("append");
            }
            let len = if let Some(Value::Str(v)) = db.value_mut(key, now) {
                v.extend_from_slice(tail);
                v.len()
            } else {
                0
            };
            db.set_str_encoding(key, "raw");
            db.touch(key);
            Reply::Int(len as i64)
        }
    }
}

/// The page's note for a value too large to hold.
pub(super) fn too_large(name: &str) -> Reply {
    err(ErrorReply::NotRun(NotRun::TooLarge {
        name: name.to_owned(),
    }))
}

fn setrange(db: &mut Db, now: i64, key: &[u8], offset: &[u8], value: &[u8]) -> Reply {
    let offset = match int_arg(offset) {
        Ok(o) => o,
        Err(e) => return e,
    };
    if offset < 0 {
        return derr(DataError::OffsetOutOfRange);
    }
    let old_len = match get_str(db, key, now) {
        Err(e) => return e,
        Ok(v) => v.map(Vec::len),
    };
    if value.is_empty() {
        return Reply::Int(old_len.unwrap_or(0) as i64);
    }
    let end = offset as u64 + value.len() as u64;
    if end > MAX_STRING {
        return derr(DataError::StringTooLong);
    }
    if end > PAGE_MAX_STRING {
        return too_large("setrange");
    }
    if old_len.is_none() {
        db.insert(key, Value::Str(Vec::new()), now, false);
    }
    let len = if let Some(Value::Str(v)) = db.value_mut(key, now) {
        let end = end as usize;
        if v.len() < end {
            v.resize(end, 0);
        }
        if let Some(dst) = v.get_mut(offset as usize..end) {
            dst.copy_from_slice(value);
        }
        v.len()
    } else {
        0
    };
    db.set_str_encoding(key, "raw");
    db.touch(key);
    Reply::Int(len as i64)
}

fn getrange(db: &Db, now: i64, key: &[u8], start: &[u8], end: &[u8]) -> Reply {
    let (mut start, mut end) = match (int_arg(start), int_arg(end)) {
        (Ok(s), Ok(e)) => (s, e),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    let empty = || Reply::Bulk(Some(Vec::new()));
    let v = match get_str(db, key, now) {
        Ok(Some(v)) => v,
        Ok(None) => return empty(),
        Err(e) => return e,
    };
    let len = v.len() as i64;
    if start < 0 && end < 0 && start > end {
        return empty();
    }
    if start < 0 {
        start = len.saturating_add(start);
    }
    if end < 0 {
        end = len.saturating_add(end);
    }
    start = start.max(0);
    end = end.max(0);
    if end >= len {
        end = len - 1;
    }
    if start > end || len == 0 {
        return empty();
    }
    v.get(start as usize..=end as usize)
        .map_or_else(empty, bulk)
}

/// The most cells of LCS's table the page fills (Redis's own limit is 512 MB of them).
const PAGE_MAX_LCS_CELLS: u64 = 16 * 1024 * 1024;

fn lcs(db: &Db, now: i64, args: &[Vec<u8>]) -> Reply {
    let (a, b) = match (db.value(arg(args, 1), now), db.value(arg(args, 2), now)) {
        (Some(x), _) | (_, Some(x)) if !matches!(x, Value::Str(_)) => {
            return derr(DataError::LcsNotStrings);
        }
        (a, b) => {
            let s = |v: Option<&Value>| match v {
                Some(Value::Str(s)) => s.clone(),
                _ => Vec::new(),
            };
            (s(a), s(b))
        }
    };
    let (mut getlen, mut getidx, mut withlen) = (false, false, false);
    let mut minlen: i64 = 0;
    let mut j = 3;
    while let Some(opt) = args.get(j) {
        let more = j + 1 < args.len();
        if is(opt, "idx") {
            getidx = true;
        } else if is(opt, "len") {
            getlen = true;
        } else if is(opt, "withmatchlen") {
            withlen = true;
        } else if is(opt, "minmatchlen") && more {
            match int_arg(arg(args, j + 1)) {
                Ok(n) => minlen = n.max(0),
                Err(e) => return e,
            }
            j += 1;
        } else {
            return err(ErrorReply::Syntax);
        }
        j += 1;
    }
    if getlen && getidx {
        return derr(DataError::LcsLenAndIdx);
    }
    let (alen, blen) = (a.len(), b.len());
    let cells = (alen as u64 + 1) * (blen as u64 + 1);
    if cells * 4 > MAX_STRING {
        return derr(DataError::LcsTooBig);
    }
    if cells > PAGE_MAX_LCS_CELLS {
        return too_large("lcs");
    }
    let w = blen + 1;
    let mut t = vec![0u32; cells as usize];
    let at = |t: &[u32], i: usize, j: usize| t.get(j + i * w).copied().unwrap_or(0);
    for i in 1..=alen {
        for j in 1..=blen {
            let v = if a.get(i - 1) == b.get(j - 1) {
                at(&t, i - 1, j - 1) + 1
            } else {
                at(&t, i - 1, j).max(at(&t, i, j - 1))
            };
            if let Some(c) = t.get_mut(j + i * w) {
                *c = v;
            }
        }
    }
    let total = at(&t, alen, blen);
    let mut result = vec![0u8; total as usize];
    let mut idx = total as usize;
    let mut matches = Vec::new();
    let (mut i, mut j) = (alen, blen);
    let (mut a_start, mut a_end, mut b_start, mut b_end) = (alen, 0, 0, 0);
    let compute = getidx || !getlen;
    while compute && i > 0 && j > 0 {
        let mut emit = false;
        if a.get(i - 1) == b.get(j - 1) {
            if let (Some(r), Some(&c)) = (result.get_mut(idx.wrapping_sub(1)), a.get(i - 1)) {
                *r = c;
            }
            if a_start == alen {
                a_start = i - 1;
                a_end = i - 1;
                b_start = j - 1;
                b_end = j - 1;
            } else if a_start == i && b_start == j {
                a_start -= 1;
                b_start -= 1;
            } else {
                emit = true;
            }
            if a_start == 0 || b_start == 0 {
                emit = true;
            }
            idx = idx.saturating_sub(1);
            i -= 1;
            j -= 1;
        } else {
            if at(&t, i - 1, j) > at(&t, i, j - 1) {
                i -= 1;
            } else {
                j -= 1;
            }
            if a_start != alen {
                emit = true;
            }
        }
        let match_len = (a_end as i64) - (a_start as i64) + 1;
        if emit {
            if (minlen == 0 || match_len >= minlen) && getidx {
                let mut m = vec![
                    Reply::Array(vec![Reply::Int(a_start as i64), Reply::Int(a_end as i64)]),
                    Reply::Array(vec![Reply::Int(b_start as i64), Reply::Int(b_end as i64)]),
                ];
                if withlen {
                    m.push(Reply::Int(match_len));
                }
                matches.push(Reply::Array(m));
            }
            a_start = alen;
        }
    }
    if getidx {
        Reply::Array(vec![
            bulk(b"matches"),
            Reply::Array(matches),
            bulk(b"len"),
            Reply::Int(i64::from(total)),
        ])
    } else if getlen {
        Reply::Int(i64::from(total))
    } else {
        Reply::Bulk(Some(result))
    }
}
