//! Bitmaps: SETBIT GETBIT BITCOUNT BITPOS BITOP BITFIELD BITFIELD_RO, on string values.

use super::Db;
use crate::core::server::reply::Reply;

/// Runs `name` if this module owns it (`None` otherwise).
pub(super) fn run(_db: &mut Db, _now: i64, _name: &str, _args: &[Vec<u8>]) -> Option<Reply> {
    None
}
