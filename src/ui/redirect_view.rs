//! Words the core's redirect scenarios for the sequence diagram: lane names and colours,
//! arrow labels, narration, and the client's table as text (the steps, lanes and tables
//! themselves are the core's `redirect_steps`).

use crate::core::client::steps::{scenario_steps, Lifelines, SlotState, Table};
use crate::core::client::{recipes, scenarios, Endpoint, Event, EventKind, Narration, Scenario};
use crate::core::key::client_rules::ClientRule;
use crate::core::key::escape::format_key;
use crate::core::SlotMap;
use crate::ui::components::sequence::{Arrow, BandKind, LaneBand, LaneState};
use crate::ui::messages::fill;
use crate::ui::narration::{
    give_up_reason, narrate, policy_name, rule_name, scenario_title, wait, NarrationText,
};
use crate::ui::palette::ColourBook;
use crate::ui::player::ScenarioIndex;

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
    /// What the lifelines carry before the first step, then after each.
    pub states: Vec<LaneState>,
    /// The operator's lifeline, if it has one.
    pub operator: Option<usize>,
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
        EventKind::Backoff {
            attempt,
            min_ms,
            max_ms,
        } => Arrow {
            label: fill(t.label_backoff, &[attempt, &wait(*min_ms, *max_ms, t)]),
            note: true,
            ..base
        },
        EventKind::TableRefresh { .. } => Arrow {
            label: match &e.narration {
                Narration::TableRefreshed { changed } => fill(t.label_refresh, &[changed]),
                _ => fill(t.label_refresh, &[&0]),
            },
            note: true,
            ..base
        },
        EventKind::Split { parts } => Arrow {
            label: fill(t.label_split, &[&parts.len()]),
            note: true,
            ..base
        },
        // The reply the application gets, as redis-cli would print it.
        EventKind::Reassembled { reply } => Arrow {
            reply: true,
            note: true,
            error: reply.is_error(),
            ..base
        },
        EventKind::GiveUp { reason } => Arrow {
            label: fill(t.label_give_up, &[&give_up_reason(reason, t)]),
            note: true,
            error: true,
            ..base
        },
    }
}

/// One scenario, ready to draw, worded in `t`'s language.
pub fn view_of(sc: &Scenario, t: &'static NarrationText) -> ScenarioView {
    let steps = scenario_steps(sc);
    let mut lanes = vec![t.lane_client.to_string()];
    lanes.extend(steps.nodes.iter().cloned());
    let operator = steps.has_operator.then_some(lanes.len());
    if steps.has_operator {
        lanes.push(t.lane_operator.to_string());
    }
    let lane = |e: &Endpoint| steps.lane(e);
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
    let events: Vec<&Event> = sc.events().collect();
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
        table_before: table_text(&steps.table_before),
        tables: steps.tables.iter().map(table_text).collect(),
        changed: steps.changed.clone(),
        states: std::iter::once(&steps.lifelines_before)
            .chain(&steps.lifelines)
            .map(|l| lane_state(l, &|a: &str| steps.lane(&Endpoint::Node(a.to_string()))))
            .collect(),
        operator,
    }
}

/// What the lifelines carry, placed on their lanes, keys as the page prints them.
fn lane_state(l: &Lifelines, lane: &dyn Fn(&str) -> usize) -> LaneState {
    LaneState {
        bands: l
            .bands
            .iter()
            .map(|b| {
                let (kind, peer) = match &b.state {
                    SlotState::Owner => (BandKind::Owner, String::new()),
                    SlotState::Migrating { to } => (BandKind::Migrating, to.clone()),
                    SlotState::Importing { from } => (BandKind::Importing, from.clone()),
                };
                LaneBand {
                    lane: lane(&b.node),
                    node: b.node.clone(),
                    slot: b.slot,
                    kind,
                    peer,
                }
            })
            .collect(),
        keys: l
            .keys
            .iter()
            .map(|(node, keys)| (lane(node), keys.iter().map(|k| format_key(k)).collect()))
            .collect(),
    }
}

/// The client's table as shown: `-` for a slot it knows no node for.
fn table_text(table: &Table) -> Vec<(u16, String)> {
    table
        .iter()
        .map(|(s, node)| (*s, node.clone().unwrap_or_else(|| "-".to_string())))
        .collect()
}

/// The scenarios of `index` with their titles in `t`'s language, in the player's order (none
/// is played).
pub fn scenario_list(
    index: &ScenarioIndex,
    t: &'static NarrationText,
) -> Vec<(&'static str, String)> {
    index
        .titles()
        .map(|(id, title)| (id, scenario_title(id, title, t).to_string()))
        .collect()
}

/// Scenario `idx` of the player's order, played and ready to draw.
pub fn scenario_view(idx: usize, t: &'static NarrationText) -> Option<ScenarioView> {
    let sc = recipes().into_iter().nth(idx)?.play();
    Some(view_of(&sc, t))
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

    /// Every band sits on its own node's lifeline, one state per step and one before the
    /// first, and the operator (if any) is the last lifeline.
    #[test]
    fn lifeline_states_sit_on_their_nodes_lanes() {
        for v in scenario_views(&crate::ui::narration::EN) {
            assert_eq!(v.states.len(), v.arrows.len() + 1, "{}", v.id);
            for s in &v.states {
                for b in &s.bands {
                    assert_eq!(v.lanes[b.lane], b.node, "{}", v.id);
                }
                for (lane, _) in &s.keys {
                    assert!(*lane > 0 && Some(*lane) != v.operator, "{}", v.id);
                }
            }
            if let Some(op) = v.operator {
                assert_eq!(op, v.lanes.len() - 1, "{}", v.id);
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
