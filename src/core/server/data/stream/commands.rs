//! The stream commands, parsed and answered in Redis 7.0.15's order of checks (`t_stream.c`):
//! XADD XTRIM (with `streamParseAddOrTrimArgsOrReply`), XRANGE XREVRANGE XLEN XDEL XREAD
//! XSETID XINFO.

use super::nodes::{Item, Trim, LISTPACK_MAX_SIZE, NODE_MAX_ENTRIES};
use super::{c_str, decr, id_text, incr, parse_id, Stream, StreamError, StreamId};
use crate::core::server::command::{parse_i64, CommandError};
use crate::core::server::data::{Db, Value};
use crate::core::server::reply::{ErrorReply, Reply};

type Answer = Result<Reply, ErrorReply>;

const MAX_ID: StreamId = (u64::MAX, u64::MAX);

fn err(e: StreamError) -> ErrorReply {
    ErrorReply::Stream(e)
}

fn arg(args: &[Vec<u8>], i: usize) -> &[u8] {
    args.get(i).map(Vec::as_slice).unwrap_or_default()
}

/// Whether argument `i` is `word` as C's `strcasecmp` sees it.
fn is(args: &[Vec<u8>], i: usize, word: &[u8]) -> bool {
    c_str(arg(args, i)).eq_ignore_ascii_case(word)
}

fn int_arg(args: &[Vec<u8>], i: usize) -> Result<i64, ErrorReply> {
    parse_i64(arg(args, i)).ok_or(ErrorReply::NotInteger)
}

/// The stream at `key`: `Ok(None)` if there is none, WRONGTYPE for another type.
fn read<'a>(db: &'a Db, key: &[u8], now: i64) -> Result<Option<&'a Stream>, ErrorReply> {
    match db.value(key, now) {
        None => Ok(None),
        Some(Value::Stream(s)) => Ok(Some(s)),
        Some(_) => Err(ErrorReply::WrongType),
    }
}

fn write<'a>(db: &'a mut Db, key: &[u8], now: i64) -> Result<Option<&'a mut Stream>, ErrorReply> {
    match db.value_mut(key, now) {
        None => Ok(None),
        Some(Value::Stream(s)) => Ok(Some(s)),
        Some(_) => Err(ErrorReply::WrongType),
    }
}

fn entry_reply(item: &Item) -> Reply {
    let fields = item
        .fields
        .iter()
        .flat_map(|(f, v)| [Reply::Bulk(Some(f.clone())), Reply::Bulk(Some(v.clone()))])
        .collect();
    Reply::Array(vec![
        Reply::Bulk(Some(id_text(item.id))),
        Reply::Array(fields),
    ])
}

/// What XADD and XTRIM were told about trimming (and, for XADD, the id).
#[derive(Default)]
struct AddTrimArgs {
    id: StreamId,
    id_given: bool,
    seq_given: bool,
    no_mkstream: bool,
    trim: Option<Trim>,
    approx: bool,
    limit: i64,
    /// Where the id (or `*`) is.
    id_pos: usize,
}

/// `streamParseAddOrTrimArgsOrReply`.
fn parse_add_trim(args: &[Vec<u8>], xadd: bool) -> Result<AddTrimArgs, ErrorReply> {
    let mut a = AddTrimArgs::default();
    let mut limit_given = false;
    let mut i = 2;
    while i < args.len() {
        let moreargs = args.len() - 1 - i;
        let opt = c_str(arg(args, i));
        let strategy = opt.eq_ignore_ascii_case(b"maxlen") || opt.eq_ignore_ascii_case(b"minid");
        if xadd && opt == b"*" {
            break;
        } else if strategy && moreargs > 0 {
            if a.trim.is_some() {
                return Err(err(StreamError::MaxLenAndMinId));
            }
            a.approx = false;
            let next = c_str(arg(args, i + 1));
            if moreargs >= 2 && next == b"~" {
                a.approx = true;
                i += 1;
            } else if moreargs >= 2 && next == b"=" {
                i += 1;
            }
            if opt.eq_ignore_ascii_case(b"maxlen") {
                let max = int_arg(args, i + 1)?;
                if max < 0 {
                    return Err(err(StreamError::MaxLenNegative));
                }
                a.trim = Some(Trim::MaxLen(max as u64));
            } else {
                let min = parse_id(arg(args, i + 1), 0, true, false).map_err(err)?;
                a.trim = Some(Trim::MinId(min.id));
            }
            i += 1;
        } else if opt.eq_ignore_ascii_case(b"limit") && moreargs > 0 {
            a.limit = int_arg(args, i + 1)?;
            if a.limit < 0 {
                return Err(err(StreamError::LimitNegative));
            }
            limit_given = true;
            i += 1;
        } else if xadd && opt.eq_ignore_ascii_case(b"nomkstream") {
            a.no_mkstream = true;
        } else if xadd {
            let id = parse_id(arg(args, i), 0, true, true).map_err(err)?;
            a.id = id.id;
            a.seq_given = id.seq_given;
            a.id_given = true;
            break;
        } else {
            return Err(ErrorReply::Syntax);
        }
        i += 1;
    }
    if a.limit != 0 && a.trim.is_none() {
        return Err(err(StreamError::LimitWithoutStrategy));
    }
    if !xadd && a.trim.is_none() {
        return Err(err(StreamError::TrimWithoutStrategy));
    }
    if limit_given {
        if !a.approx {
            return Err(err(StreamError::LimitWithoutTilde));
        }
    } else if a.approx {
        a.limit = (100 * NODE_MAX_ENTRIES as i64).clamp(1, 1_000_000);
    } else {
        a.limit = 0;
    }
    a.id_pos = i;
    Ok(a)
}

/// XADD key [NOMKSTREAM] [MAXLEN|MINID [=|~] threshold [LIMIT count]] *|id field value …
pub(super) fn xadd(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Answer {
    let a = parse_add_trim(args, true)?;
    let field_pos = a.id_pos + 1;
    let rest = args.len().saturating_sub(field_pos);
    if field_pos > args.len() || rest < 2 || !rest.is_multiple_of(2) {
        return Err(CommandError::WrongArity { command: "xadd" }.into());
    }
    if a.id_given && a.seq_given && a.id == (0, 0) {
        return Err(err(StreamError::IdZero));
    }
    let key = arg(args, 1);
    if read(db, key, now)?.is_none() {
        if a.no_mkstream {
            return Ok(Reply::Bulk(None));
        }
        db.insert(key, Value::Stream(Stream::default()), now, false);
    }
    let Some(s) = write(db, key, now)? else {
        return Ok(Reply::Bulk(None));
    };
    if s.last_id == MAX_ID {
        return Err(err(StreamError::Exhausted));
    }
    // `streamAppendItem`: the id, then its checks.
    let last = s.last_id;
    let id = if !a.id_given {
        let ms = now.max(0) as u64;
        if ms > last.0 {
            Some((ms, 0))
        } else {
            incr(last)
        }
    } else if a.seq_given {
        Some(a.id)
    } else if last.0 == a.id.0 {
        if last.1 == u64::MAX {
            // `streamAppendItem` fails here without setting errno, so XADD, finding no EDOM,
            // answers with its other error (recorded on redis-server 7.0.15).
            return Err(err(StreamError::TooLarge));
        }
        incr(last)
    } else {
        Some(a.id)
    };
    let Some(id) = id.filter(|&id| id > last) else {
        return Err(err(StreamError::IdTooSmall));
    };
    let fields: Vec<(Vec<u8>, Vec<u8>)> = args[field_pos..]
        .chunks_exact(2)
        .map(|p| (p[0].clone(), p[1].clone()))
        .collect();
    let total: usize = fields.iter().map(|(f, v)| f.len() + v.len()).sum();
    if total > LISTPACK_MAX_SIZE {
        return Err(err(StreamError::TooLarge));
    }
    s.append(id, fields);
    if let Some(how) = a.trim {
        s.trim(how, a.approx, a.limit);
    }
    db.touch(key);
    Ok(Reply::Bulk(Some(id_text(id))))
}

/// XTRIM key MAXLEN|MINID [=|~] threshold [LIMIT count]
pub(super) fn xtrim(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Answer {
    let a = parse_add_trim(args, false)?;
    let key = arg(args, 1);
    let Some(s) = write(db, key, now)? else {
        return Ok(Reply::Int(0));
    };
    let Some(how) = a.trim else {
        return Ok(Reply::Int(0));
    };
    let deleted = s.trim(how, a.approx, a.limit);
    if deleted > 0 {
        db.touch(key);
    }
    Ok(Reply::Int(deleted))
}

/// A range bound: `(` excludes it (then `-` and `+` are invalid).
fn interval(arg: &[u8], missing_seq: u64) -> Result<(StreamId, bool), ErrorReply> {
    if arg.len() > 1 && arg[0] == b'(' {
        let id = parse_id(&arg[1..], missing_seq, true, false).map_err(err)?;
        Ok((id.id, true))
    } else {
        let id = parse_id(arg, missing_seq, false, false).map_err(err)?;
        Ok((id.id, false))
    }
}

/// XRANGE key start end [COUNT n], XREVRANGE key end start [COUNT n].
pub(super) fn xrange(db: &mut Db, now: i64, args: &[Vec<u8>], rev: bool) -> Answer {
    let (start_arg, end_arg) = if rev { (3, 2) } else { (2, 3) };
    let (mut start, ex) = interval(arg(args, start_arg), 0)?;
    if ex {
        start = incr(start).ok_or(err(StreamError::InvalidStart))?;
    }
    let (mut end, ex) = interval(arg(args, end_arg), u64::MAX)?;
    if ex {
        end = decr(end).ok_or(err(StreamError::InvalidEnd))?;
    }
    let mut count: i64 = -1;
    let mut j = 4;
    while j < args.len() {
        if is(args, j, b"count") && j + 1 < args.len() {
            count = int_arg(args, j + 1)?.max(0);
            j += 2;
        } else {
            return Err(ErrorReply::Syntax);
        }
    }
    let Some(s) = read(db, arg(args, 1), now)? else {
        return Ok(Reply::Array(Vec::new()));
    };
    if count == 0 {
        return Ok(Reply::NilArray);
    }
    let take = usize::try_from(count).unwrap_or(usize::MAX);
    Ok(Reply::Array(
        s.range(start, end, rev)
            .take(take)
            .map(entry_reply)
            .collect(),
    ))
}

/// XLEN key
pub(super) fn xlen(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Answer {
    Ok(Reply::Int(
        read(db, arg(args, 1), now)?.map_or(0, |s| s.length as i64),
    ))
}

/// XDEL key id …
pub(super) fn xdel(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Answer {
    let key = arg(args, 1);
    if read(db, key, now)?.is_none() {
        return Ok(Reply::Int(0));
    }
    let ids = args
        .iter()
        .skip(2)
        .map(|a| parse_id(a, 0, true, false).map(|p| p.id))
        .collect::<Result<Vec<_>, _>>()
        .map_err(err)?;
    let Some(s) = write(db, key, now)? else {
        return Ok(Reply::Int(0));
    };
    let mut deleted = 0;
    let mut first_deleted = false;
    for id in ids {
        if s.delete(id) {
            first_deleted |= id == s.first_id;
            s.max_deleted = s.max_deleted.max(id);
            deleted += 1;
        }
    }
    if deleted > 0 {
        s.after_delete(first_deleted);
        db.touch(key);
    }
    Ok(Reply::Int(deleted))
}

/// XREAD [COUNT n] [BLOCK ms] STREAMS key … id …: what can be served now; with nothing to
/// serve, the nil array (BLOCK answers as a call that timed out).
pub(super) fn xread(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Answer {
    let mut count: i64 = 0;
    let mut streams_at = 0;
    let mut i = 1;
    while i < args.len() {
        let moreargs = args.len() - i - 1;
        if is(args, i, b"block") && moreargs > 0 {
            i += 1;
            let t = parse_i64(arg(args, i)).ok_or(err(StreamError::TimeoutNotInteger))?;
            if t < 0 {
                return Err(err(StreamError::TimeoutNegative));
            }
        } else if is(args, i, b"count") && moreargs > 0 {
            i += 1;
            count = int_arg(args, i)?.max(0);
        } else if is(args, i, b"streams") && moreargs > 0 {
            streams_at = i + 1;
            if !(args.len() - streams_at).is_multiple_of(2) {
                return Err(err(StreamError::Unbalanced));
            }
            break;
        } else if is(args, i, b"group") && moreargs >= 2 {
            return Err(err(StreamError::GroupInXread));
        } else if is(args, i, b"noack") {
            return Err(err(StreamError::NoackInXread));
        } else {
            return Err(ErrorReply::Syntax);
        }
        i += 1;
    }
    if streams_at == 0 {
        return Err(ErrorReply::Syntax);
    }
    let n = (args.len() - streams_at) / 2;
    let keys = &args[streams_at..streams_at + n];
    let mut after = Vec::with_capacity(n);
    for (key, id_arg) in keys.iter().zip(&args[streams_at + n..]) {
        let s = read(db, key, now)?;
        let id = c_str(id_arg);
        if id == b"$" {
            after.push(s.map_or((0, 0), |s| s.last_id));
        } else if id == b">" {
            return Err(err(StreamError::GreaterIdInXread));
        } else {
            after.push(parse_id(id_arg, 0, true, false).map_err(err)?.id);
        }
    }
    let take = match usize::try_from(count) {
        Ok(0) | Err(_) => usize::MAX,
        Ok(n) => n,
    };
    let mut served = Vec::new();
    for (key, gt) in keys.iter().zip(after) {
        let Ok(Some(s)) = read(db, key, now) else {
            continue;
        };
        if s.length == 0 || s.last_live().is_none_or(|max| max <= gt) {
            continue;
        }
        let Some(start) = incr(gt) else {
            continue;
        };
        let entries = s.range(start, MAX_ID, false).take(take).map(entry_reply);
        served.push(Reply::Array(vec![
            Reply::Bulk(Some(key.clone())),
            Reply::Array(entries.collect()),
        ]));
    }
    Ok(if served.is_empty() {
        Reply::NilArray
    } else {
        Reply::Array(served)
    })
}

/// XSETID key last-id [ENTRIESADDED n] [MAXDELETEDID id]
pub(super) fn xsetid(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Answer {
    let id = parse_id(arg(args, 2), 0, true, false).map_err(err)?.id;
    let mut entries_added: i64 = -1;
    let mut max_deleted = (0, 0);
    let mut i = 3;
    while i < args.len() {
        let more = i + 1 < args.len();
        if is(args, i, b"entriesadded") && more {
            entries_added = int_arg(args, i + 1)?;
            if entries_added < 0 {
                return Err(err(StreamError::EntriesAddedNegative));
            }
        } else if is(args, i, b"maxdeletedid") && more {
            max_deleted = parse_id(arg(args, i + 1), 0, true, false).map_err(err)?.id;
            if id < max_deleted {
                return Err(err(StreamError::SetIdBelowMaxDeleted));
            }
        } else {
            return Err(ErrorReply::Syntax);
        }
        i += 2;
    }
    let key = arg(args, 1);
    let Some(s) = write(db, key, now)? else {
        return Err(ErrorReply::NoSuchKey);
    };
    if s.length > 0 {
        if s.last_live().is_some_and(|max| id < max) {
            return Err(err(StreamError::SetIdTooSmall));
        }
        if entries_added != -1 && s.length > entries_added as u64 {
            return Err(err(StreamError::SetIdEntriesAddedTooSmall));
        }
    }
    s.last_id = id;
    if entries_added != -1 {
        s.entries_added = entries_added as u64;
    }
    if max_deleted != (0, 0) {
        s.max_deleted = max_deleted;
    }
    db.touch(key);
    Ok(Reply::Ok)
}

const XINFO_HELP: &[&str] = &[
    "XINFO <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
    "CONSUMERS <key> <groupname>",
    "    Show consumers of <groupname>.",
    "GROUPS <key>",
    "    Show the stream consumer groups.",
    "STREAM <key> [FULL [COUNT <count>]",
    "    Show information about the stream.",
    "HELP",
    "    Prints this help.",
];

/// XINFO HELP, XINFO STREAM key [FULL [COUNT n]].
pub(super) fn xinfo(db: &mut Db, now: i64, args: &[Vec<u8>]) -> Answer {
    let syntax = || {
        let sub = c_str(arg(args, 1));
        let sub = &sub[..sub.len().min(128)];
        err(StreamError::XinfoSyntax {
            sub: String::from_utf8_lossy(sub).replace(['\r', '\n'], " "),
        })
    };
    if is(args, 1, b"help") {
        if args.len() != 2 {
            return Err(syntax());
        }
        return Ok(Reply::Array(
            XINFO_HELP
                .iter()
                .map(|l| Reply::Status((*l).to_owned()))
                .collect(),
        ));
    }
    if args.len() < 3 {
        return Err(syntax());
    }
    let Some(s) = read(db, arg(args, 2), now)? else {
        return Err(ErrorReply::NoSuchKey);
    };
    if !is(args, 1, b"stream") {
        return Err(syntax());
    }
    let opts = &args[3..];
    let full = !opts.is_empty();
    let mut count: i64 = 10;
    if full {
        if opts.len() != 1 && opts.len() != 3 {
            return Err(syntax());
        }
        if !is(opts, 0, b"full") {
            return Err(syntax());
        }
        if opts.len() == 3 {
            if !is(opts, 1, b"count") {
                return Err(syntax());
            }
            count = int_arg(opts, 2)?;
            if count < 0 {
                count = 10;
            }
        }
    }
    let bulk = |t: &str| Reply::Bulk(Some(t.as_bytes().to_vec()));
    let id = |i: StreamId| Reply::Bulk(Some(id_text(i)));
    let mut out = vec![
        bulk("length"),
        Reply::Int(s.length as i64),
        bulk("radix-tree-keys"),
        Reply::Int(s.rax_keys() as i64),
        bulk("radix-tree-nodes"),
        Reply::Int(s.rax_nodes() as i64),
        bulk("last-generated-id"),
        id(s.last_id),
        bulk("max-deleted-entry-id"),
        id(s.max_deleted),
        bulk("entries-added"),
        Reply::Int(s.entries_added as i64),
        bulk("recorded-first-entry-id"),
        id(s.first_id),
    ];
    if full {
        let take = match usize::try_from(count) {
            Ok(0) | Err(_) => usize::MAX,
            Ok(n) => n,
        };
        out.push(bulk("entries"));
        out.push(Reply::Array(
            s.range((0, 0), MAX_ID, false)
                .take(take)
                .map(entry_reply)
                .collect(),
        ));
        out.push(bulk("groups"));
        out.push(Reply::Array(Vec::new()));
    } else {
        let edge = |rev: bool| {
            s.range((0, 0), MAX_ID, rev)
                .next()
                .map_or(Reply::Bulk(None), entry_reply)
        };
        out.push(bulk("groups"));
        out.push(Reply::Int(0));
        out.push(bulk("first-entry"));
        out.push(edge(false));
        out.push(bulk("last-entry"));
        out.push(edge(true));
    }
    Ok(Reply::Array(out))
}
