//! Sets: SADD SREM SMEMBERS SISMEMBER SMISMEMBER SCARD SPOP SRANDMEMBER SMOVE SINTER SUNION SDIFF (and STORE, SINTERCARD) SSCAN.

use super::Db;
use crate::core::server::reply::Reply;

/// Runs `name` if this module owns it (`None` otherwise).
pub(super) fn run(_db: &mut Db, _now: i64, _name: &str, _args: &[Vec<u8>]) -> Option<Reply> {
    None
}

/// A set's members.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Set {
    /// The members.
    pub members: std::collections::BTreeSet<Vec<u8>>,
}
