//! Property tests of the core: invariants that must hold for every input, not just the fixtures.
#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use slotscope::core::key::escape::{format_key, from_hex, parse_key, to_hex};
use slotscope::core::key::hashtag::{hash_tag, hashed_span};
use slotscope::core::{explain, key_slot, SlotMap};

/// Bytes weighted toward the ones that matter here: braces, backslashes, quotes, NUL, high bytes.
fn key_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![
            3 => Just(b'{'),
            3 => Just(b'}'),
            1 => Just(b'\\'),
            1 => Just(b'"'),
            1 => Just(0u8),
            4 => any::<u8>(),
            4 => b'a'..=b'z',
        ],
        0..48,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4096, ..ProptestConfig::default() })]

    #[test]
    fn same_tag_same_slot(tag in prop::collection::vec(any::<u8>().prop_filter("no }", |b| *b != b'}'), 1..16),
                          pre in prop::collection::vec(any::<u8>().prop_filter("no {", |b| *b != b'{'), 0..16),
                          post in key_bytes()) {
        let mut key = pre.clone();
        key.push(b'{');
        key.extend_from_slice(&tag);
        key.push(b'}');
        key.extend_from_slice(&post);
        prop_assert_eq!(hash_tag(&key), Some(&tag[..]));
        prop_assert_eq!(key_slot(&key), key_slot(&tag));
    }

    #[test]
    fn format_then_parse_is_identity(key in key_bytes()) {
        prop_assert_eq!(parse_key(&format_key(&key)).unwrap(), key.clone());
        // Quoted, as one would type it into redis-cli.
        prop_assert_eq!(parse_key(&format!("\"{}\"", format_key(&key))).unwrap(), key);
    }

    #[test]
    fn display_form_is_printable_ascii(key in key_bytes()) {
        prop_assert!(format_key(&key).bytes().all(|b| (0x20..0x7f).contains(&b)));
    }

    #[test]
    fn hex_round_trips(key in key_bytes()) {
        prop_assert_eq!(from_hex(&to_hex(&key)).unwrap(), key);
    }

    #[test]
    fn parsers_never_panic(s in "\\PC*", t in "[\\\\x\"0-9a-fA-F{}]{0,12}") {
        let _ = parse_key(&s);
        let _ = parse_key(&t);
        let _ = from_hex(&s);
        let _ = from_hex(&t);
    }

    #[test]
    fn span_is_within_key_and_explain_agrees(key in key_bytes()) {
        let (_, span) = hashed_span(&key);
        prop_assert!(span.start <= span.end && span.end <= key.len());
        let e = explain(&key);
        prop_assert_eq!(e.slot, key_slot(&key));
        prop_assert!(e.slot < 16384);
    }

    #[test]
    fn leading_nul_bytes_do_not_change_an_untagged_slot(n in 1usize..8, key in "[a-z:0-9]{0,16}") {
        let mut padded = vec![0u8; n];
        padded.extend_from_slice(key.as_bytes());
        prop_assert_eq!(key_slot(&padded), key_slot(key.as_bytes()));
    }

}

proptest! {
    // Each case builds a whole 16384-slot map: fewer cases keep the suite quick.
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn created_clusters_own_every_slot_once(n in 1usize..1200) {
        let map = SlotMap::created(n, "10.0.0.1", 7000).unwrap();
        prop_assert_eq!(map.n_unowned(), 0);
        let counts = map.slot_counts();
        prop_assert_eq!(counts.iter().sum::<usize>(), 16384);
        // Runs tile 0..=16383 in order, without gaps.
        let mut next = 0u32;
        for run in map.runs() {
            prop_assert_eq!(run.range.first as u32, next);
            next = run.range.last as u32 + 1;
        }
        prop_assert_eq!(next, 16384);
    }
}
