//! Hash tags: which bytes of a key Redis Cluster hashes (`keyHashSlot` in `cluster.c`).
//!
//! Find the first `{`. If there is none, hash the whole key. Find the first `}` after it.
//! If there is none, or it comes right after the `{` (an empty tag), hash the whole key.
//! Otherwise hash the bytes strictly between them. All of this is on raw bytes: a `{` inside
//! a UTF-8 sequence cannot occur, and a tag may hold half a UTF-8 character.

use core::ops::Range;

/// Which rule chose the hashed part of a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TagRule {
    /// The key has no `{`: the whole key is hashed.
    NoOpenBrace,
    /// There is a `{` at `open` but no `}` after it: the whole key is hashed.
    NoCloseBrace {
        /// Byte offset of the first `{`.
        open: usize,
    },
    /// The first `}` after the first `{` comes right after it (`{}`): the whole key is hashed.
    EmptyTag {
        /// Byte offset of the first `{`.
        open: usize,
    },
    /// A non-empty tag: only the bytes strictly between `open` and `close` are hashed.
    Tag {
        /// Byte offset of the first `{`.
        open: usize,
        /// Byte offset of the first `}` after it.
        close: usize,
    },
}

impl TagRule {
    /// True when only part of the key is hashed.
    pub fn is_tag(self) -> bool {
        matches!(self, TagRule::Tag { .. })
    }
}

/// The rule that applies to `key` and the byte range it hashes.
///
/// ```
/// use slotscope_kernel::hashtag::{hashed_span, TagRule};
/// assert_eq!(hashed_span(b"{user1}:profile"), (TagRule::Tag { open: 0, close: 6 }, 1..6));
/// assert_eq!(hashed_span(b"x{}{y}"), (TagRule::EmptyTag { open: 1 }, 0..6));
/// ```
pub fn hashed_span(key: &[u8]) -> (TagRule, Range<usize>) {
    let whole = 0..key.len();
    let Some(open) = key.iter().position(|&b| b == b'{') else {
        return (TagRule::NoOpenBrace, whole);
    };
    let Some(rel) = key[open + 1..].iter().position(|&b| b == b'}') else {
        return (TagRule::NoCloseBrace { open }, whole);
    };
    let close = open + 1 + rel;
    if rel == 0 {
        return (TagRule::EmptyTag { open }, whole);
    }
    (TagRule::Tag { open, close }, open + 1..close)
}

/// The hash tag of `key`, if it has a non-empty one (borrowed, never copied).
///
/// ```
/// use slotscope_kernel::hashtag::hash_tag;
/// assert_eq!(hash_tag(b"{a}{b}"), Some(&b"a"[..]));
/// assert_eq!(hash_tag(b"{{a}}"), Some(&b"{a"[..]));
/// assert_eq!(hash_tag(b"{}a"), None);
/// ```
pub fn hash_tag(key: &[u8]) -> Option<&[u8]> {
    match hashed_span(key) {
        (TagRule::Tag { .. }, span) => Some(&key[span]),
        _ => None,
    }
}

/// The bytes Redis hashes for `key`: the tag if there is one, else the whole key.
///
/// The hot path of [`super::slot::key_slot`]: one scan for the first `{`, then one scan of
/// the bytes after it for the first `}`, no allocation, no rule to build. It agrees with
/// [`hashed_span`] on every key (a test checks it).
///
/// ```
/// use slotscope_kernel::hashtag::hashed_part;
/// assert_eq!(hashed_part(b"user:{12345}:profile"), b"12345");
/// assert_eq!(hashed_part(b"x{}{y}"), b"x{}{y}");
/// ```
// Not `#[inline]`: callers in the size-first crate must call this speed-compiled copy.
pub fn hashed_part(key: &[u8]) -> &[u8] {
    let Some(open) = find_byte(key, b'{') else {
        return key;
    };
    // `open` is an index into `key`, so `open + 1 <= key.len()` and `get` always succeeds.
    let after = key.get(open + 1..).unwrap_or_default();
    match find_byte(after, b'}') {
        // `Some(0)` is the empty tag `{}`: the whole key is hashed.
        Some(close) if close > 0 => after.get(..close).unwrap_or(key),
        _ => key,
    }
}

/// Index of the first `needle` in `haystack`, eight bytes at a time.
///
/// Each 8-byte word is XORed with `needle` repeated eight times, so the bytes equal to
/// `needle` become zero, and [`zero_bytes`] finds those with a few integer operations: no
/// per-byte branch, and the same code on wasm32 (which has 64-bit integers). The last
/// `len % 8` bytes are checked by reading the last 8 bytes again, with the bytes already
/// checked shifted out. Keys shorter than 8 bytes are scanned a byte at a time.
#[inline(always)]
fn find_byte(haystack: &[u8], needle: u8) -> Option<usize> {
    let n = haystack.len();
    let Some(last) = haystack.last_chunk::<8>() else {
        return haystack.iter().position(|&b| b == needle);
    };
    let pattern = u64::from_le_bytes([needle; 8]);
    let first_zero = |word: &[u8; 8]| zero_bytes(u64::from_le_bytes(*word) ^ pattern);
    let (words, tail) = haystack.as_chunks::<8>();
    for (i, word) in words.iter().enumerate() {
        let found = first_zero(word);
        if found != 0 {
            return Some(i * 8 + (found.trailing_zeros() / 8) as usize);
        }
    }
    if tail.is_empty() {
        return None;
    }
    // `last` starts `8 - tail.len()` bytes before the tail; those bytes were already checked.
    let seen_bits = 8 * (8 - tail.len() as u32);
    let found = first_zero(last) >> seen_bits << seen_bits;
    (found != 0).then(|| n - 8 + (found.trailing_zeros() / 8) as usize)
}

/// The high bit of each byte of `x` that is zero, and no other bit. (Adding 0x7f to the low
/// seven bits of a byte carries into its high bit unless they are all zero; OR-ing in `x`
/// sets it if the high bit itself was set. This form is exact: unlike the shorter
/// `(x - 0x01..) & !x & 0x80..`, a zero byte cannot make its neighbour look zero.)
#[inline(always)]
pub(crate) fn zero_bytes(x: u64) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    !(((x & LOW7).wrapping_add(LOW7)) | x | LOW7)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The edge cases PRODUCT.md lists, with the part each hashes.
    #[test]
    fn product_edge_cases() {
        let cases: &[(&[u8], &[u8])] = &[
            (b"a{b}c", b"b"),
            (b"{b}", b"b"),
            (b"{}a", b"{}a"),
            (b"{a", b"{a"),
            (b"a}", b"a}"),
            (b"{{a}}", b"{a"),
            (b"{a}{b}", b"a"),
            (b"{a}}", b"a"),
            (b"x{}{y}", b"x{}{y}"),
            (b"a{b", b"a{b"),
            (b"{a}b}c", b"a"),
            (b"", b""),
        ];
        for (key, part) in cases {
            assert_eq!(
                hashed_part(key),
                *part,
                "key {:?}",
                String::from_utf8_lossy(key)
            );
        }
    }

    /// The fast path and the rule-naming path agree on every key built from the bytes that
    /// matter (`{`, `}`, `a`) up to length 9 (past one 8-byte word of [`find_byte`]).
    #[test]
    fn hashed_part_agrees_with_hashed_span() {
        let alphabet = [b'{', b'}', b'a'];
        for len in 0..=9u32 {
            for mut code in 0..3usize.pow(len) {
                let key: Vec<u8> = (0..len)
                    .map(|_| {
                        let b = alphabet[code % 3];
                        code /= 3;
                        b
                    })
                    .collect();
                assert_eq!(hashed_part(&key), &key[hashed_span(&key).1], "{key:?}");
            }
        }
    }

    /// A brace at every position of keys of every length up to 40 (whole words, a tail, a
    /// tail that overlaps the brace's own word).
    #[test]
    fn find_byte_finds_every_position() {
        for len in 0..40 {
            let mut key = vec![b'x'; len];
            assert_eq!(find_byte(&key, b'{'), None, "len {len}");
            for at in 0..len {
                key[at] = b'{';
                assert_eq!(find_byte(&key, b'{'), Some(at), "len {len} at {at}");
                // A second brace later changes nothing; every byte value before it is passed.
                if at + 1 < len {
                    key[len - 1] = b'{';
                    assert_eq!(find_byte(&key, b'{'), Some(at), "len {len} at {at}");
                    key[len - 1] = b'x';
                }
                key[at] = b'x';
            }
        }
        let all: Vec<u8> = (0..=255u8).collect();
        for b in 0..=255u8 {
            assert_eq!(find_byte(&all, b), Some(b as usize));
            assert_eq!(find_byte(&all[..b as usize], b), None);
        }
    }

    #[test]
    fn rules_are_named() {
        assert_eq!(hashed_span(b"foo").0, TagRule::NoOpenBrace);
        assert_eq!(hashed_span(b"a{b").0, TagRule::NoCloseBrace { open: 1 });
        assert_eq!(hashed_span(b"{}a").0, TagRule::EmptyTag { open: 0 });
        assert_eq!(hashed_span(b"a{b}c").0, TagRule::Tag { open: 1, close: 3 });
    }
}

/// Random keys against [`hashed_span`] (native only: proptest is a native dev-dependency).
#[cfg(all(test, not(target_arch = "wasm32")))]
mod proptests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn hashed_part_agrees_with_hashed_span(
            key in proptest::collection::vec(prop_oneof![Just(b'{'), Just(b'}'), any::<u8>()], 0..80),
        ) {
            prop_assert_eq!(hashed_part(&key), &key[hashed_span(&key).1]);
        }
    }
}
