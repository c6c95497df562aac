//! The legend beside the map: each master's colour, address, ranges, share of slots, replicas.

use crate::core::{SlotMap, N_SLOTS};
use crate::ui::messages::{fill, use_messages};
use crate::ui::palette;
use std::rc::Rc;
use yew::prelude::*;

/// How many ranges a legend row lists before it says "and N more".
const MAX_RANGES: usize = 6;

/// Props of [`Legend`].
#[derive(Properties, PartialEq)]
pub struct LegendProps {
    /// The cluster.
    pub map: Rc<SlotMap>,
    /// The master that owns the typed key's slot, highlighted.
    pub current: Option<usize>,
}

/// The list of masters.
#[function_component(Legend)]
pub fn legend(props: &LegendProps) -> Html {
    let t = use_messages();
    let map = &props.map;
    let counts = map.slot_counts();
    let n = map.n_masters();
    let unowned = map.n_unowned();
    let all_ranges = use_memo(props.map.clone(), |map| map.ranges_by_master());
    let rows = map.masters().iter().enumerate().map(|(idx, m)| {
        let ranges = &all_ranges[idx];
        let shown: Vec<String> = ranges.iter().take(MAX_RANGES).map(|r| r.to_string()).collect();
        let more = ranges.len().saturating_sub(MAX_RANGES);
        let pct = format!("{:.1}", counts[idx] as f64 * 100.0 / N_SLOTS as f64);
        let current = props.current == Some(idx);
        html! {
            <li class={classes!("legend__row", current.then_some("is-current"))}
                aria-current={current.then_some("true")}>
                <span class="swatch" style={format!("background:{}", palette::master_colour(idx, n))}></span>
                <span class="legend__addr mono">{ &m.addr }</span>
                <span class="legend__count">{ fill(t.legend_slots, &[&counts[idx], &pct]) }</span>
                <span class="legend__ranges mono">
                    { shown.join(", ") }
                    if more > 0 { { " " }{ fill(t.legend_more_ranges, &[&more]) } }
                </span>
                if !m.replicas.is_empty() {
                    <span class="legend__replicas">{ t.legend_replicas }{ ": " }
                        <span class="mono">{ m.replica_addrs() }</span></span>
                }
            </li>
        }
    });
    html! {
        <section class="legend" aria-labelledby="legend-title">
            <h3 id="legend-title" class="legend__title">{ t.legend_title }{ format!(" ({n})") }</h3>
            <ol class={classes!("legend__list", (n > 12).then_some("legend__list--long"))}>
                { for rows }
            </ol>
            if unowned > 0 {
                <p class="legend__unowned">
                    <span class="swatch swatch--unowned"></span>
                    { fill(t.legend_unowned, &[&unowned]) }
                </p>
            }
        </section>
    }
}
