//! The topology lab's operations on a cluster: each returns the cluster after it and the
//! redis-cli commands that would make the same change on a real one (the page's reducer only
//! keeps history and words the outcome).

use super::cli_commands::{
    del_node_line, rebalance_line, redis_cli_commands, reshard_all_line, shutdown_line,
    sources_line,
};
use super::failover::{self, FailoverOutcome};
use super::rebalance::{rebalance_plan, RebalanceOptions};
use super::reshard::{self, listing_order, ReshardError, SlotMove, Sources};
use super::topology::{Master, Replica, SlotMap, SlotRange, TopologyError};
use crate::core::bus::{failover_times, FailoverTimes};
use crate::core::key::slot::N_SLOTS;

/// A cluster after an operation, and the redis-cli commands that would do the same.
#[derive(Clone, Debug, PartialEq)]
pub struct Edit {
    /// The cluster after it.
    pub after: SlotMap,
    /// redis-cli commands, one per line or loop.
    pub commands: Vec<String>,
}

/// The id the fixtures' 127.0.0.1:7006 had when transcript 11 added it to the cluster.
const FIXTURE_7006_ID: &str = "2d5df5ae37ad6494038d3c6164be00382e79eb5a";

/// A made-up but stable 40-hex-digit node id for a node the page adds at `addr` (share links
/// know it too, and write such an id in one byte). 127.0.0.1:7006, the master transcript 11 adds
/// to the fixtures' cluster, gets the id it had there, so the lab's export after the
/// transcripts' steps shows the recorded ids.
pub fn made_up_id(addr: &str) -> String {
    if addr == "127.0.0.1:7006" {
        return FIXTURE_7006_ID.to_owned();
    }
    hashed_id(addr)
}

/// An id made from the address alone.
fn hashed_id(addr: &str) -> String {
    // FNV-1a over the address, spread over 160 bits: unique enough for a page, and stable.
    let mut h: u64 = 0xcbf29ce484222325;
    for b in addr.bytes() {
        h = (h ^ b as u64).wrapping_mul(0x100000001b3);
    }
    let a = h;
    let b = h.rotate_left(21).wrapping_mul(0x9E3779B97F4A7C15);
    let c = (h.rotate_left(42) ^ 0x5bd1e995) as u32;
    format!("{a:016x}{b:016x}{c:08x}")
}

/// The next free address on 127.0.0.1 for a new master (one past the highest port in use).
pub fn next_addr(map: &SlotMap) -> String {
    let port = map
        .masters()
        .iter()
        .flat_map(|m| std::iter::once(&m.addr).chain(m.replicas.iter().map(|r| &r.addr)))
        .filter_map(|a| a.rsplit(':').next()?.parse::<u32>().ok())
        .max()
        .map_or(7000, |p| p + 1)
        .min(65535);
    format!("127.0.0.1:{port}")
}

/// The host of the masters [`create`] makes, and the first one's port.
const CREATED_AT: (&str, u16) = ("127.0.0.1", 7000);

/// Why [`create`] made no cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CreateError {
    /// redis-cli refuses so few masters ([`create_refused`]).
    Refused(CreateRefused),
    /// More masters than a slot map numbers.
    Topology(TopologyError),
}

/// `redis-cli --cluster create` with `n` masters on 127.0.0.1:7000… and no replicas, or its
/// refusal of fewer than 3.
pub fn create(n: usize) -> Result<Edit, CreateError> {
    if let Some(refused) = create_refused(n) {
        return Err(CreateError::Refused(refused));
    }
    let (host, port) = CREATED_AT;
    let after = SlotMap::created(n, host, port).map_err(CreateError::Topology)?;
    Ok(Edit {
        commands: vec![create_command(n)],
        after,
    })
}

/// The `redis-cli --cluster create` command for `n` masters on 127.0.0.1:7000….
fn create_command(n: usize) -> String {
    let (host, port) = CREATED_AT;
    let addrs: Vec<String> = (0..n)
        .map(|i| format!("{host}:{}", usize::from(port) + i))
        .collect();
    format!(
        "redis-cli --cluster create {} --cluster-replicas 0",
        addrs.join(" ")
    )
}

/// redis-cli refusing to create a cluster: the command, and what it printed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CreateRefused {
    /// The command as [`create`] would have given it.
    pub command: String,
    /// redis-cli's lines, as it prints them.
    pub output: Vec<String>,
}

/// What redis-cli 7.0.15 prints when asked to create a cluster of `n` masters with no
/// replicas, if it refuses ([`create`] gives it as its error) (exit status 1, nothing changed): one address fails its argument
/// count (`tests/data/create_1_refused.txt`); two are fewer than the 3 masters
/// `clusterManagerCommandCreate` requires (`fixtures/create_outputs/create_2_refused.txt`).
pub fn create_refused(n: usize) -> Option<CreateRefused> {
    let output: Vec<String> = match n {
        1 => vec!["[ERR] Wrong number of arguments for specified --cluster sub command".into()],
        2 => vec![
            "*** ERROR: Invalid configuration for cluster creation.".into(),
            "*** Redis Cluster requires at least 3 master nodes.".into(),
            format!("*** This is not possible with {n} nodes and 0 replicas per node."),
            "*** At least 3 nodes are required.".into(),
        ],
        _ => return None,
    };
    Some(CreateRefused {
        command: create_command(n),
        output,
    })
}

/// `redis-cli --cluster add-node`: a master with no slots at [`next_addr`]; also its address.
pub fn add_master(map: &SlotMap) -> Result<(Edit, String), TopologyError> {
    let addr = next_addr(map);
    let mut after = map.clone();
    let entry = after.masters().first().map(|m| m.addr.clone());
    let mut id = made_up_id(&addr);
    if taken(map, &id) {
        id = hashed_id(&addr);
    }
    after.add_master(Master::new(addr.clone(), id))?;
    let commands = match entry {
        Some(entry) => vec![format!("redis-cli --cluster add-node {addr} {entry}")],
        // No master to introduce it to: nothing redis-cli could do.
        None => vec![String::new()],
    };
    Ok((Edit { after, commands }, addr))
}

/// Whether some node of `map` already has node id `id`.
fn taken(map: &SlotMap, id: &str) -> bool {
    map.masters()
        .iter()
        .any(|m| m.id == id || m.replicas.iter().any(|r| r.id == id))
}

/// `redis-cli --cluster del-node <entry> <id>`, with the first remaining master as the entry.
pub fn del_node_command(after: &SlotMap, id: &str) -> String {
    del_node_line(after, id)
}

/// Removes master `idx` (refused while it owns slots); also the master removed.
///
/// As `redis-cli --cluster del-node` does (`clusterManagerCommandDeleteNode`), each of its
/// replicas is first told `CLUSTER REPLICATE` the master with the fewest replicas (the first
/// such in redis-cli's listing order, [`listing_order`]; redis-cli's own count could name the
/// node being removed, which the page skips).
pub fn remove_master(map: &SlotMap, idx: usize) -> Result<(Edit, Master), TopologyError> {
    let mut after = map.clone();
    let gone = after.remove_master(idx)?;
    let order: Vec<usize> = listing_order(map)
        .into_iter()
        .filter(|&m| m != idx && !map.masters()[m].is_failed())
        .collect();
    let least = order
        .iter()
        .copied()
        .reduce(|best, m| {
            if map.masters()[m].replicas.len() < map.masters()[best].replicas.len() {
                m
            } else {
                best
            }
        })
        .map(|m| if m > idx { m - 1 } else { m });
    if let Some(m) = least.and_then(|m| after.master_mut(m)) {
        m.replicas.extend(gone.replicas.iter().cloned());
    }
    let commands = vec![del_node_command(&after, &gone.id)];
    Ok((Edit { after, commands }, gone))
}

/// Gives slots `first..=last` (either order; clamped to the last slot) to master `target`,
/// with the range given. `None` when there is no such master.
pub fn move_range(
    map: &SlotMap,
    first: u16,
    last: u16,
    target: usize,
) -> Option<(Edit, SlotRange)> {
    map.masters().get(target)?;
    let last_slot = (N_SLOTS - 1) as u16;
    let (first, last) = (
        first.min(last).min(last_slot),
        first.max(last).min(last_slot),
    );
    let moves: Vec<SlotMove> = (first..=last)
        .filter_map(|slot| {
            let from = map.owner(slot)?;
            (from != target).then_some(SlotMove {
                slot,
                from,
                to: target,
            })
        })
        .collect();
    let commands = redis_cli_commands(map, &moves);
    let mut after = map.clone();
    reshard::apply(&mut after, &moves);
    for slot in first..=last {
        after.assign(slot, Some(target));
    }
    settle_emptied(map, &mut after, &moves);
    Some((Edit { after, commands }, SlotRange::new(first, last)))
}

/// `redis-cli --cluster reshard`: `n_slots` to `target` from the masters `from` (none: all);
/// also how many slots moved.
pub fn reshard(
    map: &SlotMap,
    from: &[usize],
    target: usize,
    n_slots: usize,
) -> Result<(Edit, usize), ReshardError> {
    let sources = if from.is_empty() {
        Sources::All
    } else {
        Sources::Masters(from.to_vec())
    };
    let moves = reshard::reshard_plan(map, &sources, target, n_slots)?;
    let mut after = map.clone();
    reshard::apply(&mut after, &moves);
    settle_emptied(map, &mut after, &moves);
    let command = match &sources {
        Sources::All => reshard_all_line(map, target, n_slots),
        Sources::Masters(list) => sources_line(map, list, target, n_slots),
    };
    Ok((
        Edit {
            after,
            commands: vec![command],
        },
        moves.len(),
    ))
}

/// A rebalance as redis-cli plans it.
#[derive(Clone, Debug, PartialEq)]
pub struct Rebalanced {
    /// The cluster after it, or `None` when no rebalancing is needed.
    pub edit: Option<Edit>,
    /// redis-cli's own lines, which say what it did or why not.
    pub lines: Vec<String>,
}

/// `redis-cli --cluster rebalance` with these options, the nodes in redis-cli's listing order
/// ([`listing_order`]); the command shown is the one rebalance line with those options.
pub fn rebalance(map: &SlotMap, opts: &RebalanceOptions) -> Result<Rebalanced, ReshardError> {
    let order = listing_order(map);
    let plan = rebalance_plan(map, &order, opts)?;
    let lines = plan.redis_cli_lines(map);
    let edit = (!plan.moves().is_empty()).then(|| {
        let mut after = map.clone();
        reshard::apply(&mut after, plan.moves());
        settle_emptied(map, &mut after, plan.moves());
        Edit {
            after,
            commands: vec![rebalance_line(map, opts)],
        }
    });
    Ok(Rebalanced { edit, lines })
}

/// Why a master could not be drained and removed.
#[derive(Clone, Debug, PartialEq)]
pub enum DrainError {
    /// The rebalance that empties it was refused.
    Reshard(ReshardError),
    /// The removal was refused.
    Topology(TopologyError),
}

/// Moves every slot off master `idx` (a rebalance with its weight at 0, empty masters used),
/// then removes it; also the master removed.
///
/// What Redis 7.0 does in between is what `fixtures/failover/del_node` recorded: a master that
/// loses its last slot becomes a replica of the node that took it (`CLUSTER SETSLOT … NODE`,
/// `cluster-allow-replica-migration yes`, the default), and its replicas follow that node too
/// ("Configuration change detected. Reconfiguring myself as a replica of …"). So del-node
/// removes a replica, and the drained master's replicas stay, as replicas of the master that
/// took its last slot. A master that owned no slots is removed as [`remove_master`] removes it.
pub fn drain_and_remove(map: &SlotMap, idx: usize) -> Result<(Edit, Master), DrainError> {
    let Some(gone) = map.masters().get(idx).cloned() else {
        return Err(DrainError::Topology(TopologyError::NoSuchMaster {
            master_idx: idx,
        }));
    };
    if map.slot_counts().get(idx) == Some(&0) {
        return remove_master(map, idx).map_err(DrainError::Topology);
    }
    let opts = RebalanceOptions {
        weights: vec![(idx, 0.0)],
        use_empty_masters: true,
        ..Default::default()
    };
    let order = listing_order(map);
    let plan = rebalance_plan(map, &order, &opts).map_err(DrainError::Reshard)?;
    let mut after = map.clone();
    reshard::apply(&mut after, plan.moves());
    settle_emptied(map, &mut after, plan.moves());
    let commands = vec![rebalance_line(map, &opts)];
    let drained = Edit { after, commands };
    // Now a replica (or, if the plan left it slots, still a master: then del-node refuses).
    let (removed, _) = remove_node(&drained.after, &gone.id).map_err(DrainError::Topology)?;
    let mut commands = drained.commands;
    commands.extend(removed.commands);
    Ok((
        Edit {
            after: removed.after,
            commands,
        },
        gone,
    ))
}

/// After `moves` took `before`'s slots to `after`: every master that owned slots and has none
/// left (and has not failed) becomes a replica of the master that took its last slot, and its
/// replicas follow that master too. Redis 7.0 does this on `CLUSTER SETSLOT <slot> NODE <other>`
/// of a master's last slot, with `cluster-allow-replica-migration yes` (the default), and the
/// replicas on hearing of it: `fixtures/failover/del_node` (files 05-07: 7200 and its replica
/// 7203 both "Reconfiguring myself as a replica of" 7201, which took 7200's slots).
fn settle_emptied(before: &SlotMap, after: &mut SlotMap, moves: &[SlotMove]) {
    let had = before.slot_counts();
    let has = after.slot_counts();
    let mut emptied: Vec<(String, String)> = Vec::new();
    for (i, m) in before.masters().iter().enumerate() {
        if had[i] == 0 || has.get(i) != Some(&0) || m.is_failed() {
            continue;
        }
        let receiver = moves.iter().rev().find(|mv| mv.from == i).map(|mv| mv.to);
        if let Some(to) = receiver.and_then(|to| before.masters().get(to)) {
            emptied.push((m.id.clone(), to.id.clone()));
        }
    }
    for (id, to) in emptied {
        let Some(i) = after.master_by_id(&id) else {
            continue;
        };
        if after.master_by_id(&to).is_none() || after.remove_master(i).is_err() {
            continue;
        }
        let Some(old) = before.masters().iter().find(|m| m.id == id) else {
            continue;
        };
        let mut followers = vec![Replica {
            addr: old.addr.clone(),
            id: old.id.clone(),
            flags: old.flags.clone(),
        }];
        followers.extend(old.replicas.iter().cloned());
        if let Some(m) = after.master_by_id(&to).and_then(|t| after.master_mut(t)) {
            m.replicas.extend(followers);
        }
    }
}

/// `redis-cli --cluster del-node <entry> <id>` of any node: a master as [`remove_master`]
/// removes it, a replica simply leaves its master's list (`fixtures/failover/del_node`, files
/// 12-13 and 16-17: nothing else changes; no replica migrates to the master left without one,
/// file 19). Also the removed node's address.
pub fn remove_node(map: &SlotMap, id: &str) -> Result<(Edit, String), TopologyError> {
    if let Some(i) = map.master_by_id(id) {
        let (edit, gone) = remove_master(map, i)?;
        return Ok((edit, gone.addr));
    }
    let mut after = map.clone();
    for i in 0..after.n_masters() {
        let Some(m) = after.master_mut(i) else {
            continue;
        };
        if let Some(r) = m.replicas.iter().position(|r| r.id == id) {
            let gone = m.replicas.remove(r);
            let commands = vec![del_node_command(&after, id)];
            return Ok((Edit { after, commands }, gone.addr));
        }
    }
    Err(TopologyError::NoSuchMaster {
        master_idx: map.n_masters(),
    })
}

/// Master `idx` fails and the cluster does what it does about it. The command shown is the
/// failure itself: the master stops (`SHUTDOWN NOSAVE`; the recordings killed it, which the
/// cluster sees the same way), and the rest is the cluster's doing. (`CLUSTER FAILOVER` sent to a
/// replica is another story: the old master stays up and becomes a replica, not `fail`.)
pub fn failover(map: &SlotMap, idx: usize) -> Result<(Edit, FailoverOutcome), ReshardError> {
    let mut after = map.clone();
    let outcome = failover::failover(&mut after, idx)?;
    let addr = map.masters().get(idx).map_or("", |m| m.addr.as_str());
    let commands = vec![shutdown_line(addr)];
    Ok((Edit { after, commands }, outcome))
}

/// `cluster-node-timeout` of the lab's clusters: Redis's default (`server/config_table.rs`
/// records it), as a cluster made with `redis-cli --cluster create` and no config runs.
pub const NODE_TIMEOUT_MS: u64 = 15000;

/// How long the failover [`failover`] shows at once really takes, measured on the bus
/// simulator (`core::bus`): a master of a 3 + 3 cluster killed at t = 0 with
/// `cluster-node-timeout` `node_timeout`; when the first node flags it `fail?`, when one
/// reaches the quorum and flags it `fail`, when its replica wins the election. One fixed seed,
/// so the page says the same figure every time; with NT 2000 its times are within the rules'
/// windows and no later than `fixtures/failover/` recorded (tests/lab_transcripts.rs).
pub fn real_failover_time(node_timeout: u64) -> FailoverTimes {
    failover_times(node_timeout, 1)
}

/// Why a `--cluster-weight` list did not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightError {
    /// A pair without `=` (as written).
    NotPair(String),
    /// No master has this address or id prefix (`who`, and the whole pair).
    NoMaster {
        /// The address or id as written.
        who: String,
        /// The whole pair.
        pair: String,
    },
    /// The weight is not a number of at least 0 (as written).
    NotNumber(String),
}

/// Reads `--cluster-weight` pairs (`127.0.0.1:7000=2`, or a node id, or an id's prefix of at
/// least 4 characters as redis-cli accepts) separated by spaces or commas.
pub fn parse_weights(map: &SlotMap, text: &str) -> Result<Vec<(usize, f64)>, WeightError> {
    let mut out = Vec::new();
    for pair in text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|p| !p.is_empty())
    {
        let Some((who, w)) = pair.split_once('=') else {
            return Err(WeightError::NotPair(pair.to_string()));
        };
        let idx = map
            .masters()
            .iter()
            .position(|m| m.addr == who || (who.len() >= 4 && m.id.starts_with(who)))
            .ok_or_else(|| WeightError::NoMaster {
                who: who.to_string(),
                pair: pair.to_string(),
            })?;
        match w.parse::<f64>() {
            Ok(w) if w.is_finite() && w >= 0.0 => out.push((idx, w)),
            _ => return Err(WeightError::NotNumber(w.to_string())),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_name_masters_by_address_or_id_prefix() {
        let map = SlotMap::fixture_cluster();
        assert_eq!(
            parse_weights(&map, "127.0.0.1:7000=2, f7c6b5d6=0.5").unwrap(),
            vec![(0, 2.0), (1, 0.5)]
        );
        assert!(matches!(
            parse_weights(&map, "127.0.0.1:9999=2"),
            Err(WeightError::NoMaster { .. })
        ));
        assert_eq!(
            parse_weights(&map, "127.0.0.1:7000"),
            Err(WeightError::NotPair("127.0.0.1:7000".into()))
        );
        assert_eq!(
            parse_weights(&map, "127.0.0.1:7000=-1"),
            Err(WeightError::NotNumber("-1".into()))
        );
        assert_eq!(parse_weights(&map, "  ").unwrap(), vec![]);
    }

    #[test]
    fn made_up_ids_look_like_node_ids_and_differ() {
        let a = made_up_id("127.0.0.1:7006");
        assert_eq!(a.len(), 40);
        assert!(a.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_ne!(a, made_up_id("127.0.0.1:7007"));
    }

    #[test]
    fn a_new_master_takes_the_next_port_and_says_how_redis_cli_adds_it() {
        let map = SlotMap::fixture_cluster();
        // The fixtures' nodes run 7000-7005 (replicas included).
        assert_eq!(next_addr(&map), "127.0.0.1:7006");
        let (edit, addr) = add_master(&map).unwrap();
        assert_eq!(addr, "127.0.0.1:7006");
        assert_eq!(
            edit.commands,
            vec!["redis-cli --cluster add-node 127.0.0.1:7006 127.0.0.1:7000"]
        );
        assert_eq!(edit.after.masters()[3].id, made_up_id("127.0.0.1:7006"));
    }

    #[test]
    fn a_range_past_the_last_slot_stops_at_16383() {
        let map = SlotMap::fixture_cluster();
        let (edit, range) = move_range(&map, 16383, 16000, 0).unwrap();
        assert_eq!(range, SlotRange::new(16000, 16383));
        assert_eq!(edit.after.owner(16383), Some(0));
        assert!(move_range(&map, 0, 1, 3).is_none(), "no fourth master");
    }

    #[test]
    fn create_says_the_create_command() {
        let edit = create(3).unwrap();
        assert_eq!(
            edit.commands,
            vec![
                "redis-cli --cluster create 127.0.0.1:7000 127.0.0.1:7001 127.0.0.1:7002 --cluster-replicas 0"
            ]
        );
        assert_eq!(edit.after.n_masters(), 3);
    }

    #[test]
    fn removing_a_master_names_the_first_remaining_as_entry() {
        let (added, _) = add_master(&SlotMap::fixture_cluster()).unwrap();
        let (edit, gone) = remove_master(&added.after, 3).unwrap();
        assert_eq!(gone.addr, "127.0.0.1:7006");
        assert_eq!(
            edit.commands,
            vec![format!(
                "redis-cli --cluster del-node 127.0.0.1:7000 {}",
                made_up_id("127.0.0.1:7006")
            )]
        );
    }
}
