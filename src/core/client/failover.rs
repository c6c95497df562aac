//! "A client during a failover": Jedis on the fixtures' cluster while master 127.0.0.1:7000 is
//! killed, its replica 7004 takes over and the old master comes back, each command sent at an
//! instant the bus simulator (`core::bus`, cluster-node-timeout 2000 as `fixtures/failover/`)
//! computes, on a cluster that answers as each node's view then implies
//! (`Sim::follow_into`): a refused connection while the master is dead, the healthy master
//! still serving during PFAIL, `CLUSTERDOWN The cluster is down` from it while FAIL holds the
//! cluster down, served again once the replica is promoted, and `MOVED 866 127.0.0.1:7004`
//! from the restarted old master, after which Jedis renews its whole slot table.

use super::*;
use crate::core::bus::{flag, ClusterView, Config, Node, Process, Sim};

fn words(line: &str) -> Vec<Vec<u8>> {
    split_args(line).unwrap_or_default()
}

/// The fixtures' cluster-node-timeout (`fixtures/failover/config.txt`).
pub const FAILOVER_NODE_TIMEOUT_MS: u64 = 2000;
/// When the recordings restarted the killed master (`fixtures/failover/README.md`, `crash`).
const RESTART_MS: u64 = 10_050;
const SEED: u64 = 1;

const M0: &str = "127.0.0.1:7000";
const M2: &str = "127.0.0.1:7002";
const R0: &str = "127.0.0.1:7004";

/// One step's instant and phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailoverMoment {
    /// Simulated ms since the kill.
    pub at_ms: u64,
    /// Where the failover stands.
    pub phase: FailoverPhase,
}

/// Whether every running node satisfies `f` (read from the nodes themselves: this runs after
/// every simulated event).
fn all_running(sim: &Sim, f: impl Fn(&Node) -> bool) -> bool {
    sim.nodes
        .iter()
        .filter(|n| n.process == Process::Running)
        .all(f)
}

/// Runs `sim` until `done` holds (at most `limit` simulated ms more).
fn run_until(sim: &mut Sim, limit: u64, done: impl Fn(&Sim) -> bool) {
    let end = sim.now.saturating_add(limit);
    while sim.now < end && !done(sim) {
        if sim.step().is_none() {
            break;
        }
    }
}

/// The failover scenario's id.
pub const FAILOVER_ID: &str = "client-failover";
/// Its title, in English.
pub const FAILOVER_TITLE: &str =
    "A client during a failover: connection refused, CLUSTERDOWN, then MOVED to the new master";

/// The scenario, and each step's instant and phase (also in the first arrow's narration,
/// [`Narration::During`]).
pub fn failover_scenario() -> (Scenario, Vec<FailoverMoment>) {
    let fixture = SlotMap::fixture_cluster();
    let cfg = Config {
        node_timeout: FAILOVER_NODE_TIMEOUT_MS,
        record_messages: false,
        ..Config::default()
    };
    // The fixtures' pairs: 7003 -> 7002, 7004 -> 7000, 7005 -> 7001; their recorded ids.
    let mut sim = Sim::create(cfg, SEED, 3, &[2, 0, 1], 7000, 5000);
    for (i, m) in fixture.masters().iter().enumerate() {
        if let Some(n) = sim.nodes.get_mut(i) {
            n.name = m.id.clone();
        }
        let replica_port = match i {
            0 => 7004,
            1 => 7005,
            _ => 7003,
        };
        if let (Some(r), Some(ix)) = (m.replicas.first(), sim.by_port(replica_port))
            && let Some(n) = sim.nodes.get_mut(ix as usize)
        {
            n.name = r.id.clone();
        }
    }
    let start = sim.slot_map(0).unwrap_or_else(|| fixture.clone());
    let mut cluster = Cluster::new(start.clone());
    let mut session = Session::new();
    cluster.exec(M0, &words("SET hello 1"), &mut session);
    cluster.exec(M2, &words("SET foo bar"), &mut session);
    let mut client = Client::library(ClientLibrary::Jedis, &start);
    let start_table = client.table();
    let (policy, max_redirects, rule) = (client.policy(), client.max_redirects(), client.rule());

    let t0 = sim.now;
    let mut steps = Vec::new();
    let mut moments = Vec::new();
    let mut at = |sim: &Sim,
                  cluster: &mut Cluster,
                  client: &mut Client,
                  phase: FailoverPhase,
                  lines: &[&str],
                  steps: &mut Vec<Step>| {
        let observer = sim.by_port(7004).unwrap_or(0);
        sim.follow_into(cluster, observer);
        let at_ms = sim.now.saturating_sub(t0);
        let actions = lines
            .iter()
            .map(|l| Action::Client { args: words(l) })
            .collect();
        for mut step in play(cluster, client, actions) {
            if let Some(first) = step.events.first_mut() {
                let inner = std::mem::replace(
                    &mut first.narration,
                    Narration::Served {
                        addr: String::new(),
                    },
                );
                first.narration = Narration::During {
                    at_ms,
                    phase: phase.clone(),
                    inner: Box::new(inner),
                };
            }
            moments.push(FailoverMoment {
                at_ms,
                phase: phase.clone(),
            });
            steps.push(step);
        }
    };

    at(
        &sim,
        &mut cluster,
        &mut client,
        FailoverPhase::Healthy,
        &["GET hello"],
        &mut steps,
    );
    let m0 = sim.by_port(7000).unwrap_or(0);
    sim.crash(m0);
    // PFAIL: some node flags 7000 `fail?`; every state still ok.
    let r0 = sim.by_port(7004).unwrap_or(0);
    run_until(&mut sim, 30_000, |s| {
        s.nodes.iter().any(|n| {
            n.peers
                .get(m0 as usize)
                .is_some_and(|p| p.flags & flag::PFAIL != 0)
        })
    });
    let master = M0.to_owned();
    at(
        &sim,
        &mut cluster,
        &mut client,
        FailoverPhase::Pfail {
            master: master.clone(),
        },
        &["GET hello", "GET foo"],
        &mut steps,
    );
    // FAIL everywhere: every running node in state fail.
    run_until(&mut sim, 30_000, |s| all_running(s, |n| !n.state_ok));
    at(
        &sim,
        &mut cluster,
        &mut client,
        FailoverPhase::Fail {
            master: master.clone(),
        },
        &["GET foo", "GET hello"],
        &mut steps,
    );
    // The replica promoted, seen by every running node.
    run_until(&mut sim, 30_000, |s| {
        all_running(s, |n| n.state_ok && n.slot_owner.first() == Some(&r0))
    });
    let promoted = R0.to_owned();
    at(
        &sim,
        &mut cluster,
        &mut client,
        FailoverPhase::Promoted {
            master: master.clone(),
            promoted: promoted.clone(),
        },
        &["GET foo"],
        &mut steps,
    );
    // The old master restarted from its nodes.conf, as the recordings did, and rejoined.
    sim.run_until(t0.saturating_add(RESTART_MS));
    sim.restart(m0);
    run_until(&mut sim, 30_000, |s| {
        s.nodes.get(m0 as usize).is_some_and(|n| {
            n.process == Process::Running
                && n.state_ok
                && n.is_slave()
                && n.slot_owner.first() == Some(&r0)
        })
    });
    at(
        &sim,
        &mut cluster,
        &mut client,
        FailoverPhase::Rejoined { master, promoted },
        &["GET hello"],
        &mut steps,
    );
    let scenario = Scenario {
        id: FAILOVER_ID,
        title: FAILOVER_TITLE,
        policy,
        rule,
        max_redirects,
        start_table,
        steps,
    };
    (scenario, moments)
}
