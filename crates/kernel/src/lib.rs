//! The hot path of slotscope, key → slot, in its own crate so that it is compiled for speed
//! (`opt-level = 3`) while the rest of the page is compiled for size.
//!
//! `slotscope::core` re-exports everything here; read the docs there. Nothing in this crate
//! allocates except the decimal writer's buffer growth.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod crc16;
pub mod hashtag;
pub mod slot;

/// The browser benchmark's keys, generated where they are hashed (in this speed-compiled
/// crate), so that no key becomes a JavaScript string.
pub mod bench {
    use crate::push_decimal;
    use crate::slot::key_slot;

    /// Key `i`: every third `{user<i mod 1000>}:item:<i>`, the others `user:<i>:profile`.
    /// `e2e/bench.mjs` builds the same keys as JavaScript strings.
    ///
    /// ```
    /// let mut buf = Vec::new();
    /// slotscope_kernel::bench::key(&mut buf, 4);
    /// assert_eq!(buf, b"user:4:profile");
    /// slotscope_kernel::bench::key(&mut buf, 1002);
    /// assert_eq!(buf, b"{user2}:item:1002");
    /// ```
    pub fn key(buf: &mut Vec<u8>, i: u32) {
        buf.clear();
        if i.is_multiple_of(3) {
            buf.extend_from_slice(b"{user");
            push_decimal(buf, u64::from(i % 1000));
            buf.extend_from_slice(b"}:item:");
        } else {
            buf.extend_from_slice(b"user:");
        }
        push_decimal(buf, u64::from(i));
        if !i.is_multiple_of(3) {
            buf.extend_from_slice(b":profile");
        }
    }

    /// The sum of the slots of keys `0..n`.
    pub fn slot_sum(n: u32) -> u64 {
        let mut buf = Vec::with_capacity(32);
        (0..n)
            .map(|i| {
                key(&mut buf, i);
                u64::from(key_slot(&buf))
            })
            .sum()
    }
}

/// A decimal number kept as ASCII digits and incremented in place (the hot-spot loop's `<i>`).
#[derive(Clone, Debug)]
pub struct DecimalCounter {
    /// Right-aligned digits; `digits[start..]` is the number.
    buf: [u8; 20],
    start: usize,
}

impl Default for DecimalCounter {
    /// The number 0.
    fn default() -> Self {
        let mut buf = [b'0'; 20];
        buf[19] = b'0';
        DecimalCounter { buf, start: 19 }
    }
}

impl DecimalCounter {
    /// The number's digits.
    pub fn digits(&self) -> &[u8] {
        self.buf.get(self.start..).unwrap_or(&[])
    }

    /// Adds one (stays at `99…9` with 20 digits, far beyond any `u32` counter).
    pub fn increment(&mut self) {
        for i in (0..self.buf.len()).rev() {
            if i < self.start {
                self.buf[i] = b'1';
                self.start = i;
                return;
            }
            if self.buf[i] == b'9' {
                self.buf[i] = b'0';
            } else {
                self.buf[i] += 1;
                return;
            }
        }
        // All 20 digits were 9: undo the wrap rather than overflow.
        self.buf = [b'9'; 20];
    }
}

/// Appends `n` in decimal to `buf` (no allocation beyond `buf`'s own growth).
#[inline]
pub fn push_decimal(buf: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    buf.extend_from_slice(&digits[i..]);
}
