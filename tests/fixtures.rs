//! The slot core against the ground truth recorded from real Redis 7.0.15 (../shared/fixtures).
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::read_tsv;
use slotscope::core::cluster::topology::{create_allocation, SlotMap, SlotRange};
use slotscope::core::key::escape::{format_key, from_hex, parse_key};
use slotscope::core::key::slot::{key_slots_into, line_slots_into};
use slotscope::core::{crc16, explain, key_slot};

#[test]
fn check_value_of_123456789_is_0x31c3() {
    assert_eq!(crc16(b"123456789"), 0x31C3);
}

#[test]
fn every_keyslot_row_agrees_with_redis() {
    let rows = read_tsv("keyslot.tsv", &["key_hex", "key_display", "slot"]);
    assert_eq!(rows.len(), 2125, "the fixture says it holds 2125 keys");
    let mut failures = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let line = i + 2;
        let key = from_hex(&row[0]).unwrap_or_else(|e| panic!("line {line}: {e:?}"));
        let want: u16 = row[2].parse().unwrap();
        if key_slot(&key) != want {
            failures.push(format!("line {line} slot: {} != {want}", key_slot(&key)));
        }
        if explain(&key).slot != want {
            failures.push(format!("line {line}: explain disagrees"));
        }
        let shown = format_key(&key);
        if shown != row[1] {
            failures.push(format!("line {line} display: {shown:?} != {:?}", row[1]));
        }
        match parse_key(&row[1]) {
            Ok(back) if back == key => {}
            other => failures.push(format!("line {line} parse(display): {other:?}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn the_64k_keys_agree_with_redis() {
    let rows = read_tsv("keyslot_64k.tsv", &["key_hex", "key_len", "slot", "note"]);
    assert_eq!(rows.len(), 2);
    for row in rows {
        let key = from_hex(&row[0]).unwrap();
        assert_eq!(key.len(), row[1].parse::<usize>().unwrap(), "{}", row[3]);
        assert_eq!(key_slot(&key), row[2].parse::<u16>().unwrap(), "{}", row[3]);
        // The display form of a 64 KB binary key must read back to the same bytes.
        assert_eq!(parse_key(&format_key(&key)).unwrap(), key, "{}", row[3]);
    }
}

/// The slots `CLUSTER KEYSLOT` printed in the interactive session of 01_keyslot_edge_cases.txt,
/// with each key read the way redis-cli read it (our parser takes the same quoted syntax).
#[test]
fn the_interactive_keyslot_transcript_replays() {
    let path = common::fixtures_dir().join("transcripts/01_keyslot_edge_cases.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines();
    let mut checked = 0;
    while let Some(line) = lines.next() {
        let Some(arg) = line.strip_prefix("127.0.0.1:7000> CLUSTER KEYSLOT ") else {
            continue;
        };
        let reply = lines.next().expect("a reply follows each command");
        let want: u16 = reply
            .strip_prefix("(integer) ")
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("unexpected reply {reply:?}"));
        let key = parse_key(arg).unwrap_or_else(|e| panic!("{arg}: {e:?}"));
        assert_eq!(key_slot(&key), want, "CLUSTER KEYSLOT {arg}");
        checked += 1;
    }
    assert_eq!(checked, 36);
}

#[test]
fn create_allocation_matches_redis_cli_for_every_recorded_n() {
    let rows = read_tsv(
        "create_allocation.tsv",
        &["n_masters", "master_index", "first", "last"],
    );
    let mut by_n: std::collections::BTreeMap<usize, Vec<(usize, SlotRange)>> = Default::default();
    for row in &rows {
        let n: usize = row[0].parse().unwrap();
        let range = SlotRange::new(row[2].parse().unwrap(), row[3].parse().unwrap());
        by_n.entry(n)
            .or_default()
            .push((row[1].parse().unwrap(), range));
    }
    assert!(by_n.contains_key(&1000) && by_n.contains_key(&78));
    for (n, mut want) in by_n {
        want.sort();
        let want: Vec<SlotRange> = want
            .into_iter()
            .enumerate()
            .map(|(i, (idx, r))| {
                assert_eq!(i, idx, "n={n}: master indices are 0..n");
                r
            })
            .collect();
        assert_eq!(create_allocation(n), want, "n = {n}");
        // And the map built from it covers every slot exactly once.
        let map = SlotMap::created(n, "127.0.0.1", 7100).unwrap();
        assert_eq!(map.n_unowned(), 0, "n = {n}");
        assert_eq!(map.slot_counts().iter().sum::<usize>(), 16384);
    }
}

#[test]
fn the_default_cluster_is_the_fixture_cluster() {
    let path = common::fixtures_dir().join("transcripts/10_before_add_node_cluster_nodes.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let map = SlotMap::default();
    let mut masters_seen = 0;
    for line in text.lines().filter(|l| !l.starts_with(['#', '$'])) {
        let f: Vec<&str> = line.split(' ').collect();
        let addr = f[1].split('@').next().unwrap();
        if f[2].contains("master") {
            masters_seen += 1;
            let idx = map
                .masters()
                .iter()
                .position(|m| m.addr == addr && m.id == f[0])
                .unwrap_or_else(|| panic!("{addr} {} is not a default master", f[0]));
            let ranges: Vec<String> = map.ranges_of(idx).iter().map(|r| r.to_string()).collect();
            assert_eq!(ranges, f[8..].to_vec(), "{addr}");
        } else {
            let master = map.masters().iter().find(|m| m.id == f[3]).unwrap();
            assert_eq!(master.replicas.len(), 1);
            assert_eq!(
                (
                    master.replicas[0].addr.as_str(),
                    master.replicas[0].id.as_str()
                ),
                (addr, f[0])
            );
        }
    }
    assert_eq!(masters_seen, 3);
}

/// The three hot-spot experiments, counted per master, against the DBSIZEs Redis reported.
#[test]
fn distribution_counts_match_dbsize() {
    let rows = read_tsv(
        "distribution.tsv",
        &["experiment", "row", "name", "slot", "node", "count"],
    );
    let map = SlotMap::default();
    type KeyOf = fn(u32) -> String;
    let experiments: [(&str, KeyOf); 3] = [
        ("tag_user1_100k", |i| format!("{{user1}}:item:{i}")),
        ("tags64_user1_100k", |i| {
            format!("{{user1:{}}}:item:{i}", i % 64)
        }),
        ("no_tag_key_i_100k", |i| format!("key:{i}")),
    ];
    for (name, key_of) in experiments {
        let mut per_master = vec![0usize; map.n_masters()];
        for i in 0..100_000 {
            let slot = key_slot(key_of(i).as_bytes());
            per_master[map.owner(slot).unwrap()] += 1;
        }
        let mut checked = 0;
        for row in rows.iter().filter(|r| r[0] == name && r[1] == "master") {
            let idx = map.masters().iter().position(|m| m.addr == row[4]).unwrap();
            assert_eq!(
                per_master[idx],
                row[5].parse::<usize>().unwrap(),
                "{name} {}",
                row[4]
            );
            checked += 1;
        }
        assert_eq!(checked, 3, "{name}");
    }
}

/// Every key of keyslot.tsv and keyslot_64k.tsv, as bytes, with the slot Redis gave it.
fn every_keyslot_key() -> Vec<(Vec<u8>, u16)> {
    let short = read_tsv("keyslot.tsv", &["key_hex", "key_display", "slot"]);
    let long = read_tsv("keyslot_64k.tsv", &["key_hex", "key_len", "slot", "note"]);
    short
        .iter()
        .chain(&long)
        .map(|row| {
            // `slot` is the third column of both files.
            (from_hex(&row[0]).unwrap(), row[2].parse::<u16>().unwrap())
        })
        .collect()
}

/// The batch path (`key_slots_into`, what the page's wasm batch calls) over every key of
/// keyslot.tsv and keyslot_64k.tsv packed into one buffer gives Redis's slot for each.
#[test]
fn batch_key_slots_agree_with_redis() {
    let keys = every_keyslot_key();
    assert_eq!(keys.len(), 2127);
    let mut buf = Vec::new();
    let mut offsets = vec![0u32];
    let mut want = Vec::new();
    for (key, slot) in &keys {
        buf.extend_from_slice(key);
        offsets.push(u32::try_from(buf.len()).unwrap());
        want.push(*slot);
    }
    let mut out = vec![u16::MAX; keys.len()];
    assert_eq!(key_slots_into(&buf, &offsets, &mut out), keys.len());
    for (i, (got, want)) in out.iter().zip(&want).enumerate() {
        assert_eq!(got, want, "row {i} of the keyslot fixtures");
    }
}

/// The text batch path (`line_slots_into`, what the page's `SlotBatch.run_lines` calls) over
/// every keyslot fixture key that holds no line break, one per line, with `\n` and `\r\n`
/// endings alternating, gives Redis's slot for each.
#[test]
fn line_slots_agree_with_redis() {
    let mut text = Vec::new();
    let mut want = Vec::new();
    for (key, slot) in every_keyslot_key() {
        if key.contains(&b'\n') || key.ends_with(b"\r") {
            continue;
        }
        text.extend_from_slice(&key);
        text.extend_from_slice(if want.len() % 2 == 0 { b"\n" } else { b"\r\n" });
        want.push(slot);
    }
    // Most of the fixture's keys are lines; the few with a line break are the batch's job.
    assert!(want.len() > 2000, "{} keys", want.len());
    let mut out = vec![u16::MAX; want.len()];
    assert_eq!(line_slots_into(&text, &mut out), (want.len(), text.len()));
    for (i, (got, want)) in out.iter().zip(&want).enumerate() {
        assert_eq!(got, want, "line {i} of the keyslot fixtures");
    }
}
