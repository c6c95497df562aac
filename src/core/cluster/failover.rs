//! A master failing, and what the cluster does about it: a replica promoted in its place, or
//! the cluster down while the failed master keeps its slots.

use super::reshard::{check_index, ReshardError};
use crate::core::cluster::topology::{Master, SlotMap};

/// What became of a master that failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FailoverOutcome {
    /// A replica won the election: it is now the master at the same index, owning the same
    /// slots, with config epoch `currentEpoch + 1`; the other replicas follow it; the old master
    /// stays listed as a master flagged `fail`, with no slots, no replicas and its old epoch, at
    /// the end of the list (`CLUSTER NODES` shows `master,fail … disconnected` until it comes
    /// back and is turned into a replica: `fixtures/failover/raw/crash_cluster_nodes.txt`).
    Promoted {
        /// The master's index (unchanged).
        master: usize,
        /// Address of the replica that became master.
        promoted: String,
        /// Address of the master that failed.
        failed: String,
        /// The new master's config epoch.
        epoch: u64,
    },
    /// No replica could take over: the master is flagged `fail` and keeps its slots, and every
    /// node answers `CLUSTERDOWN The cluster is down` (`cluster_state:fail`, as
    /// `fixtures/failover/majority_loss` shows for failed masters that are not replaced).
    ClusterDown {
        /// The master's index.
        master: usize,
        /// How many slots it keeps, unserved.
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
/// with the old master) and the new highest config epoch; the other replicas follow it (the
/// losers of the election log "Configuration change detected. Reconfiguring myself as a replica
/// of <winner>"). The old master becomes a master entry of its own at the end of the list, with
/// no slots and the `fail` flag. With no usable replica the master keeps its slots and the
/// cluster is down.
pub fn failover(map: &mut SlotMap, master: usize) -> Result<FailoverOutcome, ReshardError> {
    let old = check_index(map, master)?.clone();
    if old.is_failed() {
        return Err(ReshardError::AlreadyFailed { master: old.addr });
    }
    let slots = map.slot_counts()[master];
    let mut failed_flags: Vec<String> = old
        .flags
        .iter()
        // A failed node answers nobody, so the view shown is another node's: not `myself`.
        .filter(|f| !matches!(f.as_str(), "fail" | "fail?" | "myself"))
        .cloned()
        .collect();
    failed_flags.push("fail".to_owned());
    let pick = old
        .replicas
        .iter()
        .position(|r| !r.flags.iter().any(|f| f == "fail" || f == "fail?"));
    let (Some(p), true) = (pick, slots > 0) else {
        if let Some(m) = map.master_mut(master) {
            m.flags = failed_flags;
        }
        return Ok(if slots == 0 {
            FailoverOutcome::NoSlots { master }
        } else {
            FailoverOutcome::ClusterDown { master, slots }
        });
    };
    let mut replicas = old.replicas.clone();
    let chosen = replicas.remove(p);
    let gone = Master {
        flags: failed_flags,
        epoch: old.epoch,
        ..Master::new(old.addr.clone(), old.id.clone())
    };
    if let Some(m) = map.master_mut(master) {
        *m = Master {
            flags: chosen.flags.clone(),
            replicas,
            ..Master::new(chosen.addr.clone(), chosen.id.clone())
        };
    }
    let epoch = map.new_epoch_for(master).unwrap_or_default();
    // Only a map already at the 65534-master limit refuses one more; there the failed master
    // is left out of the list rather than the failover refused.
    let _listed = map.add_master(gone).is_ok();
    Ok(FailoverOutcome::Promoted {
        master,
        promoted: chosen.addr,
        failed: old.addr,
        epoch,
    })
}
