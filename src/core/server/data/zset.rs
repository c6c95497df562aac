//! Sorted sets: ZADD ZINCRBY ZREM ZSCORE ZMSCORE ZCARD ZCOUNT ZRANGE (all forms) ZRANK ZPOPMIN/MAX ZUNION/ZINTER/ZDIFF (STORE) ZRANDMEMBER ZSCAN ….

use super::Db;
use crate::core::server::reply::Reply;

/// Runs `name` if this module owns it (`None` otherwise).
pub(super) fn run(_db: &mut Db, _now: i64, _name: &str, _args: &[Vec<u8>]) -> Option<Reply> {
    None
}

/// A sorted set's members and scores.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ZSet {
    /// Member → score.
    pub scores: std::collections::BTreeMap<Vec<u8>, f64>,
}
