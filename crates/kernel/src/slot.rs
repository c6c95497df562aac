//! Key → slot at full speed: one key, many packed in one buffer, or many as lines of text.

use crate::crc16::crc16;
use crate::hashtag::{hashed_part, zero_bytes};
use crate::NumberedKey;

/// Eight `\n` bytes, to find line ends a word at a time.
const NEWLINES: u64 = u64::from_le_bytes([b'\n'; 8]);

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

/// The slots of the lines of `text`, one key per line as raw bytes (no escapes), into `out`:
/// lines end at `\n`, a `\r` before that `\n` is dropped, and a last line without `\n`
/// counts (the lines of `str::lines`). This is the batch path for keys that arrive as text (a
/// paste, a file): one buffer, no offsets to build, no string per key.
///
/// Fills at most `out.len()` slots and returns `(lines, bytes)`: how many slots it wrote and
/// how many bytes of `text` those lines took, line endings included. All of `text` was read
/// when `bytes == text.len()`; otherwise the next batch starts at `text[bytes..]`.
///
/// ```
/// use slotscope_kernel::slot::{key_slot, line_slots_into};
/// let text = b"foo\r\n{user1}:profile\n\nbar";
/// let mut out = [0u16; 8];
/// assert_eq!(line_slots_into(text, &mut out), (4, text.len()));
/// assert_eq!(out[..4], [12182, 8106, 0, key_slot(b"bar")]);
/// let mut two = [0u16; 2];
/// assert_eq!(line_slots_into(text, &mut two), (2, 21));
/// ```
pub fn line_slots_into(text: &[u8], out: &mut [u16]) -> (usize, usize) {
    // One pass over `text` for line ends, eight bytes at a time (rather than a search that
    // starts again at every line: lines are short, and each search has its own set-up).
    let mut slots = out.iter_mut();
    let mut lines = 0;
    let mut start = 0;
    let mut line_end = |end: usize, start: &mut usize| -> bool {
        let Some(slot) = slots.next() else {
            return false;
        };
        let line = text.get(*start..end).unwrap_or_default();
        *slot = key_slot(line.strip_suffix(b"\r").unwrap_or(line));
        lines += 1;
        *start = end + 1;
        true
    };
    let (words, tail) = text.as_chunks::<8>();
    let mut full = false;
    'words: for (i, word) in words.iter().enumerate() {
        let mut ends = zero_bytes(u64::from_le_bytes(*word) ^ NEWLINES);
        while ends != 0 {
            if !line_end(i * 8 + (ends.trailing_zeros() / 8) as usize, &mut start) {
                full = true;
                break 'words;
            }
            ends &= ends - 1;
        }
    }
    if !full {
        let tail_start = text.len() - tail.len();
        for (i, &b) in tail.iter().enumerate() {
            if b == b'\n' && !line_end(tail_start + i, &mut start) {
                full = true;
                break;
            }
        }
    }
    // A last line without `\n` keeps a `\r` it ends with, as `str::lines` does.
    if !full
        && start < text.len()
        && let Some(slot) = slots.next()
    {
        *slot = key_slot(text.get(start..).unwrap_or_default());
        lines += 1;
        start = text.len();
    }
    (lines, start.min(text.len()))
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
    let mut key = NumberedKey::new(prefix, b"");
    for _ in 0..n {
        if let Some(c) = per_slot.get_mut(key_slot(key.bytes()) as usize) {
            *c += 1;
        }
        key.increment();
    }
}
