//! How long a real failover takes, measured on the simulation (PFAIL, FAIL, election,
//! promotion, every node ok again) for a given node timeout.

use super::output::{EventKind, Opinion};
use super::sim::Sim;
use super::types::{Config, Process};

/// How long a real failover takes, measured on the simulation: a 3-master, 3-replica cluster
/// with `cluster-node-timeout` `node_timeout`, its first master killed at t = 0. All times in
/// ms from the kill; `None` for a step that did not happen within the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FailoverTimes {
    /// The node timeout the run used.
    pub node_timeout: u64,
    /// The first node that flagged the master `fail?`.
    pub pfail_ms: Option<u64>,
    /// The first node that flagged it `fail` (quorum reached).
    pub fail_ms: Option<u64>,
    /// The replica's election started (after its rank delay).
    pub election_ms: Option<u64>,
    /// The replica won and became the master.
    pub promoted_ms: Option<u64>,
    /// Every running node sees the replica as the master of the slots again
    /// (`cluster_state:ok` everywhere).
    pub all_ok_ms: Option<u64>,
}

/// Runs the crash of a master on a fresh 3 + 3 cluster (ports 7200-7205, as
/// `fixtures/failover/` were recorded) with node timeout `node_timeout` and seed `seed`, and
/// returns when each step happened. The run lasts at most `4 × NT + 5 s` of simulated time.
pub fn failover_times(node_timeout: u64, seed: u64) -> FailoverTimes {
    let cfg = Config {
        node_timeout,
        record_messages: false,
        ..Config::default()
    };
    let mut sim = Sim::create(
        cfg,
        seed,
        3,
        &[0, 1, 2],
        7200,
        node_timeout.saturating_mul(2),
    );
    let t0 = sim.now;
    let start = sim.events.len();
    sim.crash(0);
    let replica = 3u32;
    let end = t0
        .saturating_add(node_timeout.saturating_mul(4))
        .saturating_add(5000);
    let mut times = FailoverTimes {
        node_timeout,
        pfail_ms: None,
        fail_ms: None,
        election_ms: None,
        promoted_ms: None,
        all_ok_ms: None,
    };
    let mut seen = start;
    while sim.now < end && times.all_ok_ms.is_none() {
        if sim.step().is_none() {
            break;
        }
        for e in sim.events.get(seen..).unwrap_or(&[]) {
            let at = e.t.saturating_sub(t0);
            match &e.kind {
                EventKind::Opinion {
                    subject: 0,
                    opinion: Opinion::Pfail,
                    ..
                } if times.pfail_ms.is_none() => times.pfail_ms = Some(at),
                EventKind::Opinion {
                    subject: 0,
                    opinion: Opinion::Fail,
                    ..
                } if times.fail_ms.is_none() => times.fail_ms = Some(at),
                EventKind::ElectionStarted { node, .. }
                    if *node == replica && times.election_ms.is_none() =>
                {
                    times.election_ms = Some(at)
                }
                EventKind::Role { node, master: None }
                    if *node == replica && times.promoted_ms.is_none() =>
                {
                    times.promoted_ms = Some(at)
                }
                _ => {}
            }
        }
        seen = sim.events.len();
        if times.promoted_ms.is_some()
            && sim
                .nodes
                .iter()
                .filter(|n| n.process == Process::Running)
                .all(|n| n.state_ok && n.slot_owner.first() == Some(&replica))
        {
            times.all_ok_ms = Some(sim.now.saturating_sub(t0));
        }
    }
    times
}
