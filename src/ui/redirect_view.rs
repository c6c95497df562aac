//! Turns the core's redirect scenarios into what the sequence diagram draws: lanes, arrows,
//! narration, and the client's slot table after every step.

use crate::core::clients::ClientRule;
use crate::core::escape::format_key;
use crate::core::redirect::{scenarios, Endpoint, Event, EventKind, Scenario};
use crate::core::server::command::key_positions;
use crate::core::{key_slot, SlotMap};
use crate::ui::components::sequence::Arrow;
use crate::ui::messages::fill;
use crate::ui::narration::{
    give_up_reason, narrate, policy_name, rule_name, scenario_title, NarrationText,
};
use crate::ui::palette::ColourBook;

/// Slots the client table shows at most.
const MAX_TABLE_SLOTS: usize = 6;

/// A scenario ready to play.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioView {
    /// Stable id for links.
    pub id: String,
    /// Title.
    pub title: String,
    /// What the narration says before the first step.
    pub intro: String,
    /// Lifelines: the client, the operator if any, then the nodes.
    pub lanes: Vec<String>,
    /// Colour of each lifeline's head.
    pub lane_colours: Vec<String>,
    /// The arrows, one per step.
    pub arrows: Vec<Arrow>,
    /// Narration of each step.
    pub narrations: Vec<String>,
    /// The client's table (slot → node) before the first step.
    pub table_before: Vec<(u16, String)>,
    /// The client's table after each step.
    pub tables: Vec<Vec<(u16, String)>>,
    /// The slot whose entry a step changed, if it did.
    pub changed: Vec<Option<u16>>,
}

fn lane_name(e: &Endpoint, t: &NarrationText) -> String {
    match e {
        Endpoint::Client => t.lane_client.to_string(),
        Endpoint::Operator => t.lane_operator.to_string(),
        Endpoint::Node(addr) => addr.clone(),
        #[allow(unreachable_patterns)]
        _ => "?".to_string(),
    }
}

fn arrow_of(e: &Event, lane: impl Fn(&Endpoint) -> usize, t: &NarrationText) -> Arrow {
    let (from, to) = (lane(&e.from), lane(&e.to));
    let wire = format_key(&e.resp);
    let base = Arrow {
        from,
        to,
        label: e.cli.trim_end_matches('\n').to_string(),
        wire,
        reply: false,
        error: false,
        note: false,
    };
    match &e.kind {
        EventKind::Request { .. } | EventKind::Asking => base,
        EventKind::Reply { reply } => Arrow {
            reply: true,
            error: reply.is_error(),
            ..base
        },
        EventKind::TableUpdate { slot, new, .. } => Arrow {
            label: fill(t.label_table, &[slot, new]),
            note: true,
            ..base
        },
        EventKind::Backoff { attempt } => Arrow {
            label: fill(t.label_backoff, &[attempt]),
            note: true,
            ..base
        },
        EventKind::GiveUp { reason } => Arrow {
            label: fill(t.label_give_up, &[&give_up_reason(reason, t)]),
            note: true,
            error: true,
            ..base
        },
        #[allow(unreachable_patterns)]
        _ => Arrow { note: true, ..base },
    }
}

/// The slots worth showing in the client's table: those its requests touch (the slot its own
/// rule computes, then Redis's) and those its table updates change, in order of first
/// appearance.
fn tracked_slots(sc: &Scenario) -> Vec<u16> {
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

/// One scenario, ready to draw, worded in `t`'s language.
pub fn view_of(sc: &Scenario, t: &'static NarrationText) -> ScenarioView {
    let mut lanes = vec![t.lane_client.to_string()];
    let events: Vec<&Event> = sc.events().collect();
    if events
        .iter()
        .any(|e| e.from == Endpoint::Operator || e.to == Endpoint::Operator)
    {
        lanes.push(t.lane_operator.to_string());
    }
    let mut nodes: Vec<String> = events
        .iter()
        .flat_map(|e| [&e.from, &e.to])
        .filter_map(|p| match p {
            Endpoint::Node(a) => Some(a.clone()),
            _ => None,
        })
        .collect();
    crate::core::sort::sort(&mut nodes);
    nodes.dedup();
    lanes.extend(nodes);
    let lane = |e: &Endpoint| {
        let name = lane_name(e, t);
        lanes.iter().position(|l| *l == name).unwrap_or(0)
    };
    // Node heads in the colours the rest of the page gives the fixtures' masters.
    let map = SlotMap::fixture_cluster();
    let colours = ColourBook::for_map(&map).colours(&map);
    let lane_colours = lanes
        .iter()
        .map(|l| {
            map.masters()
                .iter()
                .position(|m| m.addr == *l)
                .and_then(|i| colours.get(i).cloned())
                .unwrap_or_default()
        })
        .collect();
    let slots = tracked_slots(sc);
    let mut table: Vec<(u16, String)> = slots
        .iter()
        .map(|&s| {
            let node = sc
                .start_table
                .iter()
                .find(|(r, _)| r.contains(s))
                .map_or_else(|| "-".to_string(), |(_, a)| a.clone());
            (s, node)
        })
        .collect();
    let table_before = table.clone();
    let mut tables = Vec::with_capacity(events.len());
    let mut changed = Vec::with_capacity(events.len());
    for e in &events {
        let mut hit = None;
        if let EventKind::TableUpdate { slot, new, .. } = &e.kind {
            if let Some(row) = table.iter_mut().find(|(s, _)| s == slot) {
                row.1 = new.clone();
            } else if table.len() < MAX_TABLE_SLOTS {
                table.push((*slot, new.clone()));
            }
            hit = Some(*slot);
        }
        tables.push(table.clone());
        changed.push(hit);
    }
    let arrows = events.iter().map(|e| arrow_of(e, lane, t)).collect();
    let title = scenario_title(sc.id, sc.title, t);
    let client = policy_name(sc.policy, t);
    let intro = if sc.rule == ClientRule::Redis {
        fill(t.intro, &[&title, &client, &sc.max_redirects])
    } else {
        let rule = rule_name(sc.rule, t);
        fill(t.intro_rule, &[&title, &client, &rule, &sc.max_redirects])
    };
    ScenarioView {
        id: sc.id.to_string(),
        title: title.to_string(),
        intro,
        lanes,
        lane_colours,
        arrows,
        narrations: events.iter().map(|e| narrate(&e.narration, t)).collect(),
        table_before,
        tables,
        changed,
    }
}

/// Every scenario of the core, ready to draw, worded in `t`'s language.
pub fn scenario_views(t: &'static NarrationText) -> Vec<ScenarioView> {
    scenarios().iter().map(|sc| view_of(sc, t)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scenario_has_arrows_narration_and_tables_in_step() {
        let views = scenario_views(&crate::ui::narration::EN);
        assert!(views.len() >= 6);
        for v in &views {
            assert!(!v.arrows.is_empty(), "{}", v.id);
            assert_eq!(v.arrows.len(), v.narrations.len());
            assert_eq!(v.arrows.len(), v.tables.len());
            assert_eq!(v.arrows.len(), v.changed.len());
            for a in &v.arrows {
                assert!(a.from < v.lanes.len() && a.to < v.lanes.len(), "{}", v.id);
            }
        }
    }

    /// In the live migration, the ASK reply never changes the client's table; in the stale
    /// route, the MOVED reply does.
    #[test]
    fn the_table_changes_on_moved_and_not_on_ask() {
        let views = scenario_views(&crate::ui::narration::EN);
        let live = views.iter().find(|v| v.id == "live-migration").unwrap();
        let ask = live
            .arrows
            .iter()
            .position(|a| a.label.contains("ASK 5712"))
            .unwrap();
        assert_eq!(live.changed[ask], None);
        assert_eq!(live.tables[ask], live.tables[ask.saturating_sub(1)]);
        let stale = views.iter().find(|v| v.id == "stale-route").unwrap();
        let moved = stale
            .arrows
            .iter()
            .position(|a| a.label.contains("MOVED"))
            .unwrap();
        assert!(stale.changed[moved..].iter().any(Option::is_some));
    }
}
