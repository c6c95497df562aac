//! The slot core: everything the page computes, with no DOM, clock or randomness.
//!
//! It builds natively and for wasm32 and is what the native tests check against the fixtures
//! recorded from a real Redis 7.0.15 cluster.

pub mod batch;
pub mod clients;
pub mod command;
pub mod compare;
pub mod crc16;
pub mod engine;
pub mod escape;
pub mod hashtag;
pub mod import;
pub mod lab;
pub mod plan;
pub mod redirect;
pub mod redirect_steps;
pub mod reshard;
pub mod slot;
pub mod sort;
pub mod tags;
pub mod topology;

pub use crc16::crc16;
pub use escape::{format_key, parse_key, EscapeError};
pub use hashtag::{hash_tag, hashed_span, TagRule};
pub use slot::{explain, key_slot, Explanation, N_SLOTS};
pub use topology::{create_allocation, Master, Replica, SlotMap, SlotRange};
