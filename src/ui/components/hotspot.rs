//! The hot-spot experiment: 100,000 keys under one hash tag, under k sub-tags, or untagged,
//! and how many land on each master (the fixtures' DBSIZE counts, reproduced live).

use crate::core::sort::sort_by_key;
use crate::core::workload::{hot_spot, Tagging, MAX_SUB_TAGS};
use crate::core::SlotMap;
use crate::ui::localize::plan_error;
use crate::ui::messages::{fill, grouped, use_messages};
use crate::ui::styled::StyledSpan;
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Keys in the experiment (as many as the fixtures' runs wrote).
pub const N_KEYS: u32 = 100_000;

/// Masters listed at most (the busiest, when there are more).
const LISTED: usize = 64;

/// Props of [`HotSpotView`].
#[derive(Properties, PartialEq)]
pub struct HotSpotProps {
    /// The cluster.
    pub map: Rc<SlotMap>,
    /// Colour of each master, by index.
    pub colours: Rc<Vec<String>>,
}

/// The experiment's card.
#[function_component(HotSpotView)]
pub fn hot_spot_view(props: &HotSpotProps) -> Html {
    let t = use_messages();
    let k = use_state(|| 1u32);
    let untagged = use_state(|| false);
    let tagging = if *untagged {
        Tagging::NoTag
    } else {
        Tagging::SubTags(*k)
    };
    // Keys are formatted and hashed inside wasm; only the counts cross to the page.
    // Timed with the page's own clock, and shown: the reader sees what the recompute costs.
    let timed = use_memo((tagging, props.map.clone()), |(tagging, map)| {
        // No clock when prerendered natively at build time (`ui::prerender`).
        let clock = cfg!(target_arch = "wasm32")
            .then(web_sys::window)
            .flatten()
            .and_then(|w| w.performance());
        let start = clock.as_ref().map_or(0.0, |c| c.now());
        let result = hot_spot(*tagging, N_KEYS, map);
        (result, clock.map_or(0.0, |c| c.now() - start))
    });
    let (result, millis) = (&timed.0, timed.1);
    let on_k = {
        let k = k.clone();
        Callback::from(move |e: InputEvent| {
            let v = e.target_unchecked_into::<HtmlInputElement>().value();
            if let Ok(v) = v.parse::<u32>() {
                k.set(v.clamp(1, MAX_SUB_TAGS));
            }
        })
    };
    let on_untagged = {
        let u = untagged.clone();
        Callback::from(move |_: Event| u.set(!*u))
    };
    let pattern = match tagging {
        Tagging::NoTag => "key:<i>".to_string(),
        Tagging::SubTags(1) => "{user1}:item:<i>".to_string(),
        Tagging::SubTags(k) => format!("{{user1:<i mod {k}>}}:item:<i>"),
    };
    let body = match result {
        Ok(h) => {
            let max = h.keys_per_master.iter().copied().max().unwrap_or(1).max(1) as f64;
            let masters = props.map.masters();
            let keys_of = |idx: usize| h.keys_per_master.get(idx).copied().unwrap_or(0);
            // Up to `LISTED` masters in the map's order; more, and the busiest `LISTED` that
            // hold keys are listed, most keys first (ties in the map's order): the master a tag
            // piles its keys on is never among those left out.
            let mut order: Vec<usize> = (0..masters.len()).collect();
            let many = order.len() > LISTED;
            if many {
                sort_by_key(&mut order, |&idx| std::cmp::Reverse(keys_of(idx)));
                order.truncate(LISTED);
                order.retain(|&idx| keys_of(idx) > 0);
            }
            let left_out = masters.len() - order.len();
            // Whether every master left out holds no key (then the list says so).
            let left_empty = (0..masters.len()).filter(|&i| keys_of(i) > 0).count() <= LISTED;
            let rows = order.into_iter().map(|idx| {
                let m = &masters[idx];
                let n = keys_of(idx);
                let tags = h.tags_per_master.get(idx).copied().unwrap_or(0);
                let colour = props.colours.get(idx).cloned().unwrap_or_default();
                let width = n as f64 / max * 100.0;
                html! {
                    <li key={idx} class="hotspot__row" data-testid="hotspot-master" data-addr={m.addr.clone()}
                        data-count={n.to_string()}>
                        <span class="hotspot__addr mono">{ &m.addr }</span>
                        <span class="hotspot__bar-wrap">
                            <StyledSpan class="hotspot__bar" style={format!("width:{width:.2}%;background:{colour}")} />
                        </span>
                        <span class="hotspot__count mono">{ grouped(n.into()) }</span>
                        <span class="hotspot__tags">{ fill(t.hot_tags, &[&tags]) }</span>
                    </li>
                }
            });
            html! {
                <>
                    <ol class="hotspot__list">{ for rows }</ol>
                    if many {
                        <p class="section-help" data-testid="hotspot-more">{ fill(if left_empty { t.hot_more_empty } else { t.hot_more_fewer }, &[&grouped(left_out as u64)]) }</p>
                    }
                    <p class="hotspot__summary" data-testid="hotspot-busiest">
                        { fill(t.hot_busiest, &[&format!("{:.1}%", h.busiest_share * 100.0),
                            &h.busiest.and_then(|b| props.map.masters().get(b)).map_or("-", |m| m.addr.as_str())]) }
                        if h.unserved_keys > 0 { { " " }{ fill(t.hot_unserved, &[&grouped(h.unserved_keys)]) } }
                    </p>
                </>
            }
        }
        Err(e) => html! { <p class="lab__error" role="alert">{ plan_error(t, e) }</p> },
    };
    html! {
        <section class="card hotspot" aria-labelledby="hotspot-title">
            <h2 id="hotspot-title" class="section-title">{ t.hot_title }</h2>
            <p class="section-help">{ fill(t.hot_help, &[&grouped(N_KEYS.into())]) }</p>
            // The part the tour points at: the control, the key pattern and where the keys land.
            <div class="hotspot__live">
            <div class="lab__row lab__form">
                <label for="hotspot-k">{ t.hot_k }</label>
                <input id="hotspot-k" type="range" min="1" max={MAX_SUB_TAGS.to_string()} value={k.to_string()}
                       disabled={*untagged} oninput={on_k.clone()} aria-describedby="hotspot-pattern" />
                <input type="number" class="lab__number" data-testid="hotspot-k" min="1" max={MAX_SUB_TAGS.to_string()}
                       value={k.to_string()} disabled={*untagged} oninput={on_k} aria-label={t.hot_k} />
                <label class="lab__check">
                    <input type="checkbox" data-testid="hotspot-untagged" checked={*untagged} onchange={on_untagged} />
                    { " " }{ t.hot_untagged }
                </label>
            </div>
            <p class="mono hotspot__pattern" id="hotspot-pattern">{ pattern }</p>
            { body }
            </div>
            <p class="hotspot__timing" data-testid="hotspot-ms" data-ms={format!("{millis:.3}")}>
                { fill(t.hot_timing, &[&if millis < 0.1 { "< 0.1".to_string() } else { format!("{millis:.1}") }]) }
            </p>
            <p class="section-help">{ t.hot_takeaway }</p>
        </section>
    }
}
