//! slotscope: Redis Cluster sharding made visible.
//!
//! A key becomes bytes, the bytes give up a hashed part (the hash tag, or the whole key), the
//! hashed part goes through CRC-16/XMODEM, the low 14 bits are the slot, and the slot belongs to
//! a master:
//!
//! ```text
//!  "{user1}:profile" ──parse──▶ bytes ──hash tag──▶ "user1" ──CRC16──▶ 0xDFAA ──& 0x3FFF──▶ 8106 ──▶ 127.0.0.1:7001
//! ```
//!
//! [`core`] computes every one of those steps and knows nothing about the DOM (it builds with
//! `--no-default-features`). [`persist`] writes the page's state as a share link and reads it
//! back (no DOM either). [`ui`] (feature `web`) is the Yew page that shows them.
//!
//! ```
//! use slotscope::core::{explain, SlotMap};
//! let e = explain(b"{user1}:profile");
//! assert_eq!((e.hashed(), e.crc, e.slot), (&b"user1"[..], 0xDFAA, 8106));
//! assert_eq!(SlotMap::default().owner_master(e.slot).unwrap().addr, "127.0.0.1:7001");
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod core;

pub mod persist;

#[cfg(feature = "web")]
pub mod ui;

#[cfg(feature = "web")]
pub mod wasm_api;
