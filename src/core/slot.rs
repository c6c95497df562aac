//! Key → slot, and the explanation of how a key got its slot.

use super::crc16::crc16;
use super::hashtag::{hashed_span, TagRule};
use core::ops::Range;

/// Number of hash slots in a Redis Cluster.
pub const N_SLOTS: usize = 16384;

/// The mask applied to the CRC16: the low 14 bits.
pub const SLOT_MASK: u16 = 0x3FFF;

/// The slot Redis assigns to `key` (what `CLUSTER KEYSLOT` answers).
///
/// ```
/// use slotscope::core::slot::key_slot;
/// assert_eq!(key_slot(b"foo"), 12182);
/// assert_eq!(key_slot(b"{user1}:profile"), key_slot(b"user1"));
/// ```
pub fn key_slot(key: &[u8]) -> u16 {
    crc16(&key[hashed_span(key).1]) & SLOT_MASK
}

/// Every step from a key to its slot, so the page shows what produced each number instead of
/// working it out again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// The key's raw bytes.
    pub key: Vec<u8>,
    /// Which rule chose the hashed part.
    pub rule: TagRule,
    /// The byte range of `key` that is hashed.
    pub span: Range<usize>,
    /// CRC-16/XMODEM of the hashed part.
    pub crc: u16,
    /// `crc & 0x3FFF`.
    pub slot: u16,
}

impl Explanation {
    /// The bytes that were hashed.
    pub fn hashed(&self) -> &[u8] {
        &self.key[self.span.clone()]
    }
}

/// Explains how `key` maps to its slot.
pub fn explain(key: &[u8]) -> Explanation {
    let (rule, span) = hashed_span(key);
    let crc = crc16(&key[span.clone()]);
    Explanation {
        key: key.to_vec(),
        rule,
        span,
        crc,
        slot: crc & SLOT_MASK,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explanation_agrees_with_key_slot() {
        for key in [
            &b"foo"[..],
            b"{user1}:profile",
            b"",
            b"x{}{y}",
            b"\xff\x00{a}",
        ] {
            let e = explain(key);
            assert_eq!(e.slot, key_slot(key));
            assert_eq!(e.crc & SLOT_MASK, e.slot);
        }
    }

    #[test]
    fn user1_profile_is_slot_8106() {
        let e = explain(b"{user1}:profile");
        assert_eq!(e.hashed(), b"user1");
        assert_eq!(e.slot, 8106);
    }
}
