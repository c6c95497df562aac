//! Stand-ins for the `encoding()` of sets, sorted sets and streams, which their own modules
//! (other helpers' work) define: DELETE THIS FILE when those land (duplicate definitions).

use super::{Set, ZSet};

impl Set {
    /// Stand-in: `intset` or `hashtable` once `set.rs` says.
    pub fn encoding(&self) -> &'static str {
        "hashtable"
    }
}

impl ZSet {
    /// Stand-in: `listpack` or `skiplist` once `zset.rs` says.
    pub fn encoding(&self) -> &'static str {
        "listpack"
    }
}
