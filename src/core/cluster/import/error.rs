//! What an import refuses ([`ImportError`]) and what it only notices ([`ImportWarning`]), as
//! data: numbers, node ids, addresses and quoted pieces of the paste. The page words them.

use crate::core::cluster::topology::{SlotRange, TopologyError};

/// Something wrong with the imported cluster that did not stop the import.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImportWarning {
    /// Two masters claim the same slots. The map keeps the one claimed first in the paste.
    Overlap {
        /// The slots claimed twice (consecutive, same two claimants).
        range: SlotRange,
        /// Address of the master that claimed them first (the one the map keeps).
        first: String,
        /// Address of the master that claimed them again.
        second: String,
        /// The line of the second claim.
        line: usize,
    },
    /// No master serves these slots.
    Uncovered {
        /// How many slots.
        count: usize,
        /// All of them, as ranges, ascending.
        ranges: Vec<SlotRange>,
    },
    /// A replica whose master is not in the paste. It is left out of the map, which can only
    /// hold replicas under their master.
    OrphanReplica {
        /// The replica's line.
        line: usize,
        /// Its address.
        addr: String,
        /// Its node id.
        id: String,
        /// The master id it names, or `None` when it names none (`-`).
        master_id: Option<String>,
    },
}

impl ImportWarning {
    /// The line the warning is about, if it is about one line.
    pub fn line(&self) -> Option<usize> {
        match self {
            ImportWarning::Overlap { line, .. } | ImportWarning::OrphanReplica { line, .. } => {
                Some(*line)
            }
            ImportWarning::Uncovered { .. } => None,
        }
    }
}

/// Why a paste could not be imported: what was wrong, and on which line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportError {
    /// The 1-based line of the paste the error is about (comment and prompt lines count),
    /// or `None` when it is about the paste as a whole.
    pub line: Option<usize>,
    /// What was wrong.
    pub kind: ImportErrorKind,
}

impl ImportError {
    pub(super) fn at(line: usize, kind: ImportErrorKind) -> Self {
        ImportError {
            line: Some(line),
            kind,
        }
    }

    pub(super) fn whole(kind: ImportErrorKind) -> Self {
        ImportError { line: None, kind }
    }
}

/// The two roles a `CLUSTER SLOTS` reply gave one node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clash {
    /// It serves a range as a master, but an earlier range lists it as a replica.
    MasterAfterReplica,
    /// It is listed as a replica, but as a master elsewhere.
    ReplicaAfterMaster,
    /// It is listed as the replica of two different masters.
    TwoMasters,
}

/// A counter field of a `CLUSTER NODES` line (fields 5 to 7), named as Redis documents it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counter {
    /// Field 5, `ping-sent`.
    PingSent,
    /// Field 6, `pong-recv`.
    PongRecv,
    /// Field 7, `config-epoch`.
    ConfigEpoch,
}

impl Counter {
    /// The field's name as Redis's documentation writes it: `ping-sent`, …
    pub fn name(self) -> &'static str {
        match self {
            Counter::PingSent => "ping-sent",
            Counter::PongRecv => "pong-recv",
            Counter::ConfigEpoch => "config-epoch",
        }
    }

    /// Its 1-based position on the line: 5, 6 or 7.
    pub fn field(self) -> usize {
        match self {
            Counter::PingSent => 5,
            Counter::PongRecv => 6,
            Counter::ConfigEpoch => 7,
        }
    }
}

/// What the format has at the point where the paste went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    // CLUSTER NODES lines.
    /// A node id (40 hex digits) at the start of a `CLUSTER NODES` line.
    NodeIdAtStart,
    /// The 8 fields before the slots: id, address, flags, master, ping-sent, pong-recv,
    /// config-epoch, link-state.
    NodeFields,
    /// An address like `127.0.0.1:7000@17000`.
    BusAddress,
    /// Flags like `myself,master` or `slave,fail?`.
    Flags,
    /// One role, `master` or `slave`, not both.
    OneRole,
    /// The master's node id, or `-` for a master.
    MasterId,
    /// A number in one of the counter fields.
    Counter(Counter),
    /// The link state, `connected` or `disconnected`, in field 8.
    LinkState,
    /// No slots on a replica's line.
    NoSlotsOnReplica,
    /// An open slot like `[5712->-<node id>]` or `[5712-<-<node id>]`.
    OpenSlot,
    /// A slot or a range like `0-5460`.
    SlotOrRange,
    // redis-cli's terminal form.
    /// A quoted string in redis-cli's escapes.
    QuotedString,
    /// A whole number after `(integer)`.
    Integer,
    /// A value such as `"127.0.0.1"`, `(integer) 7000` or `(empty array)`.
    Value,
    /// Nothing after a one-line reply such as `(empty array)`.
    NothingAfterOneLineReply,
    /// A numbered item such as `2) (integer) 7000`.
    NumberedItem,
    /// An item lined up under the items of its array.
    AlignedItem,
    /// Item number `n)` of the array here.
    ItemNumber(usize),
    // The shapes of SHARDS and SLOTS replies.
    /// A list of shards (the whole `CLUSTER SHARDS` reply).
    ShardList,
    /// A shard: its slots and its nodes.
    Shard,
    /// A field of a shard, by its name in the reply (`slots`, `nodes`).
    ShardField(&'static str),
    /// The shard's slots, as a list.
    ShardSlots,
    /// The shard's nodes, as a list.
    ShardNodes,
    /// A node of a shard: its id, port, ip, role, ...
    ShardNode,
    /// A field of a shard's node, by its name in the reply (`id`, `port`, `ip`, `role`).
    NodeField(&'static str),
    /// The role `master` or `replica`.
    Role,
    /// A node with the role `master` in the shard.
    ShardMaster,
    /// A list of slot ranges (the whole `CLUSTER SLOTS` reply).
    RangeList,
    /// A slot range and its nodes.
    RangeEntry,
    /// The first slot of a range.
    FirstSlot,
    /// The last slot of a range.
    LastSlot,
    /// The master serving the range.
    RangeMaster,
    /// A node of a range: its address, port and id.
    RangeNode,
    /// The node's address (item 1 of a range's node).
    NodeAddress,
    /// The node's port (item 2).
    NodePort,
    /// The node's id (item 3).
    NodeId,
    /// The node's metadata, as a list.
    Metadata,
    /// An address (an endpoint: no blanks, `,` or `@`).
    Host,
    /// An IP address.
    Ip,
    /// A hostname: letters, digits, `-` and `.`.
    Hostname,
    /// A port number, 0 to 65535.
    Port,
    /// A node id: 40 hex digits.
    Id,
    /// A field name.
    FieldName,
    /// The value of the named field after its name (the name as pasted, shortened).
    ValueOf(String),
    // `--raw` output, one value per line.
    /// `slots`, which opens each shard.
    RawShardStart,
    /// `nodes` after the shard's slots.
    RawShardNodes,
    /// `id`, which opens each node.
    RawNodeStart,
    /// The last slot of the range on the next line.
    RawLastSlot,
    /// The node's port after its address.
    RawPort,
    /// The node's id after its port.
    RawId,
}

/// What the paste has where the format has something else.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// A piece of the paste, shortened to 48 characters (`…` marks a cut).
    Text(String),
    /// A line with too few fields: how many, and the line (shortened).
    Fields {
        /// How many fields the line has.
        count: usize,
        /// The line.
        line: String,
    },
    /// `(integer) n`.
    Integer(i64),
    /// `(nil)`.
    Nil,
    /// `(empty array)`.
    EmptyArray,
    /// A list, where a single value belongs.
    List,
    /// Item number `n)`.
    Item(u64),
    /// The list ends here.
    EndOfList,
    /// The paste ends here.
    EndOfPaste,
    /// Nothing: the field is missing.
    Missing,
    /// Only replicas (a shard with no master).
    OnlyReplicas,
}

/// What was wrong with a paste.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImportErrorKind {
    /// The paste is longer than [`super::MAX_INPUT_BYTES`].
    TooLarge {
        /// Its length in bytes.
        bytes: usize,
    },
    /// Nothing but blank, comment and prompt lines.
    Empty,
    /// The first line of output is not how any of the three commands' output begins.
    Unrecognised {
        /// The line, shortened.
        found: String,
    },
    /// The paste is an error reply (`(error) ERR This instance has cluster support disabled`).
    RedisError {
        /// The error text after `(error) `, shortened: Redis's words.
        message: String,
    },
    /// Something other than what the format has at this point.
    Expected {
        /// What should be here.
        expected: Expected,
        /// What is here.
        found: Found,
    },
    /// A slot number past 16383.
    SlotOutOfRange {
        /// The number as written (shortened).
        found: String,
    },
    /// A range that ends before it starts (`5-3`).
    BackwardRange {
        /// Its first slot.
        first: u16,
        /// Its last slot.
        last: u16,
    },
    /// A node listed twice.
    DuplicateNode {
        /// Its id.
        id: String,
        /// The line that listed it first.
        first_line: usize,
    },
    /// A node given two roles (`CLUSTER SLOTS`: a master elsewhere, or the replica of two masters).
    Inconsistent {
        /// Its id.
        id: String,
        /// What clashes.
        detail: Clash,
    },
    /// A second command and its output follow the first.
    SeveralReplies,
    /// Nodes, but not one master.
    NoMasters,
    /// Arrays nested more deeply than any `CLUSTER` reply.
    TooDeep,
    /// More than [`super::MAX_CLAIMED_SLOTS`] slot claims in all.
    TooManySlots,
    /// The cluster model refused the result (more masters than it can number).
    Topology(TopologyError),
}
