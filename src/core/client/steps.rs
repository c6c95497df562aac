//! A redirect scenario step by step, as data for a sequence diagram: its lifelines (the
//! client, the operator if any, the nodes in address order), the slots worth showing in the
//! client's table, and that table before and after every step.

use super::{Endpoint, EventKind, Scenario};
use crate::core::key::slot::key_slot;
use crate::core::server::command::key_positions;

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
}

impl ScenarioSteps {
    /// The lifeline an endpoint is drawn on: the client first, then the operator if any,
    /// then the nodes.
    pub fn lane(&self, e: &Endpoint) -> usize {
        let nodes_from = 1 + usize::from(self.has_operator);
        match e {
            Endpoint::Client => 0,
            Endpoint::Operator if self.has_operator => 1,
            Endpoint::Operator => 0,
            Endpoint::Node(addr) => self
                .nodes
                .iter()
                .position(|n| n == addr)
                .map_or(0, |i| nodes_from + i),
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
    ScenarioSteps {
        has_operator,
        nodes,
        table_before,
        tables,
        changed,
    }
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
                    assert_eq!(
                        steps.nodes[steps.lane(&e.to) + steps.nodes.len() - lanes],
                        *a
                    );
                }
            }
            assert!(steps.table_before.len() <= MAX_TABLE_SLOTS);
        }
    }
}
