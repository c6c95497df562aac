//! A key's way to its slot: CRC-16/XMODEM and the hash tag rule (the kernel crate's, re-exported:
//! see [`slotscope_kernel::crc16`] for how the sliced CRC works), the slot and its explanation,
//! and the rules some clients hash by instead of Redis's.

pub mod args;
pub mod client_rules;
pub mod display;
pub mod escape;
pub mod field;
pub mod slot;

pub use slotscope_kernel::{crc16, hashtag};
