//! The page: header, key field, pipeline, and the slot map with its legend, over one reducer.

use crate::core::share::{encode, Cluster, Decoded, Problem, SharedState};
use crate::ui::components::cluster_picker::ClusterPicker;
use crate::ui::components::compare_view::CompareView;
use crate::ui::components::export_buttons::MapExport;
use crate::ui::components::hotspot::HotSpotView;
use crate::ui::components::key_input::KeyInput;
use crate::ui::components::lang_switch::LangSwitch;
use crate::ui::components::node_list::NodeList;
use crate::ui::components::pipeline::Pipeline;
use crate::ui::components::planner::Planner;
use crate::ui::components::redirections::Redirections;
use crate::ui::components::restore_notice::RestoreNotice;
use crate::ui::components::share_button::ShareButton;
use crate::ui::components::slot_map::SlotMap;
use crate::ui::components::tag_generator::TagGenerator;
use crate::ui::components::topology_lab::TopologyLab;
use crate::ui::components::tour::Tour;
use crate::ui::lang::{self, Lang};
use crate::ui::share::{self as browser, Source};
use crate::ui::state::{Action, AppState};
use std::rc::Rc;
use yew::prelude::*;

/// How long the address and the saved state wait for the reader to pause, in milliseconds.
const SAVE_DELAY_MS: u32 = 300;

/// What the page opened with: the state, and what could not be restored of it.
struct Opened {
    state: SharedState,
    problems: Rc<Vec<Problem>>,
    saved: bool,
    /// Whether `state.lang` is the link's (or the saved state's) own choice. A link carries
    /// its language only when it is Chinese, so English is known only from a link read whole;
    /// an old `#redirect=` link, or one that is damaged or unreadable, leaves the choice to
    /// the browser.
    lang_known: bool,
}

fn opened() -> Opened {
    let (decoded, source): (Decoded, Source) = browser::startup();
    let lang_known = source != Source::Defaults
        && (decoded.state.lang != Lang::En
            || (decoded.problems.is_empty() && decoded.version != Some(0)));
    // An old `#redirect=` link's troubles are the player's to tell, in its own words.
    let problems = if decoded.version == Some(0) {
        Vec::new()
    } else {
        decoded.problems
    };
    Opened {
        lang_known,
        state: decoded.state,
        problems: Rc::new(problems),
        saved: source == Source::Saved,
    }
}

/// The whole page.
#[function_component(App)]
pub fn app() -> Html {
    // The fragment wins, else what this browser saved, else the defaults (read once).
    let opened = use_memo((), |_| opened());
    let state = use_reducer({
        let s = &opened.state;
        let restore = Action::Restore {
            key: s.key.clone(),
            cluster: s.cluster.clone(),
        };
        move || (*yew::Reducible::reduce(Rc::new(AppState::default()), restore)).clone()
    });
    // The language is the page's outermost state: every component reads it from context.
    // A link or a saved state brings its own; a first visit follows the browser.
    let lang = use_state(|| {
        if opened.lang_known {
            opened.state.lang
        } else {
            lang::initial()
        }
    });
    let t = lang.messages();
    {
        let lang = *lang;
        use_effect_with(lang, move |_| lang::apply(lang));
    }
    let on_lang = use_callback(lang.setter(), |l: Lang, set| {
        lang::remember(l);
        set.set(l)
    });
    let planner_now = use_state_eq(|| opened.state.planner.clone());
    let redirect_now = use_state_eq(|| opened.state.redirect.clone());
    let on_planner = use_callback(planner_now.setter(), |p, set| set.set(p));
    let on_redirect = use_callback(redirect_now.setter(), |r, set| set.set(r));
    let planner_initial = use_memo((), {
        let p = opened.state.planner.clone();
        move |_| p
    });
    let cluster = use_memo(state.map.clone(), |map| Rc::new(Cluster::from_map(map)));
    let encoded = use_memo(
        (
            state.input.clone(),
            (*cluster).clone(),
            (*planner_now).clone(),
            (*redirect_now).clone(),
            *lang,
        ),
        move |(key, cluster, planner, redirect, lang)| {
            encode(&SharedState {
                lang: *lang,
                key: key.clone(),
                cluster: (**cluster).clone(),
                planner: planner.clone(),
                redirect: redirect.clone(),
            })
        },
    );
    // Every change goes into the address (replacing, not adding, a history entry) and into
    // localStorage once the reader pauses; the opening state is left as it came.
    {
        let first = use_mut_ref(|| true);
        use_effect_with(encoded.text.clone(), move |text| {
            let skip = std::mem::replace(&mut *first.borrow_mut(), false);
            let timeout = (!skip).then(|| {
                let text = text.clone();
                gloo_timers::callback::Timeout::new(SAVE_DELAY_MS, move || browser::save(&text))
            });
            move || drop(timeout)
        });
    }
    // A share link pasted into the open page changes only the hash: open it as a fresh visit
    // (old `#redirect=` links are followed by the player itself).
    use_effect_with((), |_| {
        let listener = web_sys::window().map(|w| {
            gloo_events::EventListener::new(&w, "hashchange", |_| {
                if browser::fragment().starts_with("s=") {
                    if let Some(w) = web_sys::window() {
                        let _ = w.location().reload();
                    }
                }
            })
        });
        move || drop(listener)
    });
    // Callbacks that keep their identity across renders (the dispatcher and the selection
    // setter never change), so a keystroke does not re-render every child that takes one.
    let dispatcher = state.dispatcher();
    let on_input = use_callback(dispatcher.clone(), |text: String, d| {
        d.dispatch(Action::SetKey(text))
    });
    let on_fixture = use_callback(dispatcher.clone(), |(), d| {
        d.dispatch(Action::UseFixtureCluster)
    });
    let on_create = use_callback(dispatcher.clone(), |n: String, d| {
        d.dispatch(Action::CreateCluster(n))
    });
    let on_action = use_callback(dispatcher, |action: Action, d| d.dispatch(action));
    // The map selection is the page's own business until the reader moves it somewhere.
    let selection = use_state(|| None::<(u16, u16)>);
    let set_selection = selection.setter();
    let on_select = use_callback(set_selection.clone(), |s: Option<(u16, u16)>, set| {
        set.set(s)
    });
    let on_clear_selection = use_callback(set_selection, |(), set| set.set(None));
    let slot = state.explained.slot;
    let lab = |details: bool| {
        html! {
            <TopologyLab map={state.map.clone()} colours={state.colours.clone()}
                         change={state.change.clone()}
                         can_undo={!state.undo.is_empty()} can_redo={!state.redo.is_empty()}
                         error={state.topology_error.clone()} refused_removal={state.refused_removal}
                         notice={state.notice.clone()} selection={*selection}
                         on_action={on_action.clone()} on_clear_selection={on_clear_selection.clone()}
                         {details} />
        }
    };
    html! {
        <ContextProvider<Lang> context={*lang}>
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
                <div class="masthead__tools">
                    <Tour map={state.map.clone()} on_key={on_input.clone()} />
                    <ShareButton link={AttrValue::from(encoded.text.clone())} omitted={encoded.omitted.clone()} />
                    <LangSwitch lang={*lang} on_change={on_lang} />
                </div>
            </header>
            <main>
                <RestoreNotice problems={opened.problems.clone()} saved={opened.saved} />
                <section class="card key-card">
                    <KeyInput value={AttrValue::from(state.input.clone())}
                              error={state.error.clone()} {on_input} />
                </section>
                <Pipeline explained={state.explained.clone()} map={state.map.clone()}
                          colours={state.colours.clone()} stale={state.error.is_some()} />
                <section class="card map-card" aria-labelledby="map-title">
                    <div class="map-card__head">
                        <h2 id="map-title" class="section-title">{ t.map_title }</h2>
                        <ClusterPicker choice={state.cluster} error={state.cluster_error.clone()}
                                       {on_fixture} {on_create} />
                    </div>
                    <p class="section-help">{ t.map_help }</p>
                    { lab(false) }
                    <div class="map-card__body">
                        <SlotMap map={state.map.clone()} colours={state.colours.clone()}
                                 change={state.change.clone()} marked={Some(slot)}
                                 selection={*selection} {on_select} />
                        <NodeList map={state.map.clone()} colours={state.colours.clone()}
                                  current={state.map.owner(slot)} on_action={on_action.clone()} />
                    </div>
                    <MapExport map={state.map.clone()} colours={state.colours.clone()} />
                    { lab(true) }
                </section>
                <Planner map={state.map.clone()} colours={state.colours.clone()}
                         initial={planner_initial.clone()} on_change={on_planner} />
                <TagGenerator map={state.map.clone()} colours={state.colours.clone()} />
                <HotSpotView map={state.map.clone()} colours={state.colours.clone()} />
                <Redirections map={state.map.clone()} initial={opened.state.redirect.clone()}
                              on_change={on_redirect} />
                <CompareView />
            </main>
            <footer class="footer">{ t.footer }</footer>
        </div>
        </ContextProvider<Lang>>
    }
}
