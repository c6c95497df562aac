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
    use crate::slot::key_slot;
    use crate::{push_decimal, NumberedKey};

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

    /// The sum of the slots of keys `0..n`, the keys of [`key`]: their numbers are kept as
    /// digits and counted up in place ([`NumberedKey`]), so no key is written out anew from
    /// numbers (two thirds are not copied at all).
    ///
    /// ```
    /// use slotscope_kernel::{bench, slot::key_slot};
    /// let mut buf = Vec::new();
    /// let sum: u64 = (0..3000).map(|i| { bench::key(&mut buf, i); u64::from(key_slot(&buf)) }).sum();
    /// assert_eq!(bench::slot_sum(3000), sum);
    /// ```
    pub fn slot_sum(n: u32) -> u64 {
        // `user:<i>:profile` counts up in place; the tagged key is its prefix (counted up in
        // place too) followed by the same digits.
        let mut plain = NumberedKey::new(b"user:", b":profile");
        let mut user = NumberedKey::new(b"{user", b"}:item:");
        let mut tagged = Vec::with_capacity(32);
        let mut sum = 0;
        for i in 0..n {
            let key = if i % 3 == 0 {
                tagged.clear();
                tagged.extend_from_slice(user.bytes());
                tagged.extend_from_slice(plain.digits());
                &tagged[..]
            } else {
                plain.bytes()
            };
            sum += u64::from(key_slot(key));
            plain.increment();
            // `i mod 1000`.
            if i % 1000 == 999 {
                user = NumberedKey::new(b"{user", b"}:item:");
            } else {
                user.increment();
            }
        }
        sum
    }
}

/// The key `prefix<n>suffix`, `n` in decimal, counted up in place: [`NumberedKey::increment`]
/// changes the digits inside the key (and moves the suffix only when `n` gains a digit), so
/// a loop over `key:0`, `key:1`, … neither rebuilds nor copies a key (the hot-spot loop).
///
/// ```
/// let mut key = slotscope_kernel::NumberedKey::new(b"user:", b":profile");
/// assert_eq!(key.bytes(), b"user:0:profile");
/// for _ in 0..10 { key.increment(); }
/// assert_eq!(key.bytes(), b"user:10:profile");
/// assert_eq!(key.digits(), b"10");
/// ```
#[derive(Clone, Debug)]
pub struct NumberedKey {
    buf: Vec<u8>,
    /// `buf[start..end]` is the number's digits.
    start: usize,
    end: usize,
}

impl NumberedKey {
    /// `prefix0suffix`.
    pub fn new(prefix: &[u8], suffix: &[u8]) -> NumberedKey {
        let mut buf = Vec::with_capacity(prefix.len() + 20 + suffix.len());
        buf.extend_from_slice(prefix);
        buf.push(b'0');
        buf.extend_from_slice(suffix);
        NumberedKey {
            buf,
            start: prefix.len(),
            end: prefix.len() + 1,
        }
    }

    /// The whole key.
    pub fn bytes(&self) -> &[u8] {
        &self.buf
    }

    /// The number's digits.
    pub fn digits(&self) -> &[u8] {
        self.buf.get(self.start..self.end).unwrap_or_default()
    }

    /// Adds one to the number.
    pub fn increment(&mut self) {
        for d in self
            .buf
            .get_mut(self.start..self.end)
            .unwrap_or_default()
            .iter_mut()
            .rev()
        {
            if *d == b'9' {
                *d = b'0';
            } else {
                *d += 1;
                return;
            }
        }
        // Every digit was 9 (now 0): one digit more, in front.
        self.buf.insert(self.start, b'1');
        self.end += 1;
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
