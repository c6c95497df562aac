//! The bus player's controls: play, pause, step by event, next notable event, scrub, speed,
//! the keyboard, and the narration of the current (or last) notable event.

use super::{BusMsg, RunHandle, SPEEDS};
use crate::core::bus::EventKind;
use crate::ui::bus_notes::narrate_note;
use crate::ui::bus_words::{narrate, narrate_refusal, use_bus_words};
use crate::ui::messages::{fill, use_messages};
use crate::ui::player::key_is_the_controls;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// The most notable events of one instant the narration words (the rest are counted).
pub const SAID: usize = 6;

/// Props of [`BusPlayer`].
#[derive(Properties, PartialEq)]
pub struct BusPlayerProps {
    /// The run.
    pub run: RunHandle,
    /// The instant (absolute simulated ms).
    pub t: u64,
    /// Events at or before it.
    pub step: usize,
    /// Playing.
    pub playing: bool,
    /// Index into [`SPEEDS`].
    pub speed: usize,
    /// While playing slower than `speed` (the simulator cannot keep up): the pace reached over
    /// the last second, in tenths (148 is 14.8× real time).
    pub pace: Option<u32>,
    /// The last notable event at or before the instant (an index into the run's events).
    pub notable: Option<usize>,
    /// Where the controls' actions go.
    pub on_msg: Callback<BusMsg>,
}

/// Props of [`BusNarration`].
#[derive(Properties, PartialEq)]
pub struct BusNarrationProps {
    /// The run.
    pub run: RunHandle,
    /// The last notable event at or before the instant (an index into the run's events).
    pub notable: Option<usize>,
}

/// The narration of the current (or last) notable event: rendered only when that changes.
#[function_component(BusNarration)]
pub fn bus_narration(props: &BusNarrationProps) -> Html {
    let w = use_bus_words();
    let m = use_messages();
    let r = props.run.run.borrow();
    let start = r.start;
    let name = |n: u32| {
        r.full()
            .nodes
            .get(n as usize)
            .map_or_else(|| format!("#{n}"), |x| format!("127.0.0.1:{}", x.port))
    };
    // Every notable event of the instant (up to `SAID`), each with the numbers the core's
    // timeline gives where it covers the event.
    let narration: Vec<String> = match props.notable.filter(|i| *i < r.events().len()) {
        Some(i) => {
            let at = r.events()[i].t;
            let mut same: Vec<usize> = r.events()[..=i]
                .iter()
                .enumerate()
                .rev()
                .take_while(|(_, e)| e.t == at)
                .filter(|(j, _)| r.is_notable_event(*j))
                .map(|(j, _)| j)
                .collect();
            same.reverse();
            let more = same.len().saturating_sub(SAID);
            let mut out: Vec<String> = same
                .iter()
                .take(SAID)
                .map(|&j| {
                    let ev = &r.events()[j];
                    if let (Some(line), EventKind::Delivered { from, to, .. }) =
                        (r.refusal(j), &ev.kind)
                    {
                        return narrate_refusal(w, &name(*to), &name(*from), &line.text);
                    }
                    let told = r.story.as_ref().and_then(|s| {
                        let note = s.note(j)?;
                        narrate_note(m, s, note, ev.t.saturating_sub(start), &name)
                    });
                    told.unwrap_or_else(|| narrate(w, ev, &name))
                })
                .collect();
            if let Some(last) = out.last_mut().filter(|_| more > 0) {
                last.push_str(&fill(w.n_more, &[&more]));
            }
            out
        }
        None => vec![w.intro.to_string()],
    };
    drop(r);
    html! {
        <p class="redir__narration" data-testid="bus-narration" aria-live="polite">
            { for narration.into_iter().map(|x| html! { <span class="bus__said">{ x }{ " " }</span> }) }
        </p>
    }
}

/// Props of [`BusControls`].
#[derive(Properties, PartialEq)]
pub struct BusControlsProps {
    /// Playing.
    pub playing: bool,
    /// Index into [`SPEEDS`].
    pub speed: usize,
    /// The pace reached, in tenths, when it falls short of `speed` (see [`BusPlayerProps`]).
    pub pace: Option<u32>,
    /// Where the controls' actions go.
    pub on_msg: Callback<BusMsg>,
    /// Whether a notable event comes after the instant shown ("next notable" is disabled
    /// after the last).
    pub more_notable: bool,
}

/// The row of buttons: rendered only when playing, the speed or `more_notable` changes.
#[function_component(BusControls)]
pub fn bus_controls(props: &BusControlsProps) -> Html {
    let w = use_bus_words();
    let send = |m: BusMsg| {
        let on = props.on_msg.clone();
        Callback::from(move |_: MouseEvent| on.emit(m.clone()))
    };
    let rate = SPEEDS.get(props.speed).copied().unwrap_or(1.0);
    html! {
        <div class="lab__row redir__controls">
            <button type="button" class="button button--quiet" onclick={send(BusMsg::Seek(0))} aria-label={w.to_start}>{ "«" }</button>
            <button type="button" class="button button--quiet" data-testid="bus-step-prev" onclick={send(BusMsg::Prev)} aria-label={w.prev}>{ "◀" }</button>
            if props.playing {
                <button type="button" class="button" data-testid="bus-pause" onclick={send(BusMsg::Pause)}>{ w.pause }</button>
            } else {
                <button type="button" class="button" data-testid="bus-play" onclick={send(BusMsg::Play)}>{ w.play }</button>
            }
            <button type="button" class="button button--quiet" data-testid="bus-step-next" onclick={send(BusMsg::Next)} aria-label={w.next}>{ "▶" }</button>
            <button type="button" class="button button--quiet" data-testid="bus-next-notable" onclick={send(BusMsg::NextNotable)}
                    disabled={!props.more_notable}>{ w.next_notable }{ " ⟩⟩" }</button>
            // Slower, the speed and faster wrap as one.
            <span class="bus__speed">
            <button type="button" class="button button--quiet" onclick={send(BusMsg::Speed(-1))} aria-label={w.slower}>{ "−" }</button>
            <span class="mono" data-testid="bus-speed">{ fill(w.speed, &[&rate]) }</span>
            <button type="button" class="button button--quiet" onclick={send(BusMsg::Speed(1))} aria-label={w.faster}>{ "+" }</button>
            </span>
            // After the speed control, wrapping on its own: the buttons never move for it.
            if let Some(p) = props.pace {
                <span class="bus__pace" data-testid="bus-pace" data-pace={format!("{:.1}", f64::from(p) / 10.0)}>
                    { fill(w.pace, &[&format!("{:.1}", f64::from(p) / 10.0)]) }</span>
            }
        </div>
    }
}

/// The controls and the narration.
#[function_component(BusPlayer)]
pub fn bus_player(props: &BusPlayerProps) -> Html {
    let w = use_bus_words();
    let r = props.run.run.borrow();
    let (start, end) = (r.start, r.end);
    let steps = r.events().len();
    let more_notable = r.next_notable(props.t).is_some();
    // Past the size where each message is drawn, a message is no event: say so, or "event 0
    // of 0" reads as if nothing ran.
    let clock = if r.full().cfg.record_messages {
        w.clock
    } else {
        w.clock_quiet
    };
    drop(r);
    let on_seek = {
        let on = props.on_msg.clone();
        Callback::from(move |e: InputEvent| {
            if let Ok(v) = e
                .target_unchecked_into::<HtmlInputElement>()
                .value()
                .parse::<u64>()
            {
                on.emit(BusMsg::Seek(start.saturating_add(v)));
            }
        })
    };
    let onkeydown = {
        let (on, playing) = (props.on_msg.clone(), props.playing);
        Callback::from(move |e: KeyboardEvent| {
            if key_is_the_controls(&e) {
                return;
            }
            let m = match e.key().as_str() {
                " " => Some(if playing { BusMsg::Pause } else { BusMsg::Play }),
                "ArrowRight" => Some(BusMsg::Next),
                "ArrowLeft" => Some(BusMsg::Prev),
                "n" | "N" => Some(BusMsg::NextNotable),
                "Home" => Some(BusMsg::Seek(0)),
                "End" => Some(BusMsg::Seek(u64::MAX)),
                "+" | "=" => Some(BusMsg::Speed(1)),
                "-" | "_" => Some(BusMsg::Speed(-1)),
                _ => None,
            };
            if let Some(m) = m {
                e.prevent_default();
                on.emit(m);
            }
        })
    };
    let rel = props.t.saturating_sub(start);
    html! {
        <div class="bus__player redir__player" tabindex="0" {onkeydown} aria-label={w.keys}>
            <BusControls playing={props.playing} speed={props.speed} pace={props.pace} on_msg={props.on_msg.clone()} {more_notable} />
            <div class="lab__row">
                <input type="range" class="redir__timeline" min="0" max={end.saturating_sub(start).to_string()}
                       value={rel.to_string()} data-testid="bus-timeline" data-step={props.step.to_string()}
                       data-steps={steps.to_string()} data-time-ms={rel.to_string()}
                       oninput={on_seek} aria-label={w.timeline} />
                <span class="mono bus__clock">{ fill(clock, &[&rel, &props.step, &steps]) }</span>
            </div>
            <BusNarration run={props.run.clone()} notable={props.notable} />
        </div>
    }
}
