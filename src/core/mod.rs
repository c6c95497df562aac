//! The slot core: everything the page computes, with no DOM, clock or randomness.
//!
//! It builds natively and for wasm32 and is what the native tests check against the fixtures
//! recorded from a real Redis 7.0.15 cluster.

pub mod batch;
pub mod client;
pub mod cluster;
pub mod command;
pub mod escape;
pub mod key;
pub mod schemes;
pub mod server;
pub mod sort;
pub mod workload;

// Old paths, kept while the core moves into domain folders.
pub use client as redirect;
pub use cluster::topology;
pub use key::client_rules as clients;
pub use key::{crc16, hashtag, slot};
pub use schemes as compare;
pub use workload as plan;
pub use workload::tags;

pub use crc16::crc16;
pub use escape::{format_key, parse_key, EscapeError};
pub use hashtag::{hash_tag, hashed_span, TagRule};
pub use slot::{explain, key_slot, Explanation, N_SLOTS};
pub use topology::{create_allocation, Master, Replica, SlotMap, SlotRange};
