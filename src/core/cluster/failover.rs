//! A master failing, and what the cluster does about it: a replica promoted in its place, or
//! its slots left uncovered.

use super::reshard::{check_index, ReshardError};
use crate::core::cluster::topology::{Master, Replica, SlotMap};
use crate::core::key::slot::N_SLOTS;

/// What became of a master that failed.
#[derive(Clone, Debug, PartialEq, Eq)]
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
