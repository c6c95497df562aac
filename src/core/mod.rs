//! The slot core: everything the page computes, with no DOM, clock or randomness.
//!
//! It builds natively and for wasm32 and is what the native tests check against the fixtures
//! recorded from a real Redis 7.0.15 cluster.

pub mod bus;
pub mod client;
pub mod cluster;
pub mod key;
pub mod schemes;
pub mod server;
pub mod sort;
pub mod workload;

pub use cluster::topology::{create_allocation, Master, Replica, SlotMap, SlotRange};
pub use key::crc16::crc16;
pub use key::escape::{format_key, parse_key, EscapeError};
pub use key::hashtag::{hash_tag, hashed_span, TagRule};
pub use key::slot::{explain, key_slot, Explanation, N_SLOTS};
