//! The scenario select and the free-play settings (node-timeout, masters, replicas per master,
//! full coverage, replica migration, seed).

use super::model::{replicas_per_master, uniform};
use super::scenarios::{slugs, FREE};
use super::BusMsg;
use crate::core::bus::scenario::Knobs;
use crate::ui::bus_words::{use_bus_words, BusWords};
use crate::ui::messages::fill;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Props of [`BusKnobs`].
#[derive(Properties, PartialEq)]
pub struct BusKnobsProps {
    /// The scenario shown.
    pub slug: String,
    /// Free play's knobs.
    pub free: Knobs,
    /// Where changes go.
    pub on_msg: Callback<BusMsg>,
}

fn title(w: &BusWords, slug: &str) -> &'static str {
    if slug == FREE {
        return w.free_play;
    }
    w.scenarios.iter().find(|s| s.0 == slug).map_or("", |s| s.1)
}

/// The select and the settings form.
#[function_component(BusKnobs)]
pub fn bus_knobs(props: &BusKnobsProps) -> Html {
    let w = use_bus_words();
    let nt = use_node_ref();
    let masters = use_node_ref();
    let replicas = use_node_ref();
    let seed = use_node_ref();
    let coverage = use_node_ref();
    let migration = use_node_ref();
    let error = use_state(|| None::<String>);
    let on_select = {
        let on_msg = props.on_msg.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            on_msg.emit(BusMsg::Scenario(v));
        })
    };
    let on_apply = {
        let (nt, masters, replicas, seed, coverage, migration) = (
            nt.clone(),
            masters.clone(),
            replicas.clone(),
            seed.clone(),
            coverage.clone(),
            migration.clone(),
        );
        let (on_msg, error) = (props.on_msg.clone(), error.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let read = |r: &NodeRef| {
                r.cast::<HtmlInputElement>()
                    .map(|i| i.value())
                    .unwrap_or_default()
            };
            let check = |r: &NodeRef| r.cast::<HtmlInputElement>().is_some_and(|i| i.checked());
            let mut vals = [0u64; 4];
            for (i, r) in [&nt, &masters, &replicas, &seed].into_iter().enumerate() {
                let text = read(r);
                match text.trim().parse::<u64>() {
                    Ok(v) => vals[i] = v,
                    Err(_) => {
                        let shown: String = text.chars().take(40).collect();
                        error.set(Some(shown));
                        return;
                    }
                }
            }
            error.set(None);
            on_msg.emit(BusMsg::Knobs(uniform(
                vals[1],
                vals[2],
                vals[0],
                vals[3],
                check(&coverage),
                check(&migration),
            )));
        })
    };
    let f = &props.free;
    html! {
        <div class="bus__knobs">
            <div class="lab__row lab__form">
                <label for="bus-scenario">{ w.scenario }</label>
                <select id="bus-scenario" data-testid="bus-scenario-select" onchange={on_select}>
                    { for slugs().map(|s| html! {
                        <option value={s} selected={s == props.slug}>{ title(w, s) }</option>
                    }) }
                </select>
            </div>
            <details class="bus__settings">
                <summary>{ w.knobs }</summary>
                <form class="lab__row lab__form" onsubmit={on_apply}>
                    <label>{ w.node_timeout }{ " " }
                        <input ref={nt} class="lab__number" inputmode="numeric" data-testid="bus-node-timeout"
                               value={f.node_timeout.to_string()} /></label>
                    <label>{ w.masters }{ " " }
                        <input ref={masters} class="lab__number" inputmode="numeric" data-testid="bus-masters"
                               value={f.masters.to_string()} /></label>
                    <label>{ w.replicas }{ " " }
                        <input ref={replicas} class="lab__number" inputmode="numeric" data-testid="bus-replicas"
                               value={replicas_per_master(f).to_string()} /></label>
                    <label>{ w.seed }{ " " }
                        <input ref={seed} class="lab__number" inputmode="numeric" data-testid="bus-seed"
                               value={f.seed.to_string()} /></label>
                    <label class="lab__check mono"><input ref={coverage} type="checkbox" data-testid="bus-full-coverage"
                               checked={f.require_full_coverage} />{ w.full_coverage }</label>
                    <label class="lab__check mono"><input ref={migration} type="checkbox" data-testid="bus-replica-migration"
                               checked={f.allow_replica_migration} />{ w.replica_migration }</label>
                    <button type="submit" class="button" data-testid="bus-apply">{ w.apply }</button>
                </form>
                if let Some(bad) = &*error {
                    <p class="lab__error" role="alert">{ fill(w.bad_knob, &[bad]) }</p>
                }
            </details>
        </div>
    }
}
