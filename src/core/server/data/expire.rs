//! Expiry on the simulated clock: EXPIRE PEXPIRE EXPIREAT PEXPIREAT (NX XX GT LT), TTL PTTL
//! EXPIRETIME PEXPIRETIME, PERSIST, as Redis 7.0.15's `expire.c` answers them.

use super::util::{arg, derr, err, int_arg, is};
use super::{DataError, Db};
use crate::core::server::reply::{ErrorReply, Reply};

/// Runs `name` if this module owns it (`None` otherwise).
pub(super) fn run(db: &mut Db, now: i64, name: &str, args: &[Vec<u8>]) -> Option<Reply> {
    let key = arg(args, 1);
    Some(match name {
        "expire" => expire(db, now, name, args, now, true),
        "pexpire" => expire(db, now, name, args, now, false),
        "expireat" => expire(db, now, name, args, 0, true),
        "pexpireat" => expire(db, now, name, args, 0, false),
        "ttl" => ttl(db, now, key, false, false),
        "pttl" => ttl(db, now, key, true, false),
        "expiretime" => ttl(db, now, key, false, true),
        "pexpiretime" => ttl(db, now, key, true, true),
        "persist" => match db.entry_mut(key, now) {
            Some(e) if e.expire_at.is_some() => {
                e.expire_at = None;
                db.touch(key);
                Reply::Int(1)
            }
            _ => Reply::Int(0),
        },
        _ => return None,
    })
}

fn expire(db: &mut Db, now: i64, name: &str, args: &[Vec<u8>], base: i64, secs: bool) -> Reply {
    let (mut nx, mut xx, mut gt, mut lt) = (false, false, false, false);
    for opt in args.iter().skip(3) {
        if is(opt, "nx") {
            nx = true;
        } else if is(opt, "xx") {
            xx = true;
        } else if is(opt, "gt") {
            gt = true;
        } else if is(opt, "lt") {
            lt = true;
        } else {
            return derr(DataError::UnsupportedOption {
                option: String::from_utf8_lossy(opt).into_owned(),
            });
        }
    }
    if nx && (xx || gt || lt) {
        return derr(DataError::ExpireNxAndOthers);
    }
    if gt && lt {
        return derr(DataError::ExpireGtAndLt);
    }
    let mut when = match int_arg(arg(args, 2)) {
        Ok(w) => w,
        Err(e) => return e,
    };
    let invalid = || {
        derr(DataError::InvalidExpire {
            command: name.to_owned(),
        })
    };
    if secs {
        match when.checked_mul(1000) {
            Some(w) => when = w,
            None => return invalid(),
        }
    }
    if when > i64::MAX - base {
        return invalid();
    }
    when += base;
    let Some(entry) = db.entry_mut(arg(args, 1), now) else {
        return Reply::Int(0);
    };
    let current = entry.expire_at;
    if (nx && current.is_some())
        || (xx && current.is_none())
        || (gt && current.is_none_or(|c| when <= c))
        || (lt && current.is_some_and(|c| when >= c))
    {
        return Reply::Int(0);
    }
    let key = arg(args, 1);
    if when <= now {
        db.remove(key, now);
    } else {
        entry.expire_at = Some(when);
        db.touch(key);
    }
    Reply::Int(1)
}

fn ttl(db: &Db, now: i64, key: &[u8], ms: bool, abs: bool) -> Reply {
    let Some(entry) = db.peek_entry(key, now) else {
        return Reply::Int(-2);
    };
    match entry.expire_at {
        None => Reply::Int(-1),
        Some(at) => {
            let t = if abs { at } else { at - now }.max(0);
            // Rounded to seconds without overflowing at the largest expiry (as 7.0.15 prints
            // EXPIRETIME of PEXPIREAT 9223372036854775807: 9223372036854776).
            Reply::Int(if ms {
                t
            } else {
                ((i128::from(t) + 500) / 1000) as i64
            })
        }
    }
}

/// An expiry argument of SET, SETEX, PSETEX or GETEX as an absolute time in milliseconds
/// (Redis's `getExpireMillisecondsOrReply`): `relative` for EX and PX, `secs` for EX and EXAT.
pub(super) fn expire_arg(
    v: &[u8],
    secs: bool,
    relative: bool,
    now: i64,
    command: &str,
) -> Result<i64, Reply> {
    let ms = super::util::parse_i64(v).ok_or(err(ErrorReply::NotInteger))?;
    let invalid = || {
        derr(DataError::InvalidExpire {
            command: command.to_owned(),
        })
    };
    if ms <= 0 || (secs && ms > i64::MAX / 1000) {
        return Err(invalid());
    }
    let ms = if secs { ms * 1000 } else { ms };
    let ms = if relative {
        ms.checked_add(now).ok_or_else(invalid)?
    } else {
        ms
    };
    if ms <= 0 {
        return Err(invalid());
    }
    Ok(ms)
}
