//! The page: header, key field, pipeline, the slot map with its lab, the planner and the
//! player, over one reducer per concern (cluster, planner, player) owned here and the key's
//! store (`key_store`: a keystroke re-renders what shows the key, not the page); the share
//! link is written from them directly, the key's part once the reader pauses.

use crate::persist::{
    encode, BusState, Cluster, Decoded, Encoded, PlannerInput, Problem, ScenarioStep, SharedState,
    MAX_BATCH_BYTES,
};
use crate::ui::after_paint::use_after_paint;
use crate::ui::components::bus::BusSection;
use crate::ui::components::cluster_picker::ClusterPicker;
use crate::ui::components::compare_view::CompareView;
use crate::ui::components::export_buttons::MapExport;
use crate::ui::components::hotspot::HotSpotView;
use crate::ui::components::key_input::KeyInput;
use crate::ui::components::key_readout::KeyReadout;
use crate::ui::components::lang_switch::LangSwitch;
use crate::ui::components::node_list::NodeList;
use crate::ui::components::pipeline::Pipeline;
use crate::ui::components::planner::Planner;
use crate::ui::components::redirections::Redirections;
use crate::ui::components::restore_notice::RestoreNotice;
use crate::ui::components::section_nav::{go_to, use_reading_place, SectionNav};
use crate::ui::components::share_button::ShareButton;
use crate::ui::components::slot_map::SlotMap;
use crate::ui::components::tag_generator::TagGenerator;
use crate::ui::components::topology_lab::{LabControls, LabImport, LastChange};
use crate::ui::components::tour::Tour;
use crate::ui::key_store::{use_key_settled, KeyStore};
use crate::ui::lang::{self, Lang};
use crate::ui::late_lang::{use_in_view, use_speaking, PageSection, SectionMap};
use crate::ui::planner_state::PlannerState;
use crate::ui::player::{resolve_old, resolve_shared, Player, PlayerAction, ScenarioIndex};
use crate::ui::sections::{join_fragment, split_fragment, Place};
use crate::ui::share::{self as browser, Source};
use crate::ui::state::{ClusterAction, ClusterState, KeyState};
use std::rc::Rc;
use yew::prelude::*;

/// How long the address and the saved state wait for the reader to pause, in milliseconds.
const SAVE_DELAY_MS: u32 = 300;

/// The link's state but the key: the cluster, the planner's input, the redirection player's
/// step, the language and the bus player.
type LinkParts = (
    Rc<Cluster>,
    Rc<PlannerInput>,
    Option<ScenarioStep>,
    Lang,
    Option<BusState>,
);

/// The share link of `key` with the rest of the state `parts`.
fn encode_link(key: &str, parts: &LinkParts) -> Encoded {
    let (cluster, planner, redirect, lang, bus) = parts;
    encode(&SharedState {
        lang: *lang,
        key: key.to_string(),
        cluster: (**cluster).clone(),
        planner: (**planner).clone(),
        redirect: redirect.clone(),
        bus: bus.clone(),
    })
}

/// What the page opened with: the state, and what could not be restored of it.
struct Opened {
    decoded: Decoded,
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
        decoded.problems.clone()
    };
    Opened {
        lang_known,
        problems: Rc::new(problems),
        saved: source == Source::Saved,
        decoded,
    }
}

/// The player as the opening state asks: an old `#redirect=` link (brought into sight), or a
/// share link's scenario and step.
fn opened_player(decoded: &Decoded, index: &ScenarioIndex) -> Player {
    match (&decoded.old_link, &decoded.state.redirect) {
        (Some(old), _) => Player::opened(Some(resolve_old(old, index)), true, index),
        (None, Some(at)) => Player::opened(Some(resolve_shared(at, index)), false, index),
        (None, None) => Player::opened(None, false, index),
    }
}

/// The whole page.
#[function_component(App)]
pub fn app() -> Html {
    // The fragment wins, else what this browser saved, else the defaults (read once).
    let opened = use_memo((), |_| opened());
    let index = use_memo((), |_| ScenarioIndex::new());
    let shared = &opened.decoded.state;
    // issue 17: the key lives in a store, not in this component's state, so a keystroke
    // re-renders only what shows the key; the page (and its link) follows it after a pause.
    let key = (*use_memo((), |_| {
        KeyStore::new(KeyState::default().read(shared.key.clone()), SAVE_DELAY_MS)
    }))
    .clone();
    let settled = use_key_settled(&key);
    let state = use_reducer(|| ClusterState::restored(&shared.cluster));
    let planner = use_reducer(|| PlannerState::restored(&shared.planner));
    let player = use_reducer(|| opened_player(&opened.decoded, &index));
    // The language is the page's outermost state: every component reads it from context.
    // A link or a saved state brings its own; a first visit follows the browser.
    let lang = use_state(|| {
        if opened.lang_known {
            shared.lang
        } else {
            lang::initial()
        }
    });
    let t = lang.messages();
    // A switch re-renders the sections on screen at once and the others one a frame after
    // the next paint (`late_lang`); `<html lang>` names the new language once every section
    // speaks it, and until then each part of the page carries a `lang` of its own (not
    // `<main>`: a `lang` set there restyles every section under it, 80-140 ms at 1000
    // masters).
    let on_screen = use_in_view();
    let (speaking, switched) = use_speaking(*lang, on_screen.clone());
    let spoken = (speaking.behind == *lang).then_some(*lang);
    use_effect_with(spoken, move |spoken| {
        if let Some(l) = spoken {
            lang::apply(*l)
        }
    });
    // A new cluster reaches the planner a task after the frame that shows it, and the tags
    // and hot-spot section a frame later, when they are out of view (`late_lang::SectionMap`).
    // A section on screen takes it at once; the tags follow the planner's when out of view.
    let now_map = SectionMap(state.map.clone(), state.colours.clone());
    let seen = on_screen.get();
    let planner_map = use_after_paint(now_map.clone(), !seen.has(Place::Planner)).0;
    let tags_from = if seen.has(Place::Tags) {
        now_map
    } else {
        planner_map.clone()
    };
    let tags_map = use_after_paint(tags_from, !seen.has(Place::Tags)).0;
    let on_lang = use_callback(
        (lang.clone(), switched, on_screen),
        |l: Lang, (lang, switched, on_screen)| {
            lang::remember(l);
            switched.emit((**lang, l, on_screen.get()));
            lang.set(l)
        },
    );
    let speak = |place: Place| speaking.lang_for(place, *lang);
    // The link, from the reducers themselves (each part recomputed only when it changes).
    let cluster = use_memo(state.map.clone(), |map| Cluster::from_map(map));
    let planner_input = use_memo(planner.clone(), |p| p.to_input());
    let at = index.at(&player);
    // The bus player's part of the link, reported by its section whenever it stands still.
    let bus = use_state_eq(|| shared.bus.clone());
    // Everything in the link but the key: encoded with the settled key here, and with the key
    // as the field holds it when the page is left (below).
    let parts: LinkParts = (cluster, planner_input, at, *lang, (*bus).clone());
    let encoded = use_memo((settled.input.clone(), parts.clone()), |(key, parts)| {
        encode_link(key, parts)
    });
    // nav-phone: the section being read (a link may open at one), carried by the link as
    // `&at=<section>` after the state.
    let opened_place = *use_memo((), |_| browser::opening_place());
    let place = use_reading_place(opened_place.unwrap_or(Place::Key));
    let link = use_memo((encoded.text.clone(), place), |(text, place)| {
        AttrValue::from(join_fragment(text, *place))
    });
    // nav-phone: a link that names a section opens there once the page has rendered.
    use_effect_with((), move |_| {
        let timeout =
            opened_place.map(|p| gloo_timers::callback::Timeout::new(0, move || go_to(p, false)));
        move || drop(timeout)
    });
    // Every change goes into the address (replacing, not adding, a history entry) and into
    // localStorage once the reader pauses, with a batch too long for the link kept beside it
    // (`share::keep_batch`), so a reload or the next visit has it; the opening state is left
    // as it came.
    let kept = (planner.text.len() > MAX_BATCH_BYTES).then(|| planner.text.clone());
    {
        let first = use_mut_ref(|| true);
        let kept = kept.clone();
        use_effect_with(
            ((*link).clone(), encoded.text.clone(), kept),
            move |(text, state_link, kept)| {
                let skip = std::mem::replace(&mut *first.borrow_mut(), false);
                let timeout = (!skip).then(|| {
                    let (text, state_link, kept) = (text.clone(), state_link.clone(), kept.clone());
                    browser::mark_saving(true);
                    gloo_timers::callback::Timeout::new(SAVE_DELAY_MS, move || {
                        browser::save(&text);
                        browser::keep_batch(&state_link, kept.as_deref());
                        browser::mark_saving(false);
                    })
                });
                move || drop(timeout)
            },
        );
    }
    // A change still waiting for the pause when the page is left (a reload, a closed tab, a
    // link followed) is written at once, with the key as the field holds it: otherwise a
    // reload within the pause brought back the page as it was before that change.
    {
        let written_on_leave = use_mut_ref(|| None::<Rc<dyn Fn(&str)>>);
        *written_on_leave.borrow_mut() = Some(Rc::new(move |key: &str| {
            let state_link = encode_link(key, &parts).text;
            browser::leave(&join_fragment(&state_link, place));
            browser::keep_batch(&state_link, kept.as_deref());
        }));
        let key = key.clone();
        use_effect_with((), move |_| {
            let listener = web_sys::window().map(|w| {
                gloo_events::EventListener::new(&w, "pagehide", move |_| {
                    if !browser::leave_writes() {
                        return;
                    }
                    key.take_edit();
                    let write = written_on_leave.borrow().clone();
                    if let Some(write) = write {
                        write(&key.get().input);
                    }
                    browser::mark_saving(false);
                })
            });
            move || drop(listener)
        });
    }
    // The one `hashchange` listener. A share link pasted into the open page changes only the
    // hash: open it as a fresh visit. An old `#redirect=` link (the pipeline's "watch the
    // MOVED loop" links are such) opens the player there, read once by the link decoder.
    {
        let (dispatch, index) = (player.dispatcher(), index.clone());
        use_effect_with((), move |_| {
            let listener = web_sys::window().map(|w| {
                gloo_events::EventListener::new(&w, "hashchange", move |ev| {
                    // What the reader navigated to is the event's `newURL`: the address may
                    // already have been rewritten by a save that was due just before this
                    // event ran (it would then read as the old state, and reload it).
                    let fragment = js_sys::Reflect::get(ev.as_ref(), &"newURL".into())
                        .ok()
                        .and_then(|u| u.as_string())
                        .and_then(|u| u.split_once('#').map(|(_, f)| f.to_string()))
                        .unwrap_or_else(browser::fragment);
                    // nav-phone: `#planner` alone (typed, or an old-style anchor) scrolls there.
                    let (fragment, place) = split_fragment(&fragment);
                    if fragment.starts_with("s=") {
                        // The link is what opens: the page's state is not written over it as
                        // the page is left (`pagehide` above).
                        browser::leave_as_is();
                        if let Some(w) = web_sys::window() {
                            let _ = w.location().reload();
                        }
                    } else if let (true, Some(place)) = (fragment.is_empty(), place) {
                        go_to(place, true);
                    } else if let Some(old) = crate::persist::decode(fragment).old_link {
                        dispatch.dispatch(PlayerAction::Follow(resolve_old(&old, &index)));
                    }
                })
            });
            move || drop(listener)
        });
    }
    // Callbacks that keep their identity across renders (the dispatchers and the selection
    // setter never change), so a keystroke does not re-render every child that takes one.
    let dispatcher = state.dispatcher();
    let on_fixture = use_callback(dispatcher.clone(), |(), d| {
        d.dispatch(ClusterAction::UseFixtureCluster)
    });
    let on_create = use_callback(dispatcher.clone(), |n: String, d| {
        d.dispatch(ClusterAction::CreateCluster(n))
    });
    let on_action = use_callback(dispatcher, |action: ClusterAction, d| d.dispatch(action));
    let on_player = use_callback(player.dispatcher(), |a: PlayerAction, d| d.dispatch(a));
    let on_bus_link = use_callback(bus.setter(), |b, set| set.set(b));
    // The map selection is the page's own business until the reader moves it somewhere.
    let selection = use_state(|| None::<(u16, u16)>);
    let set_selection = selection.setter();
    let on_select = use_callback(set_selection.clone(), |s: Option<(u16, u16)>, set| {
        set.set(s)
    });
    let on_clear_selection = use_callback(set_selection, |(), set| set.set(None));
    html! {
        <ContextProvider<Lang> context={*lang}>
        <div class="page">
            <header class="masthead" lang={lang.bcp47()}>
                <h1 class="masthead__title">
                    <svg class="masthead__logo" viewBox="0 0 32 32" aria-hidden="true">
                        <rect x="2" y="2" width="13" height="13" rx="2" fill="#66CCEE"/>
                        <rect x="17" y="2" width="13" height="13" rx="2" fill="#CC3311"/>
                        <rect x="2" y="17" width="13" height="13" rx="2" fill="#0072B2"/>
                        <rect x="17" y="17" width="13" height="13" rx="2" fill="none" stroke="currentColor" stroke-width="2.5"/>
                    </svg>
                    { t.title }
                </h1>
                <p class="masthead__tagline">{ t.tagline }</p>
                <div class="masthead__tools">
                    <Tour map={state.map.clone()} key_store={key.clone()}
                          on_action={on_action.clone()} player={(*player).clone()} on_player={on_player.clone()} />
                    <LangSwitch lang={*lang} on_change={on_lang} />
                </div>
            </header>
            // nav-phone: the sticky section bar, the key read-out and the Share button (moved
            // here from the masthead, so sharing does not scroll away from the section).
            <div class="wayfinder" lang={lang.bcp47()}>
                <SectionNav current={place} />
                <div class="wayfinder__here">
                    <KeyReadout key_store={key.clone()} map={state.map.clone()}
                                colours={state.colours.clone()} />
                    <ShareButton link={(*link).clone()} omitted={encoded.omitted.clone()} />
                </div>
            </div>
            <main>
                <RestoreNotice problems={opened.problems.clone()} saved={opened.saved} />
                // nav-phone: each section has an anchor (`sections::Place`).
                <PageSection id="key" lang={speak(Place::Key)}>
                <section class="card key-card">
                    <KeyInput key_store={key.clone()} />
                </section>
                <Pipeline key_store={key.clone()} map={state.map.clone()}
                          colours={state.colours.clone()} />
                </PageSection>
                <ContextProvider<Lang> context={speak(Place::Map)}>
                <section id="map" tabindex="-1" class="card map-card page-section" aria-labelledby="map-title" lang={speak(Place::Map).bcp47()}>
                    <div class="map-card__head">
                        <h2 id="map-title" class="section-title">{ t.map_title }</h2>
                        <ClusterPicker choice={state.cluster} error={state.cluster_error.clone()}
                                       {on_fixture} {on_create} />
                    </div>
                    <p class="section-help">{ t.map_help }</p>
                    // nav-phone: the lab beside the map (below it on a narrow screen), so the
                    // map comes first and a selection never moves it.
                    <div class="map-card__body">
                        <SlotMap map={state.map.clone()} colours={state.colours.clone()}
                                 change={state.change.clone()} key_store={key.clone()}
                                 selection={*selection} {on_select} />
                        <div class="map-card__side">
                            <LabControls map={state.map.clone()}
                                         can_undo={!state.undo.is_empty()} can_redo={!state.redo.is_empty()}
                                         error={state.topology_error.clone().filter(|n| !n.is_import())}
                                         refused_removal={state.refused_removal}
                                         notice={state.notice.clone().filter(|n| !n.is_import())} selection={*selection}
                                         on_action={on_action.clone()} {on_clear_selection} />
                            <NodeList map={state.map.clone()} colours={state.colours.clone()}
                                      key_store={key.clone()} on_action={on_action.clone()} />
                        </div>
                    </div>
                    <MapExport map={state.map.clone()} colours={state.colours.clone()} />
                    <div class="lab lab--details">
                        <LastChange map={state.map.clone()} change={state.change.clone()} />
                        <LabImport map={state.map.clone()} on_action={on_action.clone()}
                                   error={state.topology_error.clone().filter(crate::ui::localize::Note::is_import)}
                                   notice={state.notice.clone().filter(crate::ui::localize::Note::is_import)} />
                    </div>
                </section>
                </ContextProvider<Lang>>
                <PageSection id="planner" lang={speak(Place::Planner)}>
                <Planner map={planner_map.0} colours={planner_map.1} state={planner.clone()} />
                </PageSection>
                <PageSection id="tags" lang={speak(Place::Tags)}>
                <TagGenerator map={tags_map.0.clone()} colours={tags_map.1.clone()} />
                <HotSpotView map={tags_map.0} colours={tags_map.1} />
                </PageSection>
                <PageSection id="redirections" lang={speak(Place::Redirections)}>
                <Redirections map={state.map.clone()} player={(*player).clone()} {on_player} index={index.clone()} />
                </PageSection>
                <ContextProvider<Lang> context={speak(Place::Bus)}>
                <BusSection opening={shared.bus.clone()} on_link={on_bus_link} on_action={on_action.clone()} />
                </ContextProvider<Lang>>
                <PageSection id="why" lang={speak(Place::Why)}>
                <CompareView />
                </PageSection>
            </main>
            <footer class="footer" lang={lang.bcp47()}>{ t.footer }</footer>
        </div>
        </ContextProvider<Lang>>
    }
}
