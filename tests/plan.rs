//! The fan-out planner and tag generator (`core::workload`): the fixtures' key distribution, tag properties, plan invariants and errors.
//! (One file per domain folder's fixtures; long because each case is spelled out.)
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::read_tsv;
use proptest::prelude::*;
use slotscope::core::cluster::topology::{Master, SlotMap, SlotRange};
use slotscope::core::key_slot;
use slotscope::core::workload::tags::{
    generate_tags, retag, shortest_tag_for_slot, shortest_tags, TagError, TagSet, MAX_PER_MASTER,
    SHORTEST_ALPHABET,
};
use slotscope::core::workload::KeySample;
use slotscope::core::workload::{
    chunk_masters, h3_pair_keys, hot_spot, hot_spot_keys, numbered_keys, plan, ChunkStats,
    PlanError, SplitMix64, Strategy as Fanout, Tagging, Template, TemplateError, Verdict, MAX_KEYS,
    MAX_SUB_TAGS,
};
use std::collections::{BTreeMap, BTreeSet};

const DIST_COLUMNS: &[&str] = &["experiment", "row", "name", "slot", "node", "count"];

fn tagging_of(experiment: &str) -> Tagging {
    match experiment {
        "tag_user1_100k" => Tagging::SubTags(1),
        "tags64_user1_100k" => Tagging::SubTags(64),
        "no_tag_key_i_100k" => Tagging::NoTag,
        other => panic!("unknown experiment {other} in distribution.tsv"),
    }
}

fn master_index(map: &SlotMap, addr: &str) -> usize {
    map.masters()
        .iter()
        .position(|m| m.addr == addr)
        .unwrap_or_else(|| panic!("no master {addr}"))
}

// ---------------------------------------------------------------------------------------------
// The fixtures' distribution
// ---------------------------------------------------------------------------------------------

#[test]
fn hot_spot_reproduces_distribution_tsv() {
    let map = SlotMap::fixture_cluster();
    let rows = read_tsv("distribution.tsv", DIST_COLUMNS);
    let mut by_experiment: BTreeMap<&str, Vec<&Vec<String>>> = BTreeMap::new();
    for row in &rows {
        by_experiment.entry(row[0].as_str()).or_default().push(row);
    }
    assert_eq!(by_experiment.len(), 3, "three experiments in the file");
    for (experiment, rows) in by_experiment {
        let spot = hot_spot(tagging_of(experiment), 100_000, &map).unwrap();
        assert_eq!(spot.unserved_keys, 0);
        let mut masters_seen = 0;
        for row in rows {
            let count: u64 = row[5].parse().unwrap();
            match row[1].as_str() {
                "master" => {
                    masters_seen += 1;
                    let m = master_index(&map, &row[2]);
                    assert_eq!(row[2], row[4]);
                    let ranges: Vec<String> =
                        map.ranges_of(m).iter().map(|r| r.to_string()).collect();
                    assert_eq!(ranges.join(","), row[3], "{experiment} {} ranges", row[2]);
                    assert_eq!(
                        spot.keys_per_master[m], count,
                        "{experiment}: DBSIZE of {}",
                        row[2]
                    );
                }
                "tag" => {
                    let slot: u16 = row[3].parse().unwrap();
                    let tag = spot
                        .tags
                        .iter()
                        .find(|t| t.tag == row[2])
                        .unwrap_or_else(|| panic!("{experiment}: no tag {}", row[2]));
                    assert_eq!(tag.slot, slot, "{experiment}: slot of {}", row[2]);
                    assert_eq!(key_slot(row[2].as_bytes()), slot);
                    assert_eq!(tag.master, Some(master_index(&map, &row[4])));
                    // COUNTKEYSINSLOT counts every key in the slot, whichever tag it carries.
                    let in_slot: u64 = spot
                        .tags
                        .iter()
                        .filter(|t| t.slot == slot)
                        .map(|t| t.keys)
                        .sum();
                    assert_eq!(in_slot, count, "{experiment}: COUNTKEYSINSLOT {slot}");
                }
                other => panic!("unknown row kind {other}"),
            }
        }
        assert_eq!(masters_seen, 3, "{experiment}: one row per master");
        let busiest = *spot.keys_per_master.iter().max().unwrap();
        assert_eq!(spot.busiest_share, busiest as f64 / 100_000.0);
        assert_eq!(spot.keys_per_master[spot.busiest.unwrap()], busiest);
        let tags_total: u64 = spot.tags_per_master.iter().sum();
        assert_eq!(tags_total, u64::from(tagging_of(experiment).n_tags()));
    }
}

#[test]
fn hot_spot_agrees_with_its_keys_for_every_k() {
    let map = SlotMap::fixture_cluster();
    let n = 5_000;
    for k in (1..=MAX_SUB_TAGS)
        .step_by(37)
        .chain([2, 64, 1023, MAX_SUB_TAGS])
    {
        let spot = hot_spot(Tagging::SubTags(k), n, &map).unwrap();
        assert_eq!(spot.tags.len(), k as usize);
        // The same numbers from the keys themselves, through the planner.
        let keys = hot_spot_keys(Tagging::SubTags(k), n).unwrap();
        let p = plan(&keys, &map);
        assert_eq!(spot.keys_per_master, p.per_key.commands_per_master, "k={k}");
        // From the tags: key i carries tag i mod k.
        let mut from_tags = vec![0u64; 3];
        for t in &spot.tags {
            from_tags[t.master.unwrap()] += t.keys;
            assert_eq!(key_slot(t.tag.as_bytes()), t.slot);
        }
        assert_eq!(from_tags, spot.keys_per_master, "k={k}");
        assert_eq!(spot.keys_per_master.iter().sum::<u64>(), u64::from(n));
        let distinct_tag_slots: BTreeSet<u16> = spot.tags.iter().map(|t| t.slot).collect();
        assert_eq!(p.per_slot.commands, distinct_tag_slots.len() as u64);
    }
    let untagged = hot_spot(Tagging::NoTag, n, &map).unwrap();
    assert!(untagged.tags.is_empty());
    assert_eq!(untagged.tags_per_master, vec![0, 0, 0]);
}

#[test]
fn hot_spot_counts_unserved_keys() {
    let mut map = SlotMap::fixture_cluster();
    for slot in 5461..=10922 {
        map.assign(slot, None);
    }
    let spot = hot_spot(Tagging::SubTags(1), 1000, &map).unwrap();
    assert_eq!(spot.keys_per_master, vec![0, 0, 0]);
    assert_eq!(spot.unserved_keys, 1000);
    assert_eq!((spot.busiest, spot.busiest_share), (None, 0.0));
    assert_eq!(spot.tags[0].master, None);
}

// How fast `hot_spot` is: `cargo bench --bench timings` (hot_spot_k64_100k_keys).

// ---------------------------------------------------------------------------------------------
// Tags
// ---------------------------------------------------------------------------------------------

/// Every property a tag set must have: each tag hashes to its slot and master, each master has
/// exactly `per_master`, and no integer below `tries` was skipped that would have been kept.
fn check_tag_set(set: &TagSet, map: &SlotMap, per_master: usize) {
    let template = Template::parse(&set.template).unwrap();
    let mut per = vec![0usize; map.n_masters()];
    for t in &set.tags {
        assert_eq!(t.tag, format!("{{{}}}", template.fill(t.value)));
        assert_eq!(key_slot(t.tag.as_bytes()), t.slot, "{}", t.tag);
        assert_eq!(map.owner(t.slot), Some(t.master), "{}", t.tag);
        per[t.master] += 1;
    }
    assert!(per.iter().all(|&c| c == per_master), "{per:?}");
    assert!(set.tags.windows(2).all(|w| w[0].value < w[1].value));
    if per_master > 0 {
        assert_eq!(set.tags.last().unwrap().value + 1, set.tries);
    }
    // Smallest first: every integer below `tries` that was not kept landed on an unowned slot
    // or on a master that already had all its tags from smaller integers.
    let kept: BTreeSet<u64> = set.tags.iter().map(|t| t.value).collect();
    let mut have = vec![0usize; map.n_masters()];
    for v in 0..set.tries {
        let tag = format!("{{{}}}", template.fill(v));
        let owner = map.owner(key_slot(tag.as_bytes()));
        if kept.contains(&v) {
            let m = owner.unwrap();
            assert!(have[m] < per_master);
            have[m] += 1;
        } else if let Some(m) = owner {
            assert_eq!(
                have[m], per_master,
                "{tag} was skipped while master {m} needed tags"
            );
        }
    }
}

#[test]
fn tags_on_the_fixture_cluster() {
    let map = SlotMap::fixture_cluster();
    for per_master in [1, 2, 16, 100] {
        let set = generate_tags("routing:v1:%d", per_master, &map, 1_000_000).unwrap();
        check_tag_set(&set, &map, per_master);
        assert_eq!(set.template, "routing:v1:%d");
        // The braces may be written around the template; they change nothing.
        let braced = generate_tags("{routing:v1:%d}", per_master, &map, 1_000_000).unwrap();
        assert_eq!(braced, set);
    }
    let none = generate_tags("x%d", 0, &map, 0).unwrap();
    assert!(none.tags.is_empty());
    assert_eq!(none.tries, 0);
    // user1:%d with one tag per master: the fixtures give {user1:0} on 7000, {user1:1} on
    // 7001 and {user1:2} on 7002.
    let user = generate_tags("user1:%d", 1, &map, 100).unwrap();
    let names: Vec<&str> = user.tags.iter().map(|t| t.tag.as_str()).collect();
    assert_eq!(names, ["{user1:0}", "{user1:1}", "{user1:2}"]);
    assert_eq!(user.tries, 3);
    let first = user.first_per_master(3);
    assert_eq!(first[1].unwrap().slot, 7573);
    assert_eq!(user.for_master(2).count(), 1);
}

#[test]
fn tags_on_created_clusters_and_holes() {
    for n in [3, 7, 11, 100] {
        let map = SlotMap::created(n, "127.0.0.1", 7000).unwrap();
        let set = generate_tags("t:%d:x", 4, &map, 10_000_000).unwrap();
        check_tag_set(&set, &map, 4);
    }
    // Unowned slots are skipped, never kept.
    let mut map = SlotMap::fixture_cluster();
    for slot in (0..16384).step_by(3) {
        map.assign(slot, None);
    }
    let set = generate_tags("h:%d", 8, &map, 1_000_000).unwrap();
    check_tag_set(&set, &map, 8);
}

#[test]
fn thousand_masters_times_sixteen_tags() {
    // How fast: `cargo bench --bench core` (generate_tags/1000_masters_x_16).
    let map = SlotMap::created(1000, "10.0.0.1", 7000).unwrap();
    let set = generate_tags("routing:v1:%d", 16, &map, 100_000_000).unwrap();
    assert_eq!(set.tags.len(), 16_000);
    check_tag_set(&set, &map, 16);
}

#[test]
fn tag_errors() {
    let map = SlotMap::fixture_cluster();
    assert!(matches!(
        generate_tags("routing", 1, &map, 10),
        Err(TagError::Template(TemplateError::NoPlaceholder { .. }))
    ));
    assert!(matches!(
        generate_tags("a%db%d", 1, &map, 10),
        Err(TagError::Template(TemplateError::ManyPlaceholders {
            count: 2,
            ..
        }))
    ));
    let e = generate_tags("a}%d", 1, &map, 10).unwrap_err();
    assert!(matches!(e, TagError::CloseBrace { .. }));
    assert!(matches!(
        generate_tags("{a}:%d}", 1, &map, 10),
        Err(TagError::CloseBrace { .. })
    ));
    assert!(matches!(
        generate_tags("a%d", MAX_PER_MASTER + 1, &map, 10),
        Err(TagError::TooManyPerMaster { .. })
    ));
    let nobody = SlotMap::from_ranges(vec![], &[]).unwrap();
    assert_eq!(
        generate_tags("a%d", 1, &nobody, 10),
        Err(TagError::NoMasters)
    );

    // A master with no slots is named, before anything is tried (u64::MAX tries would never
    // finish otherwise).
    let mut grown = map.clone();
    grown
        .add_master(Master::new("127.0.0.1:7006", "n".repeat(40)))
        .unwrap();
    let e = generate_tags("routing:v1:%d", 1, &grown, u64::MAX).unwrap_err();
    assert_eq!(
        e,
        TagError::MastersWithoutSlots {
            masters: vec!["127.0.0.1:7006".into()]
        }
    );
    // ...but a master without slots needs no tags when none are asked for.
    assert!(generate_tags("routing:v1:%d", 0, &grown, 0).is_ok());

    // Running out of tries says how far it got.
    let e = generate_tags("routing:v1:%d", 16, &map, 10).unwrap_err();
    let TagError::Exhausted {
        tries,
        found,
        wanted,
        ref master,
        master_found,
        per_master,
    } = e
    else {
        panic!("{e:?}")
    };
    assert_eq!((tries, wanted, per_master), (10, 48, 16));
    assert_eq!(found, 10);
    assert!(master_found < 16);
    assert!(master.starts_with("127.0.0.1:700"));
}

// ---------------------------------------------------------------------------------------------
// Shortest tags
// ---------------------------------------------------------------------------------------------

#[test]
fn shortest_tags_follow_the_redis_table() {
    // Redis's test suite (`slot_prefixes`, from `src/crc16_slottable.h`).
    let redis: &[(u16, &str)] = &[
        (0, "{06S}"),
        (1, "{Qi}"),
        (2, "{5L5}"),
        (3, "{4Iu}"),
        (4, "{4gY}"),
        (5, "{460}"),
        (6, "{1Y7}"),
        (7, "{1LV}"),
        (101, "{1j2}"),
        (102, "{75V}"),
        (103, "{bno}"),
        (5462, "{450}"),
        (5463, "{4dY}"),
        (6000, "{4L7}"),
        (6001, "{4YV}"),
        (6002, "{0bx}"),
        (6003, "{AJ}"),
        (6004, "{of}"),
        (16379, "{YY}"),
        (16380, "{wu}"),
        (16381, "{0TG}"),
        (16382, "{4oi}"),
        (16383, "{6ZJ}"),
    ];
    for &(slot, tag) in redis {
        assert_eq!(shortest_tag_for_slot(slot), tag, "slot {slot}");
    }
    assert_eq!(shortest_tag_for_slot(16384), "");
    assert_eq!(shortest_tag_for_slot(u16::MAX), "");
}

#[test]
fn every_slot_has_a_shortest_tag() {
    let table = shortest_tags();
    let alphabet = |b: u8| SHORTEST_ALPHABET.contains(&b);
    // Slots reachable with one and with two characters.
    let mut one = BTreeSet::new();
    let mut two = BTreeSet::new();
    for &a in SHORTEST_ALPHABET {
        one.insert(key_slot(&[a]));
        for &b in SHORTEST_ALPHABET {
            two.insert(key_slot(&[a, b]));
        }
    }
    for slot in 0..16384u16 {
        let content = table.content(slot).unwrap();
        let tag = shortest_tag_for_slot(slot);
        assert_eq!(tag, format!("{{{content}}}"));
        assert_eq!(key_slot(tag.as_bytes()), slot, "{tag}");
        assert!(content.bytes().all(alphabet));
        match content.len() {
            1 => {}
            2 => assert!(!one.contains(&slot)),
            3 => assert!(!one.contains(&slot) && !two.contains(&slot), "{slot}"),
            n => panic!("slot {slot}: {n} characters"),
        }
    }
    assert!(table.content(16384).is_none());
}

// ---------------------------------------------------------------------------------------------
// Key generators
// ---------------------------------------------------------------------------------------------

#[test]
fn numbered_keys_fill_the_template() {
    let keys = numbered_keys("user:%d:x", 98..102).unwrap();
    let got: Vec<&[u8]> = keys.iter().collect();
    assert_eq!(
        got,
        [
            &b"user:98:x"[..],
            b"user:99:x",
            b"user:100:x",
            b"user:101:x"
        ]
    );
    assert!(numbered_keys("user:%d", 5..5).unwrap().is_empty());
    assert!(
        numbered_keys("user:%d", std::ops::Range { start: 9, end: 5 })
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        numbered_keys("50%:%d", 0..1).unwrap().get(0),
        Some(&b"50%:0"[..])
    );
    let big = numbered_keys("k%d", u64::MAX - 3..u64::MAX).unwrap();
    assert_eq!(big.get(2), Some(format!("k{}", u64::MAX - 1).as_bytes()));
    assert_eq!(
        numbered_keys("user", 0..1),
        Err(PlanError::Template(TemplateError::NoPlaceholder {
            template: "user".into()
        }))
    );
    assert!(matches!(
        numbered_keys("%d%d", 0..1),
        Err(PlanError::Template(TemplateError::ManyPlaceholders {
            count: 2,
            ..
        }))
    ));
    let all = numbered_keys("user:%d", 0..MAX_KEYS as u64).unwrap();
    assert_eq!(all.len(), MAX_KEYS);
    assert_eq!(
        numbered_keys("user:%d", 0..MAX_KEYS as u64 + 1),
        Err(PlanError::TooManyKeys {
            asked: MAX_KEYS as u64 + 1
        })
    );
    assert!(numbered_keys("user:%d", 0..u64::MAX).is_err());
}

fn is_h3_like(id: &[u8]) -> bool {
    id.len() == 15
        && id.iter().all(|b| b"0123456789abcdef".contains(b))
        && id.starts_with(b"89")
        && id.ends_with(b"ffff")
}

#[test]
fn h3_pairs_look_like_the_route_cache() {
    let keys = h3_pair_keys("route:", 10_000, 2024).unwrap();
    assert_eq!(keys.len(), 10_000);
    assert_eq!(keys, h3_pair_keys("route:", 10_000, 2024).unwrap());
    assert_ne!(keys, h3_pair_keys("route:", 10_000, 2025).unwrap());
    // A shorter run from the same seed is a prefix of the longer one.
    let few = h3_pair_keys("route:", 10, 2024).unwrap();
    assert!(few.iter().zip(keys.iter()).all(|(a, b)| a == b));
    let mut distinct = BTreeSet::new();
    for key in &keys {
        let rest = key.strip_prefix(b"route:").unwrap();
        let (a, b) = rest.split_at(15);
        assert!(is_h3_like(a), "{}", String::from_utf8_lossy(key));
        assert_eq!(b[0], b':');
        assert!(is_h3_like(&b[1..]));
        // Origin and destination share the base cell and first six digits.
        let a = u64::from_str_radix(std::str::from_utf8(a).unwrap(), 16).unwrap();
        let b = u64::from_str_radix(std::str::from_utf8(&b[1..]).unwrap(), 16).unwrap();
        assert_eq!(a >> 27, b >> 27);
        distinct.insert(key.to_vec());
    }
    assert_eq!(distinct.len(), 10_000);
    assert!(matches!(
        h3_pair_keys("route:", MAX_KEYS as u32 + 1, 1),
        Err(PlanError::TooManyKeys { .. })
    ));
}

#[test]
fn million_keys_fit_in_two_buffers() {
    let keys = h3_pair_keys("route:", MAX_KEYS as u32, 7).unwrap();
    assert_eq!(keys.len(), MAX_KEYS);
    let p = plan(&keys, &SlotMap::fixture_cluster());
    assert_eq!(p.n_keys, MAX_KEYS as u64);
    assert!(!p.truncated);
    assert_eq!(p.per_slot.round_trips, 3);
    assert_eq!(p.per_slot.commands, 16384);
}

#[test]
fn splitmix64_reference_values() {
    // Vigna's splitmix64.c, seed 1234567.
    let mut rng = SplitMix64::new(1234567);
    let got: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
    assert_eq!(
        got,
        [
            6457827717110365317,
            3203168211198807973,
            9817491932198370423
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// Plans
// ---------------------------------------------------------------------------------------------

/// Checks every invariant of a plan against a brute-force grouping of the same keys.
fn check_plan(keys: &[Vec<u8>], map: &SlotMap) -> Result<(), TestCaseError> {
    let p = plan(keys.iter().map(Vec::as_slice), map);
    prop_assert_eq!(p.n_keys, keys.len() as u64);
    prop_assert!(!p.truncated);

    // Brute force: slot → keys, master → slots.
    let mut by_slot: BTreeMap<u16, Vec<u32>> = BTreeMap::new();
    for (i, k) in keys.iter().enumerate() {
        by_slot.entry(key_slot(k)).or_default().push(i as u32);
    }
    let mut by_master: BTreeMap<usize, (u64, BTreeSet<u16>)> = BTreeMap::new();
    let mut unserved = 0u64;
    for (&slot, ks) in &by_slot {
        match map.owner(slot) {
            Some(m) => {
                let e = by_master.entry(m).or_default();
                e.0 += ks.len() as u64;
                e.1.insert(slot);
            }
            None => unserved += ks.len() as u64,
        }
    }

    // Every key in exactly one slot group, and in the right one.
    let mut seen = vec![0u32; keys.len()];
    prop_assert_eq!(p.slots.len(), by_slot.len());
    for g in &p.slots {
        prop_assert_eq!(g.master, map.owner(g.slot));
        let ks = p.keys_in(g);
        prop_assert_eq!(ks, by_slot[&g.slot].as_slice());
        for &i in ks {
            seen[i as usize] += 1;
            prop_assert_eq!(p.slot_of[i as usize], g.slot);
        }
    }
    prop_assert!(seen.iter().all(|&c| c == 1));
    prop_assert_eq!(p.keys_by_slot().len(), keys.len());

    // Every slot group in exactly one master group (or the unserved one).
    let mut group_seen = vec![0u32; p.slots.len()];
    let mut total = 0u64;
    for g in p.masters.iter().chain([&p.unserved]) {
        let n: u64 = p.keys_of(g).count() as u64;
        prop_assert_eq!(n, g.n_keys);
        total += n;
        for &s in &g.slot_groups {
            group_seen[s as usize] += 1;
            prop_assert_eq!(p.slots[s as usize].master, g.master);
        }
    }
    prop_assert_eq!(total, keys.len() as u64);
    prop_assert!(group_seen.iter().all(|&c| c == 1));
    prop_assert_eq!(p.unserved.master, None);
    prop_assert_eq!(p.unserved.n_keys, unserved);
    let touched: Vec<usize> = p.masters.iter().map(|g| g.master.unwrap()).collect();
    prop_assert_eq!(&touched, &by_master.keys().copied().collect::<Vec<_>>());

    // The cost model.
    let served = keys.len() as u64 - unserved;
    let m = by_master.len() as u64;
    let s: u64 = by_master
        .values()
        .map(|(_, slots)| slots.len() as u64)
        .sum();
    let max_slot = by_slot
        .iter()
        .filter(|(slot, _)| map.owner(**slot).is_some())
        .map(|(_, ks)| ks.len() as u64)
        .max()
        .unwrap_or(0);
    let max_master = by_master.values().map(|(k, _)| *k).max().unwrap_or(0);
    let max_slots_master = by_master
        .values()
        .map(|(_, s)| s.len() as u64)
        .max()
        .unwrap_or(0);
    let one = u64::from(served > 0);
    // Asked in parallel, a client waits for the busiest master's exchanges in a row: one key
    // at a time per key, one pipeline or one command per master otherwise.
    let expect = [
        (Fanout::PerKey, served, max_master, served, one, one),
        (Fanout::PerSlot, m, one, s, max_slots_master, max_slot),
        (Fanout::PerMaster, m, one, served, max_master, one),
        (Fanout::Tagged, m, one, m, one, max_master),
    ];
    for (strategy, round_trips, parallel, commands, depth, largest) in expect {
        let c = p.cost(strategy);
        prop_assert_eq!(c.strategy, strategy);
        prop_assert_eq!(c.round_trips, round_trips, "{} round trips", strategy);
        prop_assert_eq!(c.parallel_round_trips, parallel, "{} in parallel", strategy);
        prop_assert_eq!(c.commands, commands, "{} commands", strategy);
        prop_assert_eq!(c.commands_per_master.len(), map.n_masters());
        prop_assert_eq!(c.commands_per_master.iter().sum::<u64>(), commands);
        prop_assert_eq!(c.pipeline_depth, depth, "{} depth", strategy);
        prop_assert_eq!(c.largest_command, largest, "{} largest", strategy);
    }
    prop_assert_eq!(p.per_slot.atomic_groups, s);
    prop_assert_eq!(p.tagged.atomic_groups, m);
    prop_assert_eq!(p.per_key.atomic_groups, served);
    prop_assert_eq!(p.per_master.largest_atomic_group, one);
    prop_assert_eq!(p.tagged.largest_atomic_group, max_master);
    prop_assert_eq!(p.n_served(), served);

    let verdict = match by_slot.len() {
        0 => Verdict::NoKeys,
        1 => {
            let slot = *by_slot.keys().next().unwrap();
            Verdict::OneSlot {
                slot,
                master: map.owner(slot),
            }
        }
        n => Verdict::CrossSlot {
            slots: n as u64,
            masters: m,
        },
    };
    prop_assert_eq!(p.verdict(), verdict);
    Ok(())
}

/// Brute-force chunk statistics.
fn check_chunks(keys: &[Vec<u8>], map: &SlotMap, chunk: usize, sorted: bool) -> ChunkStats {
    let stats = chunk_masters(keys.iter().map(Vec::as_slice), map, chunk, sorted);
    let mut slots: Vec<u16> = keys.iter().map(|k| key_slot(k)).collect();
    if sorted {
        slots.sort();
    }
    let size = chunk.max(1);
    let (mut sum_m, mut sum_s, mut max_m, mut max_s, mut n) = (0u64, 0u64, 0u64, 0u64, 0u64);
    for part in slots.chunks(size) {
        let s: BTreeSet<u16> = part.iter().copied().collect();
        let m: BTreeSet<usize> = part.iter().filter_map(|&x| map.owner(x)).collect();
        sum_m += m.len() as u64;
        sum_s += s.len() as u64;
        max_m = max_m.max(m.len() as u64);
        max_s = max_s.max(s.len() as u64);
        n += 1;
    }
    assert_eq!(stats.n_chunks, n);
    assert_eq!((stats.max_masters, stats.max_slots), (max_m, max_s));
    if n > 0 {
        assert!((stats.mean_masters - sum_m as f64 / n as f64).abs() < 1e-9);
        assert!((stats.mean_slots - sum_s as f64 / n as f64).abs() < 1e-9);
    }
    assert_eq!((stats.chunk, stats.sorted), (size, sorted));
    stats
}

#[test]
fn the_route_cache_case_study() {
    let map = SlotMap::fixture_cluster();
    let keys = h3_pair_keys("route:", 500, 1).unwrap();
    let p = plan(&keys, &map);
    assert!(matches!(p.verdict(), Verdict::CrossSlot { masters: 3, .. }));
    // Hundreds of keys: almost one MGET per key when split by slot, but only 3 round trips.
    assert!(p.per_slot.commands > 450, "{}", p.per_slot.commands);
    assert_eq!(p.per_slot.round_trips, 3);
    assert_eq!(p.per_key.round_trips, 500);
    assert_eq!((p.tagged.commands, p.tagged.round_trips), (3, 3));

    // Rewritten with one tag per master, the per-slot client sends one MGET per master.
    let tags = generate_tags("routing:v1:%d", 1, &map, 1000).unwrap();
    let retagged = retag(&keys, &map, &tags);
    let q = plan(&retagged, &map);
    assert_eq!(q.per_slot.commands, p.tagged.commands);
    assert_eq!(q.per_slot.commands_per_master, p.tagged.commands_per_master);
    assert_eq!(q.per_slot.largest_command, p.tagged.largest_command);
    // Every key stays on its master.
    for (a, b) in p.slot_of.iter().zip(&q.slot_of) {
        assert_eq!(map.owner(*a), map.owner(*b));
    }

    // Sorting by slot before chunking: chunks of 50 touch one master, not all three.
    let owned: Vec<Vec<u8>> = keys.iter().map(<[u8]>::to_vec).collect();
    let unsorted = check_chunks(&owned, &map, 50, false);
    let sorted = check_chunks(&owned, &map, 50, true);
    assert_eq!(unsorted.max_masters, 3);
    assert!(sorted.max_masters <= 2);
    assert!(sorted.mean_masters < unsorted.mean_masters);
}

#[test]
fn unserved_keys_form_their_own_group() {
    let mut map = SlotMap::fixture_cluster();
    let foo = key_slot(b"foo");
    map.assign(foo, None);
    let keys: [&[u8]; 4] = [b"foo", b"{foo}:1", b"bar", b"{user1}:x"];
    let p = plan(keys, &map);
    assert_eq!(p.unserved.n_keys, 2);
    assert_eq!(p.unserved.slot_groups.len(), 1);
    assert_eq!(p.keys_of(&p.unserved).collect::<Vec<_>>(), [0, 1]);
    assert_eq!(p.per_key.round_trips, 2);
    assert_eq!(
        p.verdict(),
        Verdict::CrossSlot {
            slots: 3,
            masters: 2
        }
    );
    // One slot nobody owns: one MGET would be refused with CLUSTERDOWN.
    let only: [&[u8]; 2] = [b"foo", b"{foo}:2"];
    let q = plan(only, &map);
    assert_eq!(
        q.verdict(),
        Verdict::OneSlot {
            slot: foo,
            master: None
        }
    );
    assert_eq!(q.per_slot.round_trips, 0);
    // Retagging leaves unserved keys alone.
    let tags = generate_tags("t%d", 1, &SlotMap::fixture_cluster(), 1000).unwrap();
    let r = retag(only, &map, &tags);
    assert_eq!(r.get(0), Some(&b"foo"[..]));
}

#[test]
fn same_slot_batch_is_one_command() {
    let keys = numbered_keys("{order:42}:line:%d", 0..300).unwrap();
    let p = plan(&keys, &SlotMap::fixture_cluster());
    let slot = key_slot(b"order:42");
    assert!(matches!(p.verdict(), Verdict::OneSlot { slot: s, master: Some(_) } if s == slot));
    for strategy in [Fanout::PerSlot, Fanout::Tagged] {
        assert_eq!(p.cost(strategy).commands, 1);
        assert_eq!(p.cost(strategy).largest_command, 300);
        assert_eq!(p.cost(strategy).largest_atomic_group, 300);
    }
    assert_eq!(p.per_master.pipeline_depth, 300);
    assert_eq!(Fanout::ALL.len(), 4);
    assert_eq!(Fanout::PerSlot.to_string(), "per slot");
}

#[test]
fn plans_stop_at_max_keys() {
    let n = MAX_KEYS + 5;
    let keys = std::iter::repeat_n(&b"k"[..], n);
    let p = plan(keys, &SlotMap::fixture_cluster());
    assert!(p.truncated);
    assert_eq!(p.n_keys, MAX_KEYS as u64);
    let c = chunk_masters(
        std::iter::repeat_n(&b"k"[..], n),
        &SlotMap::fixture_cluster(),
        10,
        false,
    );
    assert_eq!(c.n_keys, MAX_KEYS as u64);
}

#[test]
fn hot_spot_errors() {
    let map = SlotMap::fixture_cluster();
    assert_eq!(
        hot_spot(Tagging::SubTags(0), 10, &map),
        Err(PlanError::SubTags { k: 0 })
    );
    assert_eq!(
        hot_spot(Tagging::SubTags(MAX_SUB_TAGS + 1), 10, &map),
        Err(PlanError::SubTags {
            k: MAX_SUB_TAGS + 1
        })
    );
    assert!(hot_spot(Tagging::NoTag, MAX_KEYS as u32 + 1, &map).is_err());
    assert!(hot_spot_keys(Tagging::SubTags(0), 1).is_err());
    let empty = hot_spot(Tagging::NoTag, 0, &map).unwrap();
    assert_eq!((empty.busiest, empty.busiest_share), (None, 0.0));
    // A cluster where a master owns nothing still runs.
    let map = SlotMap::from_ranges(
        vec![Master::new("a:1", "1"), Master::new("b:2", "2")],
        &[(0, SlotRange::new(0, 16383))],
    )
    .unwrap();
    let spot = hot_spot(Tagging::SubTags(8), 100, &map).unwrap();
    assert_eq!(spot.keys_per_master, vec![100, 0]);
    assert_eq!(spot.tags_per_master, vec![8, 0]);
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

fn key_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![
            2 => Just(b'{'),
            2 => Just(b'}'),
            2 => b'a'..=b'c',
            1 => any::<u8>(),
        ],
        0..8,
    )
}

/// The fixture cluster with some slots taken away and, sometimes, an empty master.
fn cluster() -> impl Strategy<Value = SlotMap> {
    (
        prop::collection::vec((0u16..16384, 0u16..2000), 0..4),
        any::<bool>(),
    )
        .prop_map(|(holes, extra)| {
            let mut map = SlotMap::fixture_cluster();
            for (first, len) in holes {
                for slot in first..first.saturating_add(len).min(16384) {
                    map.assign(slot, None);
                }
            }
            if extra {
                let _ = map.add_master(Master::new("127.0.0.1:7006", "e"));
            }
            map
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn plans_group_every_key_once(keys in prop::collection::vec(key_bytes(), 0..200), map in cluster()) {
        check_plan(&keys, &map)?;
    }

    #[test]
    fn chunk_stats_match_brute_force(keys in prop::collection::vec(key_bytes(), 0..200),
                                     map in cluster(), chunk in 0usize..40) {
        let unsorted = check_chunks(&keys, &map, chunk, false);
        let sorted = check_chunks(&keys, &map, chunk, true);
        prop_assert_eq!(unsorted.n_chunks, sorted.n_chunks);
        prop_assert_eq!(unsorted.n_keys, keys.len() as u64);
    }

    #[test]
    fn generated_tags_keep_their_promises(per_master in 0usize..6, n in 1usize..12,
                                          prefix in "[a-z:{]{0,6}", suffix in "[a-z:]{0,4}") {
        let map = SlotMap::created(n, "127.0.0.1", 7000).unwrap();
        let template = format!("{prefix}%d{suffix}");
        match generate_tags(&template, per_master, &map, 1_000_000) {
            Ok(set) => check_tag_set(&set, &map, per_master),
            Err(e) => prop_assert!(false, "{:?}", e),
        }
    }

    #[test]
    fn tag_generation_never_panics(template in "\\PC{0,12}", per_master in 0usize..4, tries in 0u64..200) {
        let map = SlotMap::fixture_cluster();
        // An error is fine (it is data the page words); a panic is not.
        if let Ok(set) = generate_tags(&template, per_master, &map, tries) {
            check_tag_set(&set, &map, per_master);
        }
    }

    #[test]
    fn h3_keys_are_deterministic_per_seed(seed in any::<u64>(), n in 0u32..50) {
        let a = h3_pair_keys("r:", n, seed).unwrap();
        prop_assert_eq!(a.len(), n as usize);
        prop_assert_eq!(&a, &h3_pair_keys("r:", n, seed).unwrap());
        for key in &a {
            prop_assert_eq!(key.len(), 2 + 15 + 1 + 15);
        }
    }

    #[test]
    fn retagged_keys_stay_on_their_master(keys in prop::collection::vec(key_bytes(), 0..100), map in cluster()) {
        let full = SlotMap::fixture_cluster();
        let tags = generate_tags("t:%d", 1, &full, 10_000).unwrap();
        let retagged: KeySample = retag(keys.iter().map(Vec::as_slice), &map, &tags);
        prop_assert_eq!(retagged.len(), keys.len());
        for (old, new) in keys.iter().zip(&retagged) {
            let (a, b) = (map.owner(key_slot(old)), map.owner(key_slot(new)));
            // A retagged key lands on its tag's slot; where the hole-punched map still owns
            // it, that is the same master.
            if a.is_some() && b.is_some() {
                prop_assert_eq!(a, b);
            }
            if a.is_none() {
                prop_assert_eq!(old.as_slice(), new);
            }
        }
    }
}
