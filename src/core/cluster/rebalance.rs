//! redis-cli 7.0's `--cluster rebalance` (`clusterManagerCommandRebalance`): shares of 16384
//! by weight, the threshold, the slots lost to rounding, and the moves from the largest surplus
//! to the largest deficit, all in C `float` as there.

use super::reshard::{
    apply, check_index, cluster_check, reshard_table, usable, Operation, ReshardError, SlotMove,
};
use crate::core::cluster::topology::SlotMap;
use crate::core::key::slot::N_SLOTS;

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
    cluster_check(map, Operation::Rebalance)?;
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
