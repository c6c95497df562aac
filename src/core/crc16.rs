//! CRC-16/XMODEM, the checksum Redis Cluster hashes keys with: the kernel crate's, re-exported.
//! See [`slotscope_kernel::crc16`] for how the sliced version works.

pub use slotscope_kernel::crc16::*;
