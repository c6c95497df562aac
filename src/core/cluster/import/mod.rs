//! Reading a real cluster's `CLUSTER NODES`, `CLUSTER SHARDS` or `CLUSTER SLOTS` output into a slot map.
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
//! error names the 1-based line it was found on and what was expected there, as data
//! ([`Expected`], [`Found`]) the page words in the reader's language. Problems of the
//! cluster rather than of the text (two masters claiming one slot, slots nobody serves, a replica
//! of a master the paste does not list) are not errors: the import succeeds and reports them as
//! [`ImportWarning`]s.
//!
//! ```
//! use slotscope::core::cluster::export::export_nodes;
//! use slotscope::core::cluster::import::{import, Format};
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

mod build;
mod error;
mod lines;
mod nodes;
mod shards;
mod slots;
mod tree;

pub use error::{Clash, Counter, Expected, Found, ImportError, ImportErrorKind, ImportWarning};

use crate::core::cluster::topology::SlotMap;
use crate::core::key::slot::N_SLOTS;
use core::fmt;
use lines::{content_lines, detect_line, lines, unrecognised, LineKind};

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
pub(crate) const MAX_DEPTH: usize = 8;

/// How long a piece of the paste quoted in an error may be, in characters.
pub(crate) const QUOTE_CHARS: usize = 48;

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

/// Which command's output `text` is, judged by its first line of output (comments, prompts and
/// blank lines skipped). `None` when it looks like none of them. This does not check the rest:
/// [`import`] does.
///
/// ```
/// use slotscope::core::cluster::import::{detect, Format};
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
        Format::Nodes => nodes::read_nodes(&content)?,
        Format::Shards => shards::read_shards(&tree::tree(&content, shards::raw_shards)?)?,
        Format::Slots => slots::read_slots(&tree::tree(&content, slots::raw_slots)?)?,
    };
    build::build(nodes, format)
}
