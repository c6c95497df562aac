//! The nodes beside the map: each master's colour, address, flags, ranges and share of slots,
//! its replicas under it, and the per-master actions (fail over, remove).

use crate::core::{SlotMap, SlotRange, N_SLOTS};
use crate::ui::components::window::{spacer, use_window};
use crate::ui::key_store::{use_key_select, KeyStore};
use crate::ui::messages::{fill, use_messages};
use crate::ui::state::ClusterAction as Action;
use crate::ui::styled::StyledSpan;
use std::rc::Rc;
use yew::prelude::*;

/// How many ranges a row shows before it says "and N more" (`data-ranges` always has all).
const MAX_RANGES: usize = 6;

/// Props of [`NodeList`].
#[derive(Properties, PartialEq)]
pub struct NodeListProps {
    /// The cluster.
    pub map: Rc<SlotMap>,
    /// Colour of each master, by index.
    pub colours: Rc<Vec<String>>,
    /// The key's state: the master that owns the typed key's slot is highlighted (the list
    /// re-renders when that master changes, not at every keystroke).
    pub key_store: KeyStore,
    /// Where per-master actions go.
    pub on_action: Callback<Action>,
}

/// Flags worth showing as badges (the role is shown by the row itself).
fn badges(flags: &[String]) -> Html {
    html! {
        { for flags.iter().map(|f| html! {
            <span class={classes!("badge", matches!(f.as_str(), "fail" | "fail?" | "noaddr").then_some("badge--bad"))}>
                { f }
            </span>
        }) }
    }
}

/// Props of [`MasterRow`]: only what the row shows, so a keystroke that moves the highlight
/// re-renders two rows, not a thousand.
#[derive(Properties)]
pub struct MasterRowProps {
    /// The cluster (compared by pointer: the map is never mutated in place).
    pub map: Rc<SlotMap>,
    /// The master's index.
    pub idx: usize,
    /// Its colour.
    pub colour: AttrValue,
    /// Its slot count.
    pub count: usize,
    /// Every master's ranges (shared; compared by pointer).
    pub ranges: Rc<Vec<Vec<SlotRange>>>,
    /// Whether it owns the typed key's slot.
    pub current: bool,
    /// Where its actions go.
    pub on_action: Callback<Action>,
}

/// The map and the ranges by pointer, as their comments say (a derived comparison read a
/// changed 1000-master map and its 1000 range lists whole, for every row in view, issue 17):
/// a new map is a new `Rc`, and an equal one under a new pointer only renders the row again.
impl PartialEq for MasterRowProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.map, &other.map)
            && Rc::ptr_eq(&self.ranges, &other.ranges)
            && self.idx == other.idx
            && self.colour == other.colour
            && self.count == other.count
            && self.current == other.current
            && self.on_action == other.on_action
    }
}

/// One master and its replicas.
#[function_component(MasterRow)]
pub fn master_row(props: &MasterRowProps) -> Html {
    let t = use_messages();
    let (map, idx) = (&props.map, props.idx);
    let Some(m) = map.masters().get(idx) else {
        return Html::default();
    };
    let ranges = props.ranges.get(idx).map_or(&[][..], Vec::as_slice);
    let all: Vec<String> = ranges.iter().map(|r| r.to_string()).collect();
    let shown = all
        .iter()
        .take(MAX_RANGES)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    let more = all.len().saturating_sub(MAX_RANGES);
    let pct = format!("{:.1}", props.count as f64 * 100.0 / N_SLOTS as f64);
    let current = props.current;
    let colour = &props.colour;
    let on_failover = {
        let cb = props.on_action.clone();
        Callback::from(move |_: MouseEvent| cb.emit(Action::Failover(idx)))
    };
    let on_remove = {
        let cb = props.on_action.clone();
        Callback::from(move |_: MouseEvent| cb.emit(Action::RemoveMaster(idx)))
    };
    let open_slots = m
        .migrating
        .iter()
        .map(|(slot, to)| fill(t.node_migrating, &[slot, &map.name_of_id(to)]))
        .chain(
            m.importing
                .iter()
                .map(|(slot, from)| fill(t.node_importing, &[slot, &map.name_of_id(from)])),
        )
        .collect::<Vec<_>>();
    let count = props.count;
    html! {
        <>
            <li class={classes!("node-row", current.then_some("is-current"), m.is_failed().then_some("is-failed"))}
                data-testid="node-row" data-addr={m.addr.clone()} data-role="master"
                data-slots={count.to_string()} data-ranges={all.join(",")}
                aria-current={current.then_some("true")}>
                <StyledSpan class="swatch" style={format!("background:{colour}")} />
                <span class="node-row__addr mono">{ &m.addr }{ badges(&m.flags) }</span>
                <span class="node-row__count">{ fill(t.legend_slots, &[&count, &pct]) }</span>
                <span class="node-row__ranges mono">
                    if all.is_empty() { <em>{ t.node_no_slots }</em> } else { { shown } }
                    if more > 0 { { " " }{ fill(t.legend_more_ranges, &[&more]) } }
                </span>
                if !open_slots.is_empty() {
                    <span class="node-row__open mono">{ open_slots.join(" · ") }</span>
                }
                <span class="node-row__actions">
                    <button type="button" class="link-button" onclick={on_failover}
                            title={fill(t.node_failover_title, &[&m.addr])}>{ t.node_failover }</button>
                    <button type="button" class="link-button" onclick={on_remove}
                            title={fill(t.node_remove_title, &[&m.addr])}>{ t.node_remove }</button>
                </span>
            </li>
            { for m.replicas.iter().map(|r| html! {
                <li class={classes!("node-row", "node-row--replica")} data-testid="node-row"
                    data-addr={r.addr.clone()} data-role="replica" data-slots="0" data-ranges="">
                    <span class="node-row__arrow" aria-hidden="true">{ "↳" }</span>
                    <span class="node-row__addr mono">{ &r.addr }{ badges(&r.flags) }</span>
                    <span class="node-row__count">{ fill(t.node_replica_of, &[&m.addr]) }</span>
                </li>
            }) }
        </>
    }
}

/// The list of nodes. At 1000 masters only the rows scrolled into view are rendered
/// (`window::use_window`): the rest are two spacers.
#[function_component(NodeList)]
pub fn node_list(props: &NodeListProps) -> Html {
    let t = use_messages();
    let map = &props.map;
    let current = {
        let map = props.map.clone();
        use_key_select(&props.key_store, move |k| map.owner(k.explained.slot))
    };
    let counts = use_memo(props.map.clone(), |map| map.slot_counts());
    let all_ranges = use_memo(props.map.clone(), |map| map.ranges_by_master());
    let n = map.n_masters();
    let unowned = map.n_unowned();
    let list = use_node_ref();
    let windowed = use_window(list.clone(), n);
    let window = windowed.window;
    let rows = (window.start..window.end).map(|idx| {
        html! {
            <MasterRow key={idx} map={props.map.clone()} {idx}
                       colour={AttrValue::from(props.colours.get(idx).cloned().unwrap_or_default())}
                       count={counts.get(idx).copied().unwrap_or(0)} ranges={all_ranges.clone()}
                       current={current == Some(idx)} on_action={props.on_action.clone()} />
        }
    });
    html! {
        <section class="legend" aria-labelledby="legend-title">
            <h3 id="legend-title" class="legend__title">{ t.legend_title }{ format!(" ({n})") }</h3>
            // A long list scrolls, so it takes the focus to be scrolled by keyboard.
            <ol class={classes!("legend__list", (n > 12).then_some("legend__list--long"), window.windowed.then_some("is-windowed"))}
                tabindex={(n > 12).then_some("0")} aria-labelledby="legend-title"
                ref={list} onscroll={windowed.onscroll.clone()} data-testid="node-list" data-rows={n.to_string()}>
                { spacer(&windowed, &windowed.before) }
                { for rows }
                { spacer(&windowed, &windowed.after) }
            </ol>
            if unowned > 0 {
                <p class="legend__unowned" data-testid="uncovered">
                    <span class="swatch swatch--unowned"></span>
                    { fill(t.legend_unowned, &[&unowned]) }
                </p>
            }
        </section>
    }
}
