//! The bus seen by the rest of the page: a node's view turned into a [`SlotMap`] (masters,
//! replicas, slots, config epochs, `fail` / `fail?` flags, as that node's `CLUSTER NODES`
//! would list them), every node's view for the command engine ([`NodeView`]), and the measured
//! times of a failover (PFAIL, FAIL, promotion) for a given node timeout.

use super::output::{EventKind, Opinion};
use super::sim::Sim;
use super::types::{flag, Config, Process, NO_NODE, SLOTS};
use crate::core::cluster::topology::{Master, Replica, SlotMap, SlotRange};
use crate::core::server::{Cluster, NodeProcess, NodeView};

/// A node's address as the page writes it (`127.0.0.1:7200`).
fn addr(port: u16) -> String {
    format!("127.0.0.1:{port}")
}

/// `CLUSTER NODES` flags other than the role, in Redis's order.
fn flags(f: u16, myself_nofailover: bool) -> Vec<String> {
    let mut out = Vec::new();
    for (bit, name) in [
        (flag::MYSELF, "myself"),
        (flag::PFAIL, "fail?"),
        (flag::FAIL, "fail"),
        (flag::HANDSHAKE, "handshake"),
        (flag::NOADDR, "noaddr"),
    ] {
        if f & bit != 0 {
            out.push(name.to_owned());
        }
    }
    if f & flag::NOFAILOVER != 0 || myself_nofailover {
        out.push("nofailover".to_owned());
    }
    out
}

impl Sim {
    /// The cluster as node `observer` sees it now: every master it knows (in node order, with
    /// its slots in the observer's table and its config epoch), each replica under the master
    /// it follows in that view, the observer's `currentEpoch`, the flags its `CLUSTER NODES`
    /// shows (`myself`, `fail?`, `fail`, …). `None` when there is no such node. A killed node's
    /// view is what it saved (what it will load on restart).
    pub fn slot_map(&self, observer: u32) -> Option<SlotMap> {
        if !self.has(observer) {
            return None;
        }
        let node = &self.nodes[observer as usize];
        let (peers, owners, current_epoch) = match &node.saved {
            Some(s) if node.process == Process::Crashed => {
                (&s.peers, &s.slot_owner, s.current_epoch)
            }
            _ => (&node.peers, &node.slot_owner, node.current_epoch),
        };
        let mut master_ix: Vec<Option<usize>> = vec![None; peers.len()];
        let mut masters: Vec<Master> = Vec::new();
        for (p, q) in peers.iter().enumerate() {
            if !q.known || !q.is_master() {
                continue;
            }
            let Some(other) = self.nodes.get(p) else {
                continue;
            };
            master_ix[p] = Some(masters.len());
            masters.push(Master {
                flags: flags(q.flags, p == observer as usize && node.nofailover),
                epoch: q.config_epoch,
                ..Master::new(addr(other.port), other.name.clone())
            });
        }
        for (p, q) in peers.iter().enumerate() {
            if !q.known || !q.is_slave() {
                continue;
            }
            let (Some(other), Some(m)) = (
                self.nodes.get(p),
                q.master
                    .and_then(|m| master_ix.get(m as usize).copied().flatten()),
            ) else {
                continue;
            };
            if let Some(master) = masters.get_mut(m) {
                master.replicas.push(Replica {
                    flags: flags(q.flags, p == observer as usize && node.nofailover),
                    ..Replica::new(addr(other.port), other.name.clone())
                });
            }
        }
        // The observer's open imports (`[slot-<-id]` on its own line).
        if let Some(me) = master_ix.get(observer as usize).copied().flatten() {
            let importing: Vec<(u16, String)> = node
                .importing
                .iter()
                .filter_map(|(s, from)| Some((*s, self.nodes.get(*from as usize)?.name.clone())))
                .collect();
            if let Some(m) = masters.get_mut(me) {
                m.importing = importing;
            }
        }
        let mut ranges: Vec<(usize, SlotRange)> = Vec::new();
        let mut j = 0;
        while j < SLOTS.min(owners.len()) {
            let o = owners[j];
            let start = j;
            while j + 1 < SLOTS.min(owners.len()) && owners[j + 1] == o {
                j += 1;
            }
            if o != NO_NODE
                && let Some(m) = master_ix.get(o as usize).copied().flatten()
            {
                ranges.push((m, SlotRange::new(start as u16, j as u16)));
            }
            j += 1;
        }
        let mut map = SlotMap::from_ranges(masters, &ranges).ok()?;
        map.set_current_epoch(current_epoch);
        Some(map)
    }

    /// Every node's view for the command engine: its address, whether its process answers,
    /// its `cluster_state` and the map it routes by ([`Sim::slot_map`]).
    pub fn node_views(&self) -> Vec<NodeView> {
        (0..self.nodes.len() as u32)
            .filter_map(|n| {
                let node = &self.nodes[n as usize];
                Some(NodeView {
                    addr: addr(node.port),
                    process: match node.process {
                        Process::Running => NodeProcess::Running,
                        Process::Hung => NodeProcess::Hung,
                        Process::Crashed => NodeProcess::Crashed,
                    },
                    state_ok: node.state_ok && node.process == Process::Running,
                    map: self.slot_map(n)?,
                })
            })
            .collect()
    }

    /// Makes `cluster` answer as this bus implies now: its shape is `observer`'s view (which
    /// nodes hold which key space; a promoted replica keeps its master's data), and every node
    /// answers from its own view ([`Cluster::follow`]). False (and `cluster` unchanged) when
    /// there is no such observer.
    pub fn follow_into(&self, cluster: &mut Cluster, observer: u32) -> bool {
        let Some(map) = self.slot_map(observer) else {
            return false;
        };
        cluster.follow(map, self.node_views());
        true
    }
}

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
