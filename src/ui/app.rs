//! The page: header, key field, pipeline, and the slot map with its legend, over one reducer.

use crate::ui::components::cluster_picker::ClusterPicker;
use crate::ui::components::key_input::KeyInput;
use crate::ui::components::legend::Legend;
use crate::ui::components::pipeline::Pipeline;
use crate::ui::components::slot_map::SlotMap;
use crate::ui::messages::use_messages;
use crate::ui::state::{Action, AppState};
use yew::prelude::*;

/// The whole page.
#[function_component(App)]
pub fn app() -> Html {
    let t = use_messages();
    let state = use_reducer(AppState::default);
    let on_input = {
        let state = state.clone();
        Callback::from(move |text: String| state.dispatch(Action::SetKey(text)))
    };
    let on_fixture = {
        let state = state.clone();
        Callback::from(move |()| state.dispatch(Action::UseFixtureCluster))
    };
    let on_create = {
        let state = state.clone();
        Callback::from(move |n: String| state.dispatch(Action::CreateCluster(n)))
    };
    let slot = state.explained.slot;
    html! {
        <div class="page">
            <header class="masthead">
                <h1 class="masthead__title">
                    <svg class="masthead__logo" viewBox="0 0 32 32" aria-hidden="true">
                        <rect x="2" y="2" width="13" height="13" rx="2" fill="#E69F00"/>
                        <rect x="17" y="2" width="13" height="13" rx="2" fill="#56B4E9"/>
                        <rect x="2" y="17" width="13" height="13" rx="2" fill="#009E73"/>
                        <rect x="17" y="17" width="13" height="13" rx="2" fill="none" stroke="currentColor" stroke-width="2.5"/>
                    </svg>
                    { t.title }
                </h1>
                <p class="masthead__tagline">{ t.tagline }</p>
            </header>
            <main>
                <section class="card key-card">
                    <KeyInput value={AttrValue::from(state.input.clone())}
                              error={state.error.clone()} {on_input} />
                </section>
                <Pipeline explained={state.explained.clone()} map={state.map.clone()}
                          stale={state.error.is_some()} />
                <section class="card map-card" aria-labelledby="map-title">
                    <div class="map-card__head">
                        <h2 id="map-title" class="section-title">{ t.map_title }</h2>
                        <ClusterPicker choice={state.cluster} error={state.cluster_error.clone()}
                                       {on_fixture} {on_create} />
                    </div>
                    <p class="section-help">{ t.map_help }</p>
                    <div class="map-card__body">
                        <SlotMap map={state.map.clone()} marked={Some(slot)} />
                        <Legend map={state.map.clone()} current={state.map.owner(slot)} />
                    </div>
                </section>
            </main>
            <footer class="footer">{ t.footer }</footer>
        </div>
    }
}
