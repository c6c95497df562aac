//! Hashes: HSET HMSET HSETNX HGET HMGET HDEL HLEN HGETALL HKEYS HVALS HEXISTS HINCRBY
//! HINCRBYFLOAT HSTRLEN HRANDFIELD HSCAN, as Redis 7.0.15's `t_hash.c` answers them.
//! HRANDFIELD picks deterministically (the first fields, cycled for a negative count).

use super::ld::LongDouble;
use super::strings::too_large;
use super::util::{arg, bulk, derr, err, int_arg, is, nil, parse_i64, wrong_args};
use super::{DataError, Db, Value};
use crate::core::server::reply::{ErrorReply, Reply};

/// 7.0's `hash-max-listpack-entries` and `hash-max-listpack-value`.
const MAX_LISTPACK_ENTRIES: usize = 128;
const MAX_LISTPACK_VALUE: usize = 64;

/// Runs `name` if this module owns it (`None` otherwise).
pub(super) fn run(db: &mut Db, now: i64, name: &str, args: &[Vec<u8>]) -> Option<Reply> {
    const HASH_CMDS: &[&str] = &[
        "hset",
        "hmset",
        "hsetnx",
        "hget",
        "hmget",
        "hdel",
        "hlen",
        "hgetall",
        "hkeys",
        "hvals",
        "hexists",
        "hincrby",
        "hincrbyfloat",
        "hstrlen",
        "hrandfield",
        "hscan",
    ];
    if !HASH_CMDS.contains(&name) {
        return None;
    }
    let key = arg(args, 1);
    // Arguments Redis reads before it looks the key up.
    let early = match name {
        "hset" | "hmset" if args.len() % 2 == 1 => Some(wrong_args(name)),
        "hincrby" => int_arg(arg(args, 3)).err(),
        "hincrbyfloat" => match LongDouble::parse(arg(args, 3)) {
            None => Some(err(ErrorReply::NotFloat)),
            Some(l) if l.is_inf() => Some(derr(DataError::Text("ERR value is NaN or Infinity"))),
            Some(_) => None,
        },
        "hrandfield" if args.len() >= 3 => hrandfield_args(args).err(),
        "hscan" if super::util::parse_cursor(arg(args, 2)).is_none() => {
            Some(derr(DataError::Text("ERR invalid cursor")))
        }
        _ => None,
    };
    if let Some(e) = early {
        return Some(e);
    }
    let read = match db.value(key, now) {
        None => None,
        Some(Value::Hash(h)) => Some(h),
        Some(_) => return Some(err(ErrorReply::WrongType)),
    };
    let field = arg(args, 2);
    Some(match name {
        "hget" => read.and_then(|h| h.get(field)).map_or(nil(), bulk),
        "hmget" => Reply::Array(
            args.iter()
                .skip(2)
                .map(|f| read.and_then(|h| h.get(f)).map_or(nil(), bulk))
                .collect(),
        ),
        "hlen" => Reply::Int(read.map_or(0, |h| h.fields.len()) as i64),
        "hexists" => Reply::Int(i64::from(read.is_some_and(|h| h.get(field).is_some()))),
        "hstrlen" => Reply::Int(read.and_then(|h| h.get(field)).map_or(0, <[u8]>::len) as i64),
        "hgetall" | "hkeys" | "hvals" => Reply::Array(
            read.map(|h| {
                h.fields
                    .iter()
                    .flat_map(|(f, v)| {
                        let mut out = Vec::new();
                        if name != "hvals" {
                            out.push(bulk(f));
                        }
                        if name != "hkeys" {
                            out.push(bulk(v));
                        }
                        out
                    })
                    .collect()
            })
            .unwrap_or_default(),
        ),
        "hrandfield" => hrandfield(read, args),
        "hscan" => hscan(read, args),
        "hset" | "hmset" => {
            let mut created = 0;
            let pairs: Vec<(&[u8], &[u8])> = args
                .get(2..)
                .unwrap_or(&[])
                .chunks_exact(2)
                .map(|p| (arg(p, 0), arg(p, 1)))
                .collect();
            let h = hash_mut(db, now, key);
            for (f, v) in pairs {
                if h.set(f, v) {
                    created += 1;
                }
            }
            db.touch(key);
            if name == "hset" {
                Reply::Int(created)
            } else {
                Reply::Ok
            }
        }
        "hsetnx" => {
            if read.is_some_and(|h| h.get(field).is_some()) {
                Reply::Int(0)
            } else {
                let v = arg(args, 3).to_vec();
                hash_mut(db, now, key).set(field, &v);
                db.touch(key);
                Reply::Int(1)
            }
        }
        "hdel" => {
            if read.is_none() {
                return Some(Reply::Int(0));
            }
            let mut n = 0;
            let mut empty = false;
            if let Some(Value::Hash(h)) = db.value_mut(key, now) {
                for f in args.iter().skip(2) {
                    if let Some(i) = h.fields.iter().position(|(x, _)| x == f) {
                        h.fields.remove(i);
                        n += 1;
                    }
                }
                empty = h.fields.is_empty();
            }
            if empty {
                db.remove(key, now);
            } else if n > 0 {
                db.touch(key);
            }
            Reply::Int(n)
        }
        "hincrby" => {
            let by = match int_arg(arg(args, 3)) {
                Ok(b) => b,
                Err(e) => return Some(e),
            };
            let old = match read.and_then(|h| h.get(field)) {
                None => 0,
                Some(v) => match parse_i64(v) {
                    Some(n) => n,
                    None => return Some(derr(DataError::HashNotInteger)),
                },
            };
            let Some(new) = old.checked_add(by) else {
                return Some(err(ErrorReply::Overflow));
            };
            hash_mut(db, now, key).set(field, new.to_string().as_bytes());
            db.touch(key);
            Reply::Int(new)
        }
        "hincrbyfloat" => {
            let Some(by) = LongDouble::parse(arg(args, 3)) else {
                return Some(err(ErrorReply::NotFloat));
            };
            if by.is_inf() {
                return Some(derr(DataError::Text("ERR value is NaN or Infinity")));
            }
            let old = match read.and_then(|h| h.get(field)) {
                None => LongDouble::parse(b"0"),
                Some(v) => match LongDouble::parse(v) {
                    Some(n) => Some(n),
                    None => return Some(derr(DataError::HashNotFloat)),
                },
            };
            let new = match old.and_then(|o| o.add(&by)) {
                Some(n) if !n.is_inf() => n.human(),
                _ => return Some(derr(DataError::NanOrInfinity)),
            };
            hash_mut(db, now, key).set(field, new.as_bytes());
            db.touch(key);
            bulk(new.as_bytes())
        }
        _ => return None,
    })
}

/// The hash at `key`, created empty if absent (the caller checked the type).
fn hash_mut<'a>(db: &'a mut Db, now: i64, key: &[u8]) -> &'a mut Hash {
    if !matches!(db.value(key, now), Some(Value::Hash(_))) {
        db.insert(key, Value::Hash(Hash::default()), now, false);
    }
    match db.value_mut(key, now) {
        Some(Value::Hash(h)) => h,
        // Unreachable: inserted just above. A throwaway keeps the page from panicking.
        _ => Box::leak(Box::default()),
    }
}

fn hrandfield(read: Option<&Hash>, args: &[Vec<u8>]) -> Reply {
    if args.len() == 2 {
        return read
            .and_then(|h| h.fields.first())
            .map_or(nil(), |(f, _)| bulk(f));
    }
    let (count, with_values) = match hrandfield_args(args) {
        Ok(a) => a,
        Err(e) => return e,
    };
    let Some(h) = read else {
        return Reply::Array(Vec::new());
    };
    let n = h.fields.len();
    let picks: Vec<&(Vec<u8>, Vec<u8>)> = if count >= 0 {
        h.fields.iter().take(count as usize).collect()
    } else {
        let want = count.unsigned_abs();
        if want > 1_000_000 {
            return too_large("hrandfield");
        }
        h.fields.iter().cycle().take(want as usize).collect()
    };
    let _ = n;
    let mut out = Vec::new();
    for (f, v) in picks {
        out.push(bulk(f));
        if with_values {
            out.push(bulk(v));
        }
    }
    Reply::Array(out)
}

/// HRANDFIELD's count and WITHVALUES, checked as Redis checks them before the key.
fn hrandfield_args(args: &[Vec<u8>]) -> Result<(i64, bool), Reply> {
    let count = int_arg(arg(args, 2))?;
    if count == i64::MIN {
        return Err(derr(DataError::Text(
            "ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807",
        )));
    }
    let with_values = match args.get(3) {
        None => false,
        Some(w) if args.len() == 4 && is(w, "withvalues") => true,
        Some(_) => return Err(err(ErrorReply::Syntax)),
    };
    if with_values && !(-(i64::MAX / 2)..=i64::MAX / 2).contains(&count) {
        return Err(derr(DataError::ValueOutOfRange));
    }
    Ok((count, with_values))
}

/// HSCAN: a listpack hash comes back whole with cursor 0, as Redis answers it.
fn hscan(read: Option<&Hash>, args: &[Vec<u8>]) -> Reply {
    if read.is_none() {
        return Reply::Array(vec![bulk(b"0"), Reply::Array(Vec::new())]);
    }
    let mut pattern: Option<&[u8]> = None;
    let mut j = 3;
    while j < args.len() {
        let opt = arg(args, j);
        if j + 1 >= args.len() {
            return err(ErrorReply::Syntax);
        }
        if is(opt, "count") {
            match int_arg(arg(args, j + 1)) {
                Ok(n) if n >= 1 => {}
                Ok(_) => return err(ErrorReply::Syntax),
                Err(e) => return e,
            }
        } else if is(opt, "match") {
            pattern = Some(arg(args, j + 1));
        } else {
            return err(ErrorReply::Syntax);
        }
        j += 2;
    }
    let mut out = Vec::new();
    for (f, v) in read.map(|h| h.fields.as_slice()).unwrap_or(&[]) {
        if pattern.is_none_or(|p| p == b"*" || super::util::glob_match(p, f, false)) {
            out.push(bulk(f));
            out.push(bulk(v));
        }
    }
    Reply::Array(vec![bulk(b"0"), Reply::Array(out)])
}

/// A hash's fields in insertion order (what a listpack keeps).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Hash {
    /// Field–value pairs.
    pub fields: Vec<(Vec<u8>, Vec<u8>)>,
    /// Whether it became a `hashtable` (more than 128 fields, or a field or value longer than
    /// 64 bytes); Redis never converts back.
    pub big: bool,
}

impl Hash {
    /// `listpack`, or `hashtable` once it outgrew 7.0's `hash-max-listpack-*` thresholds.
    pub fn encoding(&self) -> &'static str {
        if self.big {
            "hashtable"
        } else {
            "listpack"
        }
    }

    /// The value of `field`.
    pub fn get(&self, field: &[u8]) -> Option<&[u8]> {
        self.fields
            .iter()
            .find(|(f, _)| f == field)
            .map(|(_, v)| v.as_slice())
    }

    /// Sets `field`; whether it is new.
    pub fn set(&mut self, field: &[u8], value: &[u8]) -> bool {
        if field.len() > MAX_LISTPACK_VALUE || value.len() > MAX_LISTPACK_VALUE {
            self.big = true;
        }
        let new = match self.fields.iter_mut().find(|(f, _)| f == field) {
            Some((_, v)) => {
                *v = value.to_vec();
                false
            }
            None => {
                self.fields.push((field.to_vec(), value.to_vec()));
                true
            }
        };
        if self.fields.len() > MAX_LISTPACK_ENTRIES {
            self.big = true;
        }
        new
    }
}
