//! The redirections view: scenarios of MOVED / ASK / ASKING / TRYAGAIN / CROSSSLOT played as
//! a sequence diagram, with the client's slot table beside it, step by step, forward and back.

use crate::core::SlotMap;
use crate::ui::components::client_table::ClientTable;
use crate::ui::components::export_buttons::SeqExport;
use crate::ui::components::free_mode::FreeMode;
use crate::ui::components::sequence::{Arrow, Sequence};
use crate::ui::messages::{fill, use_messages, Messages};
use crate::ui::narration::use_narration_text;
use crate::ui::player::{
    key_is_the_controls, LinkProblem, Player, PlayerAction, ScenarioIndex, SPEEDS,
};
use crate::ui::redirect_view::{scenario_list, scenario_view};
use gloo_timers::callback::Interval;
use std::rc::Rc;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Milliseconds per step at 1× speed.
const STEP_MS: f64 = 1400.0;

/// The sentence that tells the reader what a link could not open, and what it shows instead.
fn link_message(t: &Messages, problem: &LinkProblem, title: &str) -> String {
    match problem {
        LinkProblem::UnknownScenario(id) => fill(t.link_unknown_scenario, &[id, &title]),
        LinkProblem::BadStep(step) => fill(t.link_bad_step, &[step, &title]),
        LinkProblem::PastEnd { asked, steps } => fill(t.link_past_end, &[asked, &title, steps]),
    }
}

/// Props of [`Redirections`].
#[derive(Properties, PartialEq)]
pub struct RedirectionsProps {
    /// The current cluster, for free mode.
    pub map: Rc<SlotMap>,
    /// The player (the page owns it: a link opens it, the share link carries it).
    pub player: Player,
    /// Where the player's actions go.
    pub on_player: Callback<PlayerAction>,
    /// The scenarios' ids and step counts (the page's, shared).
    pub index: Rc<ScenarioIndex>,
}

/// The view.
#[function_component(Redirections)]
pub fn redirections(props: &RedirectionsProps) -> Html {
    let t = use_messages();
    let words = use_narration_text();
    let player = &props.player;
    // The list by title; only the scenario shown is played.
    let titles = use_memo(words.lang, {
        let index = props.index.clone();
        move |_| scenario_list(&index, words)
    });
    let shown = use_memo((words.lang, player.scenario), move |&(_, idx)| {
        scenario_view(idx, words)
    });
    let section = use_node_ref();
    // A link followed (at opening or inside the page) asks for the player to be seen.
    {
        let section = section.clone();
        use_effect_with(player.reveal, move |&reveal| {
            if reveal > 0
                && let Some(el) = section.cast::<web_sys::Element>()
            {
                el.scroll_into_view();
            }
        });
    }
    let wire = use_state(|| false);
    // The operator's lifeline is optional: off at first on a phone, where three lanes fit.
    let operator = use_state(|| !narrow_screen());

    // Play: one step per tick; the interval is dropped when playing stops or the speed changes.
    {
        let on_player = props.on_player.clone();
        use_effect_with((player.playing, player.speed), move |&(playing, speed)| {
            let interval = playing.then(|| {
                Interval::new((STEP_MS / SPEEDS[speed]) as u32, move || {
                    on_player.emit(PlayerAction::Next)
                })
            });
            move || drop(interval)
        });
    }

    let Some(sc) = shown.as_ref() else {
        return Html::default();
    };
    let step = player.step;
    let act = |a: PlayerAction| {
        let p = props.on_player.clone();
        Callback::from(move |_: MouseEvent| p.emit(a.clone()))
    };
    let on_select = {
        let (p, index) = (props.on_player.clone(), props.index.clone());
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            if let Some((idx, n_steps)) = index.find(&v) {
                p.emit(PlayerAction::Open { idx, n_steps });
            }
        })
    };
    let on_seek = {
        let p = props.on_player.clone();
        Callback::from(move |e: InputEvent| {
            if let Ok(s) = e
                .target_unchecked_into::<HtmlInputElement>()
                .value()
                .parse()
            {
                p.emit(PlayerAction::Seek(s));
            }
        })
    };
    let onkeydown = {
        let (p, playing) = (props.on_player.clone(), player.playing);
        Callback::from(move |e: KeyboardEvent| {
            // Space on "next" presses it (one step) rather than starting playback.
            if key_is_the_controls(&e) {
                return;
            }
            let action = match e.key().as_str() {
                " " => Some(if playing {
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
                p.emit(a);
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
            if let Some(p) = &player.problem {
                <p class="lab__error" role="alert" data-testid="link-error">{ link_message(t, p, &sc.title) }</p>
            }
            <div class="lab__row lab__form">
                <label for="scenario">{ t.redir_scenario }</label>
                <select id="scenario" data-testid="scenario-select" onchange={on_select}>
                    { for titles.iter().map(|(id, title)| html! {
                        <option value={*id} selected={*id == sc.id}>{ title }</option>
                    }) }
                </select>
                <label class="lab__check">
                    <input type="checkbox" checked={*wire}
                           onchange={ let w = wire.clone(); Callback::from(move |_: Event| w.set(!*w)) } />
                    { " " }{ t.redir_wire }
                </label>
                if sc.operator.is_some() {
                    <label class="lab__check">
                        <input type="checkbox" checked={*operator} data-testid="show-operator"
                               onchange={ let o = operator.clone(); Callback::from(move |_: Event| o.set(!*o)) } />
                        { " " }{ t.redir_operator }
                    </label>
                }
            </div>
            <div class="redir__player" tabindex="0" {onkeydown} aria-label={t.redir_keys}>
                <div class="lab__row redir__controls">
                    <button type="button" class="button button--quiet redir__wide" onclick={act(PlayerAction::Seek(0))} aria-label={t.redir_start}>{ "«" }</button>
                    <button type="button" class="button button--quiet" data-testid="step-prev" onclick={act(PlayerAction::Prev)} aria-label={t.redir_prev}>{ "◀" }</button>
                    if player.playing {
                        <button type="button" class="button" data-testid="pause" onclick={act(PlayerAction::Pause)}>{ t.redir_pause }</button>
                    } else {
                        <button type="button" class="button" data-testid="play" onclick={act(PlayerAction::Play)}>{ t.redir_play }</button>
                    }
                    <button type="button" class="button button--quiet" data-testid="step-next" onclick={act(PlayerAction::Next)} aria-label={t.redir_next}
                            disabled={step >= sc.arrows.len()}>{ "▶" }</button>
                    <button type="button" class="button button--quiet redir__wide" onclick={act(PlayerAction::Seek(usize::MAX))} aria-label={t.redir_end}>{ "»" }</button>
                    <button type="button" class="button button--quiet redir__wide" onclick={act(PlayerAction::Speed(-1))} aria-label={t.redir_slower}>{ "−" }</button>
                    // The speed itself is a button that steps through the speeds (the phone's
                    // row has no room for − and +).
                    <button type="button" class="button button--quiet mono redir__speed" title={t.redir_faster}
                            onclick={act(if player.speed + 1 >= SPEEDS.len() { PlayerAction::Speed(-(SPEEDS.len() as i32)) } else { PlayerAction::Speed(1) })}>
                        { format!("{}×", SPEEDS[player.speed]) }
                    </button>
                    <button type="button" class="button button--quiet redir__wide" onclick={act(PlayerAction::Speed(1))} aria-label={t.redir_faster}>{ "+" }</button>
                    <input type="range" class="redir__timeline" min="0" max={sc.arrows.len().to_string()}
                           value={step.to_string()} data-testid="timeline" data-step={step.to_string()}
                           data-steps={sc.arrows.len().to_string()} oninput={on_seek} aria-label={t.redir_timeline} />
                    <span class="mono redir__wide">{ fill(t.redir_step, &[&step, &sc.arrows.len()]) }</span>
                    <span class="mono redir__narrow" aria-hidden="true">{ format!("{step}/{}", sc.arrows.len()) }</span>
                </div>
                <p class="redir__narration" data-testid="narration" aria-live="polite">{ narration }</p>
                <div class="redir__body">
                    // On a narrow screen the diagram keeps a readable size and scrolls sideways
                    // (focusable, so a keyboard reaches it; the player's keys still step).
                    <div class="redir__diagram" tabindex="0" role="group" aria-label={t.seq_label}>
                        <Sequence lanes={sc.lanes.clone()} lane_colours={sc.lane_colours.clone()}
                                  arrows={sc.arrows.clone()} shown={step} wire={*wire}
                                  states={sc.states.clone()} hidden={sc.operator.filter(|_| !*operator)} />
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
                <h3 class="lab__title" data-testid="replies-heading">{ if *wire { t.redir_replies_wire } else { t.redir_replies } }</h3>
                <ol class="redir__wire">{ for wire_lines }</ol>
            </div>
            <ClientTable />
            <FreeMode map={props.map.clone()} />
        </section>
    }
}

/// Whether the window is phone-narrow (the layout's own breakpoint).
fn narrow_screen() -> bool {
    // Prerendered at build time (natively, `ui::prerender`): no window; the wide layout.
    if cfg!(not(target_arch = "wasm32")) {
        return false;
    }
    web_sys::window()
        .and_then(|w| w.match_media("(max-width: 600px)").ok().flatten())
        .is_some_and(|m| m.matches())
}
