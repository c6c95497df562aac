//! The hot-spot experiment: 100,000 keys under one tag, k sub-tags or none, counted per master.

use super::*;

// ---------------------------------------------------------------------------------------------
// The hot-spot experiment
// ---------------------------------------------------------------------------------------------

/// The tag the hot-spot experiment's keys share.
pub const HOT_SPOT_TAG: &str = "user1";

/// How the hot-spot experiment names its keys (`i` = 0, 1, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tagging {
    /// `key:<i>`: no tag, every key hashed whole (the fixtures' `no_tag_key_i_100k`).
    NoTag,
    /// `k` = 1: `{user1}:item:<i>`, one tag (`tag_user1_100k`); `k` ≥ 2:
    /// `{user1:<i mod k>}:item:<i>`, the tag split into `k` sub-tags (`k` = 64 is
    /// `tags64_user1_100k`).
    SubTags(u32),
}

impl Tagging {
    fn check(self) -> Result<Self, PlanError> {
        match self {
            Tagging::SubTags(k) if k == 0 || k > MAX_SUB_TAGS => Err(PlanError::SubTags { k }),
            t => Ok(t),
        }
    }

    /// How many distinct tags the keys use (0 without a tag).
    pub fn n_tags(self) -> u32 {
        match self {
            Tagging::NoTag => 0,
            Tagging::SubTags(k) => k,
        }
    }

    /// Appends tag `j` with its braces (`{user1}` or `{user1:<j>}`); nothing without a tag.
    pub fn write_tag(self, buf: &mut Vec<u8>, j: u32) {
        match self {
            Tagging::NoTag => {}
            Tagging::SubTags(k) => {
                buf.push(b'{');
                buf.extend_from_slice(HOT_SPOT_TAG.as_bytes());
                if k >= 2 {
                    buf.push(b':');
                    push_decimal(buf, j.into());
                }
                buf.push(b'}');
            }
        }
    }

    /// Appends key `i` of the experiment.
    pub fn write_key(self, buf: &mut Vec<u8>, i: u32) {
        match self {
            Tagging::NoTag => buf.extend_from_slice(b"key:"),
            Tagging::SubTags(k) => {
                self.write_tag(buf, i % k.max(1));
                buf.extend_from_slice(b":item:");
            }
        }
        push_decimal(buf, i.into());
    }
}

/// One tag of the hot-spot experiment and the keys that carry it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagLoad {
    /// The tag, braces included (`{user1:7}`).
    pub tag: String,
    /// Its slot.
    pub slot: u16,
    /// The master that owns the slot (`None`: unserved).
    pub master: Option<usize>,
    /// Keys carrying the tag.
    pub keys: u64,
}

/// Where the hot-spot experiment's keys land.
#[derive(Clone, Debug, PartialEq)]
pub struct HotSpot {
    /// How the keys were named.
    pub tagging: Tagging,
    /// Keys placed.
    pub n_keys: u32,
    /// Keys on each master, by index: what `DBSIZE` would say.
    pub keys_per_master: Vec<u64>,
    /// Distinct tags on each master, by index (all 0 without a tag).
    pub tags_per_master: Vec<u64>,
    /// Keys in slots no master owns.
    pub unserved_keys: u64,
    /// Each tag, in order `0..k` (empty without a tag).
    pub tags: Vec<TagLoad>,
    /// The master with the most keys (the lowest index on a tie; `None` with no keys served).
    pub busiest: Option<usize>,
    /// The busiest master's keys as a fraction of all keys (0 with no keys).
    pub busiest_share: f64,
}

/// Runs the hot-spot experiment: `n_keys` keys named by `tagging`, each formatted into one
/// reused buffer and placed by [`key_slot`] on `map`.
///
/// Fails with more than [`MAX_KEYS`] keys or with `k` outside `1..=`[`MAX_SUB_TAGS`].
///
/// ```
/// use slotscope::core::workload::{hot_spot, Tagging};
/// use slotscope::core::cluster::topology::SlotMap;
/// let map = SlotMap::fixture_cluster();
/// let one = hot_spot(Tagging::SubTags(1), 100_000, &map).unwrap();
/// assert_eq!(one.keys_per_master, [0, 100_000, 0]);
/// assert_eq!(one.busiest_share, 1.0);
/// ```
pub fn hot_spot(tagging: Tagging, n_keys: u32, map: &SlotMap) -> Result<HotSpot, PlanError> {
    let tagging = tagging.check()?;
    let n_keys = check_count(u64::from(n_keys))?;
    let n_masters = map.n_masters();
    let mut keys_per_master = vec![0u64; n_masters];
    let mut tags_per_master = vec![0u64; n_masters];
    let mut unserved_keys = 0u64;

    let mut buf = Vec::with_capacity(64);
    let k = tagging.n_tags();
    let mut tags: Vec<TagLoad> = (0..k)
        .map(|j| {
            buf.clear();
            tagging.write_tag(&mut buf, j);
            let slot = key_slot(&buf);
            let master = map.owner(slot);
            if let Some(c) = master.and_then(|m| tags_per_master.get_mut(m)) {
                *c += 1;
            }
            TagLoad {
                tag: String::from_utf8_lossy(&buf).into_owned(),
                slot,
                master,
                keys: 0,
            }
        })
        .collect();

    let mut per_slot = vec![0u64; N_SLOTS];
    let mut per_tag = vec![0u64; tags.len()];
    if tags.is_empty() {
        // Untagged keys (`key:<i>`, the bytes of `Tagging::write_key`): every key is hashed
        // whole, in the speed-compiled kernel.
        count_numbered_key_slots(b"key:", n_keys, &mut per_slot);
    } else {
        // Key `i` is `{tag i mod k}:item:<i>`. Its first `{` and the first `}` after it both lie
        // in the tag, so Redis hashes the tag alone and every key of a tag shares its slot
        // (`tag_fixes_slot` checks this rather than assuming it). Tag `j` gets the keys
        // `i ≡ j (mod k)`: ⌊n/k⌋ of them, one more for the first n mod k tags.
        let k = tags.len() as u64;
        let (base, extra) = (u64::from(n_keys) / k, u64::from(n_keys) % k);
        for (j, (t, count)) in (0u64..).zip(tags.iter().zip(per_tag.iter_mut())) {
            debug_assert!(tag_fixes_slot(t.tag.as_bytes()));
            *count = base + u64::from(j < extra);
            if let Some(c) = per_slot.get_mut(t.slot as usize) {
                *c += *count;
            }
        }
    }
    for (t, &c) in tags.iter_mut().zip(per_tag.iter()) {
        t.keys = c;
    }
    for (slot, &count) in (0u16..).zip(per_slot.iter()) {
        if count == 0 {
            continue;
        }
        match map.owner(slot).and_then(|m| keys_per_master.get_mut(m)) {
            Some(c) => *c += count,
            None => unserved_keys += count,
        }
    }
    let busiest = keys_per_master
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c > 0)
        .max_by(|(i, a), (j, b)| a.cmp(b).then(j.cmp(i)))
        .map(|(m, _)| m);
    let busiest_share = match busiest.and_then(|m| keys_per_master.get(m)) {
        Some(&c) if n_keys > 0 => c as f64 / f64::from(n_keys),
        _ => 0.0,
    };
    Ok(HotSpot {
        tagging,
        n_keys,
        keys_per_master,
        tags_per_master,
        unserved_keys,
        tags,
        busiest,
        busiest_share,
    })
}

/// Whether every key that starts with `prefix` hashes exactly as `prefix` does: true when the
/// prefix holds a complete, non-empty hash tag (its first `{` and the first `}` after it).
pub fn tag_fixes_slot(prefix: &[u8]) -> bool {
    matches!(hashed_span(prefix).0, TagRule::Tag { .. })
}

/// The hot-spot experiment's keys themselves, for planning or display.
///
/// ```
/// use slotscope::core::workload::{hot_spot_keys, Tagging};
/// let keys = hot_spot_keys(Tagging::SubTags(64), 66).unwrap();
/// assert_eq!(keys.get(65), Some(&b"{user1:1}:item:65"[..]));
/// ```
pub fn hot_spot_keys(tagging: Tagging, n_keys: u32) -> Result<KeySample, PlanError> {
    let tagging = tagging.check()?;
    let n_keys = check_count(u64::from(n_keys))?;
    Ok(KeySample::from_fn(n_keys, |i, buf| {
        tagging.write_key(buf, i)
    }))
}
