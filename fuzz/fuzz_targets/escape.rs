//! Fuzz target `escape`: `parse_key` on any text never panics and points its errors inside the
//! input, and bytes -> `format_key` -> `parse_key` (bare and in double quotes) gives the bytes back.
//! Every key met is also checked against a plain bitwise CRC-16/XMODEM and a naive hash-tag scan
//! (the fixtures README's rule), so the kernel's table-driven CRC and tag scan are fuzzed too.
#![no_main]

mod reference;

use libfuzzer_sys::fuzz_target;
use slotscope::core::key::escape::{format_key, from_hex, parse_key, to_hex};
use slotscope::core::{crc16, explain, hash_tag, key_slot, N_SLOTS};

/// The kernel agrees with the references on `key`.
fn check_slot(key: &[u8]) {
    assert_eq!(crc16(key), reference::crc16(key), "crc16 of {key:?}");
    let tag = reference::tag(key);
    assert_eq!(hash_tag(key), tag, "hash tag of {key:?}");
    let slot = reference::slot(key);
    assert_eq!(key_slot(key), slot, "slot of {key:?}");
    let e = explain(key);
    assert_eq!(
        (e.slot, e.hashed()),
        (slot, tag.unwrap_or(key)),
        "explain {key:?}"
    );
    assert!(usize::from(e.slot) < N_SLOTS);
}

fuzz_target!(|data: &[u8]| {
    // 1. The input as typed text (invalid UTF-8 becomes U+FFFD, as a text field would hold it).
    let text = String::from_utf8_lossy(data);
    match parse_key(&text) {
        Ok(bytes) => check_slot(&bytes),
        Err(err) => {
            let column = err.column();
            let n_chars = text.chars().count();
            assert!(
                (1..=n_chars + 1).contains(&column),
                "column {column} outside the input ({n_chars} chars): {err:?}"
            );
        }
    }
    let _ = from_hex(&text);

    // 2. The input as raw key bytes: its slot, and what redis-cli prints reads back as the same
    // bytes.
    check_slot(data);
    let shown = format_key(data);
    assert!(
        shown.bytes().all(|b| (0x20..0x7f).contains(&b)),
        "format_key printed a byte outside printable ASCII: {shown:?}"
    );
    match parse_key(&shown) {
        Ok(back) => assert_eq!(
            back, data,
            "format_key -> parse_key changed the key ({shown})"
        ),
        Err(e) => panic!("parse_key refused format_key's output {shown:?}: {e:?}"),
    }
    let quoted = format!("\"{shown}\"");
    match parse_key(&quoted) {
        Ok(back) => assert_eq!(back, data, "quoted round trip changed the key ({quoted})"),
        Err(e) => panic!("parse_key refused quoted format_key output {quoted:?}: {e:?}"),
    }
    assert_eq!(from_hex(&to_hex(data)).as_deref(), Ok(data));
});
