//! Unit tests of the workload module's private helpers.

use super::chunks::*;
use super::hotspot::*;
use super::keys::*;
use super::plan::*;
use super::*;
use slotscope_kernel::NumberedKey;

#[test]
fn both_sorts_by_slot_agree() {
    // A small LCG: slots bunched into few values (ties) and spread over all 16384.
    let mut x = 0x2545_f491_4f6c_dd1du64;
    for (len, spread) in [
        (0, 1),
        (1, 1),
        (7, 3),
        (300, 16384),
        (511, 40),
        (2000, 16384),
    ] {
        let slots: Vec<u16> = (0..len)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((x >> 33) % spread) as u16
            })
            .collect();
        assert_eq!(
            comparison_sort_by_slot(&slots),
            counting_sort_by_slot(&slots),
            "{len} keys over {spread} slots"
        );
    }
}

#[test]
fn hot_spot_counts_equal_hashing_every_key() {
    let map = SlotMap::fixture_cluster();
    for tagging in [
        Tagging::NoTag,
        Tagging::SubTags(1),
        Tagging::SubTags(2),
        Tagging::SubTags(7),
        Tagging::SubTags(64),
    ] {
        for n in [0u32, 1, 99, 1000, 4099] {
            let h = hot_spot(tagging, n, &map).unwrap();
            let mut want = vec![0u64; map.n_masters()];
            for key in hot_spot_keys(tagging, n).unwrap().iter() {
                want[map.owner(key_slot(key)).unwrap()] += 1;
            }
            assert_eq!(h.keys_per_master, want, "{tagging:?} n={n}");
            assert_eq!(
                h.tags.iter().map(|t| t.keys).sum::<u64>(),
                u64::from(n) * u64::from(tagging.n_tags() > 0)
            );
        }
    }
}

#[test]
fn a_prefix_fixes_the_slot_only_with_a_complete_tag() {
    assert!(tag_fixes_slot(b"{user1}"));
    assert!(tag_fixes_slot(b"x{a}{b"));
    assert!(!tag_fixes_slot(b"{user1"));
    assert!(!tag_fixes_slot(b"{}x"));
    assert!(!tag_fixes_slot(b"plain"));
}

#[test]
fn h3_layout_matches_the_case_study_ids() {
    // 8928308280fffff: base cell 20, digits 0 6 0 4 0 5 0 0 3.
    let cell = h3_cell(20, &[0, 6, 0, 4, 0, 5, 0, 0, 3]);
    let mut buf = Vec::new();
    push_hex15(&mut buf, cell);
    assert_eq!(buf, b"8928308280fffff");
    buf.clear();
    push_hex15(&mut buf, h3_cell(20, &[0, 6, 0, 4, 0, 5, 0, 0, 6]));
    assert_eq!(buf, b"8928308281bffff");
}

#[test]
fn a_numbered_key_counts_in_place() {
    let mut key = NumberedKey::new(b"{a}:", b":z");
    let mut buf = Vec::new();
    for n in 0..100_000u64 {
        buf.clear();
        buf.extend_from_slice(b"{a}:");
        push_decimal(&mut buf, n);
        assert_eq!(key.digits(), &buf[4..]);
        buf.extend_from_slice(b":z");
        assert_eq!(key.bytes(), &buf[..]);
        key.increment();
    }
}

#[test]
fn below_stays_below() {
    let mut rng = SplitMix64::new(7);
    assert_eq!(rng.below(0), 0);
    for n in [1u64, 2, 7, 122, u64::MAX] {
        for _ in 0..1000 {
            assert!(rng.below(n) < n);
        }
    }
}

#[test]
fn empty_batch() {
    let p = plan(core::iter::empty::<&[u8]>(), &SlotMap::fixture_cluster());
    assert_eq!(p.verdict(), Verdict::NoKeys);
    for s in Strategy::ALL {
        assert_eq!(p.cost(s).round_trips, 0);
        assert_eq!(p.cost(s).largest_command, 0);
    }
    let c = chunk_masters(
        core::iter::empty::<&[u8]>(),
        &SlotMap::fixture_cluster(),
        0,
        true,
    );
    assert_eq!((c.n_chunks, c.mean_masters, c.chunk), (0, 0.0, 1));
}
