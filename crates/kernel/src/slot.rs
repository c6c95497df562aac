//! Key → slot at full speed: one key, or many packed in one buffer.

use crate::crc16::crc16;
use crate::hashtag::hashed_part;
use crate::DecimalCounter;

/// Number of hash slots in a Redis Cluster.
pub const N_SLOTS: usize = 16384;

/// The mask applied to the CRC16: the low 14 bits.
pub const SLOT_MASK: u16 = 0x3FFF;

/// The slot Redis assigns to `key` (what `CLUSTER KEYSLOT` answers).
///
/// ```
/// use slotscope_kernel::slot::key_slot;
/// assert_eq!(key_slot(b"foo"), 12182);
/// assert_eq!(key_slot(b"{user1}:profile"), key_slot(b"user1"));
/// ```
// Not `#[inline]`: callers in the size-first crate must call this speed-compiled copy.
pub fn key_slot(key: &[u8]) -> u16 {
    crc16(hashed_part(key)) & SLOT_MASK
}

/// The slots of many keys packed in one buffer: key `i` is `buf[offsets[i]..offsets[i + 1]]`
/// and its slot goes to `out[i]`. This is what the page's batch path calls, so a million keys
/// cross from JavaScript as two arrays rather than a million strings.
///
/// It never panics. It fills `n = min(offsets.len() - 1, out.len())` slots (0 if `offsets` is
/// empty) and returns `n`; the rest of `out` is left as it was. A key whose range is not
/// inside `buf` (an offset past the end, or an end before its start) is taken as the empty
/// key, which is slot 0.
///
/// ```
/// use slotscope_kernel::slot::{key_slot, key_slots_into};
/// let buf = b"foo{user1}:profilebar";
/// let offsets = [0, 3, 18, 21];
/// let mut out = [0u16; 3];
/// assert_eq!(key_slots_into(buf, &offsets, &mut out), 3);
/// assert_eq!(out, [12182, 8106, key_slot(b"bar")]);
/// ```
pub fn key_slots_into(buf: &[u8], offsets: &[u32], out: &mut [u16]) -> usize {
    let mut n = 0;
    for (pair, slot) in offsets.windows(2).zip(out.iter_mut()) {
        let key = buf
            .get(pair[0] as usize..pair[1] as usize)
            .unwrap_or_default();
        *slot = key_slot(key);
        n += 1;
    }
    n
}

/// Adds one to `per_slot[slot]` for the slot of each key `prefix<i>`, `i` in `0..n` written in
/// decimal (`key:0`, `key:1`, …): the hot-spot experiment's untagged keys, built in place.
/// A slot past the end of `per_slot` is not counted.
///
/// ```
/// use slotscope_kernel::slot::{count_numbered_key_slots, key_slot};
/// let mut per_slot = vec![0u64; 16384];
/// count_numbered_key_slots(b"key:", 3, &mut per_slot);
/// assert_eq!(per_slot[key_slot(b"key:2") as usize], 1);
/// assert_eq!(per_slot.iter().sum::<u64>(), 3);
/// ```
pub fn count_numbered_key_slots(prefix: &[u8], n: u32, per_slot: &mut [u64]) {
    let mut buf = Vec::with_capacity(prefix.len() + 20);
    let mut counter = DecimalCounter::default();
    for _ in 0..n {
        buf.clear();
        buf.extend_from_slice(prefix);
        buf.extend_from_slice(counter.digits());
        if let Some(c) = per_slot.get_mut(key_slot(&buf) as usize) {
            *c += 1;
        }
        counter.increment();
    }
}
