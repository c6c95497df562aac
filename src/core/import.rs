//! Reading a real cluster's `CLUSTER NODES`, `CLUSTER SHARDS` or `CLUSTER SLOTS` output into a slot map, and writing one back as `CLUSTER NODES` text.
//!
//! [`import`] takes what a reader pastes: exactly what `redis-cli` printed, in its terminal form
//! (nested numbered arrays such as `1) 1) (integer) 0`) or its `--raw` form (one value per line,
//! which is also what `redis-cli` prints when its output is piped). Around the reply it skips
//! blank lines, `#` comments, shell prompt lines (`$ redis-cli -p 7000 CLUSTER NODES`) and
//! interactive prompt lines (`127.0.0.1:7000> CLUSTER NODES`); CR LF line ends and spaces at
//! either end of a line are fine. One paste holds one reply: a second prompt followed by more
//! output is an error, not a guess. RESP3 (`redis-cli -3`, maps written `1# "slots" => ...`) and
//! `--csv` output are not read; they get an error on their first line.
//!
//! What each command tells:
//!
//! | | masters, slots | replicas | flags | hostnames | open slots `[5712->-id]` |
//! |---|---|---|---|---|---|
//! | `CLUSTER NODES` | all masters, even empty ones | yes | all | yes | yes (only the answering node lists its own) |
//! | `CLUSTER SHARDS` | all masters, even empty ones | yes | `fail` (from `health`) | yes | no |
//! | `CLUSTER SLOTS` | only masters that own slots | yes | no | yes | no |
//!
//! Hostnames are kept for masters only: [`Replica`] has no hostname field.
//!
//! Masters (and each master's replicas) come out **sorted by address** (IP numerically, then
//! port), not in the order of the paste: `CLUSTER NODES` lists nodes in a hash table's random
//! order, so sorting is what makes the same cluster give the same map — and the same colours —
//! whichever node answered and whichever of the three commands printed it.
//!
//! Nothing here panics, whatever the input: every field read from the paste is checked, and an
//! error names the 1-based line it was found on and what was expected there. Problems of the
//! cluster rather than of the text (two masters claiming one slot, slots nobody serves, a replica
//! of a master the paste does not list) are not errors: the import succeeds and reports them as
//! [`ImportWarning`]s.
//!
//! ```
//! use slotscope::core::import::{export_nodes, import, Format};
//! use slotscope::core::SlotMap;
//! let text = "\
//! $ redis-cli -p 7000 CLUSTER NODES
//! 71fd5a01708f5b5aeee008680022eaad63c28eec 127.0.0.1:7001@17001 master - 0 0 2 connected 8192-16383
//! d3bede0cd4ba07708f552c2e44e8211e0d571a39 127.0.0.1:7000@17000 myself,master - 0 0 1 connected 0-8191
//! ";
//! let imported = import(text).unwrap();
//! assert_eq!(imported.format, Format::Nodes);
//! assert_eq!(imported.map.masters()[0].addr, "127.0.0.1:7000");
//! assert_eq!(imported.map.masters()[0].flags, ["myself"]);
//! assert!(imported.warnings.is_empty());
//! assert_eq!(import(&export_nodes(&imported.map)).unwrap().map, imported.map);
//! ```

use super::escape::parse_key;
use super::slot::N_SLOTS;
use super::topology::{Master, Replica, SlotMap, SlotRange, TopologyError};
use core::cmp::Ordering;
use core::fmt;
use std::collections::HashMap;
use std::net::IpAddr;

/// The largest paste [`import`] reads: 2 MiB. Anything larger is refused before a single line is
/// looked at, so a huge paste costs nothing. For scale: `CLUSTER SHARDS` takes about 420 bytes
/// per node (1000 nodes: under half a megabyte), and `CLUSTER NODES` stays under a few hundred
/// kilobytes for any cluster. Only `CLUSTER SLOTS` of a cluster whose slots are cut into
/// thousands of ranges (about 170 bytes per range and node) can pass the cap; `CLUSTER NODES`
/// says the same in far fewer bytes.
pub const MAX_INPUT_BYTES: usize = 2 * 1024 * 1024;

/// The most slot claims (summed over all ranges of all masters) one import accepts. A cluster
/// has 16384 slots; two views pasted together claim each twice. Without a bound, 2 MB of
/// `0-16383` fields would cost billions of steps.
pub const MAX_CLAIMED_SLOTS: usize = 16 * N_SLOTS;

/// `CLUSTER SHARDS` nests arrays four deep; anything much deeper is not a cluster reply.
const MAX_DEPTH: usize = 8;

/// How long a piece of the paste quoted in an error may be, in characters.
const QUOTE_CHARS: usize = 48;

/// Which command printed a paste.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// `CLUSTER NODES`: one line per node.
    Nodes,
    /// `CLUSTER SHARDS` (Redis 7): one entry per shard, its slots and its nodes.
    Shards,
    /// `CLUSTER SLOTS`: one entry per slot range, its master and replicas.
    Slots,
}

impl Format {
    /// The command, as typed: `CLUSTER NODES`, `CLUSTER SHARDS` or `CLUSTER SLOTS`.
    pub fn command(self) -> &'static str {
        match self {
            Format::Nodes => "CLUSTER NODES",
            Format::Shards => "CLUSTER SHARDS",
            Format::Slots => "CLUSTER SLOTS",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.command())
    }
}

/// A successful import: the cluster, which command printed it, and what looked wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imported {
    /// The cluster: masters and their replicas sorted by address, and the owner of every slot.
    pub map: SlotMap,
    /// Which command's output the paste was.
    pub format: Format,
    /// Problems of the cluster itself (overlaps, uncovered slots, orphan replicas), in the order
    /// they were found. Empty for a healthy cluster.
    pub warnings: Vec<ImportWarning>,
}

/// Something wrong with the imported cluster that did not stop the import.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
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

impl fmt::Display for ImportWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportWarning::Overlap {
                range,
                first,
                second,
                line,
            } => {
                let what = if range.len() == 1 { "slot" } else { "slots" };
                write!(
                    f,
                    "line {line}: {second} claims {what} {range}, which {first} already claims; the map keeps {first}"
                )
            }
            ImportWarning::Uncovered { count, ranges } => {
                const SHOWN: usize = 8;
                let what = if *count == 1 { "slot" } else { "slots" };
                write!(f, "no master serves {count} {what}: ")?;
                for (i, r) in ranges.iter().take(SHOWN).enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{r}")?;
                }
                if ranges.len() > SHOWN {
                    write!(f, " and {} more ranges", ranges.len() - SHOWN)?;
                }
                Ok(())
            }
            ImportWarning::OrphanReplica {
                line,
                addr,
                master_id: Some(master),
                ..
            } => write!(
                f,
                "line {line}: {addr} is a replica of {master}, which the paste does not list; it is left out"
            ),
            ImportWarning::OrphanReplica {
                line,
                addr,
                master_id: None,
                ..
            } => write!(
                f,
                "line {line}: {addr} is a replica of an unknown master (-); it is left out"
            ),
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

/// The two roles a `CLUSTER SLOTS` reply gave one node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Clash {
    /// It serves a range as a master, but an earlier range lists it as a replica.
    MasterAfterReplica,
    /// It is listed as a replica, but as a master elsewhere.
    ReplicaAfterMaster,
    /// It is listed as the replica of two different masters.
    TwoMasters,
}

impl fmt::Display for Clash {
    /// The end of a sentence that starts with the node id.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Clash::MasterAfterReplica => {
                "serves this range as a master, but an earlier range lists it as a replica"
            }
            Clash::ReplicaAfterMaster => "is listed as a replica here, but as a master elsewhere",
            Clash::TwoMasters => "is listed as the replica of two different masters",
        })
    }
}

/// What was wrong with a paste.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ImportErrorKind {
    /// The paste is longer than [`MAX_INPUT_BYTES`].
    TooLarge {
        /// Its length in bytes.
        bytes: usize,
    },
    /// Nothing but blank, comment and prompt lines.
    Empty,
    /// The first line of output is not how any of the three commands' output begins.
    Unrecognised {
        /// The line, quoted (and shortened).
        found: String,
    },
    /// The paste is an error reply (`(error) ERR This instance has cluster support disabled`).
    RedisError {
        /// The error text after `(error) `.
        message: String,
    },
    /// Something other than what the format has at this point.
    Expected {
        /// What should be here, in words.
        expected: String,
        /// What is here: a quoted (shortened) piece of the paste, or a description such as
        /// `the end of the list`.
        found: String,
    },
    /// A slot number past 16383.
    SlotOutOfRange {
        /// The number as written.
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
    /// More than [`MAX_CLAIMED_SLOTS`] slot claims in all.
    TooManySlots,
    /// The cluster model refused the result (more masters than it can number).
    Topology(TopologyError),
}

impl ImportError {
    fn at(line: usize, kind: ImportErrorKind) -> Self {
        ImportError {
            line: Some(line),
            kind,
        }
    }

    fn whole(kind: ImportErrorKind) -> Self {
        ImportError { line: None, kind }
    }
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(line) = self.line {
            write!(f, "line {line}: ")?;
        }
        write!(f, "{}", self.kind)
    }
}

impl fmt::Display for ImportErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ImportErrorKind as K;
        match self {
            K::TooLarge { bytes } => write!(
                f,
                "the paste is {bytes} bytes, and at most {MAX_INPUT_BYTES} (2 MiB) are read; paste one command's output (CLUSTER NODES is the most compact)"
            ),
            K::Empty => f.write_str(
                "nothing to import: paste the output of CLUSTER NODES, CLUSTER SHARDS or CLUSTER SLOTS",
            ),
            K::Unrecognised { found } => write!(
                f,
                "expected the output of CLUSTER NODES, CLUSTER SHARDS or CLUSTER SLOTS, found {found}"
            ),
            K::RedisError { message } => write!(
                f,
                "redis answered with an error, not with the cluster's layout: {message}"
            ),
            K::Expected { expected, found } => write!(f, "expected {expected}, found {found}"),
            K::SlotOutOfRange { found } => write!(
                f,
                "slot {found} is out of range: slots are numbered 0-16383"
            ),
            K::BackwardRange { first, last } => write!(
                f,
                "the range {first}-{last} ends before it starts; write it {last}-{first}"
            ),
            K::DuplicateNode { id, first_line } => write!(
                f,
                "node {id} already appeared on line {first_line}; paste one command's output at a time"
            ),
            K::Inconsistent { id, detail } => write!(f, "node {id} {detail}"),
            K::SeveralReplies => {
                f.write_str("a second command starts here; paste one command's output at a time")
            }
            K::NoMasters => f.write_str("the paste lists no master node"),
            K::TooDeep => f.write_str("arrays are nested more deeply than in any CLUSTER reply"),
            K::TooManySlots => write!(
                f,
                "the masters claim more than {MAX_CLAIMED_SLOTS} slots in all, but a cluster has 16384: this is not one cluster's output"
            ),
            K::Topology(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ImportError {}

/// Which command's output `text` is, judged by its first line of output (comments, prompts and
/// blank lines skipped). `None` when it looks like none of them. This does not check the rest:
/// [`import`] does.
///
/// ```
/// use slotscope::core::import::{detect, Format};
/// assert_eq!(detect("1) 1) \"slots\"\n   2) 1) (integer) 0"), Some(Format::Shards));
/// assert_eq!(detect("127.0.0.1:7000> CLUSTER SLOTS\n1) 1) (integer) 0"), Some(Format::Slots));
/// assert_eq!(detect("cluster_state:ok"), None);
/// ```
pub fn detect(text: &str) -> Option<Format> {
    let (first, _) = lines(text).find(|(_, kind)| *kind == LineKind::Content)?;
    detect_line(first.text)
}

/// Reads the output of `CLUSTER NODES`, `CLUSTER SHARDS` or `CLUSTER SLOTS` (see the module
/// documentation for what is accepted) into a slot map.
///
/// Errors (each naming its line where there is one): a paste over [`MAX_INPUT_BYTES`], one with
/// no output, output of another command, any field that is not what the format has there (a
/// bad range such as `5-3`, a slot past 16383, a truncated line, shuffled array items), a node
/// listed twice, no master at all. A replica of a master the paste does not list is a warning
/// ([`ImportWarning::OrphanReplica`]), not an error.
pub fn import(text: &str) -> Result<Imported, ImportError> {
    if text.len() > MAX_INPUT_BYTES {
        return Err(ImportError::whole(ImportErrorKind::TooLarge {
            bytes: text.len(),
        }));
    }
    let content = content_lines(text)?;
    let Some(first) = content.first() else {
        return Err(ImportError::whole(ImportErrorKind::Empty));
    };
    let Some(format) = detect_line(first.text) else {
        return Err(unrecognised(first, content.len()));
    };
    let nodes = match format {
        Format::Nodes => read_nodes(&content)?,
        Format::Shards => read_shards(&tree(&content, raw_shards)?)?,
        Format::Slots => read_slots(&tree(&content, raw_slots)?)?,
    };
    build(nodes, format)
}

/// The topology as `CLUSTER NODES` text: one line per master, each followed by its replicas'
/// lines. Ping and pong times are 0, a master's config epoch is its index + 1 (its replicas show
/// the same), every link is `connected`, the cluster bus port is the port + 10000 (0 for port 0,
/// as `noaddr` nodes show `:0@0`), and each master's line carries its own open slots
/// (`[5712->-<id>]`, `[5712-<-<id>]`; real Redis shows them only on the answering node's line).
/// Flags are written `myself` first, then the role, then the rest, as Redis orders them.
///
/// [`import`] of the result gives back the same masters, ranges, replicas, flags, hostnames and
/// open slots, in address order (the order `import` produces), provided node ids are 40 hex
/// digits and addresses end in `:port`, as in any real cluster.
pub fn export_nodes(map: &SlotMap) -> String {
    let ranges = map.ranges_by_master();
    let mut out = String::new();
    for (i, master) in map.masters().iter().enumerate() {
        let epoch = i + 1;
        out.push_str(&master.id);
        out.push(' ');
        out.push_str(&bus_address(&master.addr, master.hostname.as_deref()));
        out.push(' ');
        out.push_str(&flags_field(&master.flags, "master"));
        out.push_str(&format!(" - 0 0 {epoch} connected"));
        for range in ranges.get(i).into_iter().flatten() {
            out.push_str(&format!(" {range}"));
        }
        for (slot, id) in &master.migrating {
            out.push_str(&format!(" [{slot}->-{id}]"));
        }
        for (slot, id) in &master.importing {
            out.push_str(&format!(" [{slot}-<-{id}]"));
        }
        out.push('\n');
        for replica in &master.replicas {
            out.push_str(&format!(
                "{} {} {} {} 0 0 {epoch} connected\n",
                replica.id,
                bus_address(&replica.addr, None),
                flags_field(&replica.flags, "slave"),
                master.id
            ));
        }
    }
    out
}

/// `ip:port@cport[,hostname]` with the default bus port (port + 10000, or 0 for port 0).
fn bus_address(addr: &str, hostname: Option<&str>) -> String {
    let cport = match addr.rsplit_once(':').map(|(_, p)| p.parse::<u64>()) {
        Some(Ok(0)) | None | Some(Err(_)) => 0,
        Some(Ok(port)) => port.saturating_add(10000),
    };
    match hostname {
        Some(h) => format!("{addr}@{cport},{h}"),
        None => format!("{addr}@{cport}"),
    }
}

/// Redis writes `myself` first, then the role, then the other flags.
fn flags_field(flags: &[String], role: &str) -> String {
    let mut words: Vec<&str> = Vec::with_capacity(flags.len() + 1);
    if flags.iter().any(|f| f == "myself") {
        words.push("myself");
    }
    words.push(role);
    words.extend(
        flags
            .iter()
            .map(String::as_str)
            .filter(|f| !matches!(*f, "myself" | "master" | "slave" | "replica" | "noflags")),
    );
    words.join(",")
}

// ---------------------------------------------------------------------------------------------
// Lines: what to skip, where the reply is.

/// One line of the paste: its 1-based number and its text without the line end and trailing
/// blanks. Leading blanks stay: in `redis-cli`'s nested arrays they carry the structure.
#[derive(Clone, Copy, Debug)]
struct Line<'a> {
    no: usize,
    text: &'a str,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LineKind {
    /// Blank, or a `#` comment.
    Skip,
    /// A shell or redis-cli prompt, with or without a command after it.
    Prompt,
    /// Part of the reply.
    Content,
}

fn lines(text: &str) -> impl Iterator<Item = (Line<'_>, LineKind)> {
    // Split on '\n' only: trim_end then drops the '\r' of CR LF line ends.
    text.split('\n').enumerate().map(|(i, raw)| {
        let text = raw.trim_end();
        (Line { no: i + 1, text }, line_kind(text))
    })
}

fn line_kind(text: &str) -> LineKind {
    let t = text.trim_start();
    if t.is_empty() || t.starts_with('#') {
        return LineKind::Skip;
    }
    let first = t.split_whitespace().next().unwrap_or_default();
    // `$ redis-cli ...`, or `user@host:~$ redis-cli ...`.
    if first == "$" || (first.len() > 1 && first.ends_with('$')) {
        return LineKind::Prompt;
    }
    // redis-cli's own prompt: `127.0.0.1:7000>`, `127.0.0.1:7000[1]>`, `127.0.0.1:7000(TX)>`,
    // `not connected>`. No reply line starts with a word ending in '>' (the `->` inside
    // `[5712->-id]` is never in the first field); `>>> Performing ...` is not a prompt.
    if (first.len() > 1 && first.ends_with('>') && !first.starts_with('>'))
        || t.starts_with("not connected>")
    {
        return LineKind::Prompt;
    }
    LineKind::Content
}

/// The reply's lines. A prompt after the reply has begun ends it; output after such a prompt is
/// a second reply, refused rather than merged or guessed at. A trailing bare prompt is fine.
fn content_lines(text: &str) -> Result<Vec<Line<'_>>, ImportError> {
    let mut out = Vec::new();
    let mut ended_at = None;
    for (line, kind) in lines(text) {
        match kind {
            LineKind::Skip => {}
            LineKind::Prompt => {
                if !out.is_empty() && ended_at.is_none() {
                    ended_at = Some(line.no);
                }
            }
            LineKind::Content => {
                if let Some(at) = ended_at {
                    return Err(ImportError::at(at, ImportErrorKind::SeveralReplies));
                }
                out.push(line);
            }
        }
    }
    Ok(out)
}

fn detect_line(text: &str) -> Option<Format> {
    let (prefixes, leaf) = split_prefixes(text);
    if !prefixes.is_empty() {
        // Terminal form: SHARDS opens with the field name "slots", SLOTS with a slot number.
        return if leaf == "\"slots\"" {
            Some(Format::Shards)
        } else if leaf.starts_with("(integer) ") {
            Some(Format::Slots)
        } else {
            None
        };
    }
    let t = text.trim();
    let mut fields = t.split_whitespace();
    let (first, second) = (fields.next()?, fields.next());
    if is_node_id(first) || second.is_some_and(|s| s.contains(':') && s.contains('@')) {
        return Some(Format::Nodes);
    }
    // `--raw` form: the same values without numbers, quotes or `(integer)`.
    if t == "slots" {
        Some(Format::Shards)
    } else if !t.is_empty() && t.len() <= 5 && t.bytes().all(|b| b.is_ascii_digit()) {
        Some(Format::Slots)
    } else {
        None
    }
}

fn unrecognised(first: &Line<'_>, n_lines: usize) -> ImportError {
    let (_, leaf) = split_prefixes(first.text);
    let kind = if let Some(message) = leaf.strip_prefix("(error) ") {
        ImportErrorKind::RedisError {
            message: shorten(message),
        }
    } else if n_lines == 1 && is_empty_array(leaf) {
        // What SLOTS and SHARDS print for a cluster with no slots and no nodes.
        ImportErrorKind::NoMasters
    } else {
        ImportErrorKind::Unrecognised {
            found: quote(first.text.trim()),
        }
    };
    ImportError::at(first.no, kind)
}

fn is_node_id(s: &str) -> bool {
    s.len() == 40 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Redis accepts only letters, digits, `-` and `.` in `cluster-announce-hostname`.
fn is_hostname(h: &str) -> bool {
    !h.is_empty()
        && h.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.')
}

/// An IP (or endpoint) from SHARDS or SLOTS must fit in one `ip:port@cport` field of
/// `CLUSTER NODES`, so that the map can be exported and read back.
fn is_host(h: &str) -> bool {
    !h.chars().any(|c| c.is_whitespace() || c == ',' || c == '@')
}

fn is_empty_array(leaf: &str) -> bool {
    matches!(
        leaf,
        "(empty array)" | "(empty list or set)" | "(empty set)" | "(empty hash)"
    )
}

fn shorten(s: &str) -> String {
    let mut chars = s.chars();
    let mut out: String = chars.by_ref().take(QUOTE_CHARS).collect();
    if chars.next().is_some() {
        out.push('…');
    }
    out
}

fn quote(s: &str) -> String {
    format!("\"{}\"", shorten(s))
}

fn expected(line: usize, expected: impl Into<String>, found: String) -> ImportError {
    ImportError::at(
        line,
        ImportErrorKind::Expected {
            expected: expected.into(),
            found,
        },
    )
}

// ---------------------------------------------------------------------------------------------
// What every format is turned into before the map is built.

#[derive(Clone, Debug, PartialEq, Eq)]
enum Role {
    Master,
    /// A replica, and the id of its master (`None`: `-`, not known).
    ReplicaOf(Option<String>),
}

#[derive(Clone, Debug)]
struct NodeInfo {
    line: usize,
    id: String,
    addr: String,
    hostname: Option<String>,
    flags: Vec<String>,
    role: Role,
    /// Slot ranges claimed, each with the line that claims it.
    slots: Vec<(usize, SlotRange)>,
    migrating: Vec<(u16, String)>,
    importing: Vec<(u16, String)>,
}

impl NodeInfo {
    fn new(line: usize, id: String, addr: String, hostname: Option<String>, role: Role) -> Self {
        NodeInfo {
            line,
            id,
            addr,
            hostname,
            flags: Vec::new(),
            role,
            slots: Vec::new(),
            migrating: Vec::new(),
            importing: Vec::new(),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// CLUSTER NODES: `<id> <ip:port@cport[,hostname]> <flags> <master> <ping-sent> <pong-recv>
// <config-epoch> <link-state> <slot> <slot> ...`

fn read_nodes(content: &[Line<'_>]) -> Result<Vec<NodeInfo>, ImportError> {
    let mut out: Vec<NodeInfo> = Vec::with_capacity(content.len());
    let mut seen: HashMap<String, usize> = HashMap::new();
    for line in content {
        let node = node_line(line.no, line.text.trim())?;
        if let Some(&first_line) = seen.get(&node.id) {
            return Err(ImportError::at(
                line.no,
                ImportErrorKind::DuplicateNode {
                    id: node.id,
                    first_line,
                },
            ));
        }
        seen.insert(node.id.clone(), line.no);
        out.push(node);
    }
    Ok(out)
}

const NODE_FIELDS: &str =
    "8 fields (id, address, flags, master, ping-sent, pong-recv, config-epoch, link-state) before the slots";

fn node_line(no: usize, text: &str) -> Result<NodeInfo, ImportError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let field = |i: usize| fields.get(i).copied().unwrap_or_default();
    if !is_node_id(field(0)) {
        return Err(expected(
            no,
            "a node id (40 hex digits) at the start of the line",
            quote(field(0)),
        ));
    }
    if fields.len() < 8 {
        return Err(expected(
            no,
            NODE_FIELDS,
            format!("only {}: {}", fields.len(), quote(text)),
        ));
    }
    let (addr, hostname) = parse_address(field(1))
        .ok_or_else(|| expected(no, "an address like 127.0.0.1:7000@17000", quote(field(1))))?;

    // Flags: comma-separated words. The role (master, slave) is not a flag here; `noflags`
    // means there are none. A node still in handshake shows no role: it is taken as a master
    // (with no slots), so it still appears.
    let mut flags = Vec::new();
    let (mut is_master, mut is_replica) = (false, false);
    for word in field(2).split(',') {
        if word.is_empty() || !word.bytes().all(|b| b.is_ascii_lowercase() || b == b'?') {
            return Err(expected(
                no,
                "flags like myself,master or slave,fail?",
                quote(field(2)),
            ));
        }
        match word {
            "master" => is_master = true,
            "slave" | "replica" => is_replica = true,
            "noflags" => {}
            _ => flags.push(word.to_owned()),
        }
    }
    if is_master && is_replica {
        return Err(expected(no, "one role, master or slave", quote(field(2))));
    }
    let master_field = field(3);
    if master_field != "-" && !is_node_id(master_field) {
        return Err(expected(
            no,
            "the master's node id (40 hex digits), or - for a master",
            quote(master_field),
        ));
    }
    for (i, what) in [(4, "ping-sent"), (5, "pong-recv"), (6, "config-epoch")] {
        let f = field(i);
        if f.is_empty() || f.len() > 20 || !f.bytes().all(|b| b.is_ascii_digit()) {
            return Err(expected(
                no,
                format!("a number ({what}) in field {}", i + 1),
                quote(f),
            ));
        }
    }
    if !matches!(field(7), "connected" | "disconnected") {
        return Err(expected(
            no,
            "the link state, connected or disconnected, in field 8",
            quote(field(7)),
        ));
    }
    let role = if is_replica {
        Role::ReplicaOf((master_field != "-").then(|| master_field.to_owned()))
    } else {
        Role::Master
    };
    let mut node = NodeInfo::new(no, field(0).to_owned(), addr, hostname, role);
    node.flags = flags;
    for &f in fields.get(8..).unwrap_or_default() {
        if is_replica {
            return Err(expected(no, "no slots on a replica's line", quote(f)));
        }
        slot_field(no, f, &mut node)?;
    }
    Ok(node)
}

/// `ip:port@cport`, `ip:port@cport,hostname` (Redis 7), or `ip:port` (before Redis 4).
/// `noaddr` nodes show `:0@0`. IPv6 addresses are not bracketed (`::1:7000@17000`), so the
/// port is what follows the last colon. Later aux fields (`,key=value`) are ignored.
fn parse_address(field: &str) -> Option<(String, Option<String>)> {
    let (main, bus) = match field.split_once('@') {
        Some((main, bus)) => (main, Some(bus)),
        None => (field, None),
    };
    let (_, port) = main.rsplit_once(':')?;
    if port.is_empty() || port.parse::<u16>().is_err() {
        return None;
    }
    let mut hostname = None;
    if let Some(bus) = bus {
        let mut parts = bus.split(',');
        let cport = parts.next().unwrap_or_default();
        if cport.is_empty() || cport.parse::<u32>().is_err() {
            return None;
        }
        // Redis 7.0 writes the hostname only when one is set; later versions may add
        // `key=value` aux fields after it.
        match parts.next() {
            Some(h) if h.is_empty() || h.contains('=') => {}
            Some(h) if is_hostname(h) => hostname = Some(h.to_owned()),
            Some(_) => return None,
            None => {}
        }
    }
    Some((main.to_owned(), hostname))
}

/// One slot field of a master's line: `5712`, `0-5460`, `[5712->-<id>]` (migrating to id) or
/// `[5712-<-<id>]` (importing from id).
fn slot_field(no: usize, f: &str, node: &mut NodeInfo) -> Result<(), ImportError> {
    if let Some(inner) = f.strip_prefix('[') {
        let bad = || {
            expected(
                no,
                "an open slot like [5712->-<node id>] or [5712-<-<node id>]",
                quote(f),
            )
        };
        let inner = inner.strip_suffix(']').ok_or_else(bad)?;
        let (slot, id, migrating) = if let Some((slot, id)) = inner.split_once("->-") {
            (slot, id, true)
        } else if let Some((slot, id)) = inner.split_once("-<-") {
            (slot, id, false)
        } else {
            return Err(bad());
        };
        if !is_node_id(id) {
            return Err(bad());
        }
        let slot = slot_number(no, slot, f)?;
        let list = if migrating {
            &mut node.migrating
        } else {
            &mut node.importing
        };
        list.push((slot, id.to_owned()));
        return Ok(());
    }
    let range = match f.split_once('-') {
        Some((a, b)) => {
            let (first, last) = (slot_number(no, a, f)?, slot_number(no, b, f)?);
            if first > last {
                return Err(ImportError::at(
                    no,
                    ImportErrorKind::BackwardRange { first, last },
                ));
            }
            SlotRange::new(first, last)
        }
        None => {
            let slot = slot_number(no, f, f)?;
            SlotRange::new(slot, slot)
        }
    };
    node.slots.push((no, range));
    Ok(())
}

/// A slot number: decimal digits, at most 16383. `field` is the whole field, for the message.
fn slot_number(no: usize, digits: &str, field: &str) -> Result<u16, ImportError> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(expected(no, "a slot or a range like 0-5460", quote(field)));
    }
    match digits.parse::<u32>() {
        Ok(n) if (n as usize) < N_SLOTS => Ok(n as u16),
        _ => Err(ImportError::at(
            no,
            ImportErrorKind::SlotOutOfRange {
                found: shorten(digits),
            },
        )),
    }
}

// ---------------------------------------------------------------------------------------------
// SHARDS and SLOTS replies as a tree, from either redis-cli form.

#[derive(Clone, Debug)]
struct Node {
    /// Where the value (for an array: its first item) is written.
    line: usize,
    value: Value,
}

#[derive(Clone, Debug)]
enum Value {
    Str(String),
    Int(i64),
    Nil,
    Array(Vec<Node>),
}

impl Node {
    fn items(&self) -> Option<&[Node]> {
        match &self.value {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// A string, or an integer as text (`--raw` output does not tell them apart).
    fn text(&self) -> Option<String> {
        match &self.value {
            Value::Str(s) => Some(s.clone()),
            Value::Int(n) => Some(n.to_string()),
            _ => None,
        }
    }

    /// An integer, or a string of digits (`--raw` output does not tell them apart).
    fn int(&self) -> Option<i64> {
        match &self.value {
            Value::Int(n) => Some(*n),
            Value::Str(s) => s.parse().ok(),
            _ => None,
        }
    }

    /// What this is, for an error message.
    fn describe(&self) -> String {
        match &self.value {
            Value::Str(s) => quote(s),
            Value::Int(n) => format!("(integer) {n}"),
            Value::Nil => "(nil)".to_owned(),
            Value::Array(items) if items.is_empty() => "(empty array)".to_owned(),
            Value::Array(_) => "a list".to_owned(),
        }
    }
}

const END_OF_LIST: &str = "the end of the list";

/// Item `i` of a list that starts on line `line`, or an error, on the line where the list
/// ends, saying what is missing.
fn item<'n>(items: &'n [Node], i: usize, line: usize, what: &str) -> Result<&'n Node, ImportError> {
    items
        .get(i)
        .ok_or_else(|| expected(end_line(items, line), what, END_OF_LIST.to_owned()))
}

/// The line of the last value in `items` (nested lists included), or `line` if there is none.
/// Recursion is bounded: the tree is at most `MAX_DEPTH` deep.
fn end_line(items: &[Node], line: usize) -> usize {
    match items.last() {
        Some(Node {
            line,
            value: Value::Array(inner),
        }) => end_line(inner, *line),
        Some(node) => node.line,
        None => line,
    }
}

fn list<'n>(node: &'n Node, what: &str) -> Result<&'n [Node], ImportError> {
    node.items()
        .ok_or_else(|| expected(node.line, what, node.describe()))
}

/// The reply as a tree: parsed from the numbered terminal form, or rebuilt from `--raw` lines by
/// the format's own rule.
fn tree(
    content: &[Line<'_>],
    raw: fn(&[Line<'_>]) -> Result<Node, ImportError>,
) -> Result<Node, ImportError> {
    let numbered = content
        .first()
        .is_some_and(|l| !split_prefixes(l.text).0.is_empty());
    if numbered {
        nested(content)
    } else {
        raw(content)
    }
}

/// Splits `   4) 1)  1) "id"` into its item numbers and the value. Each number comes with the
/// column of its `)`: redis-cli right-aligns the numbers of one array (` 9)`, `10)`), so the
/// `)` column, not the first digit, is what all items of one array share.
fn split_prefixes(text: &str) -> (Vec<(usize, u64)>, &str) {
    let bytes = text.as_bytes();
    let mut prefixes = Vec::new();
    let mut pos = 0;
    loop {
        let mut p = pos;
        while bytes.get(p) == Some(&b' ') {
            p += 1;
        }
        let digits = p;
        while bytes.get(p).is_some_and(u8::is_ascii_digit) {
            p += 1;
        }
        let closes = bytes.get(p) == Some(&b')') && matches!(bytes.get(p + 1), None | Some(b' '));
        if p == digits || !closes {
            break;
        }
        let number = text
            .get(digits..p)
            .and_then(|d| d.parse().ok())
            .unwrap_or(u64::MAX);
        prefixes.push((p, number));
        pos = p + 1;
    }
    (prefixes, text.get(pos..).unwrap_or_default().trim())
}

fn leaf(no: usize, text: &str) -> Result<Node, ImportError> {
    let value = if text.starts_with('"') {
        // A quoted string in redis-cli's escapes (`\"`, `\xNN`, ...), the same syntax keys use.
        let bytes = parse_key(text).map_err(|_| expected(no, "a quoted string", quote(text)))?;
        Value::Str(String::from_utf8_lossy(&bytes).into_owned())
    } else if let Some(n) = text.strip_prefix("(integer) ") {
        Value::Int(
            n.parse()
                .map_err(|_| expected(no, "a whole number after (integer)", quote(text)))?,
        )
    } else if text == "(nil)" {
        Value::Nil
    } else if is_empty_array(text) {
        Value::Array(Vec::new())
    } else if let Some(message) = text.strip_prefix("(error) ") {
        return Err(ImportError::at(
            no,
            ImportErrorKind::RedisError {
                message: shorten(message),
            },
        ));
    } else {
        return Err(expected(
            no,
            "a value such as \"127.0.0.1\", (integer) 7000 or (empty array)",
            quote(text),
        ));
    };
    Ok(Node { line: no, value })
}

/// An array being filled: the column of its items' `)`, the line of its first item, its items.
struct Frame {
    col: usize,
    line: usize,
    items: Vec<Node>,
}

/// Parses redis-cli's terminal form. Item numbers must run 1, 2, 3, ... within each array and
/// line up under each other, which is how shuffled or missing lines are caught.
fn nested(content: &[Line<'_>]) -> Result<Node, ImportError> {
    let Some(first) = content.first() else {
        return Err(ImportError::whole(ImportErrorKind::Empty));
    };
    let Some(&(root_col, _)) = split_prefixes(first.text).0.first() else {
        // A one-line reply such as `(empty array)`: nothing may follow it.
        if let Some(next) = content.get(1) {
            return Err(expected(
                next.no,
                "nothing after a one-line reply",
                quote(next.text.trim()),
            ));
        }
        return leaf(first.no, first.text.trim());
    };
    let mut stack = vec![Frame {
        col: root_col,
        line: first.no,
        items: Vec::new(),
    }];
    for line in content {
        let (prefixes, value) = split_prefixes(line.text);
        let Some(&(col, _)) = prefixes.first() else {
            return Err(expected(
                line.no,
                "a numbered item such as 2) (integer) 7000",
                quote(line.text.trim()),
            ));
        };
        // Close the arrays this line is outside of.
        while stack.len() > 1 && stack.last().is_some_and(|f| f.col > col) {
            close(&mut stack);
        }
        if stack.last().map(|f| f.col) != Some(col) {
            return Err(expected(
                line.no,
                "an item lined up under the items of its array",
                quote(line.text.trim()),
            ));
        }
        for (j, &(col, number)) in prefixes.iter().enumerate() {
            if j > 0 {
                // `2) 1) ...`: item 2 of the outer array is an array whose item 1 is here.
                if stack.len() >= MAX_DEPTH {
                    return Err(ImportError::at(line.no, ImportErrorKind::TooDeep));
                }
                stack.push(Frame {
                    col,
                    line: line.no,
                    items: Vec::new(),
                });
            }
            let next = stack.last().map_or(1, |f| f.items.len() + 1);
            if number != next as u64 {
                let found = if number == u64::MAX {
                    quote(line.text.trim())
                } else {
                    format!("{number})")
                };
                return Err(expected(line.no, format!("item {next}) here"), found));
            }
        }
        let node = leaf(line.no, value)?;
        if let Some(top) = stack.last_mut() {
            top.items.push(node);
        }
    }
    while stack.len() > 1 {
        close(&mut stack);
    }
    let root = stack.pop().map_or_else(Vec::new, |f| f.items);
    Ok(Node {
        line: first.no,
        value: Value::Array(root),
    })
}

/// Pops the innermost open array into its parent.
fn close(stack: &mut Vec<Frame>) {
    if let Some(done) = stack.pop() {
        if let Some(parent) = stack.last_mut() {
            parent.items.push(Node {
                line: done.line,
                value: Value::Array(done.items),
            });
        }
    }
}

/// A `--raw` line as a string value (raw output does not mark integers).
fn raw_value(line: &Line<'_>) -> Node {
    Node {
        line: line.no,
        value: Value::Str(line.text.trim().to_owned()),
    }
}

fn raw_is(line: Option<&Line<'_>>, word: &str) -> bool {
    line.is_some_and(|l| l.text.trim() == word)
}

/// Rebuilds `redis-cli --raw CLUSTER SHARDS` output (one value per line, empty arrays as blank
/// lines, which were skipped) into the terminal form's tree. The field names drive it: `slots`
/// opens a shard, `nodes` its node list, `id` each node; every other name is followed by its
/// value.
fn raw_shards(content: &[Line<'_>]) -> Result<Node, ImportError> {
    let mut shards = Vec::new();
    let mut i = 0;
    while let Some(start) = content.get(i) {
        if !raw_is(Some(start), "slots") {
            return Err(expected(
                start.no,
                "\"slots\", which opens each shard",
                quote(start.text.trim()),
            ));
        }
        i += 1;
        let mut slots = Vec::new();
        while let Some(l) = content.get(i).filter(|l| l.text.trim() != "nodes") {
            slots.push(raw_value(l));
            i += 1;
        }
        if content.get(i).is_none() {
            return Err(expected(
                start.no,
                "\"nodes\" after the shard's slots",
                "the end of the paste".to_owned(),
            ));
        }
        i += 1;
        let mut nodes = Vec::new();
        while let Some(node_start) = content.get(i).filter(|l| l.text.trim() != "slots") {
            if !raw_is(Some(node_start), "id") {
                return Err(expected(
                    node_start.no,
                    "\"id\", which opens each node",
                    quote(node_start.text.trim()),
                ));
            }
            let mut fields = Vec::new();
            // Name/value pairs, up to the next node (`id`) or the next shard (`slots`).
            while let Some(key) = content.get(i) {
                let Some(value) = content.get(i + 1) else {
                    return Err(expected(
                        key.no,
                        format!("a value after \"{}\"", shorten(key.text.trim())),
                        "the end of the paste".to_owned(),
                    ));
                };
                fields.push(raw_value(key));
                fields.push(raw_value(value));
                i += 2;
                if raw_is(content.get(i), "id") || raw_is(content.get(i), "slots") {
                    break;
                }
            }
            nodes.push(Node {
                line: node_start.no,
                value: Value::Array(fields),
            });
        }
        let word = |w: &str| Node {
            line: start.no,
            value: Value::Str(w.to_owned()),
        };
        shards.push(Node {
            line: start.no,
            value: Value::Array(vec![
                word("slots"),
                Node {
                    line: start.no,
                    value: Value::Array(slots),
                },
                word("nodes"),
                Node {
                    line: start.no,
                    value: Value::Array(nodes),
                },
            ]),
        });
    }
    Ok(Node {
        line: content.first().map_or(1, |l| l.no),
        value: Value::Array(shards),
    })
}

/// Rebuilds `redis-cli --raw CLUSTER SLOTS` output into the terminal form's tree. Raw output
/// has no brackets, so the shape of the values decides: a range is two slot numbers; then come
/// nodes, each an address, a port, an id and optional `hostname`/`ip` metadata pairs, until
/// the next number (an address is never a bare number), which opens the next range.
fn raw_slots(content: &[Line<'_>]) -> Result<Node, ImportError> {
    let is_number = |l: Option<&Line<'_>>| {
        l.is_some_and(|l| {
            let t = l.text.trim();
            !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit())
        })
    };
    let mut entries = Vec::new();
    let mut i = 0;
    while let Some(start) = content.get(i) {
        let Some(end) = content.get(i + 1) else {
            return Err(expected(
                start.no,
                "the last slot of the range on the next line",
                "the end of the paste".to_owned(),
            ));
        };
        let mut entry = vec![raw_value(start), raw_value(end)];
        i += 2;
        while content.get(i).is_some() && !is_number(content.get(i)) {
            let Some(host) = content.get(i) else { break };
            let mut node = vec![raw_value(host)];
            for (k, what) in [
                (1, "the node's port after its address"),
                (2, "the node's id after its port"),
            ] {
                let Some(l) = content.get(i + k) else {
                    let last = content.last().map_or(host.no, |l| l.no);
                    return Err(expected(last, what, "the end of the paste".to_owned()));
                };
                node.push(raw_value(l));
            }
            i += 3;
            let mut meta = Vec::new();
            while raw_is(content.get(i), "hostname") || raw_is(content.get(i), "ip") {
                let (Some(k), Some(v)) = (content.get(i), content.get(i + 1)) else {
                    break;
                };
                meta.push(raw_value(k));
                meta.push(raw_value(v));
                i += 2;
            }
            node.push(Node {
                line: host.no,
                value: Value::Array(meta),
            });
            entry.push(Node {
                line: host.no,
                value: Value::Array(node),
            });
        }
        entries.push(Node {
            line: start.no,
            value: Value::Array(entry),
        });
    }
    Ok(Node {
        line: content.first().map_or(1, |l| l.no),
        value: Value::Array(entries),
    })
}

/// A slot number in a SHARDS or SLOTS reply.
fn slot_value(node: &Node, what: &str) -> Result<u16, ImportError> {
    match node.int() {
        Some(n) if (0..N_SLOTS as i64).contains(&n) => Ok(n as u16),
        Some(n) => Err(ImportError::at(
            node.line,
            ImportErrorKind::SlotOutOfRange {
                found: n.to_string(),
            },
        )),
        None => Err(expected(node.line, what, node.describe())),
    }
}

fn slot_range(first: &Node, last: &Node) -> Result<SlotRange, ImportError> {
    let a = slot_value(first, "the first slot of a range")?;
    let b = slot_value(last, "the last slot of the range")?;
    if a > b {
        return Err(ImportError::at(
            last.line,
            ImportErrorKind::BackwardRange { first: a, last: b },
        ));
    }
    Ok(SlotRange::new(a, b))
}

/// A `hostname` value: `None` when empty (no hostname set).
fn hostname_value(node: &Node) -> Result<Option<String>, ImportError> {
    match node.text() {
        Some(h) if h.is_empty() => Ok(None),
        Some(h) if is_hostname(&h) => Ok(Some(h)),
        _ => Err(expected(
            node.line,
            "a hostname (letters, digits, '-' and '.')",
            node.describe(),
        )),
    }
}

fn port_value(node: &Node) -> Result<u16, ImportError> {
    node.int()
        .and_then(|p| u16::try_from(p).ok())
        .ok_or_else(|| expected(node.line, "a port number (0-65535)", node.describe()))
}

fn id_value(node: &Node) -> Result<String, ImportError> {
    node.text()
        .filter(|s| is_node_id(s))
        .ok_or_else(|| expected(node.line, "a node id (40 hex digits)", node.describe()))
}

/// A list of alternating field names and values, as SHARDS writes its maps.
fn fields<'n>(node: &'n Node, what: &str) -> Result<Vec<(String, &'n Node)>, ImportError> {
    let items = list(node, what)?;
    let mut out = Vec::with_capacity(items.len() / 2);
    for pair in items.chunks(2) {
        let Some(key) = pair.first() else { continue };
        let name = key
            .text()
            .ok_or_else(|| expected(key.line, "a field name", key.describe()))?;
        let Some(value) = pair.get(1) else {
            return Err(expected(
                key.line,
                format!("the value of \"{}\" after it", shorten(&name)),
                END_OF_LIST.to_owned(),
            ));
        };
        out.push((name, value));
    }
    Ok(out)
}

fn field<'n>(fields: &[(String, &'n Node)], name: &str) -> Option<&'n Node> {
    fields.iter().find(|(k, _)| k == name).map(|&(_, v)| v)
}

// ---------------------------------------------------------------------------------------------
// CLUSTER SHARDS: per shard, "slots" (a flat list of first/last pairs) and "nodes" (each a map:
// id, port or tls-port, ip, endpoint, hostname, role, replication-offset, health).

fn read_shards(root: &Node) -> Result<Vec<NodeInfo>, ImportError> {
    let shards = list(root, "a list of shards")?;
    let mut out: Vec<NodeInfo> = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for shard in shards {
        let shard_fields = fields(shard, "a shard: its slots and its nodes")?;
        let slots_node = field(&shard_fields, "slots")
            .ok_or_else(|| expected(shard.line, "the shard's \"slots\"", "none".to_owned()))?;
        let nodes_node = field(&shard_fields, "nodes")
            .ok_or_else(|| expected(shard.line, "the shard's \"nodes\"", "none".to_owned()))?;
        let slot_items = list(slots_node, "the shard's slots (a list)")?;
        let mut ranges = Vec::with_capacity(slot_items.len() / 2);
        for pair in slot_items.chunks(2) {
            let Some(first) = pair.first() else { continue };
            let last = item(pair, 1, first.line, "the last slot of the range")?;
            ranges.push((first.line, slot_range(first, last)?));
        }

        let mut members = Vec::new();
        for node in list(nodes_node, "the shard's nodes (a list)")? {
            let f = fields(node, "a node: its id, port, ip, role, ...")?;
            let need = |name: &str| {
                field(&f, name).ok_or_else(|| {
                    expected(
                        node.line,
                        format!("the node's \"{name}\""),
                        "none".to_owned(),
                    )
                })
            };
            let id = id_value(need("id")?)?;
            let port = port_value(
                field(&f, "port")
                    .or_else(|| field(&f, "tls-port"))
                    .ok_or_else(|| expected(node.line, "the node's \"port\"", "none".to_owned()))?,
            )?;
            let ip_node = field(&f, "ip")
                .or_else(|| field(&f, "endpoint"))
                .ok_or_else(|| expected(node.line, "the node's \"ip\"", "none".to_owned()))?;
            let ip = ip_node
                .text()
                .filter(|ip| is_host(ip))
                .ok_or_else(|| expected(ip_node.line, "an IP address", ip_node.describe()))?;
            let hostname = match field(&f, "hostname") {
                Some(h) => hostname_value(h)?,
                None => None,
            };
            let role_node = need("role")?;
            let is_master = match role_node.text().as_deref() {
                Some("master") => true,
                Some("replica" | "slave") => false,
                _ => {
                    return Err(expected(
                        role_node.line,
                        "the role \"master\" or \"replica\"",
                        role_node.describe(),
                    ))
                }
            };
            let mut info = NodeInfo::new(
                node.line,
                id,
                format!("{ip}:{port}"),
                hostname,
                Role::Master,
            );
            // SHARDS says "fail" (docs: "failed") for a node flagged FAIL: the one flag it shows.
            if field(&f, "health")
                .and_then(Node::text)
                .is_some_and(|h| h == "fail" || h == "failed")
            {
                info.flags.push("fail".to_owned());
            }
            if let Some(&first_line) = seen.get(&info.id) {
                return Err(ImportError::at(
                    node.line,
                    ImportErrorKind::DuplicateNode {
                        id: info.id,
                        first_line,
                    },
                ));
            }
            seen.insert(info.id.clone(), node.line);
            members.push((is_master, info));
        }

        // The shard's slots go to its master. Should a shard list two (a failed old master
        // beside the promoted replica), a master that is not failed gets them; the other
        // stays a master without slots.
        let owner = members
            .iter()
            .position(|(m, n)| *m && !n.flags.iter().any(|f| f == "fail"))
            .or_else(|| members.iter().position(|(m, _)| *m));
        let Some(owner) = owner else {
            return Err(expected(
                shard.line,
                "a node with the role \"master\" in the shard",
                "only replicas".to_owned(),
            ));
        };
        let owner_id = members
            .get(owner)
            .map(|(_, n)| n.id.clone())
            .unwrap_or_default();
        for (i, (is_master, mut info)) in members.into_iter().enumerate() {
            if i == owner {
                info.slots = std::mem::take(&mut ranges);
            } else if !is_master {
                info.role = Role::ReplicaOf(Some(owner_id.clone()));
            }
            out.push(info);
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// CLUSTER SLOTS: per range, first slot, last slot, then the master and each replica as
// [endpoint, port, id, metadata]. Masters with no slots do not appear.

fn read_slots(root: &Node) -> Result<Vec<NodeInfo>, ImportError> {
    let entries = list(root, "a list of slot ranges")?;
    let mut out: Vec<NodeInfo> = Vec::new();
    let mut by_id: HashMap<String, usize> = HashMap::new();
    for entry in entries {
        let items = list(entry, "a slot range and its nodes")?;
        let first = item(items, 0, entry.line, "the first slot of a range")?;
        let last = item(items, 1, entry.line, "the last slot of the range")?;
        let range = slot_range(first, last)?;
        let master_node = item(items, 2, entry.line, "the master serving the range")?;
        let master = endpoint(master_node)?;
        let master_idx = match by_id.get(&master.id) {
            Some(&i) => {
                if out.get(i).is_some_and(|n| n.role != Role::Master) {
                    return Err(ImportError::at(
                        master_node.line,
                        ImportErrorKind::Inconsistent {
                            id: master.id,
                            detail: Clash::MasterAfterReplica,
                        },
                    ));
                }
                i
            }
            None => {
                by_id.insert(master.id.clone(), out.len());
                out.push(master);
                out.len() - 1
            }
        };
        let master_id = out
            .get(master_idx)
            .map(|n| n.id.clone())
            .unwrap_or_default();
        if let Some(m) = out.get_mut(master_idx) {
            m.slots.push((first.line, range));
        }
        for replica_node in items.get(3..).unwrap_or_default() {
            let mut replica = endpoint(replica_node)?;
            match by_id.get(&replica.id).and_then(|&i| out.get(i)) {
                None => {
                    replica.role = Role::ReplicaOf(Some(master_id.clone()));
                    by_id.insert(replica.id.clone(), out.len());
                    out.push(replica);
                }
                Some(known) if known.role == Role::ReplicaOf(Some(master_id.clone())) => {}
                Some(known) => {
                    let detail = if known.role == Role::Master {
                        Clash::ReplicaAfterMaster
                    } else {
                        Clash::TwoMasters
                    };
                    return Err(ImportError::at(
                        replica_node.line,
                        ImportErrorKind::Inconsistent {
                            id: replica.id,
                            detail,
                        },
                    ));
                }
            }
        }
    }
    Ok(out)
}

/// One node of a SLOTS range: `[endpoint, port, id]` and, since Redis 7, a metadata map
/// (`hostname`, and `ip` when the endpoint shown is the hostname).
fn endpoint(node: &Node) -> Result<NodeInfo, ImportError> {
    let items = list(node, "a node: its address, port and id")?;
    let host_node = item(items, 0, node.line, "the node's address")?;
    let host = host_node
        .text()
        .filter(|h| is_host(h))
        .ok_or_else(|| expected(host_node.line, "an address", host_node.describe()))?;
    let port = port_value(item(items, 1, node.line, "the node's port")?)?;
    let id = id_value(item(items, 2, node.line, "the node's id")?)?;
    let (mut meta_ip, mut hostname) = (None, None);
    if let Some(meta) = items.get(3) {
        for (key, value) in fields(meta, "the node's metadata (a list)")? {
            match key.as_str() {
                "ip" => {
                    meta_ip =
                        Some(value.text().filter(|ip| is_host(ip)).ok_or_else(|| {
                            expected(value.line, "an IP address", value.describe())
                        })?)
                }
                "hostname" => hostname = hostname_value(value)?,
                _ => {}
            }
        }
    }
    // With `cluster-preferred-endpoint-type hostname` the first field is the hostname and the
    // metadata holds the IP; `?` stands for an endpoint the node does not know.
    let ip = match meta_ip {
        Some(ip) => {
            if hostname.is_none() && is_hostname(&host) && host != ip {
                hostname = Some(host);
            }
            ip
        }
        None => host,
    };
    Ok(NodeInfo::new(
        node.line,
        id,
        format!("{ip}:{port}"),
        hostname,
        Role::Master,
    ))
}

// ---------------------------------------------------------------------------------------------
// From nodes to the map.

/// Orders addresses by IP (numerically), then port; hostnames and empty (`noaddr`) hosts come
/// before IPs, as text.
fn address_order(a: &str, b: &str) -> Ordering {
    fn key(addr: &str) -> (Option<IpAddr>, &str, u32) {
        let (host, port) = addr.rsplit_once(':').unwrap_or((addr, ""));
        (host.parse().ok(), host, port.parse().unwrap_or(u32::MAX))
    }
    key(a).cmp(&key(b))
}

fn build(nodes: Vec<NodeInfo>, format: Format) -> Result<Imported, ImportError> {
    let (mut masters, mut replicas): (Vec<NodeInfo>, Vec<NodeInfo>) =
        nodes.into_iter().partition(|n| n.role == Role::Master);
    if masters.is_empty() {
        return Err(ImportError::whole(ImportErrorKind::NoMasters));
    }
    let order = |a: &NodeInfo, b: &NodeInfo| address_order(&a.addr, &b.addr).then(a.id.cmp(&b.id));
    crate::core::sort::sort_by(&mut masters, order);
    crate::core::sort::sort_by(&mut replicas, order);

    let mut warnings = Vec::new();
    let index: HashMap<String, usize> = masters
        .iter()
        .enumerate()
        .map(|(i, m)| (m.id.clone(), i))
        .collect();
    let mut model: Vec<Master> = masters
        .iter()
        .map(|m| Master {
            addr: m.addr.clone(),
            id: m.id.clone(),
            hostname: m.hostname.clone(),
            flags: m.flags.clone(),
            replicas: Vec::new(),
            migrating: m.migrating.clone(),
            importing: m.importing.clone(),
        })
        .collect();
    for r in replicas {
        let Role::ReplicaOf(of) = r.role else {
            continue;
        };
        match of.as_ref().and_then(|id| index.get(id)) {
            Some(&i) => {
                if let Some(m) = model.get_mut(i) {
                    m.replicas.push(Replica {
                        addr: r.addr,
                        id: r.id,
                        flags: r.flags,
                    });
                }
            }
            None => warnings.push(ImportWarning::OrphanReplica {
                line: r.line,
                addr: r.addr,
                id: r.id,
                master_id: of,
            }),
        }
    }

    // Claims are settled in paste order, so "first" means first in the paste, whatever the
    // sorted position of its master.
    let mut claims: Vec<(usize, usize, SlotRange)> = masters
        .iter()
        .enumerate()
        .flat_map(|(i, m)| m.slots.iter().map(move |&(line, r)| (line, i, r)))
        .collect();
    crate::core::sort::sort_by_key(&mut claims, |&(line, _, _)| line);
    let addr_of = |i: usize| model.get(i).map(|m| m.addr.clone()).unwrap_or_default();
    let mut owner: Vec<Option<usize>> = vec![None; N_SLOTS];
    let mut claimed = 0usize;
    for (line, who, range) in claims {
        claimed += range.len();
        if claimed > MAX_CLAIMED_SLOTS {
            return Err(ImportError::at(line, ImportErrorKind::TooManySlots));
        }
        // A run of slots of this range that one earlier master already holds.
        let mut clash: Option<(usize, u16, u16)> = None;
        for slot in range.first..=range.last {
            let Some(cell) = owner.get_mut(slot as usize) else {
                continue;
            };
            let holder = match *cell {
                None => {
                    *cell = Some(who);
                    None
                }
                Some(o) if o == who => None,
                Some(o) => Some(o),
            };
            match (holder, clash) {
                (Some(h), Some((c, start, _))) if h == c => clash = Some((c, start, slot)),
                (holder, previous) => {
                    if let Some((c, start, end)) = previous {
                        warnings.push(ImportWarning::Overlap {
                            range: SlotRange::new(start, end),
                            first: addr_of(c),
                            second: addr_of(who),
                            line,
                        });
                    }
                    clash = holder.map(|h| (h, slot, slot));
                }
            }
        }
        if let Some((c, start, end)) = clash {
            warnings.push(ImportWarning::Overlap {
                range: SlotRange::new(start, end),
                first: addr_of(c),
                second: addr_of(who),
                line,
            });
        }
    }

    let mut ranges = Vec::new();
    let mut uncovered = Vec::new();
    let mut first = 0usize;
    for run in owner.chunk_by(|a, b| a == b) {
        let range = SlotRange::new(first as u16, (first + run.len() - 1) as u16);
        first += run.len();
        match run.first().copied().flatten() {
            Some(m) => ranges.push((m, range)),
            None => uncovered.push(range),
        }
    }
    if !uncovered.is_empty() {
        warnings.push(ImportWarning::Uncovered {
            count: uncovered.iter().map(SlotRange::len).sum(),
            ranges: uncovered,
        });
    }
    let map = SlotMap::from_ranges(model, &ranges)
        .map_err(|e| ImportError::whole(ImportErrorKind::Topology(e)))?;
    Ok(Imported {
        map,
        format,
        warnings,
    })
}
