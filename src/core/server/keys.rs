//! Where a command's keys are, as Redis 7.0.15 finds them (db.c): [`routing_keys`] is
//! `getKeysFromCommand` (the command's own `getkeys_proc`, else the legacy first/last/step
//! range), what cluster routing reads; [`spec_keys`] is `getKeysFromCommandWithSpecs` (key specs
//! first), what `COMMAND GETKEYS` answers.

use super::command::{
    key_flag, lookup, parse_i64, BeginSearch, CommandError, CommandId, CommandInfo, FindKeys,
};
use crate::core::key::args::is_c_space;

/// C's `%.Ns` on a byte string: up to the first NUL.
fn c_str(bytes: &[u8]) -> &[u8] {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    bytes.get(..end).unwrap_or(bytes)
}

/// C's `atoi` (glibc: `strtol` saturating to 64 bits, then truncated to `int`).
pub(super) fn c_atoi(bytes: &[u8]) -> i32 {
    let mut it = bytes
        .iter()
        .copied()
        .take_while(|&b| b != 0)
        .skip_while(|&b| is_c_space(b))
        .peekable();
    let negative = match it.peek() {
        Some(b'-') => {
            it.next();
            true
        }
        Some(b'+') => {
            it.next();
            false
        }
        _ => false,
    };
    let mut value: i64 = 0;
    for b in it.take_while(u8::is_ascii_digit) {
        let d = i64::from(b - b'0');
        value = if negative {
            value.saturating_mul(10).saturating_sub(d)
        } else {
            value.saturating_mul(10).saturating_add(d)
        };
    }
    value as i32
}

/// C's `strcasecmp(arg, word) == 0`: the argument up to its first NUL, any case.
fn c_is(arg: Option<&Vec<u8>>, word: &[u8]) -> bool {
    arg.is_some_and(|a| c_str(a).eq_ignore_ascii_case(word))
}

/// Whether the command has its own key-finding function in Redis 7.0.15 (`getkeys_proc`).
pub(super) fn has_getkeys_proc(id: CommandId) -> bool {
    use CommandId as C;
    matches!(
        id,
        C::Bitfield
            | C::Migrate
            | C::Sort
            | C::SortRo
            | C::Georadius
            | C::Georadiusbymember
            | C::Blmpop
            | C::Bzmpop
            | C::Lmpop
            | C::Zmpop
            | C::Sintercard
            | C::Zdiff
            | C::Zinter
            | C::Zintercard
            | C::Zunion
            | C::Zdiffstore
            | C::Zinterstore
            | C::Zunionstore
            | C::Eval
            | C::Evalsha
            | C::EvalRo
            | C::EvalshaRo
            | C::Fcall
            | C::FcallRo
            | C::Xread
            | C::Xreadgroup
            | C::Set
    )
}

/// A key found among the arguments: its index (the command name is 0) and the [`key_flag`]
/// bits Redis gives it (0 where Redis's function gives none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyRef {
    /// Index into the arguments.
    pub pos: usize,
    /// [`key_flag`] bits.
    pub flags: u32,
}

fn key(pos: usize, flags: u32) -> KeyRef {
    KeyRef { pos, flags }
}

/// Redis's `genericGetKeys`: a key count at `count_at`, keys from `first`, a destination at
/// `store` (listed last).
fn generic_keys(
    store: Option<usize>,
    count_at: usize,
    first: usize,
    args: &[Vec<u8>],
) -> Vec<KeyRef> {
    let Some(count) = args.get(count_at) else {
        return Vec::new();
    };
    let num = c_atoi(count);
    if num < 1 || i64::from(num) > args.len() as i64 - first as i64 {
        return Vec::new();
    }
    let mut out: Vec<KeyRef> = (first..first + num as usize).map(|p| key(p, 0)).collect();
    out.extend(store.map(|p| key(p, 0)));
    out
}

/// The command's own `getkeys_proc`, for the commands that have one.
fn proc_keys(info: &CommandInfo, args: &[Vec<u8>]) -> Vec<KeyRef> {
    use key_flag::{ACCESS, DELETE, OW, RO, RW, UPDATE};
    use CommandId as C;
    let argc = args.len();
    match info.id {
        C::Sintercard | C::Zdiff | C::Zinter | C::Zintercard | C::Zunion | C::Lmpop | C::Zmpop => {
            generic_keys(None, 1, 2, args)
        }
        C::Zdiffstore | C::Zinterstore | C::Zunionstore => generic_keys(Some(1), 2, 3, args),
        C::Eval
        | C::Evalsha
        | C::EvalRo
        | C::EvalshaRo
        | C::Fcall
        | C::FcallRo
        | C::Blmpop
        | C::Bzmpop => generic_keys(None, 2, 3, args),
        C::SortRo => vec![key(1, RO | ACCESS)],
        C::Sort => {
            let mut store = None;
            let mut i = 2;
            while i < argc {
                let a = args.get(i);
                if c_is(a, b"limit") {
                    i += 2;
                } else if c_is(a, b"get") || c_is(a, b"by") {
                    i += 1;
                } else if c_is(a, b"store") && i + 1 < argc {
                    store = Some(i + 1);
                }
                i += 1;
            }
            let mut out = vec![key(1, RO | ACCESS)];
            out.extend(store.map(|p| key(p, OW | UPDATE)));
            out
        }
        C::Migrate => {
            let (mut first, mut num) = (3usize, 1usize);
            if argc > 6 {
                let mut i = 6;
                while i < argc {
                    let a = args.get(i);
                    if c_is(a, b"keys") {
                        if args.get(3).is_some_and(|k| !k.is_empty()) {
                            num = 0;
                        } else {
                            first = i + 1;
                            num = argc - first;
                        }
                        break;
                    }
                    if c_is(a, b"auth") {
                        i += 1;
                    } else if c_is(a, b"auth2") {
                        i += 2;
                    }
                    i += 1;
                }
            }
            (first..first + num)
                .map(|p| key(p, RW | ACCESS | DELETE))
                .collect()
        }
        C::Georadius | C::Georadiusbymember => {
            let mut stored = None;
            let mut i = 5;
            while i < argc {
                let a = args.get(i);
                if (c_is(a, b"store") || c_is(a, b"storedist")) && i + 1 < argc {
                    stored = Some(i + 1);
                    i += 1;
                }
                i += 1;
            }
            let mut out = vec![key(1, 0)];
            out.extend(stored.map(|p| key(p, 0)));
            out
        }
        C::Xread | C::Xreadgroup => {
            let mut streams = None;
            let mut i = 1;
            while i < argc {
                let a = args.get(i);
                if c_is(a, b"block") || c_is(a, b"count") {
                    i += 1;
                } else if c_is(a, b"group") {
                    i += 2;
                } else if c_is(a, b"noack") {
                } else if c_is(a, b"streams") {
                    streams = Some(i);
                    break;
                } else {
                    break;
                }
                i += 1;
            }
            let Some(at) = streams else {
                return Vec::new();
            };
            let num = argc - at - 1;
            if num == 0 || !num.is_multiple_of(2) {
                return Vec::new();
            }
            (at + 1..argc - num / 2).map(|p| key(p, 0)).collect()
        }
        C::Set => {
            let get = args.iter().skip(3).any(|a| {
                a.len() >= 3
                    && a.get(..3).is_some_and(|w| w.eq_ignore_ascii_case(b"get"))
                    && a.get(3).is_none_or(|&b| b == 0)
            });
            vec![key(
                1,
                if get {
                    RW | ACCESS | UPDATE
                } else {
                    OW | UPDATE
                },
            )]
        }
        C::Bitfield => {
            let mut readonly = true;
            let mut i = 2;
            while i < argc {
                let rem = argc - i - 1;
                let a = args.get(i);
                if c_is(a, b"get") && rem >= 2 {
                    i += 2;
                } else if (c_is(a, b"set") || c_is(a, b"incrby")) && rem >= 3 {
                    readonly = false;
                    break;
                } else if c_is(a, b"overflow") && rem >= 1 {
                    i += 1;
                } else {
                    readonly = false;
                    break;
                }
                i += 1;
            }
            vec![key(
                1,
                if readonly {
                    RO | ACCESS
                } else {
                    RW | ACCESS | UPDATE
                },
            )]
        }
        _ => legacy_keys(info, argc),
    }
}

/// Redis's `getKeysUsingLegacyRangeSpec`: first/last/step; a variadic command with too few
/// arguments reports no keys and lets the command itself complain.
fn legacy_keys(info: &CommandInfo, argc: usize) -> Vec<KeyRef> {
    let (first, last, step) = info.legacy;
    if first == 0 {
        return Vec::new();
    }
    let (first, step) = (i64::from(first), i64::from(step.max(1)));
    let last = if last < 0 {
        argc as i64 + i64::from(last)
    } else {
        i64::from(last)
    };
    let mut out = Vec::new();
    let mut j = first;
    while j <= last {
        if j >= argc as i64 {
            return Vec::new();
        }
        out.push(key(j as usize, 0));
        j += step;
    }
    out
}

/// Redis 7.0.15's `getKeysFromCommand`, what cluster routing (`getNodeByQuery`) reads: the
/// command's own key function if it has one, else its legacy range. Channels count as keys
/// here (SPUBLISH, SSUBSCRIBE: routed by the channel's slot).
pub fn routing_keys(info: &CommandInfo, args: &[Vec<u8>]) -> Vec<KeyRef> {
    if has_getkeys_proc(info.id) {
        proc_keys(info, args)
    } else {
        legacy_keys(info, args.len())
    }
}

/// Redis's `getKeysUsingKeySpecs` with no search flags: `None` when a spec is invalid or
/// incomplete for these arguments.
fn keys_by_specs(info: &CommandInfo, args: &[Vec<u8>]) -> Option<Vec<KeyRef>> {
    let argc = args.len() as i64;
    let mut out = Vec::new();
    for spec in info.key_specs {
        if spec.flags & key_flag::NOT_KEY != 0 {
            continue;
        }
        let mut first: i64 = match spec.begin {
            BeginSearch::Index(i) => i64::from(i),
            BeginSearch::Keyword { keyword, startfrom } => {
                let start = if startfrom > 0 {
                    i64::from(startfrom)
                } else {
                    argc + i64::from(startfrom)
                };
                let end = if startfrom > 0 { argc - 1 } else { 1 };
                let mut found = 0;
                let mut i = start;
                while i != end {
                    if i >= argc || i < 1 {
                        break;
                    }
                    if c_is(args.get(i as usize), keyword.as_bytes()) {
                        found = i + 1;
                        break;
                    }
                    i = if start <= end { i + 1 } else { i - 1 };
                }
                if found == 0 {
                    continue;
                }
                found
            }
            BeginSearch::Unknown => return None,
        };
        let (last, step) = match spec.find {
            FindKeys::Range {
                lastkey,
                keystep,
                limit,
            } => {
                let last = if lastkey >= 0 {
                    first + i64::from(lastkey)
                } else if limit == 0 {
                    argc + i64::from(lastkey)
                } else {
                    first + ((argc - first) / i64::from(limit) + i64::from(lastkey))
                };
                (last, i64::from(keystep))
            }
            FindKeys::Keynum {
                keynumidx,
                firstkey,
                keystep,
            } => {
                if i64::from(keynumidx) >= argc {
                    return None;
                }
                let at = first + i64::from(keynumidx);
                let count = usize::try_from(at).ok().and_then(|a| args.get(a))?;
                // C casts the count to `int`.
                let n = i64::from(parse_i64(count).filter(|&n| n >= 0)? as i32);
                first += i64::from(firstkey);
                (first.saturating_add(n) - 1, i64::from(keystep))
            }
            FindKeys::Unknown => return None,
        };
        if last >= argc || last < first || first >= argc {
            return None;
        }
        let mut i = first;
        while i <= last {
            out.push(key(i as usize, spec.flags));
            i += step.max(1);
        }
        if spec.flags & key_flag::INCOMPLETE != 0 {
            return None;
        }
    }
    Some(out)
}

/// Redis 7.0.15's `getKeysFromCommandWithSpecs`, what `COMMAND GETKEYS` answers: the key specs
/// when they are reliable and valid for these arguments, else the command's own key function.
pub fn spec_keys(info: &CommandInfo, args: &[Vec<u8>]) -> Vec<KeyRef> {
    let has_keyspec = info
        .key_specs
        .iter()
        .any(|s| s.flags & key_flag::NOT_KEY == 0);
    let has_varflags = info
        .key_specs
        .iter()
        .any(|s| s.flags & key_flag::VARIABLE_FLAGS != 0);
    if has_keyspec
        && !has_varflags
        && let Some(keys) = keys_by_specs(info, args)
    {
        return keys;
    }
    if has_getkeys_proc(info.id) {
        proc_keys(info, args)
    } else {
        Vec::new()
    }
}

/// The indexes of the key arguments of `args` for command `info`, in the order Redis 7.0's
/// `getKeysFromCommand` lists them (see [`routing_keys`]).
pub fn key_indexes(info: &CommandInfo, args: &[Vec<u8>]) -> Vec<usize> {
    routing_keys(info, args)
        .into_iter()
        .map(|k| k.pos)
        .collect()
}

/// A command, found and arity-checked, with the indexes of its key arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeySpec {
    /// The command's table entry.
    pub command: &'static CommandInfo,
    /// Indexes into the arguments (the command name is 0) of the keys, in Redis's order.
    pub positions: Vec<usize>,
}

impl KeySpec {
    /// The key arguments themselves.
    pub fn keys<'a>(&self, args: &'a [Vec<u8>]) -> Vec<&'a [u8]> {
        self.positions
            .iter()
            .filter_map(|&i| args.get(i).map(Vec::as_slice))
            .collect()
    }
}

/// Which arguments of `args` are keys, per command, case-insensitively, as Redis 7.0 finds them
/// when it routes the command. Unknown commands and wrong arities are errors worded as Redis
/// words them.
///
/// ```
/// use slotscope::core::key::args::split_args;
/// use slotscope::core::server::command::key_positions;
/// let args = split_args("MSET {user1}:a 1 {user1}:b 2").unwrap();
/// assert_eq!(key_positions(&args).unwrap().positions, vec![1, 3]);
/// let args = split_args("EVAL \"return 1\" 1 k v").unwrap();
/// assert_eq!(key_positions(&args).unwrap().positions, vec![3]);
/// let args = split_args("XREAD COUNT 2 STREAMS a b 0 0").unwrap();
/// assert_eq!(key_positions(&args).unwrap().positions, vec![4, 5]);
/// let err = key_positions(&split_args("mset a").unwrap()).unwrap_err();
/// assert_eq!(err.to_string(), "ERR wrong number of arguments for 'mset' command");
/// ```
pub fn key_positions(args: &[Vec<u8>]) -> Result<KeySpec, CommandError> {
    let command = lookup(args)?;
    Ok(KeySpec {
        command,
        positions: key_indexes(command, args),
    })
}
