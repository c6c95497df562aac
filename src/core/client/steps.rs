//! A redirect scenario step by step, as data for a sequence diagram: its lifelines (the
//! client, the nodes in address order, the operator if any, last), the slots worth showing in
//! the client's table, that table before and after every step, and what each node's lifeline
//! carries at every step: its states on the slots in play (owner, `MIGRATING`, `IMPORTING`)
//! and the keys it holds in them, read from the simulated cluster itself ([`Snapshot`]).

use super::{Endpoint, EventKind, Scenario};
use crate::core::cluster::topology::SlotRange;
use crate::core::key::slot::key_slot;
use crate::core::server::command::key_positions;
use crate::core::server::Cluster;

/// Slots the client table shows at most.
pub const MAX_TABLE_SLOTS: usize = 6;

/// The client's table: slot → the node it would send to (`None`: it knows none).
pub type Table = Vec<(u16, Option<String>)>;

/// A scenario laid out step by step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioSteps {
    /// Whether an operator lifeline is drawn (some event comes from or goes to it).
    pub has_operator: bool,
    /// The nodes' lifelines, by address, sorted.
    pub nodes: Vec<String>,
    /// The client's table before the first step.
    pub table_before: Table,
    /// The client's table after each step.
    pub tables: Vec<Table>,
    /// The slot whose entry each step changed, if it did.
    pub changed: Vec<Option<u16>>,
    /// The slots whose states and keys the lifelines show (at most [`MAX_TABLE_SLOTS`]).
    pub state_slots: Vec<u16>,
    /// What the nodes' lifelines carry before the first step.
    pub lifelines_before: Lifelines,
    /// …and after each step.
    pub lifelines: Vec<Lifelines>,
}

impl ScenarioSteps {
    /// The lifeline an endpoint is drawn on: the client first, then the nodes, then the
    /// operator if any, on the far side, so that the client's arrows never cross its lifeline.
    pub fn lane(&self, e: &Endpoint) -> usize {
        match e {
            Endpoint::Client => 0,
            Endpoint::Operator if self.has_operator => 1 + self.nodes.len(),
            Endpoint::Operator => 0,
            Endpoint::Node(addr) => self
                .nodes
                .iter()
                .position(|n| n == addr)
                .map_or(0, |i| 1 + i),
        }
    }
}

/// The slots worth showing in the client's table: those its requests touch (the slot its own
/// rule computes, then Redis's) and those its table updates change, in order of first
/// appearance.
pub fn tracked_slots(sc: &Scenario) -> Vec<u16> {
    let mut slots = Vec::new();
    let mut add = |s: u16| {
        if !slots.contains(&s) && slots.len() < MAX_TABLE_SLOTS {
            slots.push(s);
        }
    };
    for e in sc.events() {
        match (&e.from, &e.kind) {
            (Endpoint::Client, EventKind::Request { args }) => {
                if let Ok(spec) = key_positions(args) {
                    for k in spec.keys(args) {
                        if let Some(own) = sc.rule.route_slot(k) {
                            add(own);
                        }
                        add(key_slot(k));
                    }
                }
            }
            (_, EventKind::TableUpdate { slot, .. }) => add(*slot),
            _ => {}
        }
    }
    slots
}

/// `sc` laid out step by step.
pub fn scenario_steps(sc: &Scenario) -> ScenarioSteps {
    let has_operator = sc
        .events()
        .any(|e| e.from == Endpoint::Operator || e.to == Endpoint::Operator);
    let mut nodes: Vec<String> = sc
        .events()
        .flat_map(|e| [&e.from, &e.to])
        .filter_map(|p| match p {
            Endpoint::Node(a) => Some(a.clone()),
            Endpoint::Client | Endpoint::Operator => None,
        })
        .collect();
    crate::core::sort::sort(&mut nodes);
    nodes.dedup();
    let mut table: Table = tracked_slots(sc)
        .iter()
        .map(|&s| {
            let node = sc
                .start_table
                .iter()
                .find(|(r, _)| r.contains(s))
                .map(|(_, a)| a.clone());
            (s, node)
        })
        .collect();
    let table_before = table.clone();
    let mut tables = Vec::new();
    let mut changed = Vec::new();
    for e in sc.events() {
        let mut hit = None;
        if let EventKind::TableUpdate { slot, new, .. } = &e.kind {
            if let Some(row) = table.iter_mut().find(|(s, _)| s == slot) {
                row.1 = Some(new.clone());
            } else if table.len() < MAX_TABLE_SLOTS {
                table.push((*slot, Some(new.clone())));
            }
            hit = Some(*slot);
        }
        if let EventKind::TableRefresh { table: fresh } = &e.kind {
            for row in table.iter_mut() {
                let now = fresh
                    .iter()
                    .find(|(r, _)| r.contains(row.0))
                    .map(|(_, a)| a.clone());
                if row.1 != now {
                    hit.get_or_insert(row.0);
                    row.1 = now;
                }
            }
        }
        tables.push(table.clone());
        changed.push(hit);
    }
    let state_slots = state_slots(sc);
    let lifelines_before = sc
        .steps
        .first()
        .map(|s| Lifelines::of(&s.before, &nodes, &state_slots))
        .unwrap_or_default();
    let mut lifelines = Vec::new();
    for step in &sc.steps {
        let before = Lifelines::of(&step.before, &nodes, &state_slots);
        let after = Lifelines::of(&step.after, &nodes, &state_slots);
        // The action's effect shows from the reply that reports it (the last reply of the
        // step: the operator's `OK`, the reply to a client's write), or its last event.
        let switch = step
            .events
            .iter()
            .rposition(|e| matches!(e.kind, EventKind::Reply { .. }))
            .unwrap_or(step.events.len().saturating_sub(1));
        for i in 0..step.events.len() {
            lifelines.push(if i < switch {
                before.clone()
            } else {
                after.clone()
            });
        }
    }
    ScenarioSteps {
        has_operator,
        nodes,
        table_before,
        tables,
        changed,
        state_slots,
        lifelines_before,
        lifelines,
    }
}

/// Keys a [`Snapshot`] keeps per node, at most.
pub const MAX_SNAPSHOT_KEYS: usize = 64;

/// One master's slot states at one moment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MasterState {
    /// Its address.
    pub addr: String,
    /// Its node id.
    pub id: String,
    /// Slots it is migrating, with the id of the node they go to.
    pub migrating: Vec<(u16, String)>,
    /// Slots it is importing, with the id of the node they come from.
    pub importing: Vec<(u16, String)>,
}

/// The cluster at one moment, as much of it as the diagram draws: each master's slot states,
/// who owns which slots, and each node's keys (at most [`MAX_SNAPSHOT_KEYS`], in byte order).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Snapshot {
    /// Each master's states.
    pub masters: Vec<MasterState>,
    /// Runs of slots with their owner's address (uncovered slots left out).
    pub owners: Vec<(SlotRange, String)>,
    /// Each node's keys, masters and replicas, by address.
    pub keys: Vec<(String, Vec<Vec<u8>>)>,
}

impl Snapshot {
    /// What `cluster` holds now.
    pub fn of(cluster: &Cluster) -> Snapshot {
        let map = cluster.map();
        let masters = map
            .masters()
            .iter()
            .map(|m| MasterState {
                addr: m.addr.clone(),
                id: m.id.clone(),
                migrating: m.migrating.clone(),
                importing: m.importing.clone(),
            })
            .collect();
        let owners = map
            .runs()
            .filter_map(|r| {
                let m = map.masters().get(r.owner?)?;
                Some((r.range, m.addr.clone()))
            })
            .collect();
        let keys = cluster
            .node_addrs()
            .map(|a| (a.to_string(), cluster.keys_of(a, MAX_SNAPSHOT_KEYS)))
            .collect();
        Snapshot {
            masters,
            owners,
            keys,
        }
    }

    /// The address of the master that owns `slot`.
    pub fn owner(&self, slot: u16) -> Option<&str> {
        self.owners
            .iter()
            .find(|(r, _)| r.contains(slot))
            .map(|(_, a)| a.as_str())
    }

    /// The address of the node with this id (the id itself if no master has it).
    fn addr_of(&self, id: &str) -> String {
        self.masters
            .iter()
            .find(|m| m.id == id)
            .map_or_else(|| id.to_string(), |m| m.addr.clone())
    }
}

/// A node's state on one slot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SlotState {
    /// It owns the slot: every node's table sends the slot's commands to it.
    Owner,
    /// `MIGRATING` to the node at this address (`[slot->-id]` in its `CLUSTER NODES`).
    Migrating {
        /// Where the keys go.
        to: String,
    },
    /// `IMPORTING` from the node at this address (`[slot-<-id]`).
    Importing {
        /// Where the keys come from.
        from: String,
    },
}

/// One band on a lifeline: a node's state on a slot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Band {
    /// The node's address.
    pub node: String,
    /// The slot.
    pub slot: u16,
    /// Its state.
    pub state: SlotState,
}

/// What the nodes' lifelines carry at one moment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lifelines {
    /// The nodes' states on the slots in play, node by node in lifeline order.
    pub bands: Vec<Band>,
    /// The keys each lifeline's node holds in those slots (in lifeline order, byte order).
    pub keys: Vec<(String, Vec<Vec<u8>>)>,
}

impl Lifelines {
    /// What `snap` shows for `nodes` on `slots`.
    pub fn of(snap: &Snapshot, nodes: &[String], slots: &[u16]) -> Lifelines {
        let mut bands = Vec::new();
        let mut keys = Vec::new();
        for node in nodes {
            let master = snap.masters.iter().find(|m| &m.addr == node);
            for &slot in slots {
                if snap.owner(slot) == Some(node.as_str()) {
                    bands.push(Band {
                        node: node.clone(),
                        slot,
                        state: SlotState::Owner,
                    });
                }
                let Some(m) = master else { continue };
                for (_, id) in m.migrating.iter().filter(|(s, _)| *s == slot) {
                    bands.push(Band {
                        node: node.clone(),
                        slot,
                        state: SlotState::Migrating {
                            to: snap.addr_of(id),
                        },
                    });
                }
                for (_, id) in m.importing.iter().filter(|(s, _)| *s == slot) {
                    bands.push(Band {
                        node: node.clone(),
                        slot,
                        state: SlotState::Importing {
                            from: snap.addr_of(id),
                        },
                    });
                }
            }
            let held: Vec<Vec<u8>> = snap
                .keys
                .iter()
                .find(|(a, _)| a == node)
                .map(|(_, ks)| {
                    ks.iter()
                        .filter(|k| slots.contains(&key_slot(k)))
                        .cloned()
                        .collect()
                })
                .unwrap_or_default();
            keys.push((node.clone(), held));
        }
        Lifelines { bands, keys }
    }

    /// The keys the node at `addr` holds in the slots in play.
    pub fn keys_of(&self, addr: &str) -> &[Vec<u8>] {
        self.keys
            .iter()
            .find(|(a, _)| a == addr)
            .map_or(&[], |(_, k)| k.as_slice())
    }

    /// The states of the node at `addr` on `slot`.
    pub fn states_of(&self, addr: &str, slot: u16) -> Vec<&SlotState> {
        self.bands
            .iter()
            .filter(|b| b.node == addr && b.slot == slot)
            .map(|b| &b.state)
            .collect()
    }
}

/// The slots whose states the lifelines show: every slot some node migrates or imports during
/// the scenario, then the slots the client's table tracks, at most [`MAX_TABLE_SLOTS`].
pub fn state_slots(sc: &Scenario) -> Vec<u16> {
    let mut slots = Vec::new();
    for step in &sc.steps {
        for snap in [&step.before, &step.after] {
            for m in &snap.masters {
                for (s, _) in m.migrating.iter().chain(&m.importing) {
                    if !slots.contains(s) && slots.len() < MAX_TABLE_SLOTS {
                        slots.push(*s);
                    }
                }
            }
        }
    }
    for s in tracked_slots(sc) {
        if !slots.contains(&s) && slots.len() < MAX_TABLE_SLOTS {
            slots.push(s);
        }
    }
    slots
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::client::scenarios;

    /// In the live migration, the ASK reply never changes the client's table; in the stale
    /// route, the MOVED reply changes slot 5712's entry to the node the reply names.
    #[test]
    fn the_table_changes_on_moved_and_not_on_ask() {
        let all = scenarios();
        let stale = all.iter().find(|s| s.id == "stale-route").unwrap();
        let steps = scenario_steps(stale);
        let moved = steps.changed.iter().position(Option::is_some).unwrap();
        let slot = steps.changed[moved].unwrap();
        let before = steps.table_before.iter().find(|(s, _)| *s == slot);
        let after = steps.tables[moved].iter().find(|(s, _)| *s == slot);
        assert_ne!(before, after);
        let live = all.iter().find(|s| s.id == "live-migration").unwrap();
        let steps = scenario_steps(live);
        for (i, e) in live.events().enumerate() {
            if matches!(&e.kind, EventKind::Reply { .. }) {
                assert_eq!(steps.changed[i], None, "a reply is not a table update");
            }
        }
    }

    #[test]
    fn every_event_has_a_table_and_a_lane() {
        for sc in scenarios() {
            let steps = scenario_steps(&sc);
            let n = sc.events().count();
            assert_eq!(
                (steps.tables.len(), steps.changed.len()),
                (n, n),
                "{}",
                sc.id
            );
            let lanes = 1 + usize::from(steps.has_operator) + steps.nodes.len();
            for e in sc.events() {
                assert!(steps.lane(&e.from) < lanes && steps.lane(&e.to) < lanes);
                if let Endpoint::Node(a) = &e.to {
                    assert_eq!(steps.nodes[steps.lane(&e.to) - 1], *a);
                }
                if e.from == Endpoint::Operator || e.to == Endpoint::Operator {
                    assert_eq!(steps.lane(&Endpoint::Operator), lanes - 1, "the far side");
                }
            }
            assert!(steps.table_before.len() <= MAX_TABLE_SLOTS);
            assert_eq!(steps.lifelines.len(), n, "{}", sc.id);
        }
    }
}
