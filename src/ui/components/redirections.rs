//! The redirections view: scenarios of MOVED / ASK / ASKING / TRYAGAIN / CROSSSLOT played as
//! a sequence diagram, with the client's slot table beside it, step by step, forward and back.

use crate::core::share::ScenarioStep;
use crate::core::SlotMap;
use crate::ui::components::export_buttons::SeqExport;
use crate::ui::components::free_mode::FreeMode;
use crate::ui::components::sequence::{Arrow, Sequence};
use crate::ui::messages::{fill, use_messages, Messages};
use crate::ui::narration::use_narration_text;
use crate::ui::redirect_view::{scenario_views, ScenarioView};
use gloo_timers::callback::Interval;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Milliseconds per step at 1× speed.
const STEP_MS: f64 = 1400.0;
/// Speeds offered, slowest first.
const SPEEDS: [f64; 5] = [0.25, 0.5, 1.0, 2.0, 4.0];

/// The player's state: which scenario, how many steps are shown, playing or not, how fast.
#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    /// Index of the scenario.
    pub scenario: usize,
    /// Steps shown (0: none yet).
    pub step: usize,
    /// Steps in the scenario.
    pub n_steps: usize,
    /// Playing.
    pub playing: bool,
    /// Index into [`SPEEDS`].
    pub speed: usize,
}

/// What the player can be told.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerAction {
    /// Open scenario `idx` with `n_steps` steps at `step`.
    Open {
        /// The scenario.
        idx: usize,
        /// Its steps.
        n_steps: usize,
        /// Where to start.
        step: usize,
    },
    /// One step on (stops playing at the end).
    Next,
    /// One step back.
    Prev,
    /// Jump to a step.
    Seek(usize),
    /// Start playing (from the start if at the end).
    Play,
    /// Stop playing.
    Pause,
    /// Faster (+1) or slower (−1).
    Speed(i32),
}

impl Reducible for Player {
    type Action = PlayerAction;
    fn reduce(self: Rc<Self>, action: PlayerAction) -> Rc<Self> {
        let mut p = (*self).clone();
        match action {
            PlayerAction::Open { idx, n_steps, step } => {
                p = Player {
                    scenario: idx,
                    step: step.min(n_steps),
                    n_steps,
                    playing: false,
                    speed: p.speed,
                };
            }
            PlayerAction::Next => {
                p.step = (p.step + 1).min(p.n_steps);
                if p.step == p.n_steps {
                    p.playing = false;
                }
            }
            PlayerAction::Prev => {
                p.step = p.step.saturating_sub(1);
                p.playing = false;
            }
            PlayerAction::Seek(s) => {
                p.step = s.min(p.n_steps);
                p.playing = false;
            }
            PlayerAction::Play => {
                if p.step >= p.n_steps {
                    p.step = 0;
                }
                p.playing = p.n_steps > 0;
            }
            PlayerAction::Pause => p.playing = false,
            PlayerAction::Speed(d) => {
                p.speed = (p.speed as i32 + d).clamp(0, SPEEDS.len() as i32 - 1) as usize;
            }
        }
        Rc::new(p)
    }
}

/// What a `#redirect=` link asked for that the page could not give exactly. The page still
/// opens something sensible and says what it did instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkProblem {
    /// No scenario has this id (shown as the link had it, cut to 40 characters).
    UnknownScenario(String),
    /// The step is not a whole number.
    BadStep(String),
    /// The step is past the scenario's end: the last step is shown.
    PastEnd {
        /// The step asked for.
        asked: usize,
        /// Steps in the scenario.
        steps: usize,
    },
}

/// Reads `#redirect=<scenario id>:<step>` from the page's address: `None` when the address has
/// no such link, else the scenario and step to open and what, if anything, had to be changed.
pub fn parse_link(
    hash: &str,
    scenarios: &[ScenarioView],
) -> Option<(usize, usize, Option<LinkProblem>)> {
    let rest = hash.trim_start_matches('#').strip_prefix("redirect=")?;
    let (id, step) = rest.split_once(':').unwrap_or((rest, "0"));
    Some(resolve_link(id, step, scenarios))
}

/// The scenario and step a link's `id` and `step` (as written) open, and what had to change.
pub fn resolve_link(
    id: &str,
    step: &str,
    scenarios: &[ScenarioView],
) -> (usize, usize, Option<LinkProblem>) {
    let Some(idx) = scenarios.iter().position(|s| s.id == id) else {
        let shown: String = id.chars().take(40).collect();
        return (0, 0, Some(LinkProblem::UnknownScenario(shown)));
    };
    let steps = scenarios[idx].arrows.len();
    match step.parse::<usize>() {
        Ok(asked) if asked > steps => (idx, steps, Some(LinkProblem::PastEnd { asked, steps })),
        Ok(step) => (idx, step, None),
        Err(_) => {
            let shown: String = step.chars().take(40).collect();
            (idx, 0, Some(LinkProblem::BadStep(shown)))
        }
    }
}

/// The sentence that tells the reader what a link could not open, and what it shows instead.
fn link_message(t: &Messages, problem: &LinkProblem, title: &str) -> String {
    match problem {
        LinkProblem::UnknownScenario(id) => fill(t.link_unknown_scenario, &[id, &title]),
        LinkProblem::BadStep(step) => fill(t.link_bad_step, &[step, &title]),
        LinkProblem::PastEnd { asked, steps } => fill(t.link_past_end, &[asked, &title, steps]),
    }
}

fn current_hash() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// Props of [`Redirections`].
#[derive(Properties, PartialEq)]
pub struct RedirectionsProps {
    /// The current cluster, for free mode.
    pub map: Rc<SlotMap>,
    /// The scenario and step to open (from a share link or the saved state), when the address
    /// holds no old-style `#redirect=` link.
    #[prop_or_default]
    pub initial: Option<ScenarioStep>,
    /// Told the scenario and step whenever they change (`None`: the first scenario at its start).
    #[prop_or_default]
    pub on_change: Callback<Option<ScenarioStep>>,
}

/// The view.
#[function_component(Redirections)]
pub fn redirections(props: &RedirectionsProps) -> Html {
    let t = use_messages();
    let words = use_narration_text();
    let scenarios = use_memo(words.lang, move |_| scenario_views(words));
    let opened = use_memo((), {
        let scenarios = scenarios.clone();
        move |_| parse_link(&current_hash(), &scenarios)
    });
    // A share link (or the saved state) opens a scenario too, without scrolling to it.
    let restored = use_memo((), {
        let (scenarios, initial) = (scenarios.clone(), props.initial.clone());
        move |_| initial.map(|s| resolve_link(&s.scenario, &s.step.to_string(), &scenarios))
    });
    let problem = use_state(|| {
        (*opened)
            .as_ref()
            .or((*restored).as_ref())
            .and_then(|o| o.2.clone())
    });
    let section = use_node_ref();
    // Opened from a link: bring the view into sight, with any message about the link.
    {
        let (section, linked) = (section.clone(), opened.is_some());
        use_effect_with((), move |_| {
            if linked {
                if let Some(el) = section.cast::<web_sys::Element>() {
                    el.scroll_into_view();
                }
            }
        });
    }
    let first = {
        let scenarios = scenarios.clone();
        let opened = opened.clone();
        move || {
            let (idx, step) = (*opened)
                .as_ref()
                .or((*restored).as_ref())
                .map_or((0, 0), |o| (o.0, o.1));
            Player {
                scenario: idx,
                step,
                n_steps: scenarios.get(idx).map_or(0, |s| s.arrows.len()),
                playing: false,
                speed: 2,
            }
        }
    };
    let player = use_reducer(first);
    let wire = use_state(|| false);

    // Play: one step per tick; the interval is dropped when playing stops or the speed changes.
    {
        let player = player.clone();
        use_effect_with((player.playing, player.speed), move |&(playing, speed)| {
            let interval = playing.then(|| {
                let p = player.clone();
                Interval::new((STEP_MS / SPEEDS[speed]) as u32, move || {
                    p.dispatch(PlayerAction::Next)
                })
            });
            move || drop(interval)
        });
    }
    // A link pasted into the address bar of the open page changes only the hash: follow it.
    {
        let (player, scenarios) = (player.clone(), scenarios.clone());
        let (problem, section) = (problem.clone(), section.clone());
        use_effect_with((), move |_| {
            let listener = web_sys::window().map(|w| {
                gloo_events::EventListener::new(&w, "hashchange", move |_| {
                    if let Some((idx, step, trouble)) = parse_link(&current_hash(), &scenarios) {
                        problem.set(trouble);
                        player.dispatch(PlayerAction::Open {
                            idx,
                            n_steps: scenarios[idx].arrows.len(),
                            step,
                        });
                        // A link inside the page (the pipeline's "watch the MOVED loop")
                        // names no element: bring the player into sight.
                        if let Some(el) = section.cast::<web_sys::Element>() {
                            el.scroll_into_view();
                        }
                    }
                })
            });
            move || drop(listener)
        });
    }
    // Tell the page where the player is: the share link carries it.
    {
        let scenarios = scenarios.clone();
        let on_change = props.on_change.clone();
        use_effect_with((player.scenario, player.step), move |&(idx, step)| {
            let at = match scenarios.get(idx) {
                Some(s) if idx > 0 || step > 0 => Some(ScenarioStep {
                    scenario: s.id.clone(),
                    step: step as u32,
                }),
                _ => None,
            };
            on_change.emit(at);
        });
    }

    let Some(sc) = scenarios.get(player.scenario) else {
        return Html::default();
    };
    let step = player.step;
    let act = |a: PlayerAction| {
        let p = player.clone();
        Callback::from(move |_: MouseEvent| p.dispatch(a.clone()))
    };
    let on_select = {
        let (p, scenarios) = (player.clone(), scenarios.clone());
        let problem = problem.clone();
        Callback::from(move |e: Event| {
            problem.set(None);
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            if let Some(idx) = scenarios.iter().position(|s| s.id == v) {
                p.dispatch(PlayerAction::Open {
                    idx,
                    n_steps: scenarios[idx].arrows.len(),
                    step: 0,
                });
            }
        })
    };
    let on_seek = {
        let p = player.clone();
        Callback::from(move |e: InputEvent| {
            if let Ok(s) = e
                .target_unchecked_into::<HtmlInputElement>()
                .value()
                .parse()
            {
                p.dispatch(PlayerAction::Seek(s));
            }
        })
    };
    let onkeydown = {
        let p = player.clone();
        Callback::from(move |e: KeyboardEvent| {
            // A key pressed on a button, the timeline or a field inside the player is theirs:
            // Space on "next" steps once rather than starting playback.
            let on_control = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .is_some_and(|el| {
                    matches!(
                        el.tag_name().as_str(),
                        "BUTTON" | "INPUT" | "SELECT" | "TEXTAREA"
                    )
                });
            if on_control {
                return;
            }
            let action = match e.key().as_str() {
                " " => Some(if p.playing {
                    PlayerAction::Pause
                } else {
                    PlayerAction::Play
                }),
                "ArrowRight" => Some(PlayerAction::Next),
                "ArrowLeft" => Some(PlayerAction::Prev),
                "Home" => Some(PlayerAction::Seek(0)),
                "End" => Some(PlayerAction::Seek(usize::MAX)),
                "+" | "=" => Some(PlayerAction::Speed(1)),
                "-" | "_" => Some(PlayerAction::Speed(-1)),
                _ => None,
            };
            if let Some(a) = action {
                e.prevent_default();
                p.dispatch(a);
            }
        })
    };
    let narration = if step == 0 {
        sc.intro.clone()
    } else {
        sc.narrations.get(step - 1).cloned().unwrap_or_default()
    };
    let table = if step == 0 {
        sc.table_before.clone()
    } else {
        sc.tables.get(step - 1).cloned().unwrap_or_default()
    };
    let changed = step
        .checked_sub(1)
        .and_then(|i| sc.changed.get(i).copied().flatten());
    let wire_lines = sc
        .arrows
        .iter()
        .take(step)
        .filter(|a| a.reply)
        .map(|a: &Arrow| html! { <li class="mono" data-testid="wire-line">{ if *wire { &a.wire } else { &a.label } }</li> });

    html! {
        <section class="card redirections" aria-labelledby="redir-title" ref={section}>
            <h2 id="redir-title" class="section-title">{ t.redir_title }</h2>
            <p class="section-help">{ t.redir_help }</p>
            if let Some(p) = &*problem {
                <p class="lab__error" role="alert" data-testid="link-error">{ link_message(t, p, &sc.title) }</p>
            }
            <div class="lab__row lab__form">
                <label for="scenario">{ t.redir_scenario }</label>
                <select id="scenario" data-testid="scenario-select" onchange={on_select}>
                    { for scenarios.iter().map(|s| html! {
                        <option value={s.id.clone()} selected={s.id == sc.id}>{ &s.title }</option>
                    }) }
                </select>
                <label class="lab__check">
                    <input type="checkbox" checked={*wire}
                           onchange={ let w = wire.clone(); Callback::from(move |_: Event| w.set(!*w)) } />
                    { " " }{ t.redir_wire }
                </label>
            </div>
            <div class="redir__player" tabindex="0" {onkeydown} aria-label={t.redir_keys}>
                <div class="lab__row redir__controls">
                    <button type="button" class="button button--quiet" onclick={act(PlayerAction::Seek(0))} aria-label={t.redir_start}>{ "«" }</button>
                    <button type="button" class="button button--quiet" data-testid="step-prev" onclick={act(PlayerAction::Prev)} aria-label={t.redir_prev}>{ "◀" }</button>
                    if player.playing {
                        <button type="button" class="button" data-testid="pause" onclick={act(PlayerAction::Pause)}>{ t.redir_pause }</button>
                    } else {
                        <button type="button" class="button" data-testid="play" onclick={act(PlayerAction::Play)}>{ t.redir_play }</button>
                    }
                    <button type="button" class="button button--quiet" data-testid="step-next" onclick={act(PlayerAction::Next)} aria-label={t.redir_next}>{ "▶" }</button>
                    <button type="button" class="button button--quiet" onclick={act(PlayerAction::Seek(usize::MAX))} aria-label={t.redir_end}>{ "»" }</button>
                    <button type="button" class="button button--quiet" onclick={act(PlayerAction::Speed(-1))} aria-label={t.redir_slower}>{ "−" }</button>
                    <span class="mono">{ format!("{}×", SPEEDS[player.speed]) }</span>
                    <button type="button" class="button button--quiet" onclick={act(PlayerAction::Speed(1))} aria-label={t.redir_faster}>{ "+" }</button>
                    <input type="range" class="redir__timeline" min="0" max={sc.arrows.len().to_string()}
                           value={step.to_string()} data-testid="timeline" data-step={step.to_string()}
                           data-steps={sc.arrows.len().to_string()} oninput={on_seek} aria-label={t.redir_timeline} />
                    <span class="mono">{ fill(t.redir_step, &[&step, &sc.arrows.len()]) }</span>
                </div>
                <p class="redir__narration" data-testid="narration" aria-live="polite">{ narration }</p>
                <div class="redir__body">
                    // On a narrow screen the diagram keeps a readable size and scrolls sideways
                    // (focusable, so a keyboard reaches it; the player's keys still step).
                    <div class="redir__diagram" tabindex="0" role="group" aria-label={t.seq_label}>
                        <Sequence lanes={sc.lanes.clone()} lane_colours={sc.lane_colours.clone()}
                                  arrows={sc.arrows.clone()} shown={step} wire={*wire} />
                    </div>
                    <div class="redir__table" data-testid="client-slot-table">
                        <h3 class="lab__title">{ t.redir_table }</h3>
                        <table>
                            <thead><tr><th scope="col">{ t.redir_table_slot }</th><th scope="col">{ t.redir_table_node }</th></tr></thead>
                            <tbody>
                                { for table.iter().map(|(slot, node)| html! {
                                    <tr key={format!("{slot}-{step}")}
                                        class={classes!((changed == Some(*slot)).then_some("is-flashing"))}
                                        data-slot={slot.to_string()} data-node={node.clone()}>
                                        <td class="mono">{ slot }</td><td class="mono">{ node }</td>
                                    </tr>
                                }) }
                            </tbody>
                        </table>
                        <p class="section-help">{ t.redir_table_help }</p>
                    </div>
                </div>
                <SeqExport stem={format!("slotscope-{}-step-{step}", sc.id)} />
                <h3 class="lab__title">{ t.redir_replies }</h3>
                <ol class="redir__wire">{ for wire_lines }</ol>
            </div>
            <FreeMode map={props.map.clone()} />
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_open_what_they_can_and_say_what_they_could_not() {
        let scenarios = scenario_views(&crate::ui::narration::EN);
        let live = scenarios
            .iter()
            .position(|s| s.id == "live-migration")
            .unwrap();
        let steps = scenarios[live].arrows.len();
        assert_eq!(parse_link("", &scenarios), None);
        assert_eq!(parse_link("#other=1", &scenarios), None);
        assert_eq!(
            parse_link("#redirect=live-migration:3", &scenarios),
            Some((live, 3, None))
        );
        assert_eq!(
            parse_link("#redirect=live-migration", &scenarios),
            Some((live, 0, None))
        );
        assert_eq!(
            parse_link("#redirect=live-migration:99999", &scenarios),
            Some((
                live,
                steps,
                Some(LinkProblem::PastEnd {
                    asked: 99999,
                    steps
                })
            ))
        );
        assert_eq!(
            parse_link("#redirect=live-migration:-1", &scenarios),
            Some((live, 0, Some(LinkProblem::BadStep("-1".into()))))
        );
        assert_eq!(
            parse_link("#redirect=live-migr%E0:2", &scenarios),
            Some((
                0,
                0,
                Some(LinkProblem::UnknownScenario("live-migr%E0".into()))
            ))
        );
        let long = format!("#redirect={}:1", "x".repeat(5000));
        match parse_link(&long, &scenarios) {
            Some((0, 0, Some(LinkProblem::UnknownScenario(id)))) => assert_eq!(id.len(), 40),
            other => panic!("{other:?}"),
        }
    }
}
