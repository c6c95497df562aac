//! Key → slot, and the explanation of how a key got its slot.

use super::crc16::crc16;
use super::hashtag::{hashed_span, TagRule};
use core::ops::Range;

pub use slotscope_kernel::slot::{key_slot, key_slots_into, line_slots_into, N_SLOTS, SLOT_MASK};

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

    /// Packs `keys` the way the page's batch path does.
    fn pack(keys: &[&[u8]]) -> (Vec<u8>, Vec<u32>) {
        let mut buf = Vec::new();
        let mut offsets = vec![0u32];
        for k in keys {
            buf.extend_from_slice(k);
            offsets.push(buf.len() as u32);
        }
        (buf, offsets)
    }

    const KEYS: [&[u8]; 7] = [
        b"foo",
        b"",
        b"{user1}:profile",
        b"x{}{y}",
        b"\xff\x00{a}",
        b"user:{12345}:profile",
        b"key:123456",
    ];

    #[test]
    fn batch_agrees_with_key_slot() {
        let (buf, offsets) = pack(&KEYS);
        let mut out = vec![u16::MAX; KEYS.len()];
        assert_eq!(key_slots_into(&buf, &offsets, &mut out), KEYS.len());
        let one_by_one: Vec<u16> = KEYS.iter().map(|k| key_slot(k)).collect();
        assert_eq!(out, one_by_one);
    }

    #[test]
    fn batch_fills_only_what_both_sides_hold() {
        let (buf, offsets) = pack(&KEYS);
        // `out` shorter than the keys: only `out.len()` slots.
        let mut short = [u16::MAX; 2];
        assert_eq!(key_slots_into(&buf, &offsets, &mut short), 2);
        assert_eq!(short, [key_slot(b"foo"), 0]);
        // Fewer keys than `out`: the tail of `out` is untouched.
        let mut long = [u16::MAX; 10];
        assert_eq!(key_slots_into(&buf, &offsets, &mut long), KEYS.len());
        assert_eq!(long[KEYS.len()..], [u16::MAX; 3]);
        // No offsets, or one offset: no keys.
        assert_eq!(key_slots_into(&buf, &[], &mut long), 0);
        assert_eq!(key_slots_into(&buf, &[0], &mut long), 0);
    }

    #[test]
    fn batch_takes_bad_ranges_as_the_empty_key() {
        let buf = b"foobar";
        let mut out = [u16::MAX; 4];
        // Past the end, starting past the end, good, reversed (and a fifth key `out` has no
        // room for).
        let offsets = [0, 99, 1, 4, 2, 7000];
        assert_eq!(key_slots_into(buf, &offsets, &mut out), 4);
        assert_eq!(out, [0, 0, key_slot(b"oob"), 0]);
        let mut one = [u16::MAX];
        assert_eq!(key_slots_into(buf, &[3, 6], &mut one), 1);
        assert_eq!(one, [key_slot(b"bar")]);
    }

    #[test]
    fn line_slots_are_the_slots_of_str_lines() {
        let texts = [
            "",
            "\n",
            "\n\n",
            "foo",
            "foo\n",
            "foo\r\n",
            "foo\r",
            "\r\n\r\nfoo\r\r\n",
            "{user1}:profile\nx{}{y}\r\nkey:123456\n\nuser:{12345}:profile",
            "a\rb\nc",
        ];
        for text in texts {
            let want: Vec<u16> = text.lines().map(|l| key_slot(l.as_bytes())).collect();
            let mut out = vec![u16::MAX; want.len() + 2];
            let (lines, read) = line_slots_into(text.as_bytes(), &mut out);
            assert_eq!((lines, read), (want.len(), text.len()), "{text:?}");
            assert_eq!(out[..lines], want, "{text:?}");
            assert_eq!(out[lines..], [u16::MAX; 2], "{text:?}");
            // One line at a time, each batch starting where the last one stopped.
            let mut from = 0;
            let mut one_by_one = Vec::new();
            let mut one = [0u16];
            while from < text.len() {
                let (n, read) = line_slots_into(&text.as_bytes()[from..], &mut one);
                assert_eq!(n, 1, "{text:?} from {from}");
                one_by_one.push(one[0]);
                from += read;
            }
            assert_eq!(one_by_one, want, "{text:?}");
        }
    }

    #[test]
    fn user1_profile_is_slot_8106() {
        let e = explain(b"{user1}:profile");
        assert_eq!(e.hashed(), b"user1");
        assert_eq!(e.slot, 8106);
    }
}
