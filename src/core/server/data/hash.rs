//! Hashes: HSET HGET HMGET HDEL HLEN HGETALL HKEYS HVALS HEXISTS HINCRBY HINCRBYFLOAT HSETNX HSTRLEN HRANDFIELD HSCAN.

use super::Db;
use crate::core::server::reply::Reply;

/// Runs `name` if this module owns it (`None` otherwise).
pub(super) fn run(_db: &mut Db, _now: i64, _name: &str, _args: &[Vec<u8>]) -> Option<Reply> {
    None
}

/// A hash's fields in insertion order (what a listpack keeps).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Hash {
    /// Field–value pairs.
    pub fields: Vec<(Vec<u8>, Vec<u8>)>,
    /// Whether it became a `hashtable` (more than 128 fields, or a field or value longer than
    /// 64 bytes); Redis never converts back.
    pub big: bool,
}

impl Hash {
    /// `listpack`, or `hashtable` once it outgrew 7.0's `hash-max-listpack-*` thresholds.
    pub fn encoding(&self) -> &'static str {
        if self.big {
            "hashtable"
        } else {
            "listpack"
        }
    }
}
