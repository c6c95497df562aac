//! The engine following a cluster bus: each node answers from its own view (the slot map it
//! believes, its `cluster_state`) and only while its process runs, as the nodes of a real
//! cluster do during a failover.
//!
//! Without a bus every node routes by the cluster's one [`SlotMap`] (the page's usual case).
//! [`Cluster::follow`] gives each node the view a bus simulation (`core::bus::Sim`) holds for
//! it: during PFAIL the others still send MOVED to the dead master, while FAIL holds their
//! `cluster_state:fail` every keyed command gets `CLUSTERDOWN The cluster is down`, after the
//! promotion MOVED points at the new master, and a returning old master answers as the replica
//! it has become. Recorded on a real 7.0.15 cluster: `tests/bus_engine.rs`.

use super::reply::NotRun;
use super::{Cluster, Role};
use crate::core::cluster::topology::SlotMap;
use std::collections::BTreeMap;

/// Whether a node's process answers: running, stopped (SIGSTOP: the kernel accepts the
/// connection, nothing ever answers) or killed (connections refused).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeProcess {
    /// Running: it answers.
    Running,
    /// Stopped (SIGSTOP): a client's request waits, unanswered, until its timeout.
    Hung,
    /// Killed: a client's connection is refused.
    Crashed,
}

/// What one node believes, as the engine routes by it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeView {
    /// The node's address (`127.0.0.1:7200`).
    pub addr: String,
    /// Whether its process answers.
    pub process: NodeProcess,
    /// Its `cluster_state` (`ok`: true). In state fail it answers keyed commands with
    /// `CLUSTERDOWN The cluster is down`.
    pub state_ok: bool,
    /// The cluster as this node sees it: masters (its `myself` among them, or its master),
    /// replicas, slot owners, config epochs, `fail` / `fail?` flags.
    pub map: SlotMap,
}

impl Cluster {
    /// Follows a bus: `map` is the cluster's shape (which nodes hold which key space, as in
    /// [`Cluster::set_map`]: nodes that stay keep their keys, a promoted replica holds its
    /// master's data), and each of `views` says how that node answers. A node without a view
    /// routes by `map`, as before.
    pub fn follow(&mut self, map: SlotMap, views: Vec<NodeView>) {
        let before: BTreeMap<String, (Option<String>, NodeProcess)> = self
            .views
            .values()
            .map(|v| (v.addr.clone(), (master_in(&v.map, &v.addr), v.process)))
            .collect();
        self.set_map(map);
        self.views = views.into_iter().map(|v| (v.addr.clone(), v)).collect();
        for i in 0..self.nodes.len() {
            let addr = self.nodes[i].addr.clone();
            let Some(view) = self.views.get(&addr) else {
                continue;
            };
            let master = master_in(&view.map, &addr);
            let was = before.get(&addr);
            match view.process {
                // A killed node loses its keys (the fixtures' nodes run with `save ""` and
                // `appendonly no`); after its restart a full sync would bring them back only
                // after `repl-diskless-sync-delay` (5 s), which the page does not model.
                NodeProcess::Crashed => {
                    self.nodes[i].db.clear();
                    self.lost_keys.insert(addr);
                }
                NodeProcess::Hung => {}
                NodeProcess::Running => {
                    let restarted = self.lost_keys.contains(&addr);
                    let same = was.is_some_and(|(m, _)| *m == master);
                    // A node that has just become the replica of another master catches up
                    // with it (PSYNC continues the stream: a demoted old master gets the
                    // writes its successor took).
                    if !restarted
                        && !same
                        && let Some(m) = master
                        && let Some(j) = self.node_index(&m)
                        && let Some(db) = self.nodes.get(j).map(|n| n.db.clone())
                    {
                        self.nodes[i].db = db;
                    }
                }
            }
        }
    }

    /// Stops following a bus: every node routes by the one map again.
    pub fn unfollow(&mut self) {
        self.views.clear();
        self.lost_keys.clear();
    }

    /// The view node `addr` answers from, while following a bus.
    pub fn view(&self, addr: &str) -> Option<&NodeView> {
        self.views.get(addr)
    }

    /// The map node `node` routes by: its own view while following a bus, else the cluster's.
    pub(super) fn map_of(&self, node: usize) -> &SlotMap {
        self.nodes
            .get(node)
            .and_then(|n| self.views.get(&n.addr))
            .map_or(&self.map, |v| &v.map)
    }

    /// Whether node `node` is in `cluster_state:ok`: its own state while following a bus, else
    /// whether every slot has a master that has not failed.
    pub(super) fn state_ok(&self, node: usize) -> bool {
        match self.nodes.get(node).and_then(|n| self.views.get(&n.addr)) {
            Some(v) => v.state_ok,
            None => self.cluster_ok(),
        }
    }

    /// The note for a node whose process does not answer (`None`: it runs, or no bus is
    /// followed).
    pub(super) fn down_note(&self, node: usize) -> Option<NotRun> {
        let n = self.nodes.get(node)?;
        let hung = match self.views.get(&n.addr)?.process {
            NodeProcess::Running => return None,
            NodeProcess::Hung => true,
            NodeProcess::Crashed => false,
        };
        Some(NotRun::NodeDown {
            addr: n.addr.clone(),
            hung,
        })
    }

    /// The node's role in the map it routes by.
    pub(super) fn role_in_view(&self, node: usize) -> Option<Role> {
        let addr = &self.nodes.get(node)?.addr;
        self.map_of(node)
            .masters()
            .iter()
            .enumerate()
            .find_map(|(i, m)| {
                if &m.addr == addr {
                    Some(Role::Master(i))
                } else if m.replicas.iter().any(|r| &r.addr == addr) {
                    Some(Role::Replica(i))
                } else {
                    None
                }
            })
    }
}

/// The address of the master `addr` follows in `map` (`None`: it is a master, or not there).
fn master_in(map: &SlotMap, addr: &str) -> Option<String> {
    map.masters()
        .iter()
        .find(|m| m.replicas.iter().any(|r| r.addr == addr))
        .map(|m| m.addr.clone())
}
