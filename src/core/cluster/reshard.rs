//! redis-cli 7.0's reshard (`clusterManagerCommandReshard`, `clusterManagerComputeReshardTable`)
//! and del-node check, the cluster check both reshard and rebalance run first, and the refusals
//! of every topology operation ([`ReshardError`]).
//!
//! Checked against the runs recorded from a real Redis 7.0.15 cluster
//! (`../shared/fixtures/reshard_cases`).
//!
//! * [`reshard_plan`] takes the sources in decreasing order of slot count (ties keep their list
//!   order), asks the first for `ceil(n * its / all)` slots and every other for `floor(...)`, and
//!   takes each source's lowest-numbered slots. Because of the floors fewer than `n` slots can
//!   move (5000 asked from three masters moves 4999).
//! * [`del_node_check`] refuses a master that still owns slots.
//!
//! Nothing here reads a clock or draws a random number: where redis-cli's result depends on the
//! order the entry node lists the nodes in (a hash table with a random seed), that order is an
//! argument.

use crate::core::cluster::topology::{Master, SlotMap};
use crate::core::key::slot::N_SLOTS;

/// One slot changing owner: `slot` goes from master `from` to master `to` (indices into
/// [`SlotMap::masters`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SlotMove {
    /// The slot that moves.
    pub slot: u16,
    /// Index of the master that gives it.
    pub from: usize,
    /// Index of the master that receives it.
    pub to: usize,
}

/// Where a reshard takes its slots from (`--cluster-from`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sources {
    /// `--cluster-from all`: every master but the target, in redis-cli's listing order
    /// ([`listing_order`]: the entry node, master 0, first; it only matters for the order of
    /// sources with equal slot counts). Failed masters are left out, as redis-cli cannot reach
    /// them.
    All,
    /// `--cluster-from <id>,<id>,…`: these masters, in this order.
    Masters(Vec<usize>),
}

/// Why an operation was refused, as data: the page words the refusals that are its own, and
/// quotes redis-cli's own lines ([`ReshardError::redis_cli_text`]) for the ones redis-cli words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReshardError {
    /// An index that names no master.
    NoSuchMaster {
        /// The index given.
        master_idx: usize,
    },
    /// The same master was named twice (as a source, or in a listing order).
    DuplicateMaster {
        /// The index given twice.
        master_idx: usize,
    },
    /// The target is also one of the sources (redis-cli's words).
    TargetIsSource {
        /// The target's address.
        master: String,
    },
    /// Slot counts outside 1..=16384.
    BadSlotCount {
        /// The count asked for.
        n_slots: usize,
    },
    /// No source master to take slots from (redis-cli's words).
    NoSources,
    /// The sources own no slots at all, so there is nothing to share out.
    SourcesOwnNothing,
    /// A master redis-cli could not use: it is flagged as failed, so redis-cli never loads it
    /// (redis-cli's words).
    NotKnown {
        /// The master's node id.
        id: String,
    },
    /// The cluster check that precedes a reshard or rebalance found a problem (redis-cli's
    /// words).
    ClusterNotOk {
        /// What the check found.
        problem: CheckProblem,
        /// What it stopped.
        operation: Operation,
    },
    /// A `--cluster-weight` that is negative, not a number, or too large for a C `float`.
    BadWeight {
        /// The master it was given for.
        master_idx: usize,
        /// The weight given, as a number written out.
        weight: String,
    },
    /// The masters taking part in a rebalance have weights adding up to 0.
    ZeroTotalWeight,
    /// A rebalance step found fewer slots on its source than it meant to move (redis-cli's own
    /// assertion; it cannot happen on a consistent map).
    TableMismatch,
    /// `--cluster del-node` of a master that still owns slots (redis-cli's words).
    NotEmpty {
        /// Its address, e.g. `127.0.0.1:7104`.
        master: String,
        /// How many slots it owns.
        slots: usize,
    },
    /// `--cluster del-node` of a node redis-cli does not know (a failed master is never loaded;
    /// redis-cli's words).
    NoSuchNode {
        /// The node id given.
        id: String,
    },
    /// A failover of a master that has already failed.
    AlreadyFailed {
        /// Its address.
        master: String,
    },
}

/// What `redis-cli --cluster check` found that stops a reshard or a rebalance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckProblem {
    /// A reachable master has open slots.
    OpenSlots {
        /// Its address.
        master: String,
        /// Migrating or importing.
        state: OpenState,
        /// The open slots, in the order the master lists them.
        slots: Vec<u16>,
    },
    /// Some slots have no reachable master.
    Uncovered,
}

/// Which way a slot is open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpenState {
    /// `[slot->-id]`: the master is giving it away.
    Migrating,
    /// `[slot-<-id]`: the master is receiving it.
    Importing,
}

/// The operation a failed cluster check stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    /// `--cluster reshard`.
    Reshard,
    /// `--cluster rebalance`.
    Rebalance,
}

impl ReshardError {
    /// What redis-cli prints when it refuses, verbatim, for the refusals redis-cli words itself
    /// (`*** …`, `[ERR] …`, `[WARNING] …` lines); `None` for the checks that are the page's own.
    ///
    /// ```
    /// use slotscope::core::cluster::reshard::{del_node_check, ReshardError};
    /// use slotscope::core::SlotMap;
    /// let map = SlotMap::created(3, "127.0.0.1", 7000).unwrap();
    /// let e = del_node_check(&map, 0).unwrap_err();
    /// assert_eq!(
    ///     e.redis_cli_text().as_deref(),
    ///     Some("[ERR] Node 127.0.0.1:7000 is not empty! Reshard data away and try again.")
    /// );
    /// assert_eq!(ReshardError::ZeroTotalWeight.redis_cli_text(), None);
    /// ```
    pub fn redis_cli_text(&self) -> Option<String> {
        match self {
            ReshardError::TargetIsSource { .. } => {
                Some("*** It is not possible to use the target node as source node.".to_owned())
            }
            ReshardError::NoSources => {
                Some("*** No source nodes given, operation aborted.".to_owned())
            }
            ReshardError::NotKnown { id } => Some(format!(
                "*** The specified node ({id}) is not known or not a master, please retry."
            )),
            ReshardError::ClusterNotOk { problem, operation } => {
                let problem = match problem {
                    CheckProblem::OpenSlots {
                        master,
                        state,
                        slots,
                    } => {
                        let state = match state {
                            OpenState::Migrating => "migrating",
                            OpenState::Importing => "importing",
                        };
                        let slots: Vec<String> = slots.iter().map(u16::to_string).collect();
                        format!(
                            "[WARNING] Node {master} has slots in {state} state {}.",
                            slots.join(",")
                        )
                    }
                    CheckProblem::Uncovered => {
                        format!("[ERR] Not all {N_SLOTS} slots are covered by nodes.")
                    }
                };
                let action = match operation {
                    Operation::Reshard => "resharding",
                    Operation::Rebalance => "rebalancing",
                };
                Some(format!(
                    "{problem}\n*** Please fix your cluster problems before {action}"
                ))
            }
            ReshardError::TableMismatch => {
                Some("*** Assertion failed: Reshard table != number of slots".to_owned())
            }
            ReshardError::NotEmpty { master, .. } => Some(format!(
                "[ERR] Node {master} is not empty! Reshard data away and try again."
            )),
            ReshardError::NoSuchNode { id } => Some(format!("[ERR] No such node ID {id}")),
            ReshardError::NoSuchMaster { .. }
            | ReshardError::DuplicateMaster { .. }
            | ReshardError::BadSlotCount { .. }
            | ReshardError::SourcesOwnNothing
            | ReshardError::BadWeight { .. }
            | ReshardError::ZeroTotalWeight
            | ReshardError::AlreadyFailed { .. } => None,
        }
    }
}

/// Whether master `idx` exists and redis-cli could reach it (not flagged `fail`).
pub(super) fn usable(map: &SlotMap, idx: usize) -> bool {
    map.masters().get(idx).is_some_and(|m| !m.is_failed())
}

pub(super) fn check_index(map: &SlotMap, idx: usize) -> Result<&Master, ReshardError> {
    map.masters()
        .get(idx)
        .ok_or(ReshardError::NoSuchMaster { master_idx: idx })
}

/// The part of `redis-cli --cluster check` that makes reshard and rebalance refuse to start:
/// open slots (migrating/importing) and slots no reachable master serves.
pub(super) fn cluster_check(map: &SlotMap, operation: Operation) -> Result<(), ReshardError> {
    for m in map.masters().iter().filter(|m| !m.is_failed()) {
        for (state, open) in [
            (OpenState::Migrating, &m.migrating),
            (OpenState::Importing, &m.importing),
        ] {
            if !open.is_empty() {
                return Err(ReshardError::ClusterNotOk {
                    problem: CheckProblem::OpenSlots {
                        master: m.addr.clone(),
                        state,
                        slots: open.iter().map(|&(s, _)| s).collect(),
                    },
                    operation,
                });
            }
        }
    }
    let covered = (0..N_SLOTS as u16).all(|s| map.owner(s).is_some_and(|m| usable(map, m)));
    if !covered {
        return Err(ReshardError::ClusterNotOk {
            problem: CheckProblem::Uncovered,
            operation,
        });
    }
    Ok(())
}

/// Node ids of the fixtures' cluster in the order its entry node 127.0.0.1:7000 lists them in
/// `CLUSTER NODES` (transcripts 10, 12, 14 and 16 agree; 2d5df5ae… is 7006, added in
/// transcript 11).
const FIXTURE_LISTING: [&str; 7] = [
    "71fd5a01708f5b5aeee008680022eaad63c28eec",
    "2d5df5ae37ad6494038d3c6164be00382e79eb5a",
    "d3bede0cd4ba07708f552c2e44e8211e0d571a39",
    "3e3df1281e2f65d6e94e784173572c1b4820eccb",
    "44084a172411812451c56a0a3330ec6daa733083",
    "bded1dae701c0590f42e07edd6c4f72dcd531d82",
    "f7c6b5d608aefdd517b33641eb638ce56252d0b4",
];

/// The order redis-cli lists the masters in (`clusterManagerLoadInfoFromNode`): the entry node
/// first (the lab enters at the first master that has not failed, [`entry_master`]), then every other node in the order the entry
/// node's `CLUSTER NODES` lists them. That order is the iteration order of a hash table with a
/// random seed, so the page cannot know it in general: for the fixtures' nodes it is the one
/// recorded (7000, [7006,] 7002, 7001: why transcript 15's rebalance moves from 7001, then 7002,
/// then 7000), and other masters follow in index order.
pub fn listing_order(map: &SlotMap) -> Vec<usize> {
    // Each master's rank once (not at every comparison of the sort: 40-byte id compares).
    let ranks: Vec<usize> = map
        .masters()
        .iter()
        .map(|m| {
            FIXTURE_LISTING
                .iter()
                .position(|id| *id == m.id)
                .unwrap_or(FIXTURE_LISTING.len())
        })
        .collect();
    let entry = entry_master(map);
    let mut rest: Vec<usize> = (0..map.n_masters()).filter(|&i| Some(i) != entry).collect();
    crate::core::sort::sort_by_key(&mut rest, |&i| ranks[i]);
    let mut order = Vec::with_capacity(map.n_masters());
    order.extend(entry);
    order.extend(rest);
    order
}

/// The master the lab's redis-cli commands enter the cluster by: the first that has not failed
/// (master 0 unless it failed; the transcripts enter at 127.0.0.1:7000).
pub fn entry_master(map: &SlotMap) -> Option<usize> {
    let masters = map.masters();
    masters
        .iter()
        .position(|m| !m.is_failed())
        .or((!masters.is_empty()).then_some(0))
}

/// `clusterManagerComputeReshardTable`: up to `numslots` moves taken from `sources`.
///
/// The sources are sorted by `counts` (their `slots_count`) in decreasing order. redis-cli uses
/// `qsort`, which is not stable in general; glibc's `qsort` merge-sorts arrays this small, so
/// sources with equal counts keep their list order, and that is what the recorded runs show
/// (7100 before 7102, both with 5461 slots). A stable sort reproduces it.
///
/// The share is computed in C `float`: `(float) numslots / tot_slots * slots_count`, `ceil` for
/// the first source and `floor` for the others, then truncated to `int`. Each source gives its
/// lowest-numbered slots, read from `map` (which, during a rebalance, already reflects earlier
/// steps while `counts` does not: redis-cli updates `node->slots` but not `slots_count`).
pub(super) fn reshard_table(
    map: &SlotMap,
    sources: &[usize],
    counts: &[usize],
    numslots: usize,
) -> Vec<(u16, usize)> {
    let tot_slots: usize = sources.iter().map(|&s| counts[s]).sum();
    let mut sorted = sources.to_vec();
    crate::core::sort::sort_by(&mut sorted, |&a, &b| counts[b].cmp(&counts[a]));
    // A source's lowest slots. redis-cli scans the slots once per source, stopping at its
    // share: right for a few sources (rebalance asks for one at a time), but a reshard from
    // all of 1000 masters made that 16 million reads (issue 17). Past `FEW` sources, each
    // source's slots come from one pass over the slots instead.
    const FEW: usize = 8;
    let listed: Option<Vec<Vec<u16>>> = (sources.len() > FEW).then(|| {
        let mut lists: Vec<Option<Vec<u16>>> = vec![None; map.n_masters()];
        for &src in sources {
            if let Some(l) = lists.get_mut(src) {
                *l = Some(Vec::new());
            }
        }
        for slot in 0..N_SLOTS as u16 {
            if let Some(Some(l)) = map.owner(slot).and_then(|m| lists.get_mut(m)) {
                l.push(slot);
            }
        }
        lists.into_iter().map(Option::unwrap_or_default).collect()
    });
    let mut moved = Vec::new();
    for (i, &src) in sorted.iter().enumerate() {
        let share = numslots as f32 / tot_slots as f32 * counts[src] as f32;
        let share = if i == 0 { share.ceil() } else { share.floor() };
        // `(int) n`; the share is finite and non-negative here (tot_slots > 0 is checked first).
        let max = share as usize;
        // Its lowest `max` slots, and never past `numslots` in all.
        let take = max.min(numslots.saturating_sub(moved.len()));
        match &listed {
            Some(lists) => {
                let own = lists.get(src).map_or(&[][..], Vec::as_slice);
                moved.extend(own.iter().take(take).map(|&slot| (slot, src)));
            }
            None => moved.extend(
                (0..N_SLOTS as u16)
                    .filter(|&slot| map.owner(slot) == Some(src))
                    .take(take)
                    .map(|slot| (slot, src)),
            ),
        }
    }
    moved
}

/// The moves `redis-cli --cluster reshard --cluster-from … --cluster-to <target>
/// --cluster-slots <n_slots> --cluster-yes` performs, in the order it performs them.
///
/// Sources are taken in decreasing order of slot count (equal counts keep their order); the
/// first gives `ceil(n_slots * its_slots / all_source_slots)` slots and each other source
/// `floor(...)`, always its lowest-numbered slots, so fewer than `n_slots` can move.
///
/// Refused, as redis-cli refuses: an unknown or failed target or source, a target that is also a
/// source (redis-cli prints the same message, skips that source and goes on; here the plan is
/// refused so the reader sees why), `n_slots` outside 1..=16384, no sources, sources owning no
/// slots, and a cluster with open or uncovered slots.
///
/// ```
/// use slotscope::core::cluster::reshard::{reshard_plan, Sources};
/// use slotscope::core::{Master, SlotMap};
/// let mut map = SlotMap::fixture_cluster();
/// let new = map.add_master(Master::new("127.0.0.1:7006", "n")).unwrap();
/// let moves = reshard_plan(&map, &Sources::All, new, 1000).unwrap();
/// assert_eq!(moves.len(), 1000);
/// // 7001 holds the most slots (5462), so it goes first and gives ceil(333.4) = 334.
/// assert_eq!((moves[0].slot, moves[0].from), (5461, 1));
/// ```
pub fn reshard_plan(
    map: &SlotMap,
    sources: &Sources,
    target: usize,
    n_slots: usize,
) -> Result<Vec<SlotMove>, ReshardError> {
    if n_slots == 0 || n_slots > N_SLOTS {
        return Err(ReshardError::BadSlotCount { n_slots });
    }
    let target_master = check_index(map, target)?;
    let srcs: Vec<usize> = match sources {
        Sources::All => listing_order(map)
            .into_iter()
            .filter(|&i| i != target && usable(map, i))
            .collect(),
        Sources::Masters(list) => {
            for (k, &s) in list.iter().enumerate() {
                check_index(map, s)?;
                if list[..k].contains(&s) {
                    return Err(ReshardError::DuplicateMaster { master_idx: s });
                }
                if s == target {
                    return Err(ReshardError::TargetIsSource {
                        master: target_master.addr.clone(),
                    });
                }
            }
            list.clone()
        }
    };
    cluster_check(map, Operation::Reshard)?;
    if target_master.is_failed() {
        return Err(ReshardError::NotKnown {
            id: target_master.id.clone(),
        });
    }
    if let Some(&bad) = srcs.iter().find(|&&s| !usable(map, s)) {
        return Err(ReshardError::NotKnown {
            id: map.masters()[bad].id.clone(),
        });
    }
    if srcs.is_empty() {
        return Err(ReshardError::NoSources);
    }
    let counts = map.slot_counts();
    if srcs.iter().all(|&s| counts[s] == 0) {
        return Err(ReshardError::SourcesOwnNothing);
    }
    Ok(reshard_table(map, &srcs, &counts, n_slots)
        .into_iter()
        .map(|(slot, from)| SlotMove {
            slot,
            from,
            to: target,
        })
        .collect())
}

/// Performs `moves` in order: each slot gets its new owner, as `CLUSTER SETSLOT <slot> NODE <to>`
/// does, and the slot's open states end (`migrating` on the giver, `importing` on the receiver).
/// The receiver, which redis-cli set importing first, bumps its config epoch without consensus
/// when it is 0 or not the cluster's greatest ([`SlotMap::bump_epoch_without_consensus`]): after
/// transcript 13's reshard the new master 7006 shows epoch 9, the current epoch 8 plus one.
///
/// The owner is not checked against `from`; moves naming a master or slot that does not exist
/// are skipped.
pub fn apply(map: &mut SlotMap, moves: &[SlotMove]) {
    for mv in moves {
        if mv.to >= map.n_masters() || mv.slot as usize >= N_SLOTS {
            continue;
        }
        map.assign(mv.slot, Some(mv.to));
        map.bump_epoch_without_consensus(mv.to);
        if let Some(m) = map.master_mut(mv.from) {
            m.migrating.retain(|(s, _)| *s != mv.slot);
        }
        if let Some(m) = map.master_mut(mv.to) {
            m.importing.retain(|(s, _)| *s != mv.slot);
        }
    }
}

/// `redis-cli --cluster del-node <entry> <id>`'s check: a master that owns slots is refused with
/// `[ERR] Node 127.0.0.1:7104 is not empty! Reshard data away and try again.`
/// ([`ReshardError::redis_cli_text`]).
/// A failed master is unknown to redis-cli (`[ERR] No such node ID <id>`): it never loads
/// unreachable nodes, so such a node is forgotten by hand (`CLUSTER FORGET` on every node).
///
/// `Ok` means del-node would go ahead; [`SlotMap::remove_master`] then removes it.
pub fn del_node_check(map: &SlotMap, master: usize) -> Result<(), ReshardError> {
    let m = check_index(map, master)?;
    if m.is_failed() {
        return Err(ReshardError::NoSuchNode { id: m.id.clone() });
    }
    let slots = map.slot_counts()[master];
    if slots != 0 {
        return Err(ReshardError::NotEmpty {
            master: m.addr.clone(),
            slots,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_share_is_computed_in_float() {
        // 5000 slots from 5462 + 5461 + 5461: 1667 + 1666 + 1666 = 4999.
        let map = SlotMap::created(3, "127.0.0.1", 7100).unwrap();
        let counts = map.slot_counts();
        let t = reshard_table(&map, &[0, 1, 2], &counts, 5000);
        assert_eq!(t.len(), 4999);
        assert_eq!(t[0], (5461, 1));
        assert_eq!(t[1667], (0, 0));
    }

    /// redis-cli's `clusterManagerComputeReshardTable` as it is written (redis-cli.c, 7.0.15):
    /// for each source, every slot from 0 up, taking the source's own until its share.
    fn scanned(
        map: &SlotMap,
        sources: &[usize],
        counts: &[usize],
        numslots: usize,
    ) -> Vec<(u16, usize)> {
        let tot: usize = sources.iter().map(|&s| counts[s]).sum();
        let mut sorted = sources.to_vec();
        crate::core::sort::sort_by(&mut sorted, |&a, &b| counts[b].cmp(&counts[a]));
        let mut moved = Vec::new();
        for (i, &src) in sorted.iter().enumerate() {
            let share = numslots as f32 / tot as f32 * counts[src] as f32;
            let max = (if i == 0 { share.ceil() } else { share.floor() }) as usize;
            let mut count = 0;
            for slot in 0..N_SLOTS as u16 {
                if map.owner(slot) != Some(src) {
                    continue;
                }
                if count >= max || moved.len() >= numslots {
                    break;
                }
                moved.push((slot, src));
                count += 1;
            }
        }
        moved
    }

    #[test]
    fn many_sources_take_the_slots_redis_cli_scans_for() {
        // 40 masters, their slots scattered (every 7th slot to another master), and counts
        // that lag the map as they do during a rebalance: the one-pass listing (past 8
        // sources) gives the same moves, in the same order, as the scan.
        let mut map = SlotMap::created(40, "127.0.0.1", 7100).unwrap();
        for slot in (0..N_SLOTS as u16).step_by(7) {
            map.assign(slot, Some(usize::from(slot) % 40));
        }
        let mut counts = map.slot_counts();
        counts[3] += 50;
        let all: Vec<usize> = (0..40).collect();
        let some: Vec<usize> = (5..30).rev().collect();
        for sources in [&all[..], &some[..], &all[..3]] {
            for numslots in [1, 17, 1000, 4095, 16384] {
                let got = reshard_table(&map, sources, &counts, numslots);
                assert_eq!(
                    got,
                    scanned(&map, sources, &counts, numslots),
                    "{} sources, {numslots} slots",
                    sources.len()
                );
                assert!(!got.is_empty());
            }
        }
    }
}
