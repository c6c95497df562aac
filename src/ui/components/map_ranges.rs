//! The slot map's text alternative: every range of every master (and any uncovered slots), in
//! a `<details>` beside the canvas, complete where the legend stops at a few ranges per row.
//! A large cluster's list (over [`EAGER_MASTERS`] masters) is built only once it is opened: a
//! closed `<details>` shows none of it, and a 1000-master cluster's is a thousand items.

use crate::core::SlotMap;
use crate::ui::messages::{fill, use_messages};
use std::rc::Rc;
use yew::prelude::*;

/// Clusters with up to this many masters have their list built even while it is closed.
pub const EAGER_MASTERS: usize = 64;

/// Props of [`MapRanges`].
#[derive(Properties, PartialEq)]
pub struct MapRangesProps {
    /// The cluster (compared by pointer: re-rendered only when the cluster changes).
    pub map: Rc<SlotMap>,
}

/// One list item per master: address, slot count, every range.
#[function_component(MapRanges)]
pub fn map_ranges(props: &MapRangesProps) -> Html {
    let t = use_messages();
    let map = &props.map;
    let open = use_state(|| false);
    let ontoggle = {
        let open = open.clone();
        Callback::from(move |e: Event| {
            let details: web_sys::Element = e.target_unchecked_into();
            open.set(details.has_attribute("open"));
        })
    };
    let built = *open || map.n_masters() <= EAGER_MASTERS;
    let ranges = use_memo(map.clone(), |map| map.ranges_by_master());
    let counts = use_memo(map.clone(), |map| map.slot_counts());
    let uncovered: Vec<String> = map
        .runs()
        .filter(|r| r.owner.is_none())
        .map(|r| r.range.to_string())
        .collect();
    let masters = if built { map.masters() } else { &[] };
    let rows = masters.iter().enumerate().map(|(i, m)| {
        let list = ranges.get(i).map_or(&[][..], Vec::as_slice);
        let text = if list.is_empty() {
            "—".to_string()
        } else {
            list.iter()
                .map(|r| r.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        html! {
            <li>
                { fill(t.map_ranges_master, &[&m.addr, &counts.get(i).copied().unwrap_or(0)]) }
                { " " }<span class="mono">{ text }</span>
            </li>
        }
    });
    html! {
        <details class="map-ranges" id="slot-map-ranges" data-testid="map-ranges" {ontoggle}>
            <summary>{ t.map_ranges_title }</summary>
            <ul class="map-ranges__list">
                { for rows }
                if !uncovered.is_empty() {
                    <li>
                        { fill(t.map_ranges_unowned, &[&map.n_unowned()]) }
                        { " " }<span class="mono">{ uncovered.join(", ") }</span>
                    </li>
                }
            </ul>
        </details>
    }
}
