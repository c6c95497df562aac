//! Hash tags: which bytes of a key Redis Cluster hashes (`keyHashSlot` in `cluster.c`).
//!
//! Find the first `{`. If there is none, hash the whole key. Find the first `}` after it.
//! If there is none, or it comes right after the `{` (an empty tag), hash the whole key.
//! Otherwise hash the bytes strictly between them. All of this is on raw bytes: a `{` inside
//! a UTF-8 sequence cannot occur, and a tag may hold half a UTF-8 character.

use core::ops::Range;

/// Which rule chose the hashed part of a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
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
/// use slotscope::core::hashtag::{hashed_span, TagRule};
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
/// use slotscope::core::hashtag::hash_tag;
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
pub fn hashed_part(key: &[u8]) -> &[u8] {
    &key[hashed_span(key).1]
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

    #[test]
    fn rules_are_named() {
        assert_eq!(hashed_span(b"foo").0, TagRule::NoOpenBrace);
        assert_eq!(hashed_span(b"a{b").0, TagRule::NoCloseBrace { open: 1 });
        assert_eq!(hashed_span(b"{}a").0, TagRule::EmptyTag { open: 0 });
        assert_eq!(hashed_span(b"a{b}c").0, TagRule::Tag { open: 1, close: 3 });
    }
}
