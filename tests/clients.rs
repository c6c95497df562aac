//! Client-side slot rules against independent references: the real npm `cluster-key-slot`
//! 1.1.2's output for every fixture key (tests/data/cluster_key_slot.tsv, written by
//! e2e/gen_cluster_key_slot.mjs), Redis's slots recorded in keyslot.tsv, and what the engine
//! (a Redis 7.0 model checked against the transcripts) answers to a misrouted command.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use proptest::prelude::*;
use slotscope::core::crc16;
use slotscope::core::key::client_rules::{
    cluster_key_slot, consequence, divergences, last_brace_pair_slot, utf16_code_unit_slot,
    ClientRule, Consequence, Outcome,
};
use slotscope::core::key::escape::from_hex;
use slotscope::core::server::{Cluster, Reply, Session};
use slotscope::core::{key_slot, SlotMap};
use std::collections::BTreeMap;

/// The text of an error reply, as Redis sends it (after the `-`); anything else is named so an
/// assertion on it fails.
fn error_text(reply: Reply) -> String {
    match reply {
        Reply::Error(e) => e.to_string(),
        other => format!("not an error: {other:?}"),
    }
}

/// keyslot.tsv as (key bytes, display, Redis's slot).
fn keyslot_rows() -> Vec<(Vec<u8>, String, u16)> {
    common::read_tsv("keyslot.tsv", &["key_hex", "key_display", "slot"])
        .into_iter()
        .map(|r| {
            let key = from_hex(&r[0]).unwrap_or_else(|e| panic!("{}: {e:?}", r[0]));
            (key, r[1].clone(), r[2].parse().expect("slot"))
        })
        .collect()
}

fn mask(crc: u16) -> u16 {
    crc & 0x3FFF
}

/// The first `{` is followed right away by a `}`, and another `}` comes later: the one shape
/// on which cluster-key-slot 1.1.x and Redis part ways.
fn empty_tag_then_close(key: &[u8]) -> Option<&[u8]> {
    let open = key.iter().position(|&b| b == b'{')?;
    if key.get(open + 1) != Some(&b'}') {
        return None;
    }
    let rest = key.get(open + 2..)?;
    let close = rest.iter().position(|&b| b == b'}')?;
    rest.get(..close)
}

#[test]
fn the_issue_example_foo_empty_braces_bar() {
    // Redis: the tag after `foo` is empty, so the whole key is hashed.
    assert_eq!(key_slot(b"foo{}{bar}"), 8363);
    assert_eq!(key_slot(b"foo{}{bar}"), mask(crc16(b"foo{}{bar}")));
    // cluster-key-slot: skips the empty `}`, closes at the next one, hashes `{bar`.
    assert_eq!(cluster_key_slot(b"foo{}{bar}"), 4015);
    assert_eq!(cluster_key_slot(b"foo{}{bar}"), mask(crc16(b"{bar")));
    let d = divergences(b"foo{}{bar}");
    assert!(d.iter().any(|d| d.rule == ClientRule::ClusterKeySlot
        && d.outcome == Outcome::Slot(4015)
        && d.redis == 8363));
}

#[test]
fn cluster_key_slot_port_equals_the_npm_module_on_every_fixture_key() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cluster_key_slot.tsv");
    let text = std::fs::read_to_string(&path).expect("tests/data/cluster_key_slot.tsv");
    let mut lines = text.lines();
    assert!(lines
        .next()
        .is_some_and(|l| l.contains("cluster-key-slot 1.1.2")));
    assert_eq!(lines.next(), Some("key_hex\tbuffer_slot\tstring_slot"));
    let npm: BTreeMap<Vec<u8>, (u16, Option<u16>)> = lines
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert_eq!(cols.len(), 3, "{l}");
            let key = from_hex(cols[0]).expect("hex");
            (key, (cols[1].parse().expect("slot"), cols[2].parse().ok()))
        })
        .collect();
    let rows = keyslot_rows();
    assert_eq!(npm.len(), rows.len(), "one npm answer per fixture key");
    let mut checked_strings = 0;
    for (key, display, _) in &rows {
        let (buffer, string) = npm[key];
        assert_eq!(
            cluster_key_slot(key),
            buffer,
            "generate(Buffer) of {display}"
        );
        assert_eq!(
            ClientRule::ClusterKeySlot.outcome(key),
            Outcome::Slot(buffer),
            "{display}"
        );
        if let Some(s) = string {
            assert_eq!(cluster_key_slot(key), s, "generate(string) of {display}");
            checked_strings += 1;
        }
    }
    assert!(checked_strings > 1000, "{checked_strings}");
}

#[test]
fn cluster_key_slot_agrees_with_redis_except_after_an_empty_tag() {
    let mut diverging = 0;
    for (key, display, slot) in keyslot_rows() {
        match empty_tag_then_close(&key) {
            None => assert_eq!(cluster_key_slot(&key), slot, "{display}"),
            Some(inner) => {
                assert_eq!(cluster_key_slot(&key), mask(crc16(inner)), "{display}");
                if cluster_key_slot(&key) != slot {
                    diverging += 1;
                }
            }
        }
    }
    assert!(diverging >= 3, "{diverging}");
    // `{}}` and `x{}{y}` are in the fixtures: Redis hashes the whole key.
    assert_eq!(common::redis_slot("{}}"), 14790);
    assert_eq!(cluster_key_slot(b"{}}"), 0);
    assert_eq!(cluster_key_slot(b"x{}{y}"), mask(crc16(b"{y")));
    assert_ne!(cluster_key_slot(b"x{}{y}"), common::redis_slot("x{}{y}"));
    assert_eq!(cluster_key_slot(b"a{}b}c"), common::redis_slot("b"));
    assert_ne!(key_slot(b"a{}b}c"), common::redis_slot("b"));
}

#[test]
fn last_brace_pair_takes_the_last_tag() {
    // `{a}{b}` hashes `b` (Redis's slot of `{b}` and of `b`), not `a` as Redis does.
    assert_eq!(last_brace_pair_slot(b"{a}{b}"), common::redis_slot("{b}"));
    assert_eq!(last_brace_pair_slot(b"{a}{b}"), common::redis_slot("b"));
    assert_eq!(common::redis_slot("{a}{b}"), 15495);
    assert_ne!(common::redis_slot("{a}{b}"), common::redis_slot("b"));
    // With at most one `{` it is Redis's rule.
    let mut diverging = 0;
    for (key, display, slot) in keyslot_rows() {
        if key.iter().filter(|&&b| b == b'{').count() <= 1 {
            assert_eq!(last_brace_pair_slot(&key), slot, "{display}");
        } else if last_brace_pair_slot(&key) != slot {
            diverging += 1;
        }
    }
    assert!(diverging >= 10, "{diverging}");
}

#[test]
fn utf16_code_units_agree_on_ascii_and_not_on_utf8() {
    let mut utf8 = 0;
    for (key, display, slot) in keyslot_rows() {
        if key.is_ascii() {
            assert_eq!(utf16_code_unit_slot(&key), Some(slot), "{display}");
            continue;
        }
        let Ok(text) = std::str::from_utf8(&key) else {
            assert_eq!(utf16_code_unit_slot(&key), None, "{display}");
            assert_eq!(
                ClientRule::Utf16CodeUnits.outcome(&key),
                Outcome::NotApplicable
            );
            continue;
        };
        // The low byte of each UTF-16 unit, hashed with Redis's rule (safe when no unit but a
        // real brace has a brace as its low byte).
        let low: Vec<u8> = text.encode_utf16().map(|u| (u & 0xFF) as u8).collect();
        let units_with_brace_low_byte = text
            .encode_utf16()
            .filter(|&u| u > 0x7F && matches!(u & 0xFF, 0x7B | 0x7D))
            .count();
        if units_with_brace_low_byte == 0 {
            assert_eq!(
                utf16_code_unit_slot(&key),
                Some(key_slot(&low)),
                "{display}"
            );
            utf8 += 1;
        }
    }
    assert!(utf8 >= 5, "{utf8}");
    // 用户:1001 (fixture: 12170) is hashed as the bytes 0x28 0x37 `:1001`.
    let key = "用户:1001".as_bytes();
    assert_eq!(
        common::redis_slot("\\xe7\\x94\\xa8\\xe6\\x88\\xb7:1001"),
        12170
    );
    assert_eq!(
        utf16_code_unit_slot(key),
        Some(mask(crc16(b"\x28\x37:1001")))
    );
    assert_ne!(utf16_code_unit_slot(key), Some(12170));
    // A tag made of non-ASCII text: the tag is found on units, hashed on their low bytes.
    assert_eq!(
        utf16_code_unit_slot("{用户}:资料".as_bytes()),
        Some(mask(crc16(b"\x28\x37")))
    );
    // U+017B (Ż) has 0x7B as its low byte but is not a brace.
    assert_eq!(
        utf16_code_unit_slot("Żab}".as_bytes()),
        Some(mask(crc16(b"{ab}")))
    );
    assert_ne!(
        utf16_code_unit_slot("Żab}".as_bytes()),
        Some(key_slot(b"{ab}"))
    );
    // A character outside the BMP is two surrogate units: 😀 = D83D DE00 → 0x3D 0x00.
    assert_eq!(
        utf16_code_unit_slot("😀".as_bytes()),
        Some(mask(crc16(b"\x3d\x00")))
    );
}

#[test]
fn the_empty_key_goes_to_any_node_while_redis_says_slot_0() {
    assert_eq!(common::redis_slot(""), 0);
    assert_eq!(ClientRule::EmptyKeyRandom.outcome(b""), Outcome::AnyNode);
    let d = divergences(b"");
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].rule, ClientRule::EmptyKeyRandom);
    assert_eq!(d[0].redis, 0);
    // Non-empty keys: the rule is Redis's.
    for (key, display, slot) in keyslot_rows().into_iter().filter(|r| !r.0.is_empty()) {
        assert_eq!(
            ClientRule::EmptyKeyRandom.outcome(&key),
            Outcome::Slot(slot),
            "{display}"
        );
    }
}

#[test]
fn redis_rule_is_redis_and_no_fixture_key_diverges_from_itself() {
    for (key, display, slot) in keyslot_rows() {
        assert_eq!(
            ClientRule::Redis.outcome(&key),
            Outcome::Slot(slot),
            "{display}"
        );
        for d in divergences(&key) {
            assert_eq!(d.redis, slot, "{display}");
            assert_ne!(d.outcome, Outcome::Slot(slot), "{display}");
        }
    }
    assert!(divergences(b"foo").is_empty());
    assert!(divergences(b"{user1}:profile").is_empty());
}

#[test]
fn a_misrouted_command_meets_the_moved_the_engine_sends() {
    let map = SlotMap::fixture_cluster();
    let d = divergences(b"foo{}{bar}")
        .into_iter()
        .find(|d| d.rule == ClientRule::ClusterKeySlot)
        .expect("cluster-key-slot differs on foo{}{bar}");
    let c = consequence(&d, &map);
    assert_eq!(
        c,
        Consequence::Moved {
            sent_to: "127.0.0.1:7000".into(),
            slot: 8363,
            owner: "127.0.0.1:7001".into(),
        }
    );
    let mut cluster = Cluster::new(map.clone());
    let get = vec![b"GET".to_vec(), b"foo{}{bar}".to_vec()];
    let reply = cluster.exec("127.0.0.1:7000", &get, &mut Session::new());
    assert_eq!(error_text(reply), "MOVED 8363 127.0.0.1:7001");
    // Same master by luck: 用户:1001's UTF-16 slot and Redis's slot are both 7002's.
    let key = "用户:1001".as_bytes();
    let d = divergences(key)
        .into_iter()
        .find(|d| d.rule == ClientRule::Utf16CodeUnits)
        .expect("UTF-16 differs on 用户:1001");
    // CRC16 of the low bytes 0x28 0x37 `:1001` is 11465 (worked out by hand, outside this
    // code); 7002 serves 10923-16383 in 10_before_add_node_cluster_nodes.txt, 12170 too.
    assert_eq!(d.outcome, Outcome::Slot(11465));
    assert_eq!(
        consequence(&d, &map),
        Consequence::SameNode {
            addr: "127.0.0.1:7002".into(),
        }
    );
    // The empty key: any node but slot 0's owner answers MOVED 0.
    let d = divergences(b"")[0];
    assert_eq!(
        consequence(&d, &map),
        Consequence::AnyNode {
            slot: 0,
            owner: "127.0.0.1:7000".into()
        }
    );
    // Uncovered: CLUSTERDOWN whatever the client does.
    let mut holes = map.clone();
    holes.assign(8363, None);
    let d = divergences(b"foo{}{bar}")[0];
    assert_eq!(
        consequence(&d, &holes),
        Consequence::Unserved { slot: 8363 }
    );
}

fn key_strategy() -> impl Strategy<Value = Vec<u8>> {
    let byte = prop_oneof![
        3 => Just(b'{'),
        3 => Just(b'}'),
        4 => b'a'..=b'z',
        1 => any::<u8>(),
        1 => Just(0xC5u8),
    ];
    prop::collection::vec(byte, 0..24)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// `divergences` lists exactly the rules whose outcome is not Redis's slot (and that
    /// apply), never one that agrees.
    #[test]
    fn divergences_list_exactly_the_disagreeing_rules(key in key_strategy()) {
        let redis = key_slot(&key);
        let listed = divergences(&key);
        for d in &listed {
            prop_assert_eq!(d.redis, redis);
            prop_assert_ne!(d.outcome, Outcome::Slot(redis));
            prop_assert_ne!(d.outcome, Outcome::NotApplicable);
            prop_assert_eq!(d.outcome, d.rule.outcome(&key));
        }
        for rule in ClientRule::DIVERGENT {
            let differs = match rule.outcome(&key) {
                Outcome::Slot(s) => s != redis,
                Outcome::AnyNode => true,
                Outcome::NotApplicable => false,
            };
            prop_assert_eq!(differs, listed.iter().any(|d| d.rule == rule));
        }
        // cluster-key-slot disagrees only after an empty tag.
        if empty_tag_then_close(&key).is_none() {
            prop_assert_eq!(cluster_key_slot(&key), redis);
        }
    }
}
