//! Workloads: keys a reader generates or pastes, how they spread over a cluster's slots and
//! masters, what each way of sending them costs, and the tags that pin them.

pub mod batch;
mod chunks;
mod hotspot;
mod key_lines;
mod keys;
mod plan;
mod sample;
pub mod tags;
#[cfg(test)]
mod tests;

pub use chunks::*;
pub use hotspot::*;
pub use key_lines::*;
pub use keys::*;
pub use plan::*;
pub use sample::*;

use crate::core::cluster::topology::SlotMap;
use crate::core::key::hashtag::{hashed_span, TagRule};
use crate::core::key::slot::{key_slot, N_SLOTS};
use core::fmt;
use slotscope_kernel::slot::count_numbered_key_slots;

/// The most keys a generator makes and [`plan`] or [`chunk_masters`] looks at.
pub const MAX_KEYS: usize = 1_000_000;

/// The most sub-tags the hot-spot experiment splits one tag into.
pub const MAX_SUB_TAGS: u32 = 1024;
