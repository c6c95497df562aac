//! Topology operations exactly as redis-cli performs them: reshard, rebalance, del-node, failover.
//!
//! Everything here follows redis-cli 7.0 (`src/redis-cli.c`): `clusterManagerCommandReshard`,
//! `clusterManagerComputeReshardTable`, `clusterManagerCommandRebalance`,
//! `clusterManagerCommandDeleteNode` and `clusterManagerMoveSlot`, and was checked against the
//! runs recorded from a real Redis 7.0.15 cluster (`../shared/fixtures/reshard_cases`).
//!
//! * [`reshard_plan`] takes the sources in decreasing order of slot count (ties keep their list
//!   order), asks the first for `ceil(n * its / all)` slots and every other for `floor(...)`, and
//!   takes each source's lowest-numbered slots. Because of the floors fewer than `n` slots can
//!   move (5000 asked from three masters moves 4999).
//! * [`rebalance_plan`] gives each master a share of 16384 proportional to its weight, stops if
//!   every master is within the threshold, hands the slots lost to rounding to the masters that
//!   must gain (in list order, one at a time), then repeatedly moves slots from the master with the
//!   largest surplus to the one with the largest deficit.
//! * [`del_node_check`] refuses a master that still owns slots.
//! * [`failover`] promotes a replica (or leaves the slots uncovered).
//!
//! Nothing here reads a clock or draws a random number: where redis-cli's result depends on the
//! order the entry node lists the nodes in (a hash table with a random seed), that order is an
//! argument.

use super::slot::N_SLOTS;
use super::topology::{Master, Replica, SlotMap};
use core::fmt;

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
    /// `--cluster-from all`: every master but the target, in master index order (redis-cli uses
    /// the entry node's listing order; it only matters for the order of sources with equal slot
    /// counts, and index order puts the entry node first when it is master 0). Failed masters are
    /// left out, as redis-cli cannot reach them.
    All,
    /// `--cluster-from <id>,<id>,…`: these masters, in this order.
    Masters(Vec<usize>),
}

/// Why an operation was refused. The `Display` text is redis-cli's own where it has one.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
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
    /// The target is also one of the sources.
    TargetIsSource {
        /// The target's address.
        master: String,
    },
    /// Slot counts outside 1..=16384.
    BadSlotCount {
        /// The count asked for.
        n_slots: usize,
    },
    /// No source master to take slots from.
    NoSources,
    /// The sources own no slots at all, so there is nothing to share out.
    SourcesOwnNothing,
    /// A master redis-cli could not use: it is flagged as failed, so redis-cli never loads it.
    NotKnown {
        /// The master's node id.
        id: String,
    },
    /// The cluster check that precedes a reshard or rebalance found a problem.
    ClusterNotOk {
        /// What the check printed, e.g. `[ERR] Not all 16384 slots are covered by nodes.`
        problem: String,
        /// `resharding` or `rebalancing`.
        action: &'static str,
    },
    /// A `--cluster-weight` that is negative, not a number, or too large for a C `float`.
    BadWeight {
        /// The master it was given for.
        master_idx: usize,
        /// The weight given.
        weight: String,
    },
    /// The masters taking part in a rebalance have weights adding up to 0.
    ZeroTotalWeight,
    /// A rebalance step found fewer slots on its source than it meant to move (redis-cli's own
    /// assertion; it cannot happen on a consistent map).
    TableMismatch,
    /// `--cluster del-node` of a master that still owns slots.
    NotEmpty {
        /// Its address, e.g. `127.0.0.1:7104`.
        master: String,
        /// How many slots it owns.
        slots: usize,
    },
    /// `--cluster del-node` of a node redis-cli does not know (a failed master is never loaded).
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

impl fmt::Display for ReshardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReshardError::NoSuchMaster { master_idx } => {
                write!(f, "no master number {master_idx}")
            }
            ReshardError::DuplicateMaster { master_idx } => {
                write!(f, "master number {master_idx} is listed twice")
            }
            ReshardError::TargetIsSource { .. } => f.write_str(
                "*** It is not possible to use the target node as source node.",
            ),
            ReshardError::BadSlotCount { n_slots } => write!(
                f,
                "cannot move {n_slots} slots: the number must be from 1 to {N_SLOTS}"
            ),
            ReshardError::NoSources => {
                f.write_str("*** No source nodes given, operation aborted.")
            }
            ReshardError::SourcesOwnNothing => {
                f.write_str("the source nodes own no slots: there is nothing to move")
            }
            ReshardError::NotKnown { id } => write!(
                f,
                "*** The specified node ({id}) is not known or not a master, please retry."
            ),
            ReshardError::ClusterNotOk { problem, action } => write!(
                f,
                "{problem}\n*** Please fix your cluster problems before {action}"
            ),
            ReshardError::BadWeight { master_idx, weight } => write!(
                f,
                "weight {weight} for master number {master_idx}: a weight must be a number from 0 up"
            ),
            ReshardError::ZeroTotalWeight => {
                f.write_str("the weights of the masters add up to 0: there are no shares to compute")
            }
            ReshardError::TableMismatch => {
                f.write_str("*** Assertion failed: Reshard table != number of slots")
            }
            ReshardError::NotEmpty { master, .. } => write!(
                f,
                "[ERR] Node {master} is not empty! Reshard data away and try again."
            ),
            ReshardError::NoSuchNode { id } => write!(f, "[ERR] No such node ID {id}"),
            ReshardError::AlreadyFailed { master } => {
                write!(f, "{master} has already failed")
            }
        }
    }
}

impl std::error::Error for ReshardError {}

/// Whether master `idx` exists and redis-cli could reach it (not flagged `fail`).
fn usable(map: &SlotMap, idx: usize) -> bool {
    map.masters().get(idx).is_some_and(|m| !m.is_failed())
}

fn check_index(map: &SlotMap, idx: usize) -> Result<&Master, ReshardError> {
    map.masters()
        .get(idx)
        .ok_or(ReshardError::NoSuchMaster { master_idx: idx })
}

/// The part of `redis-cli --cluster check` that makes reshard and rebalance refuse to start:
/// open slots (migrating/importing) and slots no reachable master serves.
fn cluster_check(map: &SlotMap, action: &'static str) -> Result<(), ReshardError> {
    for m in map.masters().iter().filter(|m| !m.is_failed()) {
        for (state, open) in [("migrating", &m.migrating), ("importing", &m.importing)] {
            if !open.is_empty() {
                let slots: Vec<String> = open.iter().map(|(s, _)| s.to_string()).collect();
                return Err(ReshardError::ClusterNotOk {
                    problem: format!(
                        "[WARNING] Node {} has slots in {state} state {}.",
                        m.addr,
                        slots.join(",")
                    ),
                    action,
                });
            }
        }
    }
    let covered = (0..N_SLOTS as u16).all(|s| map.owner(s).is_some_and(|m| usable(map, m)));
    if !covered {
        return Err(ReshardError::ClusterNotOk {
            problem: format!("[ERR] Not all {N_SLOTS} slots are covered by nodes."),
            action,
        });
    }
    Ok(())
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
fn reshard_table(
    map: &SlotMap,
    sources: &[usize],
    counts: &[usize],
    numslots: usize,
) -> Vec<(u16, usize)> {
    let tot_slots: usize = sources.iter().map(|&s| counts[s]).sum();
    let mut sorted = sources.to_vec();
    crate::core::sort::sort_by(&mut sorted, |&a, &b| counts[b].cmp(&counts[a]));
    let mut moved = Vec::new();
    for (i, &src) in sorted.iter().enumerate() {
        let share = numslots as f32 / tot_slots as f32 * counts[src] as f32;
        let share = if i == 0 { share.ceil() } else { share.floor() };
        // `(int) n`; the share is finite and non-negative here (tot_slots > 0 is checked first).
        let max = share as usize;
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
/// use slotscope::core::reshard::{reshard_plan, Sources};
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
        Sources::All => (0..map.n_masters())
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
    cluster_check(map, "resharding")?;
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
///
/// The owner is not checked against `from`; moves naming a master or slot that does not exist
/// are skipped.
pub fn apply(map: &mut SlotMap, moves: &[SlotMove]) {
    for mv in moves {
        if mv.to >= map.n_masters() || mv.slot as usize >= N_SLOTS {
            continue;
        }
        map.assign(mv.slot, Some(mv.to));
        if let Some(m) = map.master_mut(mv.from) {
            m.migrating.retain(|(s, _)| *s != mv.slot);
        }
        if let Some(m) = map.master_mut(mv.to) {
            m.importing.retain(|(s, _)| *s != mv.slot);
        }
    }
}

/// Options of `redis-cli --cluster rebalance`.
#[derive(Clone, Debug, PartialEq)]
pub struct RebalanceOptions {
    /// `--cluster-weight <id>=<w>`: master index and weight. Masters not listed weigh 1; a
    /// master listed twice takes the last weight. redis-cli keeps weights in C `float`.
    pub weights: Vec<(usize, f64)>,
    /// `--cluster-threshold`, in percent (default 2). Rebalancing happens only if some master's
    /// slot count differs from its share by more than this. As in redis-cli, a threshold of 0 or
    /// less means "never".
    pub threshold: f64,
    /// `--cluster-use-empty-masters`: masters with no slots take part (otherwise they are left
    /// out, and a cluster whose other masters are even needs nothing).
    pub use_empty_masters: bool,
}

impl Default for RebalanceOptions {
    fn default() -> Self {
        RebalanceOptions {
            weights: Vec::new(),
            threshold: 2.0,
            use_empty_masters: false,
        }
    }
}

/// One master's numbers in a rebalance, as redis-cli computes them.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeBalance {
    /// The master's index.
    pub master: usize,
    /// Its weight.
    pub weight: f64,
    /// The slots it owns before the rebalance.
    pub slots: usize,
    /// Its share: `(int)(16384.0f / total_weight * weight)`, in C `float`.
    pub expected: i64,
    /// Slots it must give (positive) or receive (negative): `slots - expected`, then lowered by
    /// one for each leftover slot it was handed (only nodes that must gain get those).
    pub balance: i64,
}

/// One `Moving <K> slots from <src> to <dst>` step of a rebalance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Batch {
    /// Index of the master giving slots.
    pub from: usize,
    /// Index of the master receiving them.
    pub to: usize,
    /// How many slots move (always the giver's lowest-numbered ones at that point).
    pub slots: usize,
}

/// What `redis-cli --cluster rebalance` decides.
#[derive(Clone, Debug, PartialEq)]
pub enum Rebalance {
    /// `*** No rebalancing needed! All nodes are within the <threshold>% threshold.`
    NotNeeded {
        /// The threshold, in percent, as redis-cli holds it (a C `float`).
        threshold: f64,
        /// The masters taking part, in listing order.
        nodes: Vec<NodeBalance>,
    },
    /// `>>> Rebalancing across <N> nodes. Total weight = <W>` and its steps.
    Plan {
        /// The masters taking part, in listing order.
        nodes: Vec<NodeBalance>,
        /// The sum of their weights.
        total_weight: f64,
        /// The `Moving K slots from A to B` steps, in order.
        batches: Vec<Batch>,
        /// Every slot that moves, in order (batch after batch). `--cluster-simulate` prints the
        /// same plan and moves nothing: simply do not [`apply`] these.
        moves: Vec<SlotMove>,
    },
}

impl Rebalance {
    /// The slots that move (none when no rebalancing is needed).
    pub fn moves(&self) -> &[SlotMove] {
        match self {
            Rebalance::NotNeeded { .. } => &[],
            Rebalance::Plan { moves, .. } => moves,
        }
    }

    /// The lines redis-cli prints for this decision (without the `#` progress bars), with the
    /// masters' addresses taken from `map`.
    pub fn redis_cli_lines(&self, map: &SlotMap) -> Vec<String> {
        let addr = |i: usize| {
            map.masters()
                .get(i)
                .map_or_else(|| format!("master {i}"), |m| m.addr.clone())
        };
        match self {
            Rebalance::NotNeeded { threshold, .. } => vec![format!(
                "*** No rebalancing needed! All nodes are within the {threshold:.2}% threshold."
            )],
            Rebalance::Plan {
                nodes,
                total_weight,
                batches,
                ..
            } => {
                let mut out = vec![format!(
                    ">>> Rebalancing across {} nodes. Total weight = {total_weight:.2}",
                    nodes.len()
                )];
                out.extend(batches.iter().map(|b| {
                    format!(
                        "Moving {} slots from {} to {}",
                        b.slots,
                        addr(b.from),
                        addr(b.to)
                    )
                }));
                out
            }
        }
    }
}

/// What `redis-cli --cluster rebalance <entry>` would do.
///
/// `order` is the order redis-cli lists the nodes in: the entry node first, then the entry
/// node's own `CLUSTER NODES` order (random from run to run; the `M:` lines of a
/// `--cluster check` show it). Masters missing from `order` follow it in index order. The order
/// matters twice: the slots lost to rounding go one at a time to the masters that must gain
/// (balance <= 0), cycling through them in this order, and masters with equal balance keep this
/// order when sorted (glibc's `qsort` merge-sorts, so the sort is stable; the recorded runs
/// agree). Slots then go from the largest surplus to the largest deficit, each giver giving its
/// lowest-numbered slots.
///
/// All arithmetic is C `float` as in redis-cli: weights, the total weight, the threshold, and
/// `expected = (int)(16384.0f / total_weight * weight)`; the error percentage is computed in
/// `double` and then stored in a `float`, as there.
///
/// Failed masters are left out (redis-cli cannot reach them). Refused: an unknown or repeated
/// index, a bad weight, weights adding up to 0, a cluster with open or uncovered slots.
pub fn rebalance_plan(
    map: &SlotMap,
    order: &[usize],
    opts: &RebalanceOptions,
) -> Result<Rebalance, ReshardError> {
    let n = map.n_masters();
    for (k, &m) in order.iter().enumerate() {
        check_index(map, m)?;
        if order[..k].contains(&m) {
            return Err(ReshardError::DuplicateMaster { master_idx: m });
        }
    }
    let mut listing = order.to_vec();
    listing.extend((0..n).filter(|m| !order.contains(m)));

    let mut weight = vec![1.0f32; n];
    for &(m, w) in &opts.weights {
        let master = check_index(map, m)?;
        let w32 = w as f32;
        if !(w32.is_finite() && w32 >= 0.0) {
            return Err(ReshardError::BadWeight {
                master_idx: m,
                weight: w.to_string(),
            });
        }
        if master.is_failed() {
            return Err(ReshardError::NotKnown {
                id: master.id.clone(),
            });
        }
        weight[m] = w32;
    }

    let counts = map.slot_counts();
    let mut total_weight = 0.0f32;
    let mut involved = Vec::new();
    for &m in &listing {
        if !usable(map, m) {
            continue;
        }
        if !opts.use_empty_masters && counts[m] == 0 {
            continue;
        }
        total_weight += weight[m];
        involved.push(m);
    }
    cluster_check(map, "rebalancing")?;
    if !involved.is_empty() && total_weight <= 0.0 {
        // redis-cli would compute 16384 / 0 * 0 = NaN and convert it to int (undefined).
        return Err(ReshardError::ZeroTotalWeight);
    }

    let threshold = opts.threshold as f32;
    let mut balance = vec![0i64; n];
    let mut nodes = Vec::with_capacity(involved.len());
    let mut threshold_reached = false;
    let mut total_balance = 0i64;
    for &m in &involved {
        let expected = ((N_SLOTS as f32 / total_weight) * weight[m]) as i64;
        let slots = counts[m] as i64;
        balance[m] = slots - expected;
        total_balance += balance[m];
        let over = if threshold > 0.0 {
            if slots > 0 {
                let err_perc = (100.0 - (100.0 * expected as f64 / slots as f64)).abs() as f32;
                err_perc > threshold
            } else {
                expected > 1
            }
        } else {
            false
        };
        threshold_reached |= over;
        nodes.push(NodeBalance {
            master: m,
            weight: weight[m] as f64,
            slots: counts[m],
            expected,
            balance: 0,
        });
    }
    if !threshold_reached {
        for node in &mut nodes {
            node.balance = balance[node.master];
        }
        return Ok(Rebalance::NotNeeded {
            threshold: threshold as f64,
            nodes,
        });
    }

    // Rounding leaves some slots unassigned: hand them, one at a time, to the nodes that must
    // gain, cycling in list order. (redis-cli would spin forever if no node could take one;
    // that cannot happen with non-negative weights, but stop rather than hang.)
    while total_balance > 0 {
        let mut handed = false;
        for &m in &involved {
            if balance[m] <= 0 && total_balance > 0 {
                balance[m] -= 1;
                total_balance -= 1;
                handed = true;
            }
        }
        if !handed {
            break;
        }
    }
    for node in &mut nodes {
        node.balance = balance[node.master];
    }

    // Stable, like glibc's merge-sorting qsort: equal balances keep their list order.
    let mut sorted = involved.clone();
    crate::core::sort::sort_by_key(&mut sorted, |&m| balance[m]);

    let mut work = map.clone();
    let mut batches = Vec::new();
    let mut moves = Vec::new();
    let mut dst_idx = 0usize;
    let mut src_idx = sorted.len().saturating_sub(1);
    while dst_idx < src_idx {
        let (dst, src) = (sorted[dst_idx], sorted[src_idx]);
        let numslots = balance[dst].unsigned_abs().min(balance[src].unsigned_abs()) as usize;
        if numslots > 0 {
            // redis-cli updates node->slots as it goes but not slots_count: pass the old counts.
            let table = reshard_table(&work, &[src], &counts, numslots);
            if table.len() != numslots {
                return Err(ReshardError::TableMismatch);
            }
            let step: Vec<SlotMove> = table
                .into_iter()
                .map(|(slot, from)| SlotMove {
                    slot,
                    from,
                    to: dst,
                })
                .collect();
            apply(&mut work, &step);
            moves.extend(step);
            batches.push(Batch {
                from: src,
                to: dst,
                slots: numslots,
            });
        }
        balance[dst] += numslots as i64;
        balance[src] -= numslots as i64;
        let (dst_done, src_done) = (balance[dst] == 0, balance[src] == 0);
        if dst_done {
            dst_idx += 1;
        }
        if src_done {
            src_idx -= 1;
        }
        if !dst_done && !src_done {
            // Only reachable when balances no longer add up (e.g. every node above its share);
            // redis-cli would loop moving slots the wrong way. Stop here instead.
            break;
        }
    }
    Ok(Rebalance::Plan {
        nodes,
        total_weight: total_weight as f64,
        batches,
        moves,
    })
}

/// `redis-cli --cluster del-node <entry> <id>`'s check: a master that owns slots is refused with
/// `[ERR] Node 127.0.0.1:7104 is not empty! Reshard data away and try again.` (its `Display`).
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

/// What became of a master that failed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FailoverOutcome {
    /// A replica took over: it is now the master at the same index, owning the same slots; the
    /// old master is its replica, flagged `fail`.
    Promoted {
        /// The master's index (unchanged).
        master: usize,
        /// Address of the replica that became master.
        promoted: String,
        /// Address of the master that failed.
        failed: String,
    },
    /// No replica could take over: the master keeps the `fail` flag and its slots are served by
    /// nobody (the cluster is down for them: `CLUSTERDOWN`, and `--cluster check` reports
    /// `[ERR] Not all 16384 slots are covered by nodes.`).
    Uncovered {
        /// The master's index.
        master: usize,
        /// How many slots lost their owner.
        slots: usize,
    },
    /// The master owned no slots. Redis elects no replica for a master without slots
    /// (`clusterHandleSlaveFailover` returns early), so it is only flagged `fail`.
    NoSlots {
        /// The master's index.
        master: usize,
    },
}

/// Fails master `master` and does what the cluster does about it.
///
/// The replica promoted is the first one listed in [`Master::replicas`] that is not itself
/// flagged as failed. (Real replicas rank themselves by replication offset; the page has no
/// offsets, so list order stands in for it.) It becomes the master at the same index, owning
/// exactly the same slots, with no open slots (migrating/importing states are per node and die
/// with the old master); the other replicas follow it, and the old master is listed last among
/// its replicas, flagged `fail`. With no usable replica the slots become uncovered.
pub fn failover(map: &mut SlotMap, master: usize) -> Result<FailoverOutcome, ReshardError> {
    let old = check_index(map, master)?.clone();
    if old.is_failed() {
        return Err(ReshardError::AlreadyFailed { master: old.addr });
    }
    let slots = map.slot_counts()[master];
    let mut failed_flags: Vec<String> = old
        .flags
        .iter()
        .filter(|f| *f != "fail" && *f != "fail?")
        .cloned()
        .collect();
    failed_flags.push("fail".to_owned());
    let pick = old
        .replicas
        .iter()
        .position(|r| !r.flags.iter().any(|f| f == "fail" || f == "fail?"));
    if slots == 0 {
        if let Some(m) = map.master_mut(master) {
            m.flags = failed_flags;
        }
        return Ok(FailoverOutcome::NoSlots { master });
    }
    let Some(p) = pick else {
        if let Some(m) = map.master_mut(master) {
            m.flags = failed_flags;
        }
        for slot in 0..N_SLOTS as u16 {
            if map.owner(slot) == Some(master) {
                map.assign(slot, None);
            }
        }
        return Ok(FailoverOutcome::Uncovered { master, slots });
    };
    let mut replicas = old.replicas.clone();
    let chosen = replicas.remove(p);
    replicas.push(Replica {
        addr: old.addr.clone(),
        id: old.id.clone(),
        flags: failed_flags,
    });
    if let Some(m) = map.master_mut(master) {
        *m = Master {
            flags: chosen.flags.clone(),
            replicas,
            ..Master::new(chosen.addr.clone(), chosen.id.clone())
        };
    }
    Ok(FailoverOutcome::Promoted {
        master,
        promoted: chosen.addr,
        failed: old.addr,
    })
}

/// `host` and `port` of an address as redis-cli prints it (`127.0.0.1:7000`, `::1:7000`).
fn host_port(addr: &str) -> (&str, &str) {
    let addr = addr.split('@').next().unwrap_or(addr);
    addr.rsplit_once(':').unwrap_or((addr, "6379"))
}

/// A word safe to paste into a POSIX shell: as is if it holds only harmless characters,
/// otherwise in single quotes.
fn sh(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._:-/,=+".contains(&b));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// The shell commands an engineer would paste to perform `moves` by hand, one string per step
/// (a step can span several lines).
///
/// Moves are taken in batches of consecutive moves with the same giver and receiver. When a
/// batch is exactly the giver's lowest-numbered slots at that point (which is what every reshard
/// and rebalance here produces), one line reproduces it exactly:
/// `redis-cli --cluster reshard <entry> --cluster-from <id> --cluster-to <id> --cluster-slots <n>
/// --cluster-yes`, with `<entry>` the first master that has not failed.
/// Otherwise each run of consecutive slots becomes the sequence redis-cli itself sends per slot
/// (`clusterManagerMoveSlot`): `CLUSTER SETSLOT <slot> IMPORTING <giver id>` on the receiver,
/// `CLUSTER SETSLOT <slot> MIGRATING <receiver id>` on the giver, `CLUSTER GETKEYSINSLOT <slot>
/// 10` and `MIGRATE <host> <port> "" 0 60000 KEYS …` until the slot is empty, then `CLUSTER
/// SETSLOT <slot> NODE <receiver id>` on the receiver, the giver and every other master —
/// wrapped in `for slot in $(seq A B); do … done` for a run of several slots. (The key loop
/// splits the key list on white space, so keys containing spaces need care.)
pub fn redis_cli_commands(map: &SlotMap, moves: &[SlotMove]) -> Vec<String> {
    let n = map.n_masters();
    let mut work = map.clone();
    let mut out = Vec::new();
    let valid: Vec<SlotMove> = moves
        .iter()
        .copied()
        .filter(|m| m.from < n && m.to < n && m.from != m.to && (m.slot as usize) < N_SLOTS)
        .collect();
    let mut i = 0;
    while i < valid.len() {
        let (from, to) = (valid[i].from, valid[i].to);
        let mut j = i;
        while j < valid.len() && valid[j].from == from && valid[j].to == to {
            j += 1;
        }
        let batch = &valid[i..j];
        let lowest: Vec<u16> = (0..N_SLOTS as u16)
            .filter(|&s| work.owner(s) == Some(from))
            .take(batch.len())
            .collect();
        let exact = lowest.len() == batch.len()
            && lowest.iter().zip(batch).all(|(&s, m)| s == m.slot)
            && usable(&work, from)
            && usable(&work, to);
        if exact {
            out.push(reshard_line(&work, from, to, batch.len()));
        } else {
            let mut k = 0;
            while k < batch.len() {
                let mut e = k + 1;
                while e < batch.len() && batch[e].slot == batch[e - 1].slot.wrapping_add(1) {
                    e += 1;
                }
                out.push(manual_block(
                    &work,
                    from,
                    to,
                    batch[k].slot,
                    batch[e - 1].slot,
                ));
                k = e;
            }
        }
        apply(&mut work, batch);
        i = j;
    }
    out
}

fn reshard_line(map: &SlotMap, from: usize, to: usize, n: usize) -> String {
    let masters = map.masters();
    let entry = masters
        .iter()
        .find(|m| !m.is_failed())
        .unwrap_or(&masters[to]);
    format!(
        "redis-cli --cluster reshard {} --cluster-from {} --cluster-to {} --cluster-slots {n} --cluster-yes",
        sh(&entry.addr),
        sh(&masters[from].id),
        sh(&masters[to].id)
    )
}

/// The per-slot sequence for slots `first..=last` from `from` to `to`.
fn manual_block(map: &SlotMap, from: usize, to: usize, first: u16, last: u16) -> String {
    let masters = map.masters();
    let (src, dst) = (&masters[from], &masters[to]);
    let cli = |m: &Master| {
        let (h, p) = host_port(&m.addr);
        format!("redis-cli -h {} -p {}", sh(h), sh(p))
    };
    let (dst_host, dst_port) = host_port(&dst.addr);
    let slot = if first == last {
        first.to_string()
    } else {
        "$slot".to_owned()
    };
    let mut lines = vec![
        format!(
            "{} CLUSTER SETSLOT {slot} IMPORTING {}",
            cli(dst),
            sh(&src.id)
        ),
        format!(
            "{} CLUSTER SETSLOT {slot} MIGRATING {}",
            cli(src),
            sh(&dst.id)
        ),
        format!(
            "while keys=$({} CLUSTER GETKEYSINSLOT {slot} 10) && [ -n \"$keys\" ]; do {} MIGRATE {} {} \"\" 0 60000 KEYS $keys; done",
            cli(src),
            cli(src),
            sh(dst_host),
            sh(dst_port)
        ),
    ];
    // SETSLOT NODE goes to every master redis-cli knows: the receiver and giver first here, so
    // the slot is settled on the two nodes that matter before the others hear of it.
    let mut order = vec![to, from];
    order.extend((0..masters.len()).filter(|&m| m != to && m != from));
    for m in order {
        if masters[m].is_failed() {
            continue;
        }
        lines.push(format!(
            "{} CLUSTER SETSLOT {slot} NODE {}",
            cli(&masters[m]),
            sh(&dst.id)
        ));
    }
    if first == last {
        lines.join("\n")
    } else {
        let body: Vec<String> = lines.iter().map(|l| format!("  {l}")).collect();
        format!(
            "for slot in $(seq {first} {last}); do\n{}\ndone",
            body.join("\n")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_split_at_the_last_colon() {
        assert_eq!(host_port("127.0.0.1:7000"), ("127.0.0.1", "7000"));
        assert_eq!(host_port("::1:7000"), ("::1", "7000"));
        assert_eq!(host_port("10.0.0.1:7000@17000"), ("10.0.0.1", "7000"));
        assert_eq!(host_port("localhost"), ("localhost", "6379"));
    }

    #[test]
    fn odd_words_are_quoted_for_the_shell() {
        assert_eq!(sh("abc123"), "abc123");
        assert_eq!(sh("a b"), "'a b'");
        assert_eq!(sh("it's"), r"'it'\''s'");
        assert_eq!(sh(""), "''");
    }

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
}
