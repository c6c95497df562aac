//! Planning a batch of keys on a cluster: which slots and masters it touches, and what each way of sending it costs.
//!
//! # The case study
//!
//! A route cache answered each request with one `MGET` of hundreds of keys such as
//! `route:8928308280fffff:8928308281bffff` (two H3 cell ids). On a cluster that one command
//! is `CROSSSLOT`, so the client split it into one `MGET` per slot: hundreds of commands,
//! spread over every master, for every request. The fix was to give each master its own hash
//! tags (see [`super::tags`]) so that the keys one master holds can be fetched with a single
//! command, and to sort keys by slot before cutting a batch into chunks, so that each chunk
//! touches as few masters as possible ([`chunk_masters`]).
//!
//! # The cost model
//!
//! Every number [`plan`] reports follows these definitions:
//!
//! - A **command** is one Redis command (`GET` or `MGET`).
//! - A **round trip** is one exchange with one master: the client writes one or more commands
//!   to that master's connection, then reads all their replies. A pipeline (many commands
//!   written back to back before reading) is one round trip. Exchanges with different masters
//!   are counted separately, whether the client overlaps them in time or not: a client that
//!   waits for each in turn pays `round_trips` network latencies; one that talks to all
//!   masters at once pays about one per round trip to the busiest master
//!   (`parallel_round_trips`).
//! - The **pipeline depth** of a strategy is the largest number of commands sent in one round
//!   trip. `commands_per_master[m]` is how many commands master `m` receives for the batch
//!   (its queue).
//! - Keys whose slot no master owns cannot be sent anywhere (Redis answers `CLUSTERDOWN Hash
//!   slot not served`). They form the group [`Plan::unserved`] and are left out of every
//!   strategy's counts.
//!
//! With `K` served keys, `S` slots and `M` masters touched:
//!
//! | strategy | round trips | commands | depth | keys in largest command | atomic together |
//! |---|---|---|---|---|---|
//! | [`Strategy::PerKey`]: one `GET` per key, each awaited | `K` | `K` | 1 | 1 | nothing |
//! | [`Strategy::PerSlot`]: one `MGET` per slot, pipelined per master (redis-py's `mget_nonatomic`, Lettuce) | `M` | `S` | most slots on one master | most keys in one slot | each slot's keys |
//! | [`Strategy::PerMaster`]: one `GET` per key, pipelined per master | `M` | `K` | most keys on one master | 1 | nothing |
//! | [`Strategy::Tagged`]: keys rewritten with their master's tag, one `MGET` per master | `M` | `M` | 1 | most keys on one master | each master's keys |
//!
//! "Atomic together" means one command reads those keys at one instant: a multi-key command
//! on one slot is atomic, a pipeline is not. For [`Strategy::Tagged`] each key keeps its
//! master: it is rewritten as `{tag}key` with a tag that master owns ([`super::tags::retag`]).
//!
//! # Generated keys
//!
//! [`numbered_keys`] fills a template with one `%d` over a range (`user:%d`, `0..100000`).
//! [`h3_pair_keys`] makes route-cache keys from a caller-given seed with [`SplitMix64`]. Both
//! return a [`KeySample`]: all keys back to back in one buffer, never one `String` per key.
//! At most [`MAX_KEYS`] keys are generated or planned.
//!
//! # The hot-spot experiment
//!
//! [`hot_spot`] puts 100,000 keys `{user1}:item:<i>`, `{user1:<i mod k>}:item:<i>` or
//! `key:<i>` on a cluster and counts keys and tags per master; on
//! [`SlotMap::fixture_cluster`] it reproduces the `DBSIZE` counts of the fixtures'
//! `distribution.tsv`, recorded from a real Redis 7.0.15 cluster.

use super::*;

// ---------------------------------------------------------------------------------------------
// The plan
// ---------------------------------------------------------------------------------------------

/// A way of sending a batch of keys to a cluster (see the module documentation for the cost
/// model).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// One `GET` per key, each awaited before the next: one round trip per key.
    PerKey,
    /// One `MGET` per slot, the commands for one master pipelined together: what redis-py's
    /// `mget_nonatomic` and Lettuce's cross-slot `MGET` do.
    PerSlot,
    /// One `GET` per key, pipelined per master: one round trip per master.
    PerMaster,
    /// Keys rewritten with a per-master tag, so one `MGET` per master.
    Tagged,
}

impl Strategy {
    /// All strategies, in the order the page lists them.
    pub const ALL: [Strategy; 4] = [
        Strategy::PerKey,
        Strategy::PerSlot,
        Strategy::PerMaster,
        Strategy::Tagged,
    ];

    /// A short name.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::PerKey => "per key",
            Strategy::PerSlot => "per slot",
            Strategy::PerMaster => "per master, pipelined",
            Strategy::Tagged => "per-master tags",
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What one strategy costs for a batch (served keys only; see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrategyCost {
    /// The strategy.
    pub strategy: Strategy,
    /// Exchanges with a master (a pipeline is one), counted over all masters: what a client
    /// that waits for each exchange in turn pays in network latencies.
    pub round_trips: u64,
    /// Exchanges in a row with the busiest master: what a client that talks to every master at
    /// once pays in network latencies (a parallel fan-out costs about one).
    pub parallel_round_trips: u64,
    /// Commands sent in all.
    pub commands: u64,
    /// Commands each master receives, by master index (every master, untouched ones 0).
    pub commands_per_master: Vec<u64>,
    /// The most commands sent in one round trip.
    pub pipeline_depth: u64,
    /// Keys in the largest single command.
    pub largest_command: u64,
    /// How many groups of keys are each read atomically (a key alone counts as a group).
    pub atomic_groups: u64,
    /// Keys in the largest of those groups.
    pub largest_atomic_group: u64,
}

/// The keys of one slot, a range of [`Plan::keys_by_slot`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlotGroup {
    /// The slot.
    pub slot: u16,
    /// The master that owns it (`None`: unserved).
    pub master: Option<usize>,
    /// Where its keys start in [`Plan::keys_by_slot`].
    pub start: u32,
    /// How many keys it holds.
    pub len: u32,
}

/// The keys bound for one master (or, with `master: None`, for no master).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MasterGroup {
    /// The master's index (`None`: the unserved keys).
    pub master: Option<usize>,
    /// Keys in the group.
    pub n_keys: u64,
    /// Its slots, as indices into [`Plan::slots`], ascending.
    pub slot_groups: Vec<u32>,
}

/// Whether a single multi-key command over the whole batch would be accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No keys.
    NoKeys,
    /// Every key is in one slot: one `MGET` works (if a master owns the slot).
    OneSlot {
        /// The slot.
        slot: u16,
        /// Its owner (`None`: `CLUSTERDOWN`).
        master: Option<usize>,
    },
    /// The keys span several slots: `CROSSSLOT Keys in request don't hash to the same slot`
    /// (checked before ownership, so even when one master owns them all).
    CrossSlot {
        /// Slots touched.
        slots: u64,
        /// Masters touched.
        masters: u64,
    },
}

/// A batch of keys grouped by slot and by master, and the cost of each [`Strategy`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Keys planned (the first [`MAX_KEYS`] given).
    pub n_keys: u64,
    /// Whether more keys than [`MAX_KEYS`] were given (the rest were not planned).
    pub truncated: bool,
    /// The slot of each key, by key index.
    pub slot_of: Vec<u16>,
    /// The slots touched, ascending, each with its keys.
    pub slots: Vec<SlotGroup>,
    /// The masters touched, by ascending index.
    pub masters: Vec<MasterGroup>,
    /// The keys whose slot no master owns (`master: None`; empty if there are none).
    pub unserved: MasterGroup,
    /// [`Strategy::PerKey`].
    pub per_key: StrategyCost,
    /// [`Strategy::PerSlot`].
    pub per_slot: StrategyCost,
    /// [`Strategy::PerMaster`].
    pub per_master: StrategyCost,
    /// [`Strategy::Tagged`].
    pub tagged: StrategyCost,
    /// Key indices ordered by slot (input order within a slot).
    by_slot: Vec<u32>,
}

impl Plan {
    /// Every key index, ordered by slot and, within a slot, by input order.
    pub fn keys_by_slot(&self) -> &[u32] {
        &self.by_slot
    }

    /// The key indices of one slot group.
    pub fn keys_in(&self, group: &SlotGroup) -> &[u32] {
        let start = group.start as usize;
        self.by_slot
            .get(start..start.saturating_add(group.len as usize))
            .unwrap_or(&[])
    }

    /// The key indices bound for one master group, slot by slot.
    pub fn keys_of<'a>(&'a self, group: &'a MasterGroup) -> impl Iterator<Item = u32> + 'a {
        group
            .slot_groups
            .iter()
            .filter_map(|&g| self.slots.get(g as usize))
            .flat_map(|g| self.keys_in(g).iter().copied())
    }

    /// The cost of `strategy`.
    pub fn cost(&self, strategy: Strategy) -> &StrategyCost {
        match strategy {
            Strategy::PerKey => &self.per_key,
            Strategy::PerSlot => &self.per_slot,
            Strategy::PerMaster => &self.per_master,
            Strategy::Tagged => &self.tagged,
        }
    }

    /// Keys some master serves.
    pub fn n_served(&self) -> u64 {
        self.n_keys - self.unserved.n_keys
    }

    /// What one multi-key command over the whole batch would get.
    pub fn verdict(&self) -> Verdict {
        match self.slots.as_slice() {
            [] => Verdict::NoKeys,
            [one] => Verdict::OneSlot {
                slot: one.slot,
                master: one.master,
            },
            many => Verdict::CrossSlot {
                slots: many.len() as u64,
                masters: self.masters.len() as u64,
            },
        }
    }
}

/// Below this many keys a comparison sort beats a counting sort, whose two 16384-entry tables
/// cost more than sorting a few hundred indices.
const SMALL_SORT: usize = 512;

/// Stable sort of key indices by slot: (each used slot with its number of keys, in slot order;
/// key indices by slot).
pub(super) fn sort_by_slot(slot_of: &[u16]) -> (Vec<(u16, u32)>, Vec<u32>) {
    if slot_of.len() < SMALL_SORT {
        comparison_sort_by_slot(slot_of)
    } else {
        counting_sort_by_slot(slot_of)
    }
}

pub(super) fn comparison_sort_by_slot(slot_of: &[u16]) -> (Vec<(u16, u32)>, Vec<u32>) {
    let mut order: Vec<u32> = (0u32..).take(slot_of.len()).collect();
    crate::core::sort::sort_by_key(&mut order, |&i| {
        slot_of.get(i as usize).copied().unwrap_or(u16::MAX)
    });
    let mut used: Vec<(u16, u32)> = Vec::new();
    for &i in &order {
        let Some(&slot) = slot_of.get(i as usize) else {
            continue;
        };
        match used.last_mut() {
            Some((s, n)) if *s == slot => *n += 1,
            _ => used.push((slot, 1)),
        }
    }
    (used, order)
}

pub(super) fn counting_sort_by_slot(slot_of: &[u16]) -> (Vec<(u16, u32)>, Vec<u32>) {
    let mut counts = vec![0u32; N_SLOTS];
    for &s in slot_of {
        if let Some(c) = counts.get_mut(s as usize) {
            *c += 1;
        }
    }
    let mut next = vec![0u32; N_SLOTS];
    let mut acc = 0u32;
    for (n, &c) in next.iter_mut().zip(counts.iter()) {
        *n = acc;
        acc += c;
    }
    let mut order = vec![0u32; slot_of.len()];
    for (i, &s) in (0u32..).zip(slot_of) {
        if let Some(n) = next.get_mut(s as usize) {
            if let Some(cell) = order.get_mut(*n as usize) {
                *cell = i;
            }
            *n += 1;
        }
    }
    let used = (0u16..).zip(counts).filter(|&(_, n)| n > 0).collect();
    (used, order)
}

pub(super) fn slots_of<'a>(keys: impl IntoIterator<Item = &'a [u8]>) -> (Vec<u16>, bool) {
    let mut iter = keys.into_iter();
    let mut slot_of = Vec::with_capacity(iter.size_hint().0.min(MAX_KEYS));
    for key in iter.by_ref().take(MAX_KEYS) {
        slot_of.push(key_slot(key));
    }
    let truncated = iter.next().is_some();
    (slot_of, truncated)
}

/// Groups `keys` by slot and by master on `map` and works out what each [`Strategy`] costs.
///
/// Keys are numbered in the order given (duplicates count as separate keys, as they would in
/// an `MGET`). Only the first [`MAX_KEYS`] are planned ([`Plan::truncated`] says if there
/// were more).
///
/// ```
/// use slotscope::core::workload::{plan, Verdict};
/// use slotscope::core::cluster::topology::SlotMap;
/// let keys: [&[u8]; 3] = [b"{user1}:a", b"{user1}:b", b"foo"];
/// let p = plan(keys, &SlotMap::fixture_cluster());
/// assert_eq!(p.verdict(), Verdict::CrossSlot { slots: 2, masters: 2 });
/// assert_eq!((p.per_slot.round_trips, p.per_slot.commands), (2, 2));
/// assert_eq!(p.per_key.round_trips, 3);
/// ```
pub fn plan<'a>(keys: impl IntoIterator<Item = &'a [u8]>, map: &SlotMap) -> Plan {
    let (slot_of, truncated) = slots_of(keys);
    let (used, by_slot) = sort_by_slot(&slot_of);
    let n_masters = map.n_masters();

    let mut slots = Vec::new();
    let mut groups: Vec<MasterGroup> = (0..n_masters)
        .map(|m| MasterGroup {
            master: Some(m),
            ..MasterGroup::default()
        })
        .collect();
    let mut unserved = MasterGroup::default();
    let mut start = 0u32;
    for (slot, len) in used {
        let master = map.owner(slot);
        let group = match master.and_then(|m| groups.get_mut(m)) {
            Some(g) => g,
            None => &mut unserved,
        };
        group.n_keys += u64::from(len);
        group.slot_groups.push(slots.len() as u32);
        slots.push(SlotGroup {
            slot,
            master,
            start,
            len,
        });
        start += len;
    }
    let masters: Vec<MasterGroup> = groups.into_iter().filter(|g| g.n_keys > 0).collect();

    let keys_per_master = {
        let mut v = vec![0u64; n_masters];
        for g in &masters {
            if let Some(c) = g.master.and_then(|m| v.get_mut(m)) {
                *c = g.n_keys;
            }
        }
        v
    };
    let slots_per_master = {
        let mut v = vec![0u64; n_masters];
        for g in &masters {
            if let Some(c) = g.master.and_then(|m| v.get_mut(m)) {
                *c = g.slot_groups.len() as u64;
            }
        }
        v
    };
    let served: u64 = keys_per_master.iter().sum();
    let n_slots_served = slots.iter().filter(|g| g.master.is_some()).count() as u64;
    let n_masters_touched = masters.len() as u64;
    let max_keys_master = keys_per_master.iter().copied().max().unwrap_or(0);
    let max_slots_master = slots_per_master.iter().copied().max().unwrap_or(0);
    let max_keys_slot = slots
        .iter()
        .filter(|g| g.master.is_some())
        .map(|g| u64::from(g.len))
        .max()
        .unwrap_or(0);
    let one_if_any = u64::from(served > 0);

    let per_key = StrategyCost {
        strategy: Strategy::PerKey,
        round_trips: served,
        parallel_round_trips: max_keys_master,
        commands: served,
        commands_per_master: keys_per_master.clone(),
        pipeline_depth: one_if_any,
        largest_command: one_if_any,
        atomic_groups: served,
        largest_atomic_group: one_if_any,
    };
    let per_slot = StrategyCost {
        strategy: Strategy::PerSlot,
        round_trips: n_masters_touched,
        parallel_round_trips: one_if_any,
        commands: n_slots_served,
        commands_per_master: slots_per_master,
        pipeline_depth: max_slots_master,
        largest_command: max_keys_slot,
        atomic_groups: n_slots_served,
        largest_atomic_group: max_keys_slot,
    };
    let per_master = StrategyCost {
        strategy: Strategy::PerMaster,
        round_trips: n_masters_touched,
        parallel_round_trips: one_if_any,
        commands: served,
        commands_per_master: keys_per_master.clone(),
        pipeline_depth: max_keys_master,
        largest_command: one_if_any,
        atomic_groups: served,
        largest_atomic_group: one_if_any,
    };
    let tagged = StrategyCost {
        strategy: Strategy::Tagged,
        round_trips: n_masters_touched,
        parallel_round_trips: one_if_any,
        commands: n_masters_touched,
        commands_per_master: keys_per_master.iter().map(|&k| u64::from(k > 0)).collect(),
        pipeline_depth: one_if_any,
        largest_command: max_keys_master,
        atomic_groups: n_masters_touched,
        largest_atomic_group: max_keys_master,
    };

    Plan {
        n_keys: slot_of.len() as u64,
        truncated,
        slot_of,
        slots,
        masters,
        unserved,
        per_key,
        per_slot,
        per_master,
        tagged,
        by_slot,
    }
}
