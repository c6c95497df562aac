//! Keyspace commands on keys of any type: DEL UNLINK EXISTS TOUCH TYPE OBJECT RENAME RENAMENX
//! COPY SCAN KEYS RANDOMKEY (DBSIZE and FLUSHALL are the node's, in the cluster), and DUMP /
//! RESTORE answered with the page's note.

use super::util::{arg, bulk, derr, err, glob_match, int_arg, is, nil};
use super::{DataError, Db, Value};
use crate::core::server::reply::{ErrorReply, NotRun, Reply};

/// Runs `name` if this module owns it (`None` otherwise).
pub(super) fn run(db: &mut Db, now: i64, name: &str, args: &[Vec<u8>]) -> Option<Reply> {
    let key = arg(args, 1);
    Some(match name {
        "del" | "unlink" => Reply::Int(
            args.iter()
                .skip(1)
                .filter(|k| db.remove(k, now).is_some())
                .count() as i64,
        ),
        "exists" => Reply::Int(
            args.iter()
                .skip(1)
                .filter(|k| db.peek_entry(k, now).is_some())
                .count() as i64,
        ),
        "touch" => Reply::Int(
            args.iter()
                .skip(1)
                .filter(|k| db.entry(k, now).is_some())
                .count() as i64,
        ),
        // TYPE, EXISTS and OBJECT do not count as accesses (Redis's LOOKUP_NOTOUCH).
        "type" => Reply::Status(
            db.peek_entry(key, now)
                .map_or("none", |e| e.value.type_name())
                .to_owned(),
        ),
        "rename" | "renamenx" => rename(db, now, key, arg(args, 2), name == "renamenx"),
        "copy" => copy(db, now, args),
        "keys" => Reply::Array(
            db.iter()
                .filter(|(k, e)| !e.is_expired(now) && matches(arg(args, 1), k))
                .map(|(k, _)| bulk(k))
                .collect(),
        ),
        "randomkey" => db
            .iter()
            .find(|(_, e)| !e.is_expired(now))
            .map_or(nil(), |(k, _)| bulk(k)),
        "scan" => scan(db, now, args),
        "dump" if db.entry(key, now).is_none() => nil(),
        "dump" | "restore" => err(ErrorReply::NotRun(NotRun::Serialized {
            name: name.to_owned(),
        })),
        "object" => object(db, now, &String::from_utf8_lossy(key).to_lowercase(), args),
        _ => {
            let sub = name.strip_prefix("object|")?;
            object(db, now, sub, args)
        }
    })
}

/// KEYS and SCAN's MATCH: a lone `*` matches every key (even the empty one) without matching.
fn matches(pattern: &[u8], key: &[u8]) -> bool {
    pattern == b"*" || glob_match(pattern, key, false)
}

fn rename(db: &mut Db, now: i64, key: &[u8], dest: &[u8], nx: bool) -> Reply {
    if db.entry(key, now).is_none() {
        return err(ErrorReply::NoSuchKey);
    }
    if key == dest {
        return if nx { Reply::Int(0) } else { Reply::Ok };
    }
    if db.entry(dest, now).is_some() {
        if nx {
            return Reply::Int(0);
        }
        db.remove(dest, now);
    }
    let enc = match db.value(key, now) {
        Some(Value::Str(v)) => Some(db.str_encoding(key, v)),
        _ => None,
    };
    let Some(entry) = db.remove(key, now) else {
        return err(ErrorReply::NoSuchKey);
    };
    db.put_entry(dest, entry);
    // RENAME's own lookup counts as an access (recorded on redis-server 7.0.15).
    db.set_access_time(dest, now);
    if let Some(enc) = enc {
        db.set_str_encoding(dest, enc);
    }
    if nx {
        Reply::Int(1)
    } else {
        Reply::Ok
    }
}

fn copy(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Reply {
    let mut replace = false;
    let mut j = 3;
    while let Some(opt) = args.get(j) {
        if is(opt, "replace") {
            replace = true;
        } else if is(opt, "db") && j + 1 < args.len() {
            let id = match int_arg(arg(args, j + 1)) {
                Ok(id) => id,
                Err(e) => return e,
            };
            if !(0..16).contains(&id) {
                return derr(DataError::Text("ERR DB index is out of range"));
            }
            if id != 0 {
                return derr(DataError::CopyToOtherDb);
            }
            j += 1;
        } else {
            return err(ErrorReply::Syntax);
        }
        j += 1;
    }
    let (key, dest) = (arg(args, 1), arg(args, 2));
    if key == dest {
        return derr(DataError::Text(
            "ERR source and destination objects are the same",
        ));
    }
    let Some(entry) = db.entry(key, now).cloned() else {
        return Reply::Int(0);
    };
    if db.entry(dest, now).is_some() {
        if !replace {
            return Reply::Int(0);
        }
        db.remove(dest, now);
    }
    let enc = match &entry.value {
        Value::Str(v) => Some(db.str_encoding(key, v)),
        _ => None,
    };
    db.put_entry(dest, entry);
    db.set_access_time(dest, now);
    if let Some(enc) = enc {
        db.set_str_encoding(dest, enc);
    }
    Reply::Int(1)
}

/// SCAN cursor [MATCH pattern] [COUNT count] [TYPE type]: the page's cursor is a position in
/// key order (Redis's walks its hash table); 0 starts and ends a full iteration.
fn scan(db: &Db, now: i64, args: &[Vec<u8>]) -> Reply {
    let Some(cursor) = super::util::parse_cursor(arg(args, 1)) else {
        return derr(DataError::Text("ERR invalid cursor"));
    };
    let mut pattern: Option<&[u8]> = None;
    let mut count: i64 = 10;
    let mut typ: Option<String> = None;
    let mut j = 2;
    while j < args.len() {
        let opt = arg(args, j);
        let has = j + 1 < args.len();
        if is(opt, "count") && has {
            match int_arg(arg(args, j + 1)) {
                Ok(n) if n >= 1 => count = n,
                Ok(_) => return err(ErrorReply::Syntax),
                Err(e) => return e,
            }
        } else if is(opt, "match") && has {
            pattern = Some(arg(args, j + 1));
        } else if is(opt, "type") && has {
            typ = Some(String::from_utf8_lossy(arg(args, j + 1)).to_lowercase());
        } else {
            return err(ErrorReply::Syntax);
        }
        j += 2;
    }
    let live: Vec<(&Vec<u8>, &super::Entry)> =
        db.iter().filter(|(_, e)| !e.is_expired(now)).collect();
    let start = usize::try_from(cursor)
        .unwrap_or(usize::MAX)
        .min(live.len());
    let end = start
        .saturating_add(usize::try_from(count).unwrap_or(usize::MAX))
        .min(live.len());
    let next = if end >= live.len() { 0 } else { end };
    let keys = live
        .get(start..end)
        .unwrap_or(&[])
        .iter()
        .filter(|(k, e)| {
            pattern.is_none_or(|p| matches(p, k))
                && typ.as_deref().is_none_or(|t| e.value.type_name() == t)
        })
        .map(|(k, _)| bulk(k))
        .collect();
    Reply::Array(vec![bulk(next.to_string().as_bytes()), Reply::Array(keys)])
}

const OBJECT_HELP: &[&str] = &[
    "OBJECT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
    "ENCODING <key>",
    "    Return the kind of internal representation used in order to store the value",
    "    associated with a <key>.",
    "FREQ <key>",
    "    Return the access frequency index of the <key>. The returned integer is",
    "    proportional to the logarithm of the recent access frequency of the key.",
    "IDLETIME <key>",
    "    Return the idle time of the <key>, that is the approximated number of",
    "    seconds elapsed since the last access to the key.",
    "REFCOUNT <key>",
    "    Return the number of references of the value associated with the specified",
    "    <key>.",
    "HELP",
    "    Prints this help.",
];

/// OBJECT ENCODING / REFCOUNT / IDLETIME / FREQ / HELP.
fn object(db: &Db, now: i64, sub: &str, args: &[Vec<u8>]) -> Reply {
    let key = arg(args, 2);
    match sub {
        "help" => Reply::Array(
            OBJECT_HELP
                .iter()
                .map(|l| Reply::Status((*l).to_owned()))
                .collect(),
        ),
        "encoding" => match db.peek_entry(key, now) {
            None => nil(),
            Some(e) => bulk(encoding(db, key, &e.value).as_bytes()),
        },
        "refcount" => match db.peek_entry(key, now).map(|e| &e.value) {
            None => nil(),
            Some(Value::Str(v))
                if db.str_encoding(key, v) == "int"
                    && super::util::parse_i64(v).is_some_and(|n| (0..10000).contains(&n)) =>
            {
                Reply::Int(2_147_483_647)
            }
            Some(_) => Reply::Int(1),
        },
        "idletime" => match db.peek_entry(key, now) {
            None => nil(),
            Some(_) => Reply::Int(db.idle_seconds(key, now)),
        },
        "freq" => match db.peek_entry(key, now) {
            None => nil(),
            Some(_) => derr(DataError::NoLfuPolicy),
        },
        _ => derr(DataError::UnknownSubcommand {
            sub: String::from_utf8_lossy(arg(args, 1)).into_owned(),
            container: "OBJECT",
        }),
    }
}

/// The `OBJECT ENCODING` of `value` at `key`.
pub(super) fn encoding(db: &Db, key: &[u8], value: &Value) -> &'static str {
    match value {
        Value::Str(v) => db.str_encoding(key, v),
        Value::List(l) => l.encoding(),
        Value::Hash(h) => h.encoding(),
        Value::Set(s) => s.encoding(),
        Value::ZSet(z) => z.encoding(),
        Value::Stream(s) => s.encoding(),
    }
}
