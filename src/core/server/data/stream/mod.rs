//! Streams without consumer groups, as Redis 7.0.15 runs them: XADD XLEN XRANGE XREVRANGE
//! XDEL XTRIM XREAD (BLOCK answers as a timed-out call) XINFO STREAM (and FULL) XSETID; the
//! consumer-group commands get the page's note. `nodes` lays the stream out in listpack nodes
//! as Redis does; `commands` parses and answers; this file holds the type, its errors and
//! Redis's stream-id parsing.

mod commands;
mod nodes;

use super::Db;
use crate::core::server::command::parse_i64;
use crate::core::server::reply::{NotRun, Reply};
use core::fmt;
use nodes::Node;

/// A stream entry's id: (milliseconds, sequence).
pub type StreamId = (u64, u64);

/// A stream entry's field–value pairs.
pub type Fields = Vec<(Vec<u8>, Vec<u8>)>;

/// A stream: its entries in listpack nodes, as Redis keeps them, and its counters.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stream {
    nodes: Vec<Node>,
    length: u64,
    last_id: StreamId,
    first_id: StreamId,
    max_deleted: StreamId,
    entries_added: u64,
}

impl Stream {
    /// `OBJECT ENCODING`'s name for a stream.
    pub fn encoding(&self) -> &'static str {
        "stream"
    }

    /// How many entries it holds (XLEN).
    pub fn len(&self) -> u64 {
        self.length
    }

    /// Whether it holds no entry (a stream key may exist empty).
    pub fn is_empty(&self) -> bool {
        self.length == 0
    }

    /// The last id ever added or set (XADD ids must exceed it even after deletions).
    pub fn last_id(&self) -> StreamId {
        self.last_id
    }

    /// The live entries, in id order.
    pub fn entries(&self) -> impl Iterator<Item = (StreamId, &Fields)> {
        self.range((0, 0), (u64::MAX, u64::MAX), false)
            .map(|i| (i.id, &i.fields))
    }
}

/// The errors only stream commands send (Redis's exact text in `Display`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StreamError {
    /// `ERR Invalid stream ID specified as stream command argument`.
    InvalidId,
    /// `ERR The ID specified in XADD is equal or smaller than the target stream top item`.
    IdTooSmall,
    /// `ERR The ID specified in XADD must be greater than 0-0`.
    IdZero,
    /// `ERR The stream has exhausted the last possible ID, unable to add more items`.
    Exhausted,
    /// `ERR Elements are too large to be stored`.
    TooLarge,
    /// `ERR The MAXLEN argument must be >= 0.`
    MaxLenNegative,
    /// `ERR The LIMIT argument must be >= 0.`
    LimitNegative,
    /// `ERR syntax error, MAXLEN and MINID options at the same time are not compatible`.
    MaxLenAndMinId,
    /// `ERR syntax error, LIMIT cannot be used without specifying a trimming strategy`.
    LimitWithoutStrategy,
    /// `ERR syntax error, XTRIM must be called with a trimming strategy`.
    TrimWithoutStrategy,
    /// `ERR syntax error, LIMIT cannot be used without the special ~ option`.
    LimitWithoutTilde,
    /// `ERR invalid start ID for the interval`.
    InvalidStart,
    /// `ERR invalid end ID for the interval`.
    InvalidEnd,
    /// `ERR Unbalanced XREAD list of streams: …`.
    Unbalanced,
    /// `ERR The GROUP option is only supported by XREADGROUP. You called XREAD instead.`
    GroupInXread,
    /// `ERR The NOACK option is only supported by XREADGROUP. You called XREAD instead.`
    NoackInXread,
    /// `ERR The > ID can be specified only when calling XREADGROUP …`.
    GreaterIdInXread,
    /// `ERR timeout is not an integer or out of range` (XREAD BLOCK).
    TimeoutNotInteger,
    /// `ERR timeout is negative` (XREAD BLOCK).
    TimeoutNegative,
    /// `ERR The ID specified in XSETID is smaller than the target stream top item`.
    SetIdTooSmall,
    /// `ERR The entries_added specified in XSETID is smaller than the target stream length`.
    SetIdEntriesAddedTooSmall,
    /// `ERR The ID specified in XSETID is smaller than the provided max_deleted_entry_id`.
    SetIdBelowMaxDeleted,
    /// `ERR entries_added must be positive`.
    EntriesAddedNegative,
    /// `ERR unknown subcommand or wrong number of arguments for '<sub>'. Try XINFO HELP.`
    XinfoSyntax {
        /// The subcommand as typed (at most 128 bytes, to a NUL).
        sub: String,
    },
}

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use StreamError as E;
        let text = match self {
            E::InvalidId => "ERR Invalid stream ID specified as stream command argument",
            E::IdTooSmall => {
                "ERR The ID specified in XADD is equal or smaller than the target stream top item"
            }
            E::IdZero => "ERR The ID specified in XADD must be greater than 0-0",
            E::Exhausted => {
                "ERR The stream has exhausted the last possible ID, unable to add more items"
            }
            E::TooLarge => "ERR Elements are too large to be stored",
            E::MaxLenNegative => "ERR The MAXLEN argument must be >= 0.",
            E::LimitNegative => "ERR The LIMIT argument must be >= 0.",
            E::MaxLenAndMinId => {
                "ERR syntax error, MAXLEN and MINID options at the same time are not compatible"
            }
            E::LimitWithoutStrategy => {
                "ERR syntax error, LIMIT cannot be used without specifying a trimming strategy"
            }
            E::TrimWithoutStrategy => {
                "ERR syntax error, XTRIM must be called with a trimming strategy"
            }
            E::LimitWithoutTilde => {
                "ERR syntax error, LIMIT cannot be used without the special ~ option"
            }
            E::InvalidStart => "ERR invalid start ID for the interval",
            E::InvalidEnd => "ERR invalid end ID for the interval",
            E::Unbalanced => {
                "ERR Unbalanced XREAD list of streams: for each stream key an ID or '$' must be specified."
            }
            E::GroupInXread => {
                "ERR The GROUP option is only supported by XREADGROUP. You called XREAD instead."
            }
            E::NoackInXread => {
                "ERR The NOACK option is only supported by XREADGROUP. You called XREAD instead."
            }
            E::GreaterIdInXread => {
                "ERR The > ID can be specified only when calling XREADGROUP using the GROUP <group> <consumer> option."
            }
            E::TimeoutNotInteger => "ERR timeout is not an integer or out of range",
            E::TimeoutNegative => "ERR timeout is negative",
            E::SetIdTooSmall => {
                "ERR The ID specified in XSETID is smaller than the target stream top item"
            }
            E::SetIdEntriesAddedTooSmall => {
                "ERR The entries_added specified in XSETID is smaller than the target stream length"
            }
            E::SetIdBelowMaxDeleted => {
                "ERR The ID specified in XSETID is smaller than the provided max_deleted_entry_id"
            }
            E::EntriesAddedNegative => "ERR entries_added must be positive",
            E::XinfoSyntax { sub } => {
                return write!(
                    f,
                    "ERR unknown subcommand or wrong number of arguments for '{sub}'. Try XINFO HELP."
                );
            }
        };
        f.write_str(text)
    }
}

/// The bytes C sees of an argument: up to its first NUL.
fn c_str(arg: &[u8]) -> &[u8] {
    arg.split(|&b| b == 0).next().unwrap_or_default()
}

/// `strtoull(s, &end, 10)` that must use every byte: leading white space and a sign allowed,
/// a minus negating modulo 2^64, out of range refused.
fn strtoull(s: &[u8]) -> Option<u64> {
    let mut i = 0;
    while s
        .get(i)
        .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r'))
    {
        i += 1;
    }
    let negative = match s.get(i) {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        _ => false,
    };
    let digits = s.get(i..)?;
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let mut v: u64 = 0;
    for &d in digits {
        v = v.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
    }
    Some(if negative { v.wrapping_neg() } else { v })
}

/// Redis's `string2ull`: a strict integer (refused if negative), else `strtoull`.
fn string2ull(s: &[u8]) -> Option<u64> {
    match parse_i64(s) {
        Some(v) if v < 0 => None,
        Some(v) => Some(v as u64),
        None => strtoull(s),
    }
}

/// How an id argument was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ParsedId {
    id: StreamId,
    /// False for the `<ms>-*` form (XADD picks the sequence).
    seq_given: bool,
}

/// `streamGenericParseIDOrReply`: `-`, `+` (unless `strict`), `<ms>`, `<ms>-<seq>`, and
/// `<ms>-*` when `allow_star`; a missing sequence is `missing_seq`.
fn parse_id(
    arg: &[u8],
    missing_seq: u64,
    strict: bool,
    allow_star: bool,
) -> Result<ParsedId, StreamError> {
    if arg.len() > 127 {
        return Err(StreamError::InvalidId);
    }
    let buf = c_str(arg);
    if buf == b"-" || buf == b"+" {
        if strict {
            return Err(StreamError::InvalidId);
        }
        let v = if buf == b"-" { 0 } else { u64::MAX };
        return Ok(ParsedId {
            id: (v, v),
            seq_given: true,
        });
    }
    let (ms_part, seq_part) = match buf.iter().position(|&b| b == b'-') {
        Some(dash) => (&buf[..dash], Some(&buf[dash + 1..])),
        None => (buf, None),
    };
    let ms = string2ull(ms_part).ok_or(StreamError::InvalidId)?;
    match seq_part {
        Some(b"*") if allow_star => Ok(ParsedId {
            id: (ms, 0),
            seq_given: false,
        }),
        Some(seq) => Ok(ParsedId {
            id: (ms, string2ull(seq).ok_or(StreamError::InvalidId)?),
            seq_given: true,
        }),
        None => Ok(ParsedId {
            id: (ms, missing_seq),
            seq_given: true,
        }),
    }
}

/// An id as Redis prints it (`<ms>-<seq>`).
fn id_text(id: StreamId) -> Vec<u8> {
    format!("{}-{}", id.0, id.1).into_bytes()
}

/// `streamIncrID`: the next id, `None` past the largest.
fn incr(id: StreamId) -> Option<StreamId> {
    match id {
        (u64::MAX, u64::MAX) => None,
        (ms, u64::MAX) => Some((ms + 1, 0)),
        (ms, seq) => Some((ms, seq + 1)),
    }
}

/// `streamDecrID`: the previous id, `None` before the smallest.
fn decr(id: StreamId) -> Option<StreamId> {
    match id {
        (0, 0) => None,
        (ms, 0) => Some((ms - 1, u64::MAX)),
        (ms, seq) => Some((ms, seq - 1)),
    }
}

/// Consumer-group commands: the page does not simulate groups.
fn is_group_command(name: &str, args: &[Vec<u8>]) -> bool {
    let base = name.split('|').next().unwrap_or(name);
    let xinfo_sub =
        |sub: &[u8]| sub.eq_ignore_ascii_case(b"groups") || sub.eq_ignore_ascii_case(b"consumers");
    matches!(
        base,
        "xgroup" | "xreadgroup" | "xack" | "xpending" | "xclaim" | "xautoclaim"
    ) || matches!(name, "xinfo|groups" | "xinfo|consumers")
        || (name == "xinfo" && args.get(1).is_some_and(|s| xinfo_sub(s)))
}

/// Runs `name` if this module owns it (`None` otherwise).
pub(super) fn run(db: &mut Db, now: i64, name: &str, args: &[Vec<u8>]) -> Option<Reply> {
    if is_group_command(name, args) {
        return Some(
            NotRun::ConsumerGroups {
                name: name.to_owned(),
            }
            .into(),
        );
    }
    let reply = match name {
        "xadd" => commands::xadd(db, now, args),
        "xlen" => commands::xlen(db, now, args),
        "xrange" => commands::xrange(db, now, args, false),
        "xrevrange" => commands::xrange(db, now, args, true),
        "xdel" => commands::xdel(db, now, args),
        "xtrim" => commands::xtrim(db, now, args),
        "xread" => commands::xread(db, now, args),
        "xsetid" => commands::xsetid(db, now, args),
        "xinfo" | "xinfo|stream" | "xinfo|help" => commands::xinfo(db, now, args),
        _ => return None,
    };
    Some(reply.unwrap_or_else(Reply::Error))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Redis's id parsing, including `string2ull`'s `strtoull` fallback (checked against
    /// redis-server 7.0.15: `XADD s 5--01 f v` answers "5-18446744073709551615",
    /// `XADD s +7 f v` answers "7-0", `XADD s 5--1 f v` is an invalid id).
    #[test]
    fn ids_parse_as_redis_parses_them() {
        let p = |s: &str| parse_id(s.as_bytes(), 0, true, true).map(|p| p.id);
        assert_eq!(p("5--01"), Ok((5, u64::MAX)));
        assert_eq!(p("+7"), Ok((7, 0)));
        assert_eq!(p("5--1"), Err(StreamError::InvalidId));
        assert_eq!(p("-"), Err(StreamError::InvalidId));
        assert_eq!(p("18446744073709551616"), Err(StreamError::InvalidId));
        assert_eq!(p("3-*"), Ok((3, 0)));
        assert_eq!(incr((1, u64::MAX)), Some((2, 0)));
        assert_eq!(decr((0, 0)), None);
    }
}
