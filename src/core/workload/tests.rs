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

/// What the generators made in one piece before they made keys in slices, written out
/// (`KeySample::from_fn` over the numbers, and the H3 draw in its order).
fn h3_reference(prefix: &str, n: u32, seed: u64) -> KeySample {
    let mut rng = SplitMix64::new(seed);
    KeySample::from_fn(n, |_, buf| {
        let base = rng.below(122);
        let mut digits = [0u64; H3_RESOLUTION as usize];
        for d in digits.iter_mut() {
            *d = rng.below(7);
        }
        let origin = h3_cell(base, &digits);
        for d in digits.iter_mut().skip(6) {
            *d = rng.below(7);
        }
        let destination = h3_cell(base, &digits);
        buf.extend_from_slice(prefix.as_bytes());
        push_hex15(buf, origin);
        buf.push(b':');
        push_hex15(buf, destination);
    })
}

#[test]
fn generators_made_in_slices_make_what_one_piece_makes() {
    for slice in [1, 3, 1000, 4096, u32::MAX] {
        let mut m = KeyMaker::h3_pairs("route:", 10_000, 42).unwrap();
        while !m.make(slice) {}
        assert_eq!(m.made(), 10_000);
        assert_eq!(m.finished().unwrap(), h3_reference("route:", 10_000, 42));
        let mut m = KeyMaker::numbered("user:%d:x", 5..20_005).unwrap();
        let mut calls = 0;
        while !m.make(slice) {
            calls += 1;
        }
        assert_eq!(
            calls,
            if slice >= 20_000 {
                0
            } else {
                20_000usize.div_ceil(slice as usize) - 1
            }
        );
        let t = Template::parse("user:%d:x").unwrap();
        assert_eq!(
            m.finished().unwrap(),
            KeySample::from_fn(20_000, |i, buf| t.write(buf, 5 + u64::from(i)))
        );
    }
    // Not finished: no keys; none asked: done at once.
    let mut m = KeyMaker::h3_pairs("r:", 10, 1).unwrap();
    assert!(!m.make(9));
    assert_eq!(m.clone().finished(), None);
    assert!(m.make(1));
    assert!(KeyMaker::numbered("k%d", 0..0).unwrap().make(0));
    assert!(KeyMaker::numbered("k", 0..1).is_err());
    assert!(KeyMaker::h3_pairs("r:", MAX_KEYS as u32 + 1, 1).is_err());
}
