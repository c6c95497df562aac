//! Streams without consumer groups: XADD XLEN XRANGE XREVRANGE XDEL XTRIM XREAD (no blocking) XINFO STREAM.

use super::Db;
use crate::core::server::reply::Reply;

/// Runs `name` if this module owns it (`None` otherwise).
pub(super) fn run(_db: &mut Db, _now: i64, _name: &str, _args: &[Vec<u8>]) -> Option<Reply> {
    None
}

/// A stream entry's id: (milliseconds, sequence).
pub type StreamId = (u64, u64);

/// A stream entry's field–value pairs.
pub type Fields = Vec<(Vec<u8>, Vec<u8>)>;

/// A stream's entries and its last id.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stream {
    /// Entries in id order: (milliseconds, sequence) and the field–value pairs.
    pub entries: Vec<(StreamId, Fields)>,
    /// The last id ever added (XADD ids must exceed it even after deletions).
    pub last_id: StreamId,
}
