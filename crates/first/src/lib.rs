//! The first-screen module: answers the prerendered pipeline for a key typed before the app has
//! started, with the page's own core (the key field's escapes, the slot, how each card shows
//! the bytes), so the reader sees a real answer a second or two before the app arrives.
//!
//! `static/first.js` writes the key field's text into [`first_input`]'s buffer, calls
//! [`first_answer`] and reads [`first_output`]: the [`answer`] fields, joined by [`SEP`], which
//! it puts into the cards' values as text. No prose: the sentences wait for the app.

use slotscope::core::explain;
use slotscope::core::key::display::{bit_groups, hex16, marked, shown, verify};
use slotscope::core::key::field::read_key;
use std::cell::RefCell;

/// Between two fields of an answer (no field holds it: every one is redis-cli's printable
/// form of bytes, a number, hex or a command).
pub const SEP: char = '\u{1f}';

/// What [`answer`] says about the field's text, as its first field.
pub mod status {
    /// A key: the fields follow.
    pub const KEY: &str = "key";
    /// The empty key: the page words it; the module leaves it to the app.
    pub const EMPTY: &str = "empty";
    /// Not a key the page explains (a bad escape, too long): the app says why.
    pub const REFUSED: &str = "refused";
}

/// The fields the cards show for the key field's `text`, joined by [`SEP`]:
///
/// 0. [`status`]; for a key, then:
/// 1. the key as the Bytes card shows it;
/// 2. 3. 4. the key before its hashed part, the hashed part, the key after it;
/// 5. the hashed part as its card shows it;
/// 6. the CRC16 (`0xDFAA`);
/// 7. the slot;
/// 8. 9. the CRC's two dropped bits and its kept bits in groups of four; 10. all 16 bits;
/// 11. `1` if a hash tag chose the hashed part, else `0`;
/// 12. 13. `CLUSTER KEYSLOT "…"` and Redis's reply, both empty for a key too long to check.
pub fn answer(text: &str) -> String {
    let key = match read_key(text) {
        Ok(key) if key.is_empty() => return status::EMPTY.to_string(),
        Ok(key) => key,
        Err(_) => return status::REFUSED.to_string(),
    };
    let e = explain(&key);
    let [before, inner, after] = marked(&e);
    let (dropped, kept) = bit_groups(e.crc);
    let (command, reply) = verify(&e).unwrap_or_default();
    let fields = [
        status::KEY.to_string(),
        shown(&e.key),
        before,
        inner,
        after,
        shown(e.hashed()),
        hex16(e.crc),
        e.slot.to_string(),
        dropped,
        kept,
        format!("{:016b}", e.crc),
        u8::from(e.rule.is_tag()).to_string(),
        command,
        reply,
    ];
    fields.join(&SEP.to_string())
}

thread_local! {
    /// The key field's text, written by the page.
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The last answer.
    static OUTPUT: RefCell<String> = const { RefCell::new(String::new()) };
}

/// A buffer of `len` bytes for the key field's UTF-8 text; its address in the module's memory.
#[unsafe(no_mangle)]
pub extern "C" fn first_input(len: usize) -> *mut u8 {
    INPUT.with(|i| {
        let mut i = i.borrow_mut();
        i.clear();
        i.resize(len, 0);
        i.as_mut_ptr()
    })
}

/// Answers the text in the input buffer; the answer's length in bytes (see [`first_output`]).
#[unsafe(no_mangle)]
pub extern "C" fn first_answer() -> usize {
    let out = INPUT.with(|i| {
        let i = i.borrow();
        // The page writes UTF-8 from a JavaScript string, so this holds; lone surrogates were
        // replaced by U+FFFD on the way, exactly as the app's own `input.value()` reads them.
        answer(&String::from_utf8_lossy(&i))
    });
    OUTPUT.with(|o| {
        *o.borrow_mut() = out;
        o.borrow().len()
    })
}

/// The address of the last answer's UTF-8 bytes.
#[unsafe(no_mangle)]
pub extern "C" fn first_output() -> *const u8 {
    OUTPUT.with(|o| o.borrow().as_ptr())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(text: &str) -> Vec<String> {
        answer(text).split(SEP).map(str::to_string).collect()
    }

    /// Every CLUSTER KEYSLOT vector recorded from Redis 7.0.15 (`keyslot.tsv`), typed as
    /// redis-cli printed the key: the slot is Redis's, the Bytes card shows the key as
    /// redis-cli printed it, and the command to check it is what was run.
    #[test]
    fn answers_every_recorded_key_as_redis_did() {
        let dir = std::env::var("SLOTSCOPE_FIXTURES").unwrap_or_else(|_| {
            concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/fixtures").into()
        });
        let tsv = std::fs::read_to_string(format!("{dir}/keyslot.tsv")).expect("keyslot.tsv");
        let mut checked = 0;
        for line in tsv.lines().skip(1) {
            let cols: Vec<&str> = line.split('\t').collect();
            let (hex, display, slot) = (cols[0], cols[1], cols[2]);
            let f = fields(display);
            if hex.is_empty() {
                assert_eq!(f, [status::EMPTY], "the empty key is left to the app");
                continue;
            }
            assert_eq!(f[0], status::KEY, "{display}");
            assert_eq!(f[7], slot, "slot of {display}");
            let n = hex.len() / 2;
            if n <= 64 {
                assert_eq!(
                    f[1], display,
                    "the Bytes card shows the key as redis-cli printed it"
                );
            } else {
                assert!(f[1].contains('…'), "a {n}-byte key is shortened");
            }
            if n <= 200 {
                assert_eq!(f[12], format!("CLUSTER KEYSLOT \"{display}\""));
                assert_eq!(f[13], format!("(integer) {slot}"));
            } else {
                assert_eq!((f[12].as_str(), f[13].as_str()), ("", ""));
            }
            checked += 1;
        }
        assert!(checked > 2000, "{checked} keys checked");
    }

    #[test]
    fn the_default_key_reads_as_the_prerendered_page_shows_it() {
        // The prerendered pipeline (dist/index.html) for {user1}:profile.
        assert_eq!(
            fields("{user1}:profile"),
            [
                "key",
                "{user1}:profile",
                "{",
                "user1",
                "}:profile",
                "user1",
                "0xDFAA",
                "8106",
                "11",
                "01 1111 1010 1010",
                "1101111110101010",
                "1",
                "CLUSTER KEYSLOT \"{user1}:profile\"",
                "(integer) 8106"
            ]
        );
    }

    #[test]
    fn refuses_what_the_app_refuses() {
        assert_eq!(fields(r"\xZZ"), [status::REFUSED]);
        assert_eq!(fields("\"unterminated"), [status::REFUSED]);
        assert_eq!(fields(&"a".repeat(5 << 20)), [status::REFUSED]);
    }

    #[test]
    fn the_buffers_round_trip() {
        let text = b"a{b}c";
        let p = first_input(text.len());
        // SAFETY: `first_input` returned a buffer of exactly `text.len()` bytes.
        unsafe { std::ptr::copy_nonoverlapping(text.as_ptr(), p, text.len()) };
        let n = first_answer();
        // SAFETY: `first_output` points at the answer's `n` bytes until the next call.
        let out = unsafe { std::slice::from_raw_parts(first_output(), n) };
        assert_eq!(std::str::from_utf8(out).unwrap(), answer("a{b}c"));
    }
}
