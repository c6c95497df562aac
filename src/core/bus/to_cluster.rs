//! The bus seen by the rest of the page: a node's view turned into a [`SlotMap`] (masters,
//! replicas, slots, config epochs, `fail` / `fail?` flags, as that node's `CLUSTER NODES`
//! would list them) and every node's view for the command engine ([`NodeView`]). The
//! simulator is its own crate (`slotscope-bus`, compiled for speed) that knows nothing of
//! these page types, so the conversion is a trait here, [`ClusterView`], implemented for
//! [`Sim`].

use super::{flag, Process, Sim, NO_NODE, SLOTS};
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

/// A simulated bus as the page's command engine sees it (`use crate::core::bus::ClusterView`
/// to call these on a [`Sim`]).
pub trait ClusterView {
    /// The cluster as node `observer` sees it now (see the implementation for [`Sim`]).
    fn slot_map(&self, observer: u32) -> Option<SlotMap>;
    /// Every node's view for the command engine.
    fn node_views(&self) -> Vec<NodeView>;
    /// Makes `cluster` answer as this bus implies now, as `observer` sees it.
    fn follow_into(&self, cluster: &mut Cluster, observer: u32) -> bool;
}

impl ClusterView for Sim {
    /// The cluster as node `observer` sees it now: every master it knows (in node order, with
    /// its slots in the observer's table and its config epoch), each replica under the master
    /// it follows in that view, the observer's `currentEpoch`, the flags its `CLUSTER NODES`
    /// shows (`myself`, `fail?`, `fail`, …). `None` when there is no such node. A killed node's
    /// view is what it saved (what it will load on restart).
    fn slot_map(&self, observer: u32) -> Option<SlotMap> {
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
            if !q.known() || !q.is_master() {
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
            if !q.known() || !q.is_slave() {
                continue;
            }
            let (Some(other), Some(m)) = (
                self.nodes.get(p),
                q.master()
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
    /// its `cluster_state` and the map it routes by ([`ClusterView::slot_map`]).
    fn node_views(&self) -> Vec<NodeView> {
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
    fn follow_into(&self, cluster: &mut Cluster, observer: u32) -> bool {
        let Some(map) = self.slot_map(observer) else {
            return false;
        };
        cluster.follow(map, self.node_views());
        true
    }
}
