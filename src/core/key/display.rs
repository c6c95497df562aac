//! How the pipeline shows a key's bytes: in redis-cli's form, shortened when long (its start,
//! "…", its end), the hashed part marked inside the key, the first bytes in hex, the CRC's
//! bits, and the redis-cli command that checks the slot. Shared by the page's pipeline and the
//! first-screen module (`crates/first`), which answers before the page has started.

use super::escape::{format_key, push_formatted};
use super::slot::Explanation;

/// Display characters of a key shown on each side of the hashed part before it is cut short.
pub const SHOWN_CHARS: usize = 64;
/// Bytes of a key (or its hashed part) above which a card shows it shortened.
pub const LONG_BYTES: usize = 64;
/// Display characters kept from the start and from the end of a shortened value.
pub const HEAD_CHARS: usize = 36;
/// See [`HEAD_CHARS`].
pub const TAIL_CHARS: usize = 12;
/// Bytes of a key listed in hex.
pub const SHOWN_HEX_BYTES: usize = 24;
/// Longest key (in bytes) for which the page prints the redis-cli command that checks it.
pub const VERIFY_MAX_BYTES: usize = 200;

/// Cuts a display string to `max` characters, marking the cut.
fn clip(s: String, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s,
    }
}

/// A long value as its first [`HEAD_CHARS`] and last [`TAIL_CHARS`] display characters,
/// formatting only the bytes those need (a display character is at most four bytes' worth).
pub fn shortened(bytes: &[u8]) -> String {
    let mut head = String::new();
    push_formatted(&mut head, &bytes[..bytes.len().min(HEAD_CHARS)]);
    let head: String = head.chars().take(HEAD_CHARS).collect();
    let mut tail = String::new();
    push_formatted(&mut tail, &bytes[bytes.len().saturating_sub(TAIL_CHARS)..]);
    let skip = tail.chars().count().saturating_sub(TAIL_CHARS);
    let tail: String = tail.chars().skip(skip).collect();
    format!("{head}…{tail}")
}

/// `bytes` as a card shows them at first: in full up to [`LONG_BYTES`], else [`shortened`].
pub fn shown(bytes: &[u8]) -> String {
    if bytes.len() > LONG_BYTES {
        shortened(bytes)
    } else {
        format_key(bytes)
    }
}

/// The key around its hashed part, each side clipped so a 64 KB key stays readable: the text
/// before the hashed part, the hashed part, the text after it.
pub fn marked(e: &Explanation) -> [String; 3] {
    let side = |bytes: &[u8], from_end: bool| {
        let mut s = String::new();
        if bytes.len() > SHOWN_CHARS && from_end {
            s.push('…');
            push_formatted(&mut s, &bytes[bytes.len() - SHOWN_CHARS / 4..]);
            s
        } else {
            push_formatted(&mut s, &bytes[..bytes.len().min(SHOWN_CHARS)]);
            clip(s, SHOWN_CHARS / 4)
        }
    };
    [
        side(&e.key[..e.span.start], true),
        shown(e.hashed()),
        side(&e.key[e.span.end..], false),
    ]
}

/// The key's first [`SHOWN_HEX_BYTES`] bytes in hex, space-separated, "…" after them if there
/// are more.
pub fn hex_list(key: &[u8]) -> String {
    let mut hex: Vec<String> = key[..key.len().min(SHOWN_HEX_BYTES)]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    if key.len() > SHOWN_HEX_BYTES {
        hex.push("…".into());
    }
    hex.join(" ")
}

/// `0xDFAA` style.
pub fn hex16(v: u16) -> String {
    format!("0x{v:04X}")
}

/// The CRC's 16 bits: the two the slot drops, and the 14 it keeps in groups of four
/// (`("11", "01 1111 1010 1010")`).
pub fn bit_groups(crc: u16) -> (String, String) {
    let s = format!("{crc:016b}");
    let kept = format!("{} {} {} {}", &s[2..4], &s[4..8], &s[8..12], &s[12..]);
    (s[..2].to_string(), kept)
}

/// The redis-cli command that checks the slot (`CLUSTER KEYSLOT "…"`) and Redis's reply, for
/// a key up to [`VERIFY_MAX_BYTES`].
pub fn verify(e: &Explanation) -> Option<(String, String)> {
    (e.key.len() <= VERIFY_MAX_BYTES).then(|| {
        (
            format!("CLUSTER KEYSLOT \"{}\"", format_key(&e.key)),
            format!("(integer) {}", e.slot),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::explain;

    #[test]
    fn short_values_are_whole_and_long_ones_keep_both_ends() {
        assert_eq!(shown(b"{user1}:profile"), "{user1}:profile");
        let long: Vec<u8> = (0..100u8).map(|i| b'a' + i % 26).collect();
        let s = shown(&long);
        assert_eq!(s.chars().count(), HEAD_CHARS + 1 + TAIL_CHARS);
        assert!(s.starts_with("abcdefghij") && s.contains('…'));
        assert!(s.ends_with(&String::from_utf8_lossy(&long[100 - TAIL_CHARS..]).to_string()));
    }

    #[test]
    fn the_hashed_part_is_marked_inside_the_key() {
        let e = explain(b"{user1}:profile");
        assert_eq!(
            marked(&e),
            ["{".to_string(), "user1".into(), "}:profile".into()]
        );
        let e = explain(b"foo");
        assert_eq!(marked(&e), [String::new(), "foo".into(), String::new()]);
    }

    #[test]
    fn hex_bits_and_the_check() {
        assert_eq!(hex_list(b"{u"), "7b 75");
        assert!(hex_list(&[0u8; 30]).ends_with("00 …"));
        assert_eq!(hex16(0xDFAA), "0xDFAA");
        assert_eq!(
            bit_groups(0xDFAA),
            ("11".into(), "01 1111 1010 1010".into())
        );
        let e = explain(b"a\"b");
        assert_eq!(
            verify(&e),
            Some((
                "CLUSTER KEYSLOT \"a\\\"b\"".into(),
                format!("(integer) {}", e.slot)
            ))
        );
        assert_eq!(verify(&explain(&[b'x'; 201])), None);
    }
}
