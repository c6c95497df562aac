//! What a node answers: [`Reply`] (RESP2), its errors as data ([`ErrorReply`], whose `Display`
//! is Redis 7.0's exact text), the page's notes for what it does not run ([`NotRun`]), and
//! redis-cli's printing of a reply (`cliFormatReplyTTY`) and the RESP2 wire form.

use super::command::CommandError;
use crate::core::key::escape::push_formatted;
use core::fmt;

/// A Redis reply (RESP2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `+OK`.
    Ok,
    /// Any other status reply (`+QUEUED`, `+PONG`, `+string`).
    Status(String),
    /// An integer reply.
    Int(i64),
    /// A bulk string; `None` is the nil bulk (`$-1`).
    Bulk(Option<Vec<u8>>),
    /// An array (multi-bulk) reply.
    Array(Vec<Reply>),
    /// The nil array (`*-1`): EXEC aborted by WATCH, a blocking pop that timed out.
    NilArray,
    /// An error reply; its `Display` is the text after the leading `-`
    /// (`MOVED 12182 127.0.0.1:7002`).
    Error(ErrorReply),
}

/// An error reply, as data. `Display` gives exactly the text Redis 7.0 sends (without the
/// leading `-`); the page's own notes ([`ErrorReply::NotRun`]) print an `ERR slotscope …` text
/// so a command's fate in a transaction or a script stays Redis's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorReply {
    /// `MOVED <slot> <addr>`: the slot lives on another master.
    Moved {
        /// The slot.
        slot: u16,
        /// The owner's address.
        addr: String,
    },
    /// `ASK <slot> <addr>`: the slot is migrating and the key is (or would be) on the target.
    Ask {
        /// The slot.
        slot: u16,
        /// The migration target's address.
        addr: String,
    },
    /// `TRYAGAIN …`: a multi-key command whose keys are split by a migration.
    TryAgain,
    /// `CROSSSLOT …`: the keys are in different slots.
    CrossSlot,
    /// `CLUSTERDOWN …`.
    ClusterDown(ClusterDown),
    /// `READONLY You can't write against a read only replica.`
    ReadonlyReplica,
    /// Refused before routing: unknown command or subcommand, wrong number of arguments.
    Command(CommandError),
    /// `EXECABORT …`: a command was refused while queueing.
    ExecAbort,
    /// `ERR MULTI calls can not be nested`.
    NestedMulti,
    /// `ERR EXEC without MULTI`.
    ExecWithoutMulti,
    /// `ERR DISCARD without MULTI`.
    DiscardWithoutMulti,
    /// `ERR value is not an integer or out of range`.
    NotInteger,
    /// `ERR syntax error`.
    Syntax,
    /// `WRONGTYPE Operation against a key holding the wrong kind of value`.
    WrongType,
    /// `ERR The specified node is not a master` (CLUSTER REPLICAS of a replica).
    NotAMaster,
    /// `ERR value is not a valid float`.
    NotFloat,
    /// `ERR increment or decrement would overflow`.
    Overflow,
    /// `ERR decrement would overflow` (DECRBY of the smallest integer).
    DecrementOverflow,
    /// `ERR no such key`.
    NoSuchKey,
    /// `ERR invalid expire time in '<command>' command`.
    InvalidExpire {
        /// Redis's name of the command (`set`).
        command: &'static str,
    },
    /// `ERR Invalid slot` (CLUSTER COUNTKEYSINSLOT).
    InvalidSlot,
    /// `ERR Invalid slot or number of keys` (CLUSTER GETKEYSINSLOT).
    InvalidSlotOrCount,
    /// `ERR Function not found` (FCALL: the page has no functions).
    FunctionNotFound,
    /// A refusal of `CLUSTER SETSLOT`.
    SetSlot(SetSlotError),
    /// `ERR When using MIGRATE KEYS option, the key argument must be set to the empty string`.
    MigrateKeysNeedEmptyKey,
    /// `IOERR error or timeout connecting to the client` (MIGRATE to no node).
    MigrateIo,
    /// `ERR Target instance replied with error: <error>` (MIGRATE).
    TargetReplied(Box<ErrorReply>),
    /// `BUSYKEY Target key name already exists.`
    BusyKey,
    /// `ERR AUTH <password> called without any password configured …`.
    AuthNotConfigured,
    /// `ERR SELECT is not allowed in cluster mode`.
    SelectInCluster,
    /// `NOSCRIPT No matching script. Please use EVAL.`
    NoScript,
    /// `ERR Number of keys can't be greater than number of args`.
    TooManyKeys,
    /// `ERR Number of keys can't be negative`.
    NegativeKeys,
    /// An error raised by `redis.call` in a script:
    /// `<error> script: <sha1>, on @user_script:<line>.`
    Script {
        /// What went wrong.
        error: ScriptCallError,
        /// The script's SHA-1, lower-case hex.
        sha: String,
        /// The line of the `redis.call`.
        line: usize,
    },
    /// The page does not run this command (or script): its own note, as data.
    NotRun(NotRun),
    /// Any other error text (the rare rest).
    Other(String),
    // --- types2 ---
    /// An error only HyperLogLog commands send.
    Hll(super::data::HllError),
    /// An error only stream commands send.
    Stream(super::data::StreamError),
    // --- data ---
    /// An error of a data command (strings, keyspace, expiry, hashes, lists, bitmaps, WATCH).
    Data(super::data::DataError),
    // --- sets ---
    /// `ERR value is out of range, must be positive`.
    OutOfRangePositive,
    /// `ERR value is out of range, value must between <min> and <max>`.
    OutOfRangeBetween {
        /// The smallest value allowed.
        min: i64,
        /// The largest value allowed.
        max: i64,
    },
    /// `ERR numkeys should be greater than 0` (SINTERCARD, ZMPOP, …).
    NumkeysPositive,
    /// `ERR LIMIT can't be negative`.
    LimitNegative,
    /// `ERR invalid cursor`.
    InvalidCursor,
    /// `ERR XX and NX options at the same time are not compatible`.
    XxAndNx,
    /// `ERR GT, LT, and/or NX options at the same time are not compatible`.
    GtLtNx,
    /// `ERR INCR option supports a single increment-element pair`.
    IncrSinglePair,
    /// `ERR resulting score is not a number (NaN)`.
    ScoreNan,
    /// `ERR min or max is not a float`.
    MinMaxNotFloat,
    /// `ERR min or max not valid string range item`.
    MinMaxNotLex,
    /// `ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX`.
    LimitNeedsByScoreOrLex,
    /// `ERR syntax error, WITHSCORES not supported in combination with BYLEX`.
    WithScoresWithLex,
    /// `ERR weight value is not a float`.
    WeightNotFloat,
    /// `ERR at least 1 input key is needed for '<command>' command`.
    NeedOneInputKey {
        /// Redis's full name of the command (`zunionstore`).
        command: &'static str,
    },
    /// `ERR timeout is not a float or out of range`.
    TimeoutNotFloat,
    /// `ERR timeout is negative`.
    TimeoutNegative,
    /// `ERR count should be greater than 0`.
    CountPositive,
    /// `ERR value is out of range` (ZRANDMEMBER's count).
    ValueOutOfRange,
    /// `ERR One or more scores can't be converted into double` (SORT).
    SortNotDouble,
    /// `ERR BY option of SORT denied in Cluster mode.`
    SortByInCluster,
    /// `ERR GET option of SORT denied in Cluster mode.`
    SortGetInCluster,
    /// `ERR invalid longitude,latitude pair <lon>,<lat>`.
    InvalidLonLat {
        /// The longitude as read (`%f`).
        lon: String,
        /// The latitude as read (`%f`).
        lat: String,
    },
    /// `ERR unsupported unit provided. please use M, KM, FT, MI`.
    GeoUnit,
    /// `ERR could not decode requested zset member`.
    GeoMemberDecode,
    /// `ERR need numeric <what>` (`radius`, `width`, `height`).
    GeoNeedNumber {
        /// What was not a number.
        what: &'static str,
    },
    /// `ERR radius cannot be negative` / `ERR height or width cannot be negative`.
    GeoNegative {
        /// `radius` or `height or width`.
        what: &'static str,
    },
    /// A geo command's own option error (its exact text after `ERR `).
    GeoOption(&'static str),
    /// `ERR exactly one of <options> can be specified for <command as typed>`.
    GeoExactlyOne {
        /// `FROMMEMBER or FROMLONLAT` or `BYRADIUS and BYBOX`.
        options: &'static str,
        /// The command's name as the user typed it.
        command: String,
    },
}

/// The two ways a cluster refuses keyed commands as a whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClusterDown {
    /// `CLUSTERDOWN Hash slot not served`: no master serves the key's slot.
    SlotNotServed,
    /// `CLUSTERDOWN The cluster is down`: some slot is not served (or its master failed).
    Down,
}

/// Why `CLUSTER SETSLOT` was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetSlotError {
    /// `ERR Please use SETSLOT only with masters.`
    OnlyMasters,
    /// `ERR Invalid or out of range slot`.
    BadSlot,
    /// `ERR I'm not the owner of hash slot <slot>`.
    NotOwner {
        /// The slot.
        slot: u16,
    },
    /// `ERR I'm already the owner of hash slot <slot>`.
    AlreadyOwner {
        /// The slot.
        slot: u16,
    },
    /// `ERR I don't know about node <id>` (MIGRATING, IMPORTING).
    DontKnowNode {
        /// The id as typed.
        id: String,
    },
    /// `ERR Unknown node <id>` (NODE).
    UnknownNode {
        /// The id as typed.
        id: String,
    },
    /// `ERR Target node is not a master`.
    TargetNotMaster,
    /// `ERR Can't assign hashslot <slot> to a different node while I still hold keys …`.
    StillHoldsKeys {
        /// The slot.
        slot: u16,
    },
    /// `ERR Invalid CLUSTER SETSLOT action or number of arguments. Try CLUSTER HELP`.
    BadAction,
}

/// What `redis.call` raised in a script (Redis 7.0's `scriptCall` and `luaRedisGenericCommand`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScriptCallError {
    /// `ERR Please specify at least one argument for this redis lib call`.
    NoArguments,
    /// `ERR Wrong number of args calling Redis command from script`.
    WrongArity,
    /// `ERR Unknown Redis command called from script`.
    UnknownCommand,
    /// `ERR This Redis command is not allowed from script`.
    NotAllowed,
    /// `ERR Script attempted to access a non local key in a cluster node`.
    NonLocalKey,
    /// The called command's own error.
    Reply(Box<ErrorReply>),
}

/// What the page answers instead of running a command it does not simulate. The engine
/// replies it as an error (`ERR slotscope …`, so the command's fate in a transaction or a
/// script is Redis's); the page words it as its own note, in the reader's language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotRun {
    /// Output that differs from run to run (INFO, CLUSTER INFO, CLUSTER SHARDS).
    Unsimulated {
        /// Redis's name of the command (`info`, `cluster|info`).
        name: String,
    },
    /// A command this node would serve that the page does not simulate (no module runs it).
    OnlyStrings {
        /// Redis's name of the command (`hset`).
        name: String,
    },
    /// A script outside the subset the page runs.
    Script(ScriptNotRun),
    /// The command was sent to an address where no node listens.
    NoSuchNode {
        /// The address.
        addr: String,
    },
    // --- types2 ---
    /// A stream consumer-group command (XGROUP, XREADGROUP, XACK, XPENDING, XCLAIM,
    /// XAUTOCLAIM, XINFO GROUPS / CONSUMERS): the page does not simulate consumer groups.
    ConsumerGroups {
        /// Redis's name of the command (`xgroup|create`, `xreadgroup`).
        name: String,
    },
    // --- data ---
    /// A blocking command (BLPOP … 0) with nothing to pop and no timeout: a real client would
    /// wait for ever, and no other client of the page will ever push.
    BlocksForever {
        /// Redis's name of the command (`blpop`).
        name: String,
    },
    /// A command whose reply depends on what the page does not keep (DUMP's RDB payload,
    /// RESTORE of one).
    Serialized {
        /// Redis's name of the command (`dump`).
        name: String,
    },
    /// The command would make a value too large for the page to hold (SETRANGE or SETBIT at a
    /// huge offset, LCS of long strings); Redis would run it.
    TooLarge {
        /// Redis's name of the command (`setrange`).
        name: String,
    },
    /// A command that acts on the server itself (connections, persistence, replication,
    /// configuration, users, latency and memory tools), which the page does not model.
    NotSimulated {
        /// Redis's name of the command (`client|kill`, `config|set`).
        name: String,
    },
    /// A command after which the connection only waits for messages (SUBSCRIBE, PSUBSCRIBE,
    /// SSUBSCRIBE, MONITOR): nothing on the page would ever arrive.
    Subscribe {
        /// Redis's name of the command.
        name: String,
    },
    /// A command that changes the cluster's shape (CLUSTER MEET, ADDSLOTS, FORGET, FAILOVER on
    /// a replica, …): the page's topology lab does that.
    Topology {
        /// Redis's name of the command (`cluster|meet`).
        name: String,
    },
    /// A command that, with these arguments, would wait for ever (WAIT for more replicas than
    /// the master has, with timeout 0).
    WaitsForever {
        /// Redis's name of the command.
        name: String,
    },
    // --- bus-engine ---
    /// The node's process does not answer while the page follows a cluster bus: killed
    /// (`hung` false: the connection is refused) or stopped with SIGSTOP (`hung` true: the
    /// request waits unanswered until the client's timeout).
    NodeDown {
        /// The node's address.
        addr: String,
        /// Stopped (true) or killed (false).
        hung: bool,
    },
}

/// Why the page does not run a script (its Lua subset is `return` of `redis.call`, tables,
/// `KEYS[n]`, `ARGV[n]`, strings and integers).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScriptNotRun {
    /// The script is not in the subset: where the reading stopped, and why.
    Syntax {
        /// Line, from 1.
        line: usize,
        /// Column, from 1, in characters.
        column: usize,
        /// What was wrong there.
        problem: ScriptSyntax,
    },
    /// An element of a returned table is nil (Lua tables stop at nil).
    NilInTable {
        /// The element's position, from 1.
        element: usize,
    },
    /// An argument of `redis.call` is neither a string nor an integer.
    NotStringArgument {
        /// The argument's position, from 1.
        argument: usize,
        /// The line of the `redis.call`.
        line: usize,
    },
}

/// What the script reader expected and did not find.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScriptSyntax {
    /// The script does not start with `return`.
    MustStartWithReturn,
    /// Text follows the returned expression.
    TrailingText,
    /// A `,` between arguments.
    ExpectedComma,
    /// A `(` after `redis.call`.
    ExpectedOpenParen,
    /// A `]` after an index.
    ExpectedCloseBracket,
    /// An expression (`redis.call(…)`, `{…}`, `KEYS[n]`, `ARGV[n]`, a string, an integer).
    ExpectedExpression,
    /// An integer.
    ExpectedInteger,
    /// Expressions nest more deeply than the reader follows.
    TooDeep,
    /// A string is not closed on its line.
    UnfinishedString,
    /// A `\ddd` escape above 255.
    EscapeTooLarge,
    /// A backslash escape Lua 5.1 does not know.
    UnknownEscape,
}

impl fmt::Display for ClusterDown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ClusterDown::SlotNotServed => "CLUSTERDOWN Hash slot not served",
            ClusterDown::Down => "CLUSTERDOWN The cluster is down",
        })
    }
}

impl fmt::Display for SetSlotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetSlotError::OnlyMasters => f.write_str("ERR Please use SETSLOT only with masters."),
            SetSlotError::BadSlot => f.write_str("ERR Invalid or out of range slot"),
            SetSlotError::NotOwner { slot } => write!(f, "ERR I'm not the owner of hash slot {slot}"),
            SetSlotError::AlreadyOwner { slot } => {
                write!(f, "ERR I'm already the owner of hash slot {slot}")
            }
            SetSlotError::DontKnowNode { id } => write!(f, "ERR I don't know about node {id}"),
            SetSlotError::UnknownNode { id } => write!(f, "ERR Unknown node {id}"),
            SetSlotError::TargetNotMaster => f.write_str("ERR Target node is not a master"),
            SetSlotError::StillHoldsKeys { slot } => write!(
                f,
                "ERR Can't assign hashslot {slot} to a different node while I still hold keys for this hash slot."
            ),
            SetSlotError::BadAction => f.write_str(
                "ERR Invalid CLUSTER SETSLOT action or number of arguments. Try CLUSTER HELP",
            ),
        }
    }
}

impl fmt::Display for ScriptCallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScriptCallError::NoArguments => {
                f.write_str("ERR Please specify at least one argument for this redis lib call")
            }
            ScriptCallError::WrongArity => {
                f.write_str("ERR Wrong number of args calling Redis command from script")
            }
            ScriptCallError::UnknownCommand => {
                f.write_str("ERR Unknown Redis command called from script")
            }
            ScriptCallError::NotAllowed => {
                f.write_str("ERR This Redis command is not allowed from script")
            }
            ScriptCallError::NonLocalKey => {
                f.write_str("ERR Script attempted to access a non local key in a cluster node")
            }
            ScriptCallError::Reply(e) => e.fmt(f),
        }
    }
}

impl fmt::Display for ScriptSyntax {
    /// The engine's English wording (the page words it in the reader's language).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ScriptSyntax::MustStartWithReturn => "the script must start with `return`",
            ScriptSyntax::TrailingText => "unexpected text after the returned expression",
            ScriptSyntax::ExpectedComma => "expected `,` between arguments",
            ScriptSyntax::ExpectedOpenParen => "expected `(` after redis.call",
            ScriptSyntax::ExpectedCloseBracket => "expected `]`",
            ScriptSyntax::ExpectedExpression => {
                "expected redis.call(…), {…}, KEYS[n], ARGV[n], a string or an integer"
            }
            ScriptSyntax::ExpectedInteger => "expected an integer",
            ScriptSyntax::TooDeep => "expressions nest too deeply",
            ScriptSyntax::UnfinishedString => "unfinished string",
            ScriptSyntax::EscapeTooLarge => "escape sequence too large",
            ScriptSyntax::UnknownEscape => "an escape Lua 5.1 does not know",
        })
    }
}

impl fmt::Display for ScriptNotRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScriptNotRun::Syntax {
                line,
                column,
                problem,
            } => write!(
                f,
                "ERR slotscope does not run this script (line {line}, column {column}: {problem}); it runs only `return` of redis.call('CMD', KEYS[1], ARGV[1], 'text', 1), of {{…}} tables of those, of KEYS[n], ARGV[n], strings and integers"
            ),
            ScriptNotRun::NilInTable { element } => write!(
                f,
                "ERR slotscope does not run this script: element {element} of a table is nil, and Lua tables stop at nil"
            ),
            ScriptNotRun::NotStringArgument { argument, line } => write!(
                f,
                "ERR slotscope does not run this script: argument {argument} of redis.call on line {line} is not a string or an integer"
            ),
        }
    }
}

const UNSIMULATED: (&str, &str) = (
    "ERR slotscope does not simulate '",
    "': its real output carries ids, timestamps and counters that change from run to run",
);
const ONLY_STRINGS: (&str, &str) = (
    "ERR slotscope does not run '",
    "': this node would serve it, but the page does not simulate this command",
);

impl fmt::Display for NotRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotRun::Unsimulated { name } => write!(f, "{}{name}{}", UNSIMULATED.0, UNSIMULATED.1),
            NotRun::OnlyStrings { name } => {
                write!(f, "{}{name}{}", ONLY_STRINGS.0, ONLY_STRINGS.1)
            }
            NotRun::Script(why) => why.fmt(f),
            NotRun::NoSuchNode { addr } => write!(f, "ERR slotscope: no node listens at {addr}"),
            // --- types2 ---
            NotRun::ConsumerGroups { name } => write!(
                f,
                "ERR slotscope does not simulate stream consumer groups, so it does not run '{name}'"

            ),
            // --- data ---
            NotRun::BlocksForever { name } => write!(
                f,
                "ERR slotscope does not run '{name}' with timeout 0 on empty keys: it would block for ever"
            ),
            NotRun::Serialized { name } => write!(
                f,
                "ERR slotscope does not simulate '{name}': it does not keep Redis's serialized values"
            ),
            NotRun::TooLarge { name } => write!(
                f,
                "ERR slotscope does not run '{name}' here: the value would be too large for the page"
            ),
            NotRun::NotSimulated { name } => write!(
                f,
                "ERR slotscope does not simulate '{name}': it acts on the server itself, which the page does not model"
            ),
            NotRun::Subscribe { name } => write!(
                f,
                "ERR slotscope does not run '{name}': the connection would only wait for messages"
            ),
            NotRun::Topology { name } => write!(
                f,
                "ERR slotscope does not run '{name}': change the cluster's shape in the topology lab"
            ),
            NotRun::WaitsForever { name } => write!(
                f,
                "ERR slotscope does not run '{name}': with these arguments it would wait for ever"
            ),
            // --- bus-engine ---
            NotRun::NodeDown { addr, hung: false } => {
                write!(f, "ERR slotscope: {addr} is down (connection refused)")
            }
            NotRun::NodeDown { addr, hung: true } => {
                write!(f, "ERR slotscope: {addr} is stopped (no reply until the client's timeout)")
            }
        }
    }
}

impl fmt::Display for ErrorReply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = |f: &mut fmt::Formatter<'_>, s: &str| f.write_str(s);
        match self {
            ErrorReply::Moved { slot, addr } => write!(f, "MOVED {slot} {addr}"),
            ErrorReply::Ask { slot, addr } => write!(f, "ASK {slot} {addr}"),
            ErrorReply::TryAgain => text(f, "TRYAGAIN Multiple keys request during rehashing of slot"),
            ErrorReply::CrossSlot => text(f, "CROSSSLOT Keys in request don't hash to the same slot"),
            ErrorReply::ClusterDown(kind) => kind.fmt(f),
            ErrorReply::ReadonlyReplica => {
                text(f, "READONLY You can't write against a read only replica.")
            }
            ErrorReply::Command(e) => e.fmt(f),
            ErrorReply::ExecAbort => {
                text(f, "EXECABORT Transaction discarded because of previous errors.")
            }
            ErrorReply::NestedMulti => text(f, "ERR MULTI calls can not be nested"),
            ErrorReply::ExecWithoutMulti => text(f, "ERR EXEC without MULTI"),
            ErrorReply::DiscardWithoutMulti => text(f, "ERR DISCARD without MULTI"),
            ErrorReply::NotInteger => text(f, "ERR value is not an integer or out of range"),
            ErrorReply::Syntax => text(f, "ERR syntax error"),
            ErrorReply::WrongType => text(
                f,
                "WRONGTYPE Operation against a key holding the wrong kind of value",
            ),
            ErrorReply::NotFloat => text(f, "ERR value is not a valid float"),
            ErrorReply::NotAMaster => text(f, "ERR The specified node is not a master"),
            ErrorReply::Overflow => text(f, "ERR increment or decrement would overflow"),
            ErrorReply::DecrementOverflow => text(f, "ERR decrement would overflow"),
            ErrorReply::NoSuchKey => text(f, "ERR no such key"),
            ErrorReply::InvalidExpire { command } => {
                write!(f, "ERR invalid expire time in '{command}' command")
            }
            ErrorReply::InvalidSlot => text(f, "ERR Invalid slot"),
            ErrorReply::InvalidSlotOrCount => text(f, "ERR Invalid slot or number of keys"),
            ErrorReply::FunctionNotFound => text(f, "ERR Function not found"),
            ErrorReply::SetSlot(e) => e.fmt(f),
            ErrorReply::MigrateKeysNeedEmptyKey => text(
                f,
                "ERR When using MIGRATE KEYS option, the key argument must be set to the empty string",
            ),
            ErrorReply::MigrateIo => text(f, "IOERR error or timeout connecting to the client"),
            ErrorReply::TargetReplied(e) => write!(f, "ERR Target instance replied with error: {e}"),
            ErrorReply::BusyKey => text(f, "BUSYKEY Target key name already exists."),
            ErrorReply::AuthNotConfigured => text(
                f,
                "ERR AUTH <password> called without any password configured for the default user. Are you sure your configuration is correct?",
            ),
            ErrorReply::SelectInCluster => text(f, "ERR SELECT is not allowed in cluster mode"),
            ErrorReply::NoScript => text(f, "NOSCRIPT No matching script. Please use EVAL."),
            ErrorReply::TooManyKeys => {
                text(f, "ERR Number of keys can't be greater than number of args")
            }
            ErrorReply::NegativeKeys => text(f, "ERR Number of keys can't be negative"),
            ErrorReply::Script { error, sha, line } => {
                write!(f, "{error} script: {sha}, on @user_script:{line}.")
            }
            ErrorReply::NotRun(note) => note.fmt(f),
            ErrorReply::Other(s) => f.write_str(s),
            // --- types2 ---
            ErrorReply::Hll(e) => e.fmt(f),
            ErrorReply::Stream(e) => e.fmt(f),
            // --- data ---
            ErrorReply::Data(e) => e.fmt(f),
            // --- sets ---
            ErrorReply::OutOfRangePositive => {
                text(f, "ERR value is out of range, must be positive")
            }
            ErrorReply::OutOfRangeBetween { min, max } => {
                write!(f, "ERR value is out of range, value must between {min} and {max}")
            }
            ErrorReply::NumkeysPositive => text(f, "ERR numkeys should be greater than 0"),
            ErrorReply::LimitNegative => text(f, "ERR LIMIT can't be negative"),
            ErrorReply::InvalidCursor => text(f, "ERR invalid cursor"),
            ErrorReply::XxAndNx => {
                text(f, "ERR XX and NX options at the same time are not compatible")
            }
            ErrorReply::GtLtNx => text(
                f,
                "ERR GT, LT, and/or NX options at the same time are not compatible",
            ),
            ErrorReply::IncrSinglePair => {
                text(f, "ERR INCR option supports a single increment-element pair")
            }
            ErrorReply::ScoreNan => text(f, "ERR resulting score is not a number (NaN)"),
            ErrorReply::MinMaxNotFloat => text(f, "ERR min or max is not a float"),
            ErrorReply::MinMaxNotLex => text(f, "ERR min or max not valid string range item"),
            ErrorReply::LimitNeedsByScoreOrLex => text(
                f,
                "ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX",
            ),
            ErrorReply::WithScoresWithLex => text(
                f,
                "ERR syntax error, WITHSCORES not supported in combination with BYLEX",
            ),
            ErrorReply::WeightNotFloat => text(f, "ERR weight value is not a float"),
            ErrorReply::NeedOneInputKey { command } => {
                write!(f, "ERR at least 1 input key is needed for '{command}' command")
            }
            ErrorReply::TimeoutNotFloat => text(f, "ERR timeout is not a float or out of range"),
            ErrorReply::TimeoutNegative => text(f, "ERR timeout is negative"),
            ErrorReply::CountPositive => text(f, "ERR count should be greater than 0"),
            ErrorReply::ValueOutOfRange => text(f, "ERR value is out of range"),
            ErrorReply::SortNotDouble => {
                text(f, "ERR One or more scores can't be converted into double")
            }
            ErrorReply::SortByInCluster => text(f, "ERR BY option of SORT denied in Cluster mode."),
            ErrorReply::SortGetInCluster => {
                text(f, "ERR GET option of SORT denied in Cluster mode.")
            }
            ErrorReply::InvalidLonLat { lon, lat } => {
                write!(f, "ERR invalid longitude,latitude pair {lon},{lat}")
            }
            ErrorReply::GeoUnit => {
                text(f, "ERR unsupported unit provided. please use M, KM, FT, MI")
            }
            ErrorReply::GeoMemberDecode => text(f, "ERR could not decode requested zset member"),
            ErrorReply::GeoNeedNumber { what } => write!(f, "ERR need numeric {what}"),
            ErrorReply::GeoNegative { what } => write!(f, "ERR {what} cannot be negative"),
            ErrorReply::GeoOption(msg) => write!(f, "ERR {msg}"),
            ErrorReply::GeoExactlyOne { options, command } => {
                write!(f, "ERR exactly one of {options} can be specified for {command}")
            }
        }
    }
}

impl std::error::Error for ErrorReply {}

impl ErrorReply {
    /// The page's note this error is or carries (a command the page does not run, also when a
    /// script's `redis.call` or a MIGRATE target met it), if any.
    pub fn note(&self) -> Option<&NotRun> {
        match self {
            ErrorReply::NotRun(note) => Some(note),
            ErrorReply::Script {
                error: ScriptCallError::Reply(inner),
                ..
            }
            | ErrorReply::TargetReplied(inner) => inner.note(),
            _ => None,
        }
    }
}

impl From<CommandError> for ErrorReply {
    fn from(e: CommandError) -> ErrorReply {
        ErrorReply::Command(e)
    }
}

impl From<NotRun> for ErrorReply {
    fn from(note: NotRun) -> ErrorReply {
        ErrorReply::NotRun(note)
    }
}

impl From<ErrorReply> for Reply {
    fn from(e: ErrorReply) -> Reply {
        Reply::Error(e)
    }
}

/// The engine's reply: the error redis-cli would print for it.
impl From<NotRun> for Reply {
    fn from(note: NotRun) -> Reply {
        Reply::Error(ErrorReply::NotRun(note))
    }
}

impl Reply {
    /// Whether this is an error reply.
    pub fn is_error(&self) -> bool {
        matches!(self, Reply::Error(_))
    }

    /// The error, if this is one.
    pub fn error(&self) -> Option<&ErrorReply> {
        match self {
            Reply::Error(e) => Some(e),
            _ => None,
        }
    }

    /// The reply as redis-cli prints it on a terminal, interactive or one-shot (both print the
    /// same): every line ends with `\n`.
    ///
    /// ```
    /// use slotscope::core::server::reply::Reply;
    /// let r = Reply::Array(vec![Reply::Ok, Reply::Int(2), Reply::Bulk(None)]);
    /// assert_eq!(r.to_cli(), "1) OK\n2) (integer) 2\n3) (nil)\n");
    /// assert_eq!(Reply::Bulk(Some(b"a\"b".to_vec())).to_cli(), "\"a\\\"b\"\n");
    /// ```
    pub fn to_cli(&self) -> String {
        let mut out = String::new();
        push_cli(&mut out, self, "", None);
        out
    }

    /// [`Reply::to_cli`], except that an error carrying the page's own note (see
    /// [`ErrorReply::note`]), also inside an array, is printed as `(error) ` and what `note`
    /// makes of it: the page words its notes in the reader's language, while Redis's errors
    /// stay as Redis prints them.
    pub fn to_cli_noting(&self, note: &dyn Fn(&NotRun) -> String) -> String {
        let mut out = String::new();
        push_cli(&mut out, self, "", Some(note));
        out
    }

    /// The reply in RESP2 wire form (`-MOVED 12182 127.0.0.1:7002\r\n`).
    ///
    /// ```
    /// use slotscope::core::server::reply::{ErrorReply, Reply};
    /// let moved = ErrorReply::Moved { slot: 12182, addr: "127.0.0.1:7002".into() };
    /// assert_eq!(Reply::Error(moved).to_resp(), b"-MOVED 12182 127.0.0.1:7002\r\n");
    /// assert_eq!(Reply::Bulk(None).to_resp(), b"$-1\r\n");
    /// ```
    pub fn to_resp(&self) -> Vec<u8> {
        let mut out = Vec::new();
        push_resp(&mut out, self);
        out
    }
}

/// redis-cli's `cliFormatReplyTTY`.
fn push_cli(
    out: &mut String,
    reply: &Reply,
    prefix: &str,
    note: Option<&dyn Fn(&NotRun) -> String>,
) {
    match reply {
        Reply::Ok => out.push_str("OK\n"),
        Reply::Status(s) => {
            out.push_str(s);
            out.push('\n');
        }
        Reply::Int(n) => {
            out.push_str("(integer) ");
            out.push_str(&n.to_string());
            out.push('\n');
        }
        Reply::Bulk(None) | Reply::NilArray => out.push_str("(nil)\n"),
        Reply::Bulk(Some(bytes)) => {
            out.push('"');
            push_formatted(out, bytes);
            out.push_str("\"\n");
        }
        Reply::Error(e) => {
            out.push_str("(error) ");
            match (note, e.note()) {
                (Some(word), Some(n)) => out.push_str(&word(n)),
                _ => out.push_str(&e.to_string()),
            }
            out.push('\n');
        }
        Reply::Array(items) if items.is_empty() => out.push_str("(empty array)\n"),
        Reply::Array(items) => {
            let width = items.len().to_string().len();
            let inner = format!("{prefix}{}", " ".repeat(width + 2));
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(prefix);
                }
                out.push_str(&format!("{:>width$}) ", i + 1));
                push_cli(out, item, &inner, note);
            }
        }
    }
}

fn push_resp(out: &mut Vec<u8>, reply: &Reply) {
    match reply {
        Reply::Ok => out.extend_from_slice(b"+OK\r\n"),
        Reply::Status(s) => {
            out.push(b'+');
            out.extend_from_slice(s.as_bytes());
            out.extend_from_slice(b"\r\n");
        }
        Reply::Int(n) => out.extend_from_slice(format!(":{n}\r\n").as_bytes()),
        Reply::Bulk(None) => out.extend_from_slice(b"$-1\r\n"),
        Reply::NilArray => out.extend_from_slice(b"*-1\r\n"),
        Reply::Bulk(Some(bytes)) => {
            out.extend_from_slice(format!("${}\r\n", bytes.len()).as_bytes());
            out.extend_from_slice(bytes);
            out.extend_from_slice(b"\r\n");
        }
        Reply::Array(items) => {
            out.extend_from_slice(format!("*{}\r\n", items.len()).as_bytes());
            for item in items {
                push_resp(out, item);
            }
        }
        Reply::Error(e) => {
            out.push(b'-');
            out.extend_from_slice(e.to_string().as_bytes());
            out.extend_from_slice(b"\r\n");
        }
    }
}

/// What redis-cli prints for `reply` to `args`: `CLUSTER NODES` (like INFO and CLUSTER INFO) is
/// printed raw, as the text it is; everything else as [`Reply::to_cli`] prints it.
pub fn cli_text(args: &[Vec<u8>], reply: &Reply) -> String {
    let is = |i: usize, word: &[u8]| args.get(i).is_some_and(|a| a.eq_ignore_ascii_case(word));
    let raw = is(0, b"info") || (is(0, b"cluster") && (is(1, b"nodes") || is(1, b"info")));
    match reply {
        Reply::Bulk(Some(bytes)) if raw => {
            let mut text = String::from_utf8_lossy(bytes).into_owned();
            // redis-cli prints an empty INFO (no such section) as nothing at all.
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            text
        }
        _ => reply.to_cli(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_arrays_indent_like_redis_cli() {
        let r = Reply::Array(vec![
            Reply::Array(vec![Reply::Int(0), Reply::Array(vec![])]),
            Reply::Bulk(Some(b"x".to_vec())),
        ]);
        assert_eq!(
            r.to_cli(),
            "1) 1) (integer) 0\n   2) (empty array)\n2) \"x\"\n"
        );
        let ten = Reply::Array((1..=10).map(Reply::Int).collect());
        assert!(ten.to_cli().starts_with(" 1) (integer) 1\n"));
        assert!(ten.to_cli().ends_with("10) (integer) 10\n"));
    }
}
