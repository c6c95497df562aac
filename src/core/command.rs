//! What a reader types, as redis-cli and Redis 7.0 read it: a line split into arguments
//! (redis-cli's `sdssplitargs`), the command table (arity, flags, which arguments are keys) and
//! the slot verdict of a set of keys (none, one slot, or CROSSSLOT).
//!
//! Key positions follow Redis 7.0's `getKeysFromCommand`, the function cluster routing uses, so
//! an argument list that the command itself will later refuse (`MSET a 1 b`) still has keys here,
//! exactly as Redis sees them when it decides between serving, MOVED and CROSSSLOT.

use super::escape::EscapeError;
use super::slot::key_slot;
use core::fmt;

/// The error Redis returns when a command's keys are in different slots.
pub const CROSSSLOT: &str = "CROSSSLOT Keys in request don't hash to the same slot";

/// C's `isspace` in the "C" locale.
fn is_c_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

fn hex_value(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// Splits a line the way redis-cli's interactive mode does (`sdssplitargs`).
///
/// Arguments are separated by blanks. `"double quoted"` arguments understand `\xNN`, `\n`, `\r`,
/// `\t`, `\b`, `\a` and `\` before any other character (which stands for itself, so `\"` is a
/// quote and `\\` a backslash). `'single quoted'` arguments understand only `\'`. Outside quotes
/// a backslash is an ordinary character, and a quote may open in the middle of an argument
/// (`a"b c"` is `ab c`). A closing quote must be followed by a blank or the end of the line.
/// As in C, the line ends at its first NUL character. A line that cannot be split (redis-cli
/// answers `Invalid argument(s)`) gives an [`EscapeError::UnclosedQuote`] or
/// [`EscapeError::TextAfterQuote`] naming its column.
///
/// ```
/// use slotscope::core::command::split_args;
/// let args = split_args(r#"SET "a\x00b" 'it\'s' {user1}:x"#).unwrap();
/// assert_eq!(args, vec![b"SET".to_vec(), b"a\x00b".to_vec(), b"it's".to_vec(), b"{user1}:x".to_vec()]);
/// assert_eq!(split_args(r#"GET "foo"#).unwrap_err().column(), 5);
/// ```
pub fn split_args(line: &str) -> Result<Vec<Vec<u8>>, EscapeError> {
    let bytes = line.as_bytes();
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    let b = bytes.get(..end).unwrap_or(bytes);
    let at = |i: usize| b.get(i).copied().unwrap_or(0);
    // Columns count characters, as the key field does.
    let column = |i: usize| match line.get(..i) {
        Some(prefix) => prefix.chars().count() + 1,
        None => i + 1,
    };
    let mut out = Vec::new();
    let mut i = 0usize;
    loop {
        while is_c_space(at(i)) {
            i += 1;
        }
        if at(i) == 0 {
            return Ok(out);
        }
        let mut current = Vec::new();
        let (mut in_double, mut in_single) = (false, false);
        let mut opened_at = 0usize;
        loop {
            let mut done = false;
            let c = at(i);
            if in_double {
                match c {
                    b'\\' if at(i + 1) == b'x' => {
                        match (hex_value(at(i + 2)), hex_value(at(i + 3))) {
                            (Some(hi), Some(lo)) => {
                                current.push(hi << 4 | lo);
                                i += 3;
                            }
                            // `\x` without two hex digits is an `x`, as any other escaped char.
                            _ => {
                                i += 1;
                                current.push(b'x');
                            }
                        }
                    }
                    b'\\' if at(i + 1) != 0 => {
                        i += 1;
                        current.push(match at(i) {
                            b'n' => b'\n',
                            b'r' => b'\r',
                            b't' => b'\t',
                            b'b' => 0x08,
                            b'a' => 0x07,
                            other => other,
                        });
                    }
                    b'"' => {
                        if at(i + 1) != 0 && !is_c_space(at(i + 1)) {
                            return Err(EscapeError::TextAfterQuote {
                                column: column(i + 1),
                            });
                        }
                        done = true;
                    }
                    0 => {
                        return Err(EscapeError::UnclosedQuote {
                            column: column(opened_at),
                            quote: '"',
                        })
                    }
                    other => current.push(other),
                }
            } else if in_single {
                match c {
                    b'\\' if at(i + 1) == b'\'' => {
                        i += 1;
                        current.push(b'\'');
                    }
                    b'\'' => {
                        if at(i + 1) != 0 && !is_c_space(at(i + 1)) {
                            return Err(EscapeError::TextAfterQuote {
                                column: column(i + 1),
                            });
                        }
                        done = true;
                    }
                    0 => {
                        return Err(EscapeError::UnclosedQuote {
                            column: column(opened_at),
                            quote: '\'',
                        })
                    }
                    other => current.push(other),
                }
            } else {
                match c {
                    b' ' | b'\n' | b'\r' | b'\t' | 0 => done = true,
                    b'"' => {
                        in_double = true;
                        opened_at = i;
                    }
                    b'\'' => {
                        in_single = true;
                        opened_at = i;
                    }
                    other => current.push(other),
                }
            }
            if at(i) != 0 {
                i += 1;
            }
            if done {
                break;
            }
        }
        out.push(current);
    }
}

/// How a command's keys are found among its arguments (Redis 7.0's legacy key range, or the
/// `numkeys` form of EVAL and ZUNIONSTORE).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
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

/// One command of the table: its name, arity, flags and where its keys are.
#[derive(Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CommandInfo {
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

const W: u8 = 1;
const NS: u8 = 2;

const fn cmd(name: &'static str, arity: i32, flags: u8, keys: KeyRule) -> CommandInfo {
    CommandInfo {
        name,
        arity,
        write: flags & W != 0,
        noscript: flags & NS != 0,
        keys,
        subcommands: &[],
    }
}

const fn range(first: usize, last: i32, step: usize) -> KeyRule {
    KeyRule::Range { first, last, step }
}

const ONE: KeyRule = range(1, 1, 1);
const ALL: KeyRule = range(1, -1, 1);
const TWO: KeyRule = range(1, 2, 1);
const NONE: KeyRule = KeyRule::None;

static CLUSTER_SUBCOMMANDS: &[CommandInfo] = &[
    cmd("cluster|keyslot", 3, 0, NONE),
    cmd("cluster|info", 2, 0, NONE),
    cmd("cluster|nodes", 2, 0, NONE),
    cmd("cluster|slots", 2, 0, NONE),
    cmd("cluster|shards", 2, 0, NONE),
    cmd("cluster|myid", 2, 0, NONE),
    cmd("cluster|countkeysinslot", 3, 0, NONE),
    cmd("cluster|getkeysinslot", 4, 0, NONE),
];

/// The command table (Redis 7.0.15's arities and key positions for the commands the page knows).
static COMMANDS: &[CommandInfo] = &[
    // Strings.
    cmd("get", 2, 0, ONE),
    cmd("set", -3, W, ONE),
    cmd("getset", 3, W, ONE),
    cmd("incr", 2, W, ONE),
    cmd("decr", 2, W, ONE),
    cmd("incrby", 3, W, ONE),
    cmd("decrby", 3, W, ONE),
    cmd("append", 3, W, ONE),
    cmd("strlen", 2, 0, ONE),
    cmd("mget", -2, 0, ALL),
    cmd("mset", -3, W, range(1, -1, 2)),
    cmd("msetnx", -3, W, range(1, -1, 2)),
    // Keyspace.
    cmd("del", -2, W, ALL),
    cmd("unlink", -2, W, ALL),
    cmd("exists", -2, 0, ALL),
    cmd("touch", -2, 0, ALL),
    cmd("expire", -3, W, ONE),
    cmd("ttl", 2, 0, ONE),
    cmd("type", 2, 0, ONE),
    cmd("rename", 3, W, TWO),
    cmd("renamenx", 3, W, TWO),
    cmd("setnx", 3, W, ONE),
    cmd("setex", 4, W, ONE),
    cmd("psetex", 4, W, ONE),
    cmd("getdel", 2, W, ONE),
    cmd("getex", -2, W, ONE),
    cmd("getrange", 4, 0, ONE),
    cmd("setrange", 4, W, ONE),
    cmd("incrbyfloat", 3, W, ONE),
    cmd("setbit", 4, W, ONE),
    cmd("getbit", 3, 0, ONE),
    cmd("bitcount", -2, 0, ONE),
    cmd("bitpos", -3, 0, ONE),
    cmd("bitop", -4, W, range(2, -1, 1)),
    // Keyspace, routed, not run (no clock, no other types).
    cmd("persist", 2, W, ONE),
    cmd("pexpire", -3, W, ONE),
    cmd("expireat", -3, W, ONE),
    cmd("pexpireat", -3, W, ONE),
    cmd("pttl", 2, 0, ONE),
    cmd("expiretime", 2, 0, ONE),
    cmd("pexpiretime", 2, 0, ONE),
    cmd("copy", -3, W, TWO),
    cmd("dump", 2, 0, ONE),
    cmd("restore", -4, W, ONE),
    cmd("keys", 2, 0, NONE),
    cmd("scan", -2, 0, NONE),
    cmd("randomkey", 1, 0, NONE),
    // Hashes, sets, sorted sets, lists, streams, HyperLogLog, geo: routed, not run.
    cmd("hset", -4, W, ONE),
    cmd("hsetnx", 4, W, ONE),
    cmd("hmset", -4, W, ONE),
    cmd("hget", 3, 0, ONE),
    cmd("hmget", -3, 0, ONE),
    cmd("hdel", -3, W, ONE),
    cmd("hgetall", 2, 0, ONE),
    cmd("hkeys", 2, 0, ONE),
    cmd("hvals", 2, 0, ONE),
    cmd("hlen", 2, 0, ONE),
    cmd("hexists", 3, 0, ONE),
    cmd("hincrby", 4, W, ONE),
    cmd("hincrbyfloat", 4, W, ONE),
    cmd("hstrlen", 3, 0, ONE),
    cmd("hrandfield", -2, 0, ONE),
    cmd("hscan", -3, 0, ONE),
    cmd("sadd", -3, W, ONE),
    cmd("srem", -3, W, ONE),
    cmd("smembers", 2, 0, ONE),
    cmd("sismember", 3, 0, ONE),
    cmd("smismember", -3, 0, ONE),
    cmd("scard", 2, 0, ONE),
    cmd("spop", -2, W, ONE),
    cmd("srandmember", -2, 0, ONE),
    cmd("sscan", -3, 0, ONE),
    cmd("zadd", -4, W, ONE),
    cmd("zrem", -3, W, ONE),
    cmd("zscore", 3, 0, ONE),
    cmd("zmscore", -3, 0, ONE),
    cmd("zincrby", 4, W, ONE),
    cmd("zcard", 2, 0, ONE),
    cmd("zcount", 4, 0, ONE),
    cmd("zlexcount", 4, 0, ONE),
    cmd("zrange", -4, 0, ONE),
    cmd("zrangebyscore", -4, 0, ONE),
    cmd("zrevrangebyscore", -4, 0, ONE),
    cmd("zrangebylex", -4, 0, ONE),
    cmd("zrevrange", -4, 0, ONE),
    cmd("zrank", 3, 0, ONE),
    cmd("zrevrank", 3, 0, ONE),
    cmd("zpopmin", -2, W, ONE),
    cmd("zpopmax", -2, W, ONE),
    cmd("zremrangebyscore", 4, W, ONE),
    cmd("zremrangebyrank", 4, W, ONE),
    cmd("zrangestore", -5, W, TWO),
    cmd("zscan", -3, 0, ONE),
    cmd("bzpopmin", -3, W, range(1, -2, 1)),
    cmd("bzpopmax", -3, W, range(1, -2, 1)),
    cmd("lpush", -3, W, ONE),
    cmd("rpush", -3, W, ONE),
    cmd("lpushx", -3, W, ONE),
    cmd("rpushx", -3, W, ONE),
    cmd("lpop", -2, W, ONE),
    cmd("rpop", -2, W, ONE),
    cmd("llen", 2, 0, ONE),
    cmd("lrange", 4, 0, ONE),
    cmd("lindex", 3, 0, ONE),
    cmd("lset", 4, W, ONE),
    cmd("lrem", 4, W, ONE),
    cmd("ltrim", 4, W, ONE),
    cmd("linsert", 5, W, ONE),
    cmd("lpos", -3, 0, ONE),
    cmd("brpoplpush", 4, W, TWO),
    cmd("xadd", -5, W, ONE),
    cmd("xlen", 2, 0, ONE),
    cmd("xrange", -4, 0, ONE),
    cmd("xrevrange", -4, 0, ONE),
    cmd("xdel", -3, W, ONE),
    cmd("xtrim", -4, W, ONE),
    cmd("pfadd", -2, W, ONE),
    cmd("pfcount", -2, 0, ALL),
    cmd("geoadd", -5, W, ONE),
    cmd("geopos", -2, 0, ONE),
    cmd("geodist", -4, 0, ONE),
    cmd("sunion", -2, 0, ALL),
    cmd("sinter", -2, 0, ALL),
    cmd("sdiff", -2, 0, ALL),
    cmd("sunionstore", -3, W, ALL),
    cmd("sinterstore", -3, W, ALL),
    cmd("sdiffstore", -3, W, ALL),
    cmd("smove", 4, W, TWO),
    cmd(
        "zunionstore",
        -4,
        W,
        KeyRule::NumKeys {
            count_at: 2,
            dest_at: Some(1),
        },
    ),
    cmd(
        "zinterstore",
        -4,
        W,
        KeyRule::NumKeys {
            count_at: 2,
            dest_at: Some(1),
        },
    ),
    cmd("blpop", -3, W, range(1, -2, 1)),
    cmd("brpop", -3, W, range(1, -2, 1)),
    cmd("blmove", 6, W, TWO),
    cmd("lmove", 5, W, TWO),
    cmd("rpoplpush", 3, W, TWO),
    // Scripting.
    cmd(
        "eval",
        -3,
        NS,
        KeyRule::NumKeys {
            count_at: 2,
            dest_at: None,
        },
    ),
    cmd(
        "evalsha",
        -3,
        NS,
        KeyRule::NumKeys {
            count_at: 2,
            dest_at: None,
        },
    ),
    cmd(
        "fcall",
        -3,
        NS,
        KeyRule::NumKeys {
            count_at: 2,
            dest_at: None,
        },
    ),
    // Connection, transactions, server.
    cmd("ping", -1, 0, NONE),
    cmd("echo", 2, 0, NONE),
    cmd("quit", -1, NS, NONE),
    cmd("multi", 1, NS, NONE),
    cmd("exec", 1, NS, NONE),
    cmd("discard", 1, NS, NONE),
    cmd("asking", 1, 0, NONE),
    cmd("readonly", 1, 0, NONE),
    cmd("readwrite", 1, 0, NONE),
    cmd("dbsize", 1, 0, NONE),
    cmd("info", -1, 0, NONE),
    cmd("flushall", -1, W, NONE),
    cmd("flushdb", -1, W, NONE),
    CommandInfo {
        name: "cluster",
        arity: -2,
        write: false,
        noscript: false,
        keys: NONE,
        subcommands: CLUSTER_SUBCOMMANDS,
    },
];

/// The commands the table knows (container commands list their subcommands).
pub fn commands() -> &'static [CommandInfo] {
    COMMANDS
}

/// Why a command was refused before Redis looked at its keys. `Display` gives Redis 7.0's
/// error text (`ERR unknown command …`, `ERR wrong number of arguments …`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
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
    let base = find(COMMANDS, name).ok_or_else(unknown)?;
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
/// use slotscope::core::command::{key_positions, split_args};
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
#[non_exhaustive]
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
    pub fn error(&self) -> Option<&'static str> {
        match self {
            Verdict::CrossSlot { .. } => Some(CROSSSLOT),
            _ => None,
        }
    }
}

/// The slot verdict of `keys`: none, one slot (which), or CROSSSLOT.
///
/// ```
/// use slotscope::core::command::{slot_verdict, Verdict};
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
