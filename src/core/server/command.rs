//! Redis 7.0's command table as the engine reads it: each command's [`CommandId`], arity,
//! flags and key positions, the lookup that refuses unknown commands and wrong arities first,
//! and the slot verdict of a set of keys (none, one slot, or CROSSSLOT).
//!
//! Key positions follow Redis 7.0's `getKeysFromCommand`, the function cluster routing uses, so
//! an argument list that the command itself will later refuse (`MSET a 1 b`) still has keys here,
//! exactly as Redis sees them when it decides between serving, MOVED and CROSSSLOT.

use super::reply::ErrorReply;
use crate::core::key::args::is_c_space;
use crate::core::key::slot::key_slot;
use core::fmt;

/// How a command's keys are found among its arguments (Redis 7.0's legacy key range, or the
/// `numkeys` form of EVAL and ZUNIONSTORE).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyRule {
    /// The command takes no keys.
    None,
    /// Keys at `first`, `first + step`, … up to `last` (a negative `last` counts from the end:
    /// -1 is the last argument, -2 the one before it).
    Range {
        /// Index of the first key (the command name is index 0).
        first: usize,
        /// Index of the last key; negative counts from the end.
        last: i32,
        /// Distance between keys (2 for MSET's key-value pairs).
        step: usize,
    },
    /// A key count at `count_at`, that many keys right after it, and optionally a destination key
    /// at `dest_at` (listed after the others, as Redis lists it).
    NumKeys {
        /// Index of the `numkeys` argument.
        count_at: usize,
        /// Index of the destination key, if the command has one.
        dest_at: Option<usize>,
    },
}

/// Which command a table entry is: the engine dispatches on it with an exhaustive `match`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CommandId {
    /// GET.
    Get,
    /// SET.
    Set,
    /// GETSET.
    GetSet,
    /// INCR.
    Incr,
    /// DECR.
    Decr,
    /// INCRBY.
    IncrBy,
    /// DECRBY.
    DecrBy,
    /// APPEND.
    Append,
    /// STRLEN.
    Strlen,
    /// MGET.
    Mget,
    /// MSET.
    Mset,
    /// MSETNX.
    MsetNx,
    /// DEL.
    Del,
    /// UNLINK.
    Unlink,
    /// EXISTS.
    Exists,
    /// TOUCH.
    Touch,
    /// EXPIRE (run on the simulated clock).
    Expire,
    /// TTL.
    Ttl,
    /// TYPE.
    Type,
    /// RENAME.
    Rename,
    /// RENAMENX.
    RenameNx,
    /// EVAL.
    Eval,
    /// EVALSHA.
    EvalSha,
    /// FCALL.
    Fcall,
    /// PING.
    Ping,
    /// ECHO.
    Echo,
    /// QUIT.
    Quit,
    /// MULTI.
    Multi,
    /// EXEC.
    Exec,
    /// DISCARD.
    Discard,
    /// ASKING.
    Asking,
    /// READONLY.
    Readonly,
    /// READWRITE.
    Readwrite,
    /// DBSIZE.
    Dbsize,
    /// INFO (routed; its output changes from run to run).
    Info,
    /// FLUSHALL.
    FlushAll,
    /// FLUSHDB.
    FlushDb,
    /// CLUSTER (the container; a lookup returns its subcommand).
    Cluster,
    /// CLUSTER KEYSLOT.
    ClusterKeyslot,
    /// CLUSTER INFO.
    ClusterInfo,
    /// CLUSTER NODES.
    ClusterNodes,
    /// CLUSTER SLOTS.
    ClusterSlots,
    /// CLUSTER SHARDS.
    ClusterShards,
    /// CLUSTER MYID.
    ClusterMyid,
    /// CLUSTER COUNTKEYSINSLOT.
    ClusterCountKeysInSlot,
    /// CLUSTER GETKEYSINSLOT.
    ClusterGetKeysInSlot,
    /// CLUSTER SETSLOT (only the engine's lookup knows it).
    ClusterSetslot,
    /// MIGRATE (only the engine's lookup knows it).
    Migrate,
    /// A command of the table that is routed exactly but not run (other data types, TTLs):
    /// the engine answers it with [`NotRun::OnlyStrings`](super::reply::NotRun::OnlyStrings).
    Routed,
}

/// One command of the table: its name, arity, flags and where its keys are.
#[derive(Debug, PartialEq, Eq)]
pub struct CommandInfo {
    /// Which command it is, for the engine's dispatch.
    pub id: CommandId,
    /// Lower-case full name as Redis writes it in errors: `mset`, `cluster|keyslot`.
    pub name: &'static str,
    /// Redis arity: positive means exactly that many arguments (name included), negative means
    /// at least that many.
    pub arity: i32,
    /// Whether the command writes (a replica refuses it even after READONLY).
    pub write: bool,
    /// Whether scripts may not call it (MULTI, EXEC, EVAL, …).
    pub noscript: bool,
    /// Where its keys are.
    pub keys: KeyRule,
    /// Subcommands, for container commands such as CLUSTER.
    pub subcommands: &'static [CommandInfo],
}

/// The commands the table knows (container commands list their subcommands).
pub fn commands() -> &'static [CommandInfo] {
    super::table::COMMANDS
}

/// Why a command was refused before Redis looked at its keys. `Display` gives Redis 7.0's
/// error text (`ERR unknown command …`, `ERR wrong number of arguments …`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// Nothing was typed.
    Empty,
    /// No such command.
    Unknown {
        /// The command name, as typed.
        name: Vec<u8>,
        /// The arguments after it, as typed.
        args: Vec<Vec<u8>>,
    },
    /// A container command (CLUSTER) with a subcommand it does not have.
    UnknownSubcommand {
        /// The container's name, upper case (`CLUSTER`).
        container: String,
        /// The subcommand as typed.
        sub: Vec<u8>,
    },
    /// Too many or too few arguments for the command.
    WrongArity {
        /// Redis's full name of the command (`mset`, `cluster|keyslot`).
        command: &'static str,
    },
}

/// C's `%.Ns` on a byte string: up to the first NUL, at most `max` bytes.
fn c_str(bytes: &[u8], max: usize) -> &[u8] {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    bytes.get(..end.min(max)).unwrap_or(bytes)
}

impl CommandError {
    /// The error text as raw bytes, exactly as Redis sends it (without the leading `-`).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out: Vec<u8> = Vec::new();
        match self {
            CommandError::Empty => {
                out.extend_from_slice(b"ERR empty command: type a command, e.g. GET foo");
            }
            CommandError::Unknown { name, args } => {
                out.extend_from_slice(b"ERR unknown command '");
                out.extend_from_slice(c_str(name, 128));
                out.extend_from_slice(b"', with args beginning with: ");
                let mut listed: Vec<u8> = Vec::new();
                for arg in args {
                    if listed.len() >= 128 {
                        break;
                    }
                    let max = 128 - listed.len();
                    listed.push(b'\'');
                    listed.extend_from_slice(c_str(arg, max));
                    listed.extend_from_slice(b"' ");
                }
                out.extend_from_slice(&listed);
            }
            CommandError::UnknownSubcommand { container, sub } => {
                out.extend_from_slice(b"ERR unknown subcommand '");
                out.extend_from_slice(c_str(sub, 128));
                out.extend_from_slice(b"'. Try ");
                out.extend_from_slice(container.as_bytes());
                out.extend_from_slice(b" HELP.");
            }
            CommandError::WrongArity { command } => {
                out.extend_from_slice(b"ERR wrong number of arguments for '");
                out.extend_from_slice(command.as_bytes());
                out.extend_from_slice(b"' command");
            }
        }
        // Redis replaces line breaks so the error stays one protocol line.
        for b in out.iter_mut() {
            if *b == b'\r' || *b == b'\n' {
                *b = b' ';
            }
        }
        out
    }
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&String::from_utf8_lossy(&self.to_bytes()))
    }
}

impl std::error::Error for CommandError {}

fn find(table: &'static [CommandInfo], name: &[u8]) -> Option<&'static CommandInfo> {
    let short = |full: &'static str| full.rsplit('|').next().unwrap_or(full);
    table
        .iter()
        .find(|c| short(c.name).as_bytes().eq_ignore_ascii_case(name))
}

/// Finds the command `args` names and checks its arity, as Redis does before anything else.
pub fn lookup(args: &[Vec<u8>]) -> Result<&'static CommandInfo, CommandError> {
    let Some((name, rest)) = args.split_first() else {
        return Err(CommandError::Empty);
    };
    let unknown = || CommandError::Unknown {
        name: name.clone(),
        args: rest.to_vec(),
    };
    let base = find(super::table::COMMANDS, name).ok_or_else(unknown)?;
    let info = match (base.subcommands.is_empty(), rest.first()) {
        (false, Some(sub)) => {
            find(base.subcommands, sub).ok_or_else(|| CommandError::UnknownSubcommand {
                container: base.name.to_ascii_uppercase(),
                sub: sub.clone(),
            })?
        }
        _ => base,
    };
    let argc = args.len() as i64;
    let arity = i64::from(info.arity);
    if (arity > 0 && arity != argc) || argc < -arity {
        return Err(CommandError::WrongArity { command: info.name });
    }
    Ok(info)
}

/// C's `atoi` (glibc: `strtol` saturating to 64 bits, then truncated to `int`).
fn c_atoi(bytes: &[u8]) -> i32 {
    let mut it = bytes
        .iter()
        .copied()
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

/// The indexes of the key arguments of `args` for command `info`, in the order Redis 7.0's
/// `getKeysFromCommand` lists them. Argument lists the command will refuse later may give no
/// keys, as in Redis (an EVAL whose `numkeys` is not a number, for instance).
pub fn key_indexes(info: &CommandInfo, args: &[Vec<u8>]) -> Vec<usize> {
    let argc = args.len();
    match info.keys {
        KeyRule::None => Vec::new(),
        KeyRule::Range { first, last, step } => {
            let last = if last >= 0 {
                last as i64
            } else {
                argc as i64 + i64::from(last)
            };
            let mut out = Vec::new();
            let mut j = first as i64;
            while j <= last {
                if j >= argc as i64 {
                    // Redis: a variadic command with too few arguments reports no keys and
                    // lets the command itself complain.
                    return Vec::new();
                }
                out.push(j as usize);
                j += step.max(1) as i64;
            }
            out
        }
        KeyRule::NumKeys { count_at, dest_at } => {
            let Some(count) = args.get(count_at) else {
                return Vec::new();
            };
            let num = c_atoi(count);
            let first = count_at + 1;
            if num < 1 || num as i64 > argc.saturating_sub(first) as i64 {
                return Vec::new();
            }
            let mut out: Vec<usize> = (first..first + num as usize).collect();
            out.extend(dest_at);
            out
        }
    }
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

/// Where a set of keys lands: nowhere (no keys), one slot, or several (CROSSSLOT).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No keys: any node serves the command.
    NoKeys,
    /// Every key hashes to this slot.
    OneSlot(u16),
    /// The keys span more than one slot; Redis refuses with CROSSSLOT.
    CrossSlot {
        /// The slot of the first key.
        first: u16,
        /// The slot of the first key that differs from it.
        other: u16,
    },
}

impl Verdict {
    /// The error Redis answers for this verdict, if any.
    pub fn error(&self) -> Option<ErrorReply> {
        match self {
            Verdict::CrossSlot { .. } => Some(ErrorReply::CrossSlot),
            Verdict::NoKeys | Verdict::OneSlot(_) => None,
        }
    }
}

/// The slot verdict of `keys`: none, one slot (which), or CROSSSLOT.
///
/// ```
/// use slotscope::core::server::command::{slot_verdict, Verdict};
/// assert_eq!(slot_verdict(&[b"{user1}:a", b"{user1}:b"]), Verdict::OneSlot(8106));
/// assert_eq!(slot_verdict(&[b"hello", b"bar"]), Verdict::CrossSlot { first: 866, other: 5061 });
/// assert_eq!(slot_verdict(&[]), Verdict::NoKeys);
/// ```
pub fn slot_verdict(keys: &[&[u8]]) -> Verdict {
    let Some((first, rest)) = keys.split_first() else {
        return Verdict::NoKeys;
    };
    let first = key_slot(first);
    for key in rest {
        let other = key_slot(key);
        if other != first {
            return Verdict::CrossSlot { first, other };
        }
    }
    Verdict::OneSlot(first)
}

/// Redis's `string2ll`: a strict decimal 64-bit integer (no spaces, no `+`, no leading zeros).
pub fn parse_i64(bytes: &[u8]) -> Option<i64> {
    if bytes.is_empty() || bytes.len() >= 21 {
        return None;
    }
    if bytes == b"0" {
        return Some(0);
    }
    let (negative, digits) = match bytes.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, bytes),
    };
    match digits.first() {
        Some(b'1'..=b'9') => {}
        _ => return None,
    }
    let mut v: u64 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        v = v.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
    }
    if negative {
        if v > i64::MAX as u64 + 1 {
            None
        } else {
            Some((v as i64).wrapping_neg())
        }
    } else {
        i64::try_from(v).ok()
    }
}

/// `CLUSTER SETSLOT`, which the shared command table leaves out: the engine runs it.
static CLUSTER_SETSLOT: CommandInfo = CommandInfo {
    id: CommandId::ClusterSetslot,
    name: "cluster|setslot",
    arity: -4,
    write: false,
    noscript: false,
    keys: KeyRule::None,
    subcommands: &[],
};

/// `MIGRATE`, which the shared command table leaves out: the engine runs it. Its keys are
/// found by [`engine_key_indexes`] (Redis's `migrateGetKeys`), not by this rule.
static MIGRATE: CommandInfo = CommandInfo {
    id: CommandId::Migrate,
    name: "migrate",
    arity: -6,
    write: true,
    noscript: false,
    keys: KeyRule::Range {
        first: 3,
        last: 3,
        step: 1,
    },
    subcommands: &[],
};

/// [`lookup`], plus the commands only the engine knows (`CLUSTER SETSLOT`, `MIGRATE`).
pub(super) fn engine_lookup(args: &[Vec<u8>]) -> Result<&'static CommandInfo, CommandError> {
    let is = |i: usize, word: &[u8]| args.get(i).is_some_and(|a| a.eq_ignore_ascii_case(word));
    let extra = if is(0, b"migrate") {
        Some(&MIGRATE)
    } else if is(0, b"cluster") && is(1, b"setslot") {
        Some(&CLUSTER_SETSLOT)
    } else {
        None
    };
    match extra {
        Some(info) => {
            let argc = args.len() as i64;
            if argc < -i64::from(info.arity) {
                Err(CommandError::WrongArity { command: info.name })
            } else {
                Ok(info)
            }
        }
        None => lookup(args),
    }
}

/// The table entry named `name` (a command, not a subcommand), without checking an arity:
/// for a command the page builds from a list of keys rather than from typed arguments.
pub fn by_name(name: &[u8]) -> Option<&'static CommandInfo> {
    find(super::table::COMMANDS, name)
}

/// [`key_indexes`], with Redis's `migrateGetKeys` for MIGRATE: the key at 3, or, when it is
/// empty and a `KEYS` word follows the fixed arguments, every argument after `KEYS`.
pub(super) fn engine_key_indexes(info: &CommandInfo, args: &[Vec<u8>]) -> Vec<usize> {
    if info.id != CommandId::Migrate {
        return key_indexes(info, args);
    }
    if args.get(3).is_some_and(|k| k.is_empty()) {
        let keys_at = args
            .iter()
            .enumerate()
            .skip(6)
            .find(|(_, a)| a.eq_ignore_ascii_case(b"keys"))
            .map(|(i, _)| i);
        if let Some(at) = keys_at {
            return (at + 1..args.len()).collect();
        }
    }
    if args.len() > 3 {
        vec![3]
    } else {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(words: &[&str]) -> Vec<Vec<u8>> {
        words.iter().map(|w| w.as_bytes().to_vec()).collect()
    }

    #[test]
    fn atoi_is_c_atoi() {
        assert_eq!(c_atoi(b"2"), 2);
        assert_eq!(c_atoi(b" 2abc"), 2);
        assert_eq!(c_atoi(b"+3"), 3);
        assert_eq!(c_atoi(b"-1"), -1);
        assert_eq!(c_atoi(b"abc"), 0);
        assert_eq!(c_atoi(b"99999999999999999999"), -1);
    }

    #[test]
    fn string2ll_is_strict() {
        assert_eq!(parse_i64(b"0"), Some(0));
        assert_eq!(parse_i64(b"-5"), Some(-5));
        assert_eq!(parse_i64(b"9223372036854775807"), Some(i64::MAX));
        assert_eq!(parse_i64(b"-9223372036854775808"), Some(i64::MIN));
        for bad in [
            &b""[..],
            b"-",
            b"01",
            b"-0",
            b"+1",
            b" 1",
            b"1 ",
            b"9223372036854775808",
        ] {
            assert_eq!(parse_i64(bad), None, "{:?}", String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn subcommands_are_found_case_insensitively() {
        let info = lookup(&args(&["Cluster", "KeySlot", "x"])).unwrap();
        assert_eq!(info.name, "cluster|keyslot");
        let err = lookup(&args(&["cluster", "nope"])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "ERR unknown subcommand 'nope'. Try CLUSTER HELP."
        );
        let err = lookup(&args(&["cluster"])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "ERR wrong number of arguments for 'cluster' command"
        );
    }
}
