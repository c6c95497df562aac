//! Slots vs a consistent-hash ring vs `hash mod N`: how many keys move, and how balanced the result is, when a master is added.
//!
//! Three ways to spread keys over masters, each measured on the same sample of keys when one
//! master joins:
//!
//! - **Hash slots** ([`slots_outcome`]): `key_slot(key)` (CRC-16/XMODEM of the hashed part,
//!   `& 0x3FFF`) then a [`SlotMap`] before and after. A key moves exactly when its slot's owner
//!   changes, so only the slots a reshard hands over move, and the table can be made as even as
//!   16384 slots allow.
//! - **Consistent hashing** ([`Ring`], [`ring_outcome`]): every master puts `V` virtual nodes on
//!   a ring of 32-bit points; a key goes to the first point clockwise from its own point. A new
//!   master only adds points, so keys only move *to* it (about `1/(N+1)` of them), but how even
//!   the masters are depends on `V`.
//! - **`hash mod N`** ([`mod_n_outcome`]): master `hash64(key) % N`; going to `N + 1` moves
//!   about `N/(N+1)` of all keys.
//!
//! # The hash used by the ring and by `mod N`
//!
//! [`hash64`] is FNV-1a 64 (offset basis `0xcbf29ce484222325`, prime `0x100000001b3`) over the
//! key's raw bytes, followed by MurmurHash3's 64-bit finaliser `fmix64`, which spreads FNV's
//! weakly mixed low bits over the whole word so that `key:1`, `key:2`, … land far apart. Both
//! steps use only `u64` wrapping arithmetic on bytes, so native and wasm32 builds give the same
//! numbers. The whole key is hashed: hash tags mean nothing to a ring or to `mod N`.
//!
//! - A ring point is the upper 32 bits of `hash64`: [`ring_point`]. Master `addr`'s virtual
//!   node `v` (for `v` in `0..V`) sits at `ring_point(format!("{addr}#{v}"))`, `v` written in
//!   decimal. A key belongs to the first point `>= ring_point(key)`, wrapping past `u32::MAX`
//!   to the lowest point; two points at the same place are ordered by master index, so an
//!   older master keeps a tie.
//! - `mod N` uses the full `hash64(key) % N`: the same hash as the ring, so the only
//!   difference between the two is where the keys are placed, not how well they are hashed.
//!
//! # Limits
//!
//! `V` is clamped to `1..=`[`MAX_VNODES`]; more than [`MAX_MASTERS`] masters (Redis Cluster's
//! design limit of 1000 nodes), no master at all, or an address given twice are errors
//! ([`CompareError`]). Nothing here panics.

use super::cluster::reshard::ReshardError;
use crate::core::cluster::topology::{SlotMap, TopologyError};
use crate::core::key::slot::{key_slot, N_SLOTS};

/// The most masters a ring or `mod N` comparison takes (Redis Cluster is designed for up to
/// 1000 nodes). It also bounds a ring's size to `MAX_MASTERS * MAX_VNODES` points.
pub const MAX_MASTERS: usize = 1000;

/// The most virtual nodes per master; larger values are clamped to it.
pub const MAX_VNODES: u32 = 1000;

/// Why a comparison could not be run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompareError {
    /// There is no master to put keys on (`N = 0`, or an empty address list).
    NoMasters,
    /// More than [`MAX_MASTERS`] masters (counting the one being added).
    TooManyMasters {
        /// How many were asked for.
        n_masters: usize,
    },
    /// The same address was given for two masters of a ring.
    DuplicateAddr {
        /// The address.
        addr: String,
    },
    /// The slot side's cluster could not be built.
    Topology(TopologyError),
    /// The slot side of the comparison could not be planned (redis-cli's rebalance refused).
    Rebalance(ReshardError),
}

// ---------------------------------------------------------------------------------------------
// The hash
// ---------------------------------------------------------------------------------------------

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a 64 of `bytes` (the first step of [`hash64`]).
///
/// ```
/// use slotscope::core::schemes::fnv1a64;
/// assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
/// assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
/// ```
pub const fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h = FNV_OFFSET;
    let mut i = 0;
    while i < bytes.len() {
        h ^= bytes[i] as u64;
        h = h.wrapping_mul(FNV_PRIME);
        i += 1;
    }
    h
}

/// MurmurHash3's 64-bit finaliser (`fmix64`): a bijection that makes every input bit affect
/// every output bit (the second step of [`hash64`]).
pub const fn fmix64(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^= h >> 33;
    h
}

/// The 64-bit hash the ring and `mod N` use: `fmix64(fnv1a64(bytes))`.
pub const fn hash64(bytes: &[u8]) -> u64 {
    fmix64(fnv1a64(bytes))
}

/// Where `bytes` sits on the ring: the upper 32 bits of [`hash64`].
pub const fn ring_point(bytes: &[u8]) -> u32 {
    (hash64(bytes) >> 32) as u32
}

use crate::core::workload::{push_decimal, KeySample};

// ---------------------------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------------------------

/// How evenly keys are spread over masters.
///
/// The statistics are over all masters, empty ones included (a master that owns nothing is as
/// much part of the imbalance as a crowded one). The standard deviation is the population one
/// (divided by the number of masters). With no masters, or no keys, every statistic is 0.
#[derive(Clone, Debug, PartialEq)]
pub struct Balance {
    /// Keys per master, by master index.
    pub per_master: Vec<u64>,
    /// The fewest keys on one master.
    pub min: u64,
    /// The most keys on one master.
    pub max: u64,
    /// Keys per master on average (keys that no master serves are not counted).
    pub mean: f64,
    /// The standard deviation of `per_master`, in percent of `mean`.
    pub stddev_pct: f64,
    /// `max / mean`: 1.0 is perfectly even; 2.0 means the busiest master has twice its share.
    pub max_over_mean: f64,
}

impl Balance {
    /// The statistics of `per_master` (keys per master, by master index).
    pub fn from_counts(per_master: Vec<u64>) -> Balance {
        let min = per_master.iter().copied().min().unwrap_or(0);
        let max = per_master.iter().copied().max().unwrap_or(0);
        let n = per_master.len() as f64;
        let sum: u64 = per_master.iter().sum();
        let mean = if per_master.is_empty() {
            0.0
        } else {
            sum as f64 / n
        };
        let (stddev_pct, max_over_mean) = if mean > 0.0 {
            let var = per_master
                .iter()
                .map(|&c| {
                    let d = c as f64 - mean;
                    d * d
                })
                .sum::<f64>()
                / n;
            (100.0 * var.sqrt() / mean, max as f64 / mean)
        } else {
            (0.0, 0.0)
        };
        Balance {
            per_master,
            min,
            max,
            mean,
            stddev_pct,
            max_over_mean,
        }
    }
}

/// What adding a master did to a sample of keys.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Keys whose master changed. Masters are compared by address; "no master" (an unowned
    /// slot) counts as an owner of its own, so a key leaving or reaching an unowned slot moves.
    pub moved: u64,
    /// Keys in the sample.
    pub total: u64,
    /// Keys per master before, by the "before" masters' indices.
    pub before: Balance,
    /// Keys per master after, by the "after" masters' indices.
    pub after: Balance,
}

impl Outcome {
    /// `moved / total` (0 for an empty sample).
    pub fn moved_fraction(&self) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            self.moved as f64 / self.total as f64
        }
    }
}

// ---------------------------------------------------------------------------------------------
// (a) Hash slots
// ---------------------------------------------------------------------------------------------

/// Keys mapped by [`key_slot`] through `before` and then through `after` (e.g. a created
/// cluster, and the same cluster after adding an empty master and rebalancing).
///
/// Masters are matched by address, so `after` may list them in any order. A key whose slot is
/// unowned counts in no master (it still counts in `total`); a key moves exactly when its
/// slot's owner address differs between the maps (unowned counting as one more owner).
pub fn slots_outcome<'a>(
    keys: impl IntoIterator<Item = &'a [u8]>,
    before: &SlotMap,
    after: &SlotMap,
) -> Outcome {
    // Count keys per slot once; everything else is a pass over the 16384 slots.
    let mut per_slot = vec![0u64; N_SLOTS];
    let mut total = 0u64;
    for key in keys {
        if let Some(c) = per_slot.get_mut(key_slot(key) as usize) {
            *c += 1;
        }
        total += 1;
    }
    fn addr_of(map: &SlotMap, slot: u16) -> Option<&str> {
        map.owner_master(slot).map(|m| m.addr.as_str())
    }
    let mut before_counts = vec![0u64; before.n_masters()];
    let mut after_counts = vec![0u64; after.n_masters()];
    let mut moved = 0u64;
    for (slot, &count) in (0..=u16::MAX).zip(per_slot.iter()) {
        if count == 0 {
            continue;
        }
        if let Some(c) = before.owner(slot).and_then(|m| before_counts.get_mut(m)) {
            *c += count;
        }
        if let Some(c) = after.owner(slot).and_then(|m| after_counts.get_mut(m)) {
            *c += count;
        }
        if addr_of(before, slot) != addr_of(after, slot) {
            moved += count;
        }
    }
    Outcome {
        moved,
        total,
        before: Balance::from_counts(before_counts),
        after: Balance::from_counts(after_counts),
    }
}

// ---------------------------------------------------------------------------------------------
// (b) Consistent hashing
// ---------------------------------------------------------------------------------------------

/// A consistent-hash ring: `V` virtual nodes per master at 32-bit points (see the module
/// documentation for the scheme). Never empty, so every key has an owner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ring {
    masters: Vec<String>,
    vnodes: u32,
    /// `(point, master index)`, sorted (ties: lower master index first).
    points: Vec<(u32, u32)>,
}

impl Ring {
    /// A ring of `addrs` with `vnodes` virtual nodes each, clamped to `1..=`[`MAX_VNODES`].
    /// Fails with no address, more than [`MAX_MASTERS`], or an address given twice.
    pub fn new(addrs: &[String], vnodes: u32) -> Result<Ring, CompareError> {
        if addrs.is_empty() {
            return Err(CompareError::NoMasters);
        }
        if addrs.len() > MAX_MASTERS {
            return Err(CompareError::TooManyMasters {
                n_masters: addrs.len(),
            });
        }
        let vnodes = vnodes.clamp(1, MAX_VNODES);
        let mut ring = Ring {
            masters: Vec::with_capacity(addrs.len() + 1),
            vnodes,
            points: Vec::with_capacity((addrs.len() + 1) * vnodes as usize),
        };
        let mut buf = Vec::new();
        for addr in addrs {
            ring.push_master(addr, &mut buf)?;
        }
        ring.points.sort_unstable();
        Ok(ring)
    }

    /// Adds master `addr` (only its points are added; every other point stays where it was)
    /// and returns its index.
    pub fn add(&mut self, addr: &str) -> Result<usize, CompareError> {
        if self.masters.len() >= MAX_MASTERS {
            return Err(CompareError::TooManyMasters {
                n_masters: self.masters.len() + 1,
            });
        }
        let idx = self.push_master(addr, &mut Vec::new())?;
        self.points.sort_unstable();
        Ok(idx)
    }

    /// Appends `addr` and its points, unsorted. The caller keeps within `MAX_MASTERS`.
    fn push_master(&mut self, addr: &str, buf: &mut Vec<u8>) -> Result<usize, CompareError> {
        if self.masters.iter().any(|a| a == addr) {
            return Err(CompareError::DuplicateAddr {
                addr: addr.to_owned(),
            });
        }
        let idx = self.masters.len();
        // MAX_MASTERS is far below u32::MAX, so the index always fits.
        let tag = u32::try_from(idx).unwrap_or(u32::MAX);
        for v in 0..self.vnodes {
            buf.clear();
            buf.extend_from_slice(addr.as_bytes());
            buf.push(b'#');
            push_decimal(buf, v.into());
            self.points.push((ring_point(buf), tag));
        }
        self.masters.push(addr.to_owned());
        Ok(idx)
    }

    /// The index of the master that owns `key`: the first point clockwise from
    /// `ring_point(key)` (at or after it, wrapping around).
    pub fn owner(&self, key: &[u8]) -> usize {
        self.owner_of_point(ring_point(key))
    }

    /// The index of the master owning ring position `point`.
    pub fn owner_of_point(&self, point: u32) -> usize {
        let i = self.points.partition_point(|&(p, _)| p < point);
        self.points
            .get(i)
            .or_else(|| self.points.first())
            .map_or(0, |&(_, m)| m as usize)
    }

    /// The masters' addresses, by index.
    pub fn masters(&self) -> &[String] {
        &self.masters
    }

    /// Virtual nodes per master (after clamping).
    pub fn vnodes(&self) -> u32 {
        self.vnodes
    }

    /// Every point with its master's index, clockwise from 0 (for drawing the ring).
    pub fn points(&self) -> impl ExactSizeIterator<Item = (u32, usize)> + '_ {
        self.points.iter().map(|&(p, m)| (p, m as usize))
    }

    /// The fraction of the ring each master owns, by index (sums to 1): what it would get of
    /// infinitely many keys. Each point owns the arc from the previous point (exclusive) up to
    /// itself.
    pub fn arc_shares(&self) -> Vec<f64> {
        let mut arcs = vec![0u64; self.masters.len()];
        let mut prev = self.points.last().map_or(0, |&(p, _)| u64::from(p));
        for (i, &(p, m)) in self.points.iter().enumerate() {
            let p = u64::from(p);
            let len = if i == 0 {
                p + (1u64 << 32) - prev
            } else {
                p - prev
            };
            if let Some(a) = arcs.get_mut(m as usize) {
                *a += len;
            }
            prev = p;
        }
        let whole = (1u64 << 32) as f64;
        arcs.into_iter().map(|a| a as f64 / whole).collect()
    }
}

/// Keys on a ring of `addrs_before` with `vnodes` virtual nodes each (clamped to
/// `1..=`[`MAX_VNODES`]), then on the same ring with `new_addr` added (index
/// `addrs_before.len()` in `after`). Only keys now owned by `new_addr` move.
///
/// Fails with no master before, more than [`MAX_MASTERS`] after, or a repeated address.
pub fn ring_outcome<'a>(
    keys: impl IntoIterator<Item = &'a [u8]>,
    addrs_before: &[String],
    new_addr: &str,
    vnodes: u32,
) -> Result<Outcome, CompareError> {
    let before = Ring::new(addrs_before, vnodes)?;
    let mut after = before.clone();
    let new = after.add(new_addr)?;
    Ok(tally(
        keys,
        before.masters.len(),
        after.masters.len(),
        |key| {
            let point = ring_point(key);
            let a = after.owner_of_point(point);
            // `after` holds every point of `before` plus the new master's, in the same order, so
            // when the first point clockwise in `after` is an old master's it is the first in
            // `before` too: only keys now on the new master need the second lookup, and only
            // they can have moved. (Masters keep their index, so equal indices are one address.)
            let b = if a == new {
                before.owner_of_point(point)
            } else {
                a
            };
            (b, a)
        },
    ))
}

/// Counts keys per master before and after (by the indices `place` gives each key) and how
/// many changed master.
fn tally<'a>(
    keys: impl IntoIterator<Item = &'a [u8]>,
    n_before: usize,
    n_after: usize,
    mut place: impl FnMut(&[u8]) -> (usize, usize),
) -> Outcome {
    let mut before_counts = vec![0u64; n_before];
    let mut after_counts = vec![0u64; n_after];
    let (mut moved, mut total) = (0u64, 0u64);
    for key in keys {
        let (b, a) = place(key);
        if let Some(c) = before_counts.get_mut(b) {
            *c += 1;
        }
        if let Some(c) = after_counts.get_mut(a) {
            *c += 1;
        }
        if a != b {
            moved += 1;
        }
        total += 1;
    }
    Outcome {
        moved,
        total,
        before: Balance::from_counts(before_counts),
        after: Balance::from_counts(after_counts),
    }
}

// ---------------------------------------------------------------------------------------------
// (c) hash mod N
// ---------------------------------------------------------------------------------------------

/// Keys on master `hash64(key) % n_before`, then on `hash64(key) % (n_before + 1)`.
///
/// Fails with `n_before = 0` ([`CompareError::NoMasters`]) or `n_before + 1 >`
/// [`MAX_MASTERS`].
pub fn mod_n_outcome<'a>(
    keys: impl IntoIterator<Item = &'a [u8]>,
    n_before: usize,
) -> Result<Outcome, CompareError> {
    if n_before == 0 {
        return Err(CompareError::NoMasters);
    }
    if n_before >= MAX_MASTERS {
        return Err(CompareError::TooManyMasters {
            n_masters: n_before.saturating_add(1),
        });
    }
    let (nb, na) = (n_before as u64, n_before as u64 + 1);
    Ok(tally(keys, n_before, n_before + 1, |key| {
        let h = hash64(key);
        ((h % nb) as usize, (h % na) as usize)
    }))
}

/// The master [`mod_n_outcome`] puts `key` on among `n`: `hash64(key) % n` (`None` for
/// `n = 0`).
pub fn mod_n_owner(key: &[u8], n: usize) -> Option<usize> {
    let n = u64::try_from(n).ok().filter(|&n| n > 0)?;
    usize::try_from(hash64(key) % n).ok()
}

// ---------------------------------------------------------------------------------------------
// The whole experiment, as the page runs it.

/// Adding one master to `n_before`, three ways, on the same keys.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Masters before the new one joins.
    pub n_before: usize,
    /// Virtual nodes per master on the ring.
    pub vnodes: u32,
    /// Keys in the sample (`key:0` … `key:<n-1>`).
    pub n_keys: u32,
    /// Hash slots: `--cluster create` of `n_before` masters, `add-node`, then
    /// `rebalance --cluster-use-empty-masters` exactly as redis-cli plans it.
    pub slots: Outcome,
    /// Consistent hashing with `vnodes` points per master.
    pub ring: Outcome,
    /// `hash mod N` → `hash mod N+1`.
    pub mod_n: Outcome,
}

/// Runs the comparison the page shows: `n_keys` keys `key:<i>`, `n_before` masters on
/// 127.0.0.1:7000…, one more added at the next port.
pub fn add_one_master(
    n_before: usize,
    vnodes: u32,
    n_keys: u32,
) -> Result<Comparison, CompareError> {
    use super::cluster::rebalance::{rebalance_plan, RebalanceOptions};
    use super::cluster::reshard::apply;
    use crate::core::cluster::topology::Master;
    if n_before == 0 {
        return Err(CompareError::NoMasters);
    }
    if n_before + 1 > MAX_MASTERS {
        return Err(CompareError::TooManyMasters {
            n_masters: n_before + 1,
        });
    }
    let keys = KeySample::numbered(b"key:", n_keys);
    let before = SlotMap::created(n_before, "127.0.0.1", 7000).map_err(CompareError::Topology)?;
    let new_addr = format!("127.0.0.1:{}", 7000 + n_before);
    let mut after = before.clone();
    after
        .add_master(Master::new(
            new_addr.clone(),
            format!("{:040x}", n_before + 1),
        ))
        .map_err(CompareError::Topology)?;
    let order: Vec<usize> = (0..after.n_masters()).collect();
    let opts = RebalanceOptions {
        use_empty_masters: true,
        ..RebalanceOptions::default()
    };
    let plan = rebalance_plan(&after, &order, &opts).map_err(CompareError::Rebalance)?;
    apply(&mut after, plan.moves());
    let addrs: Vec<String> = before.masters().iter().map(|m| m.addr.clone()).collect();
    Ok(Comparison {
        n_before,
        vnodes: vnodes.clamp(1, MAX_VNODES),
        n_keys,
        slots: slots_outcome(&keys, &before, &after),
        ring: ring_outcome(&keys, &addrs, &new_addr, vnodes)?,
        mod_n: mod_n_outcome(&keys, n_before)?,
    })
}
