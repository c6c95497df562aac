//! The fan-out planner: paste commands (or keys for one command), read each reply as the
//! cluster gives it from a chosen node, and compare the ways a client can send the batch.

use crate::core::key::escape::format_key;
use crate::core::server::reply::{ErrorReply, Reply};
use crate::core::workload::batch::{
    common_key_command, looks_like_command, route_key_batch, slot_command_parts, written_values,
    CommandStyle, Line, Outcome, KEY_COMMANDS,
};
use crate::core::workload::tags::{generate_tags, retag};
use crate::core::workload::KeySample;
use crate::core::workload::{chunk_masters_of, plan, KeyMaker, Plan, Strategy, MAX_KEYS};
use crate::core::SlotMap;
use crate::ui::after_paint::{after_paint, for_ms, in_slices, use_after_paint, AfterPaint, Slices};
use crate::ui::batch_read::{use_batch, Problem, MAX_ENGINE_KEYS, SLICE_MS};
use crate::ui::clipboard::{
    pasted_into, pasted_text, text_of, use_paste_limit, CopyButton, SHORT_FIELD_BYTES,
};
use crate::ui::components::master_options::NodeSelect;
use crate::ui::components::window::{spacer, use_window};
use crate::ui::forms::{input_to, select_to};
use crate::ui::lang::Lang;
use crate::ui::localize::{escape_error, plan_error, tag_error};
use crate::ui::messages::{count, fill, grouped, use_messages, Messages};
use crate::ui::planner_state::{
    key_maker, preview, too_long_for_field, CopyStyle, GenError, GenKind, Lines, PlannerAction,
    PlannerState, FIELD_BYTES, MAX_PASTE_BYTES,
};
use crate::ui::reply_words::{note_of, note_text, reply_text};
use js_sys::JsString;
use std::rc::Rc;
use web_sys::{HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

/// A copied plan longer than this shows its start in its (read-only) field: it is at most
/// `MAX_COPIED_COMMANDS` commands, but one of them can hold 100,000 keys, and Chromium took
/// 2.6 s to lay out such a field (4 MB on one line).
const COPIED_FIELD_BYTES: usize = 256 << 10;

/// `bytes` in KB with one decimal, as the planner's notes write sizes.
fn kb(bytes: usize) -> String {
    let tenths = (bytes as u64 * 10 + 512) / 1024;
    format!("{}.{}", grouped(tenths / 10), tenths % 10)
}

/// Batches of more keys than this get their copied plan a task after the frame that shows
/// them (`after_paint`): writing it was the largest part of a 4 MB paste's interaction (one
/// MGET of 116,000 keys, 4 MB of text, of which the field shows 16 KB; issue 17).
const COPY_LATE_KEYS: usize = 20_000;
/// A batch of commands of more lines than this is answered a task after the frame that shows
/// its text (`after_paint`), the replies before it shown meanwhile, marked busy, with Copy
/// disabled: 2,000 commands took about 19 ms to answer and render at 1000 masters, in the frame
/// that also lays out the field's new text (issue 17).
const ANSWER_LATE_LINES: usize = 200;
/// A held batch longer than this is put into the field only after a warning: the browser
/// lays out a text field's whole text at every change (20,000 short lines, about 200 KB, took
/// Chromium 0.5–1 s here; a 3.5 MB batch about 5 s, then about 1 s a keystroke).
const EDIT_WARN_BYTES: usize = 256 << 10;
/// A generator asked for more keys than this makes them a slice per frame.
const GEN_SLICED_KEYS: u32 = 100_000;
/// Keys made between two looks at the clock.
const GEN_SLICE_KEYS: u32 = 4096;
/// Commands shown in the copyable plan.
const MAX_COPIED_COMMANDS: usize = 500;

/// Props of [`Planner`].
#[derive(Properties, PartialEq)]
pub struct PlannerProps {
    /// The cluster.
    pub map: Rc<SlotMap>,
    /// Colour of each master, by index.
    pub colours: Rc<Vec<String>>,
    /// The planner's state (the page owns it: a link restores it and carries it).
    pub state: UseReducerHandle<PlannerState>,
}

/// The verdict for keys sent as one command to the chosen node without running it (generated
/// keys, or more pasted keys than the engine sends), and whether it is a refusal: the core
/// routes the batch as Redis would ([`route_key_batch`]); the page prints its error reply as
/// Redis words it or, when the node serves the keys, their slot.
fn routed_verdict(
    t: &Messages,
    verdict: &Result<Option<u16>, ErrorReply>,
    node: &str,
) -> (String, bool) {
    match verdict {
        Err(e) => (e.to_string(), true),
        Ok(Some(slot)) => (fill(t.plan_one_slot, &[slot, &node]), false),
        Ok(None) => (String::new(), false),
    }
}

/// A mean as a reader writes it: up to two decimals, no trailing zeros ("3", "2.5", "2.33").
fn mean(x: f64) -> String {
    let s = format!("{x:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn strategy_id(s: Strategy) -> &'static str {
    match s {
        Strategy::PerKey => "per-key",
        Strategy::PerSlot => "per-slot",
        Strategy::PerMaster => "per-master",
        Strategy::Tagged => "tagged",
    }
}

/// A small picture of the client fanning out to the masters it touches: one line per master,
/// as thick as its share of the keys.
fn fan_out(t: &Messages, p: &Plan, map: &SlotMap, colours: &[String]) -> Html {
    let shown: Vec<_> = p
        .masters
        .iter()
        .filter_map(|g| g.master.map(|m| (m, g.n_keys)))
        .take(24)
        .collect();
    if shown.is_empty() {
        return Html::default();
    }
    let n = shown.len() as f64;
    let h = (n * 22.0).max(60.0);
    let total = p.n_served().max(1) as f64;
    let items = shown.iter().enumerate().map(|(i, &(m, keys))| {
        let y = (i as f64 + 0.5) * h / n;
        let w = 1.0 + 9.0 * keys as f64 / total;
        let colour = colours.get(m).cloned().unwrap_or_default();
        let addr = map.masters().get(m).map_or("", |m| m.addr.as_str()).to_string();
        html! {
            <g>
                <line x1="40" y1={format!("{}", h / 2.0)} x2="250" y2={format!("{y:.1}")}
                      stroke={colour.clone()} stroke-width={format!("{w:.1}")} stroke-linecap="round" />
                <circle cx="256" cy={format!("{y:.1}")} r="6" fill={colour} />
                <text x="268" y={format!("{:.1}", y + 4.0)} class="fanout__label">{ format!("{addr} · {}", grouped(keys)) }</text>
            </g>
        }
    });
    html! {
        <svg class="fanout" viewBox={format!("0 0 460 {h:.0}")} role="img"
             aria-label={fill(t.plan_fanout_label, &[&count(t.n_masters, shown.len())])}>
            <circle cx="28" cy={format!("{}", h / 2.0)} r="14" class="fanout__client" />
            <text x="28" y={format!("{}", h / 2.0 + 4.0)} text-anchor="middle" class="fanout__client-label">{ "C" }</text>
            { for items }
        </svg>
    }
}

/// What a plan is copied from: the keys, the values pasted writes give them (by the keys'
/// places), and the keys planned on the cluster (`planned`, reused by the per-slot styles).
#[derive(Clone, Copy)]
struct CopySource<'a> {
    keys: &'a KeySample,
    values: Option<&'a KeySample>,
    planned: &'a Plan,
    map: &'a SlotMap,
}

/// The batch as redis-cli commands in the style chosen: `command` per slot (the one the keys
/// are sent as), EVAL SET … EX per slot, or (the route cache's fix) keys rewritten with one
/// tag per master so each master gets one EVAL.
fn copy_plan(t: &Messages, copy: &CopySource, style: CopyStyle, command: &'static str) -> String {
    let CopySource {
        keys,
        values,
        planned,
        map,
    } = *copy;
    const TTL: u32 = 3600;
    let eval = CommandStyle::EvalSetEx { ttl: TTL };
    // Lines joined by `\n`, written into one string (a command can be 4 MB).
    let line = |out: &mut String, text: &str| {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(text);
    };
    let worded = |out: &mut String, p: &Plan, keys: &KeySample, style: CommandStyle| {
        let parts = slot_command_parts(p, keys, values, map, style, MAX_COPIED_COMMANDS);
        for c in &parts {
            let node = c.master.unwrap_or(t.plan_copy_no_master);
            line(out, &fill(t.plan_copy_slot, &[&c.slot, &node]));
            line(out, &c.command);
        }
        // A list that stops short says so, in the text that is copied.
        let all = p.slots.len();
        if all > parts.len() {
            let left_out = all - parts.len();
            line(
                out,
                &fill(
                    t.plan_copy_more,
                    &[
                        &count(t.n_slots, left_out),
                        &grouped(parts.len() as u64),
                        &count(t.n_slots, all),
                    ],
                ),
            );
        }
    };
    let mut out = String::new();
    match style {
        CopyStyle::Eval => worded(&mut out, planned, keys, eval),
        CopyStyle::Tagged => match generate_tags(ROUTE_TAG_TEMPLATE, 1, map, 1_000_000) {
            Ok(set) => {
                let retagged = retag(keys, map, &set);
                line(
                    &mut out,
                    &fill(t.plan_copy_retagged, &[&ROUTE_TAG_TEMPLATE]),
                );
                let p = plan(&retagged, map);
                worded(&mut out, &p, &retagged, eval);
            }
            Err(e) => line(&mut out, &format!("# {}", tag_error(t, &e))),
        },
        CopyStyle::PerSlot => worded(&mut out, planned, keys, CommandStyle::Keys(command)),
    }
    out
}

/// A line's verdict: the node's reply verbatim, or redis-cli's `Invalid argument(s)` with
/// the reason in the reader's language.
fn line_verdict(t: &Messages, line: &Line) -> String {
    match &line.outcome {
        Outcome::Invalid(e) => format!("Invalid argument(s): {}", escape_error(t, e)),
        // An EXEC's array may hold the page's notes: worded in the reader's language.
        Outcome::Reply(reply @ Reply::Array(_)) => {
            let text = reply_text(t, reply);
            text.strip_suffix('\n').unwrap_or(&text).to_string()
        }
        Outcome::Reply(_) => line.verdict(),
    }
}

/// For a command a client sends to every master or node (Redis's tips
/// `request_policy:all_shards` / `all_nodes`: DBSIZE, KEYS, PING, FLUSHALL, …), the note under
/// its reply: what one node's answer covers, by how the tips say the replies are combined.
fn per_node_note(t: &Messages, line: &Line, node_addr: &str) -> Option<String> {
    let info = crate::core::key::args::split_args(&line.text)
        .ok()
        .and_then(|args| crate::core::server::command::find_command(&args))
        .filter(|info| info.acts_per_node())?;
    let text = match info.response_policy() {
        Some("agg_sum") => t.plan_per_node_sum,
        Some("all_succeeded") => t.plan_per_node_all_ok,
        _ => t.plan_per_node,
    };
    Some(fill(text, &[&node_addr]))
}

/// The name of a send strategy in the reader's language.
fn strategy_name(t: &Messages, s: Strategy) -> &'static str {
    match s {
        Strategy::PerKey => t.strategy_names[0],
        Strategy::PerSlot => t.strategy_names[1],
        Strategy::PerMaster => t.strategy_names[2],
        Strategy::Tagged => t.strategy_names[3],
    }
}

/// A paste (or drop) being taken in: the field's text before it, the selection it replaces
/// (UTF-16 offsets, as `pasted_into` takes them), and its text, left in JavaScript until then.
struct PendingPaste {
    before: String,
    at: (Option<u32>, Option<u32>),
    text: JsString,
}

/// The UTF-16 offset in the field's text at which a drop lands, where the browser can say
/// (`document.caretPositionFromPoint` names the field and the offset in its value).
fn drop_offset(e: &DragEvent, area: &HtmlTextAreaElement) -> Option<u32> {
    let doc = area.owner_document()?;
    let position = doc.caret_position_from_point(e.client_x() as f32, e.client_y() as f32)?;
    let node = position.offset_node()?;
    let field: &web_sys::Node = area.as_ref();
    (node == *field).then(|| position.offset())
}

/// The tag template the "per master" copy uses (the case study's).
const ROUTE_TAG_TEMPLATE: &str = "routing:v1:%d";

/// The planner's card.
#[function_component(Planner)]
pub fn planner(props: &PlannerProps) -> Html {
    let t = use_messages();
    let lang = use_context::<Lang>().unwrap_or_default();
    let map = &props.map;
    let state = &*props.state;
    let dispatch = props.state.dispatcher();
    let on = Callback::from(move |a: PlannerAction| dispatch.dispatch(a));

    let node_addr = state
        .node
        .clone()
        .filter(|a| {
            map.masters()
                .iter()
                .any(|m| &m.addr == a || m.replicas.iter().any(|r| &r.addr == a))
        })
        .or_else(|| map.masters().first().map(|m| m.addr.clone()))
        .unwrap_or_default();
    // A big key list is read a slice per frame (`reading` until it is read), once per text:
    // another command, node or cluster answers the keys read.
    // Many commands are answered a task after the frame that shows their text (`answering`
    // until then): typed or set into the field, the text is the browser's to lay out first.
    let many_commands =
        state.lines == Lines::Commands && state.text.lines().nth(ANSWER_LATE_LINES).is_some();
    let (answered_text, answering) = use_after_paint(state.text.clone(), many_commands);
    let (batch, reading) = use_batch(
        answered_text,
        state.lines,
        node_addr.clone(),
        props.map.clone(),
    );
    // Thousands of pasted lines: only those scrolled into view are rendered.
    let verdict_list = use_node_ref();
    let windowed = use_window(verdict_list.clone(), batch.lines.len());
    let window = windowed.window;
    // Generated keys, when there are some, stand in for the pasted ones: one batch at a time.
    let generated = &state.generated;
    let keys = generated.clone().unwrap_or_else(|| batch.keys.clone());
    // The command the keys are sent as: the chosen key command. Pasted commands, read once per
    // batch (each line split again), are sent as MSET with the values plain SET / MSET lines
    // wrote (`written_values`), as the one key command they all are (DEL lines copy as DEL per
    // slot), else MGET; generated keys as MGET. (`Batch` is `Eq`: an unchanged batch compares
    // by pointer.)
    let pasted = use_memo(batch.clone(), |b| {
        let values = written_values(&b.lines).map(Rc::new);
        let command = match values {
            Some(_) => "MSET",
            None => common_key_command(&b.lines).unwrap_or("MGET"),
        };
        (values, command)
    });
    let (values, sent_as) = match (state.lines, generated) {
        (Lines::Commands, None) => (*pasted).clone(),
        (lines, _) => (None, lines.key_command()),
    };
    // Many keys are planned in a task after the frame that shows their batch (`planning`
    // until then); the plan, its chunks and its copy are all of the keys `planned` holds.
    let ((planned_keys, planned_map, planned_values), planning) = use_after_paint(
        (keys.clone(), props.map.clone(), values.clone()),
        keys.len() > COPY_LATE_KEYS,
    );
    let the_plan = use_memo(
        (planned_keys.clone(), planned_map.clone()),
        |(keys, map)| plan(keys.as_ref(), map),
    );
    // Keys the core routes as one command, without sending it (`route_key_batch`): generated
    // keys, or a pasted key list too long for the engine's one line (`MAX_ENGINE_KEYS`);
    // routed again only when the keys, the cluster, the node or the command change.
    let routed_keys = generated.clone().or_else(|| {
        let too_many = matches!(state.lines, Lines::KeysFor(_)) && batch.lines.is_empty();
        (too_many && !batch.keys.is_empty()).then(|| batch.keys.clone())
    });
    let route = use_memo(
        (
            routed_keys.clone(),
            props.map.clone(),
            node_addr.clone(),
            sent_as,
        ),
        |(keys, map, node, command)| {
            keys.as_ref()
                .map(|keys| route_key_batch(map, node, command, keys))
        },
    );
    let chunk_size = state.chunk_size();
    // From the plan's slots: no second pass over the keys.
    let chunks = use_memo(
        (the_plan.clone(), planned_map.clone(), chunk_size),
        |(p, map, c)| {
            (
                chunk_masters_of(p, map, *c, false),
                chunk_masters_of(p, map, *c, true),
            )
        },
    );

    // More than `GEN_SLICED_KEYS` keys are made a slice per frame (`generating`: how many of
    // how many); a new batch (typed, pasted, dropped, cleared, other lines) or another
    // Generate ends that.
    let generating = use_state_eq(|| None::<(u32, u32)>);
    let gen_job = use_mut_ref(|| None::<Slices>);
    let stop_generating: Rc<dyn Fn()> = {
        let (gen_job, generating) = (gen_job.clone(), generating.clone());
        Rc::new(move || {
            gen_job.borrow_mut().take();
            generating.set(None);
        })
    };
    // Clear keeps the batch it emptied, to put back until the reader does something else
    // with the batch (types, pastes, generates).
    let cleared = use_state_eq(|| None::<Rc<str>>);
    let on_text = {
        let (on, text, stop) = (on.clone(), state.text.clone(), stop_generating.clone());
        let cleared = cleared.clone();
        Callback::from(move |e: InputEvent| {
            cleared.set(None);
            let area = e.target_unchecked_into::<HtmlTextAreaElement>();
            let value = area.value();
            if value.len() > MAX_PASTE_BYTES {
                // Refused before it is read: the batch before it stays, in the field too.
                area.set_value(&text);
            } else {
                stop();
            }
            on.emit(PlannerAction::Text(value));
        })
    };
    // A paste that makes the batch too long for the field is held by the planner instead
    // (`planner_state::FIELD_LINES`): the text never goes into the field, so the browser does
    // not lay it out. A shorter paste is the browser's own, as typing is. A paste longer than
    // the field takes crosses into wasm a task after the frame that says it is being taken
    // in (`pasting`): 4 MB of text is a long copy. A drop of text is taken as a paste is.
    let pasting = use_state_eq(|| false);
    let pending = use_mut_ref(|| None::<PendingPaste>);
    let taking_in = use_mut_ref(|| None::<AfterPaint>);
    // A pasted batch: it ends a generation unless it is refused (over the limit).
    let paste_in: Rc<dyn Fn(String)> = {
        let (on, stop, cleared) = (on.clone(), stop_generating.clone(), cleared.clone());
        Rc::new(move |text: String| {
            cleared.set(None);
            if text.len() <= MAX_PASTE_BYTES {
                stop();
            }
            on.emit(PlannerAction::Pasted(text));
        })
    };
    // Puts a paste waiting to be taken in into the batch now: its own task, or a Generate
    // pressed meanwhile, which then comes after it.
    let take_in: Rc<dyn Fn()> = {
        let (paste_in, pending, pasting) = (paste_in.clone(), pending.clone(), pasting.clone());
        Rc::new(move || {
            if let Some(p) = pending.borrow_mut().take() {
                paste_in(pasted_into(&p.before, p.at, p.text.into(), false));
            }
            pasting.set(false);
        })
    };
    // Text pasted or dropped into the field's `before` over its bytes `at`: whether the page
    // took it (else the browser inserts it, as typing).
    let receive: Rc<dyn Fn(PendingPaste) -> bool> = {
        let (held, pasting) = (state.held, pasting.clone());
        let (pending, take_in, paste_in) = (pending.clone(), take_in.clone(), paste_in.clone());
        Rc::new(move |new: PendingPaste| {
            // Nothing pasted: nothing changes (a held batch included).
            if new.text.length() == 0 {
                return true;
            }
            if let Some(p) = pending.borrow_mut().as_mut() {
                // A second paste while one is taken in goes after it, as in the field.
                p.text = p.text.concat(&new.text);
                return true;
            }
            // At least one UTF-8 byte per UTF-16 unit: held (or refused) whatever the field held.
            if new.text.length() as usize > FIELD_BYTES {
                *pending.borrow_mut() = Some(new);
                pasting.set(true);
                let take_in = take_in.clone();
                *taking_in.borrow_mut() = Some(after_paint(move || take_in()));
                return true;
            }
            let text = pasted_into(&new.before, new.at, new.text.into(), false);
            let taken = held || text.len() > MAX_PASTE_BYTES || too_long_for_field(&text);
            if taken {
                paste_in(text);
            }
            taken
        })
    };
    // Where a paste or a drop goes: over the field's selection, or at the drop's point; into
    // a held batch (read-only, its start shown), in place of all of it: the field holds only
    // the batch's start, so there is no place in the batch to put it.
    let place = {
        let held = state.held;
        move |area: &HtmlTextAreaElement, at: (Option<u32>, Option<u32>), text: JsString| {
            let (before, at) = match held {
                true => (String::new(), (None, None)),
                false => (area.value(), at),
            };
            PendingPaste { before, at, text }
        }
    };
    let on_paste = {
        let receive = receive.clone();
        Callback::from(move |e: Event| {
            let Some(pasted) = pasted_text(&e) else {
                return;
            };
            let area = e.target_unchecked_into::<HtmlTextAreaElement>();
            let at = (
                area.selection_start().ok().flatten(),
                area.selection_end().ok().flatten(),
            );
            if receive(place(&area, at, pasted)) {
                e.prevent_default();
            }
        })
    };
    let on_drop = Callback::from(move |e: DragEvent| {
        let dropped = e
            .data_transfer()
            .and_then(|d| text_of(&d))
            .filter(|t| t.length() > 0);
        // Files and the like: the browser's.
        let Some(dropped) = dropped else { return };
        let area = e.target_unchecked_into::<HtmlTextAreaElement>();
        let at = drop_offset(&e, &area);
        if receive(place(&area, (at, at), dropped)) {
            e.prevent_default();
        }
    });
    // Edit and Clear go with the held note: the field, where the reader goes on, has the focus.
    let field = use_node_ref();
    let focus_field = {
        let field = field.clone();
        move || {
            if let Some(f) = field.cast::<HtmlTextAreaElement>() {
                let _ = f.focus();
            }
        }
    };
    // A batch over `EDIT_WARN_BYTES` goes into the field at the second click, after a warning
    // (kept for this text only: `warned`).
    let warned = use_state_eq(|| None::<Rc<str>>);
    let (gen_template_paste, gen_template_refused) =
        use_paste_limit(&state.gen_template, SHORT_FIELD_BYTES, |t| t.paste_too_long);
    let warning = warned.as_ref().is_some_and(|w| Rc::ptr_eq(w, &state.text));
    let on_edit_in_field = {
        let (on, focus, warned) = (on.clone(), focus_field.clone(), warned.clone());
        let text = state.text.clone();
        Callback::from(move |_: MouseEvent| {
            if text.len() > EDIT_WARN_BYTES && !warning {
                warned.set(Some(text.clone()));
                return;
            }
            warned.set(None);
            on.emit(PlannerAction::EditInField);
            focus();
        })
    };
    let on_clear = {
        let (on, stop, cleared) = (on.clone(), stop_generating.clone(), cleared.clone());
        let (text, focus) = (state.text.clone(), focus_field.clone());
        Callback::from(move |_: MouseEvent| {
            stop();
            cleared.set(Some(text.clone()));
            on.emit(PlannerAction::Text(String::new()));
            focus();
        })
    };
    let on_undo_clear = {
        let (paste_in, cleared, focus) = (paste_in.clone(), cleared.clone(), focus_field);
        Callback::from(move |_: MouseEvent| {
            if let Some(text) = (*cleared).clone() {
                paste_in(text.to_string());
                // The button goes with the note: the focus goes where Clear left it.
                focus();
            }
        })
    };
    let undo_clear = cleared.is_some() && state.text.is_empty();
    // What a held batch's field shows: its start, how many lines (the last one cut when a
    // line is longer than the field takes), of how many, and the batch's bytes.
    let held = use_memo((state.held, state.text.clone()), |(held, text)| {
        held.then(|| {
            let (start, lines) = preview(text);
            let shown = start.bytes().filter(|&b| b == b'\n').count() + 1;
            let cut = !text[start.len()..].is_empty() && !text[start.len()..].starts_with('\n');
            (
                AttrValue::from(start.to_string()),
                shown,
                lines,
                text.len(),
                cut,
            )
        })
    });
    let on_command = {
        let on = on.clone();
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<HtmlSelectElement>().value();
            // A generation goes on: its keys are sent as the new command.
            if let Some(lines) = Lines::from_value(&value) {
                on.emit(PlannerAction::Lines(lines));
            }
        })
    };
    let on_node = {
        let on = on.clone();
        Callback::from(move |e: Event| {
            on.emit(PlannerAction::Node(
                e.target_unchecked_into::<HtmlSelectElement>().value(),
            ))
        })
    };
    let on_generate = {
        let on = on.clone();
        let (kind, template, count) = (
            state.gen_kind,
            state.gen_template.clone(),
            state.gen_count.clone(),
        );
        let (generating, cleared) = (generating.clone(), cleared.clone());
        Callback::from(move |_: MouseEvent| {
            cleared.set(None);
            // A paste still being taken in was first: it is the batch the keys replace in view.
            take_in();
            stop_generating();
            let maker = match key_maker(kind, &template, &count) {
                Ok(m) if m.total() > GEN_SLICED_KEYS => m,
                // Refused, or made at once: the reducer's.
                _ => return on.emit(PlannerAction::Generate),
            };
            generating.set(Some((0, maker.total())));
            let (on, generating) = (on.clone(), generating.clone());
            let mut maker = Some(maker);
            *gen_job.borrow_mut() = Some(in_slices(move || {
                let Some(m) = maker.as_mut() else { return true };
                if !for_ms(SLICE_MS, || m.make(GEN_SLICE_KEYS)) {
                    generating.set(Some((m.made(), m.total())));
                    return false;
                }
                if let Some(keys) = maker.take().and_then(KeyMaker::finished) {
                    on.emit(PlannerAction::Generated(Rc::new(keys)));
                }
                generating.set(None);
                true
            }));
        })
    };
    let on_show_pasted = {
        let on = on.clone();
        Callback::from(move |_: MouseEvent| on.emit(PlannerAction::ShowPasted))
    };

    let p = &*the_plan;
    // Keys whose first line reads as a command (`DEL k:1`): the reader likely meant commands.
    let first_key_like_command = matches!(state.lines, Lines::KeysFor(_))
        .then(|| batch.keys.iter().next())
        .flatten()
        .filter(|k| looks_like_command(k))
        .map(format_key);
    // A held batch's note says the plan reads all of it unless it does not: more commands than
    // the page answers, or more keys than it plans (the errors below say which); nor while
    // its commands are still to be answered.
    let held_all = if answering || batch.problems.iter().any(Problem::is_partial) {
        ""
    } else {
        t.plan_held_all
    };
    let shown_lines = batch
        .lines
        .get(window.start..window.end)
        .unwrap_or_default();
    let verdicts = shown_lines.iter().map(|line| {
        let slots: Vec<String> = line.keys.iter().map(|(k, s)| format!("{} → {s}", format_key(k))).collect();
        // A command the page does not run gets the page's note, in the reader's language.
        let note = match &line.outcome {
            Outcome::Reply(reply) => note_of(reply),
            Outcome::Invalid(_) => None,
        };
        let class = match note {
            Some(_) => "verdict--note",
            None if line.is_error() => "verdict--error",
            None => "",
        };
        html! {
            <li class={classes!("verdict", class)}>
                <code class="verdict__line">{ format!("{}: {}", line.line_no, batch.line_text(t, state.lines, line)) }</code>
                if !slots.is_empty() { <span class="verdict__slots mono">{ slots.join(" · ") }</span> }
                if let Some(note) = note {
                    <p class="verdict__reply verdict__note" data-testid="verdict-note">
                        <strong>{ t.note_label }</strong>{ " " }{ note_text(t, note) }
                    </p>
                } else {
                    <code class="verdict__reply" data-testid="verdict">{ line_verdict(t, line) }</code>
                    if let Some(text) = (!line.is_error()).then(|| per_node_note(t, line, &node_addr)).flatten() {
                        <p class="verdict__note" data-testid="verdict-per-node">{ text }</p>
                    }
                }
            </li>
        }
    });
    let routed_item = routed_keys.as_ref().map(|routed| {
        // Styled as the pasted lines are: an error reply in the error colour.
        let (verdict, refused) = match &*route {
            Some(v) => routed_verdict(t, v, &node_addr),
            None => (String::new(), false),
        };
        let n_keys = count(t.n_keys, routed.len());
        let (testid, line) = if generated.is_some() {
            ("generated-verdict", fill(t.plan_generated, &[&sent_as, &n_keys]))
        } else {
            ("keys-verdict", format!("1: {}", fill(t.plan_keys_line, &[&sent_as, &n_keys])))
        };
        html! {
            <li class={classes!("verdict", refused.then_some("verdict--error"))} data-testid={testid}>
                <code class="verdict__line">{ line }</code>
                <code class="verdict__reply" data-testid="verdict">{ verdict }</code>
                if generated.is_none() {
                    <p class="verdict__note verdict__note--wide" data-testid="verdict-routed">{ fill(t.plan_routed_only, &[&grouped(MAX_ENGINE_KEYS as u64)]) }</p>
                }
            </li>
        }
    });
    let rows = Strategy::ALL.iter().map(|&s| {
        let c = p.cost(s);
        let busiest = c.commands_per_master.iter().copied().max().unwrap_or(0);
        html! {
            <tr data-testid="plan" data-strategy={strategy_id(s)} data-round-trips={c.round_trips.to_string()}>
                <th scope="row">{ strategy_name(t, s) }</th>
                // Each cell names its column: on a phone the header row is hidden.
                <td class="mono" data-label={t.plan_col_trips}>{ grouped(c.round_trips) }</td>
                <td class="mono" data-label={t.plan_col_parallel} data-testid="plan-parallel">{ format!("≈ {} × RTT", grouped(c.parallel_round_trips)) }</td>
                <td class="mono" data-label={t.plan_col_commands}>{ grouped(c.commands) }</td>
                <td class="mono" data-label={t.plan_col_queue}>{ grouped(busiest) }</td>
                <td class="mono" data-label={t.plan_col_largest}>{ grouped(c.largest_command) }</td>
                <td class="mono" data-label={t.plan_col_atomic}>{ format!("{} ({})", grouped(c.atomic_groups), grouped(c.largest_atomic_group)) }</td>
            </tr>
        }
    });
    let (unsorted, sorted) = &*chunks;
    // Keyed on the plan too: it is recomputed only when the keys or the cluster change; for a
    // big batch, in a task after the frame that shows the batch (`copy_behind` until then).
    let (copy_inputs, copy_behind) = use_after_paint(
        (
            planned_keys.clone(),
            planned_values.clone(),
            the_plan.clone(),
            planned_map.clone(),
            state.style,
            sent_as,
            lang,
        ),
        planned_keys.len() > COPY_LATE_KEYS,
    );
    let copied = use_memo(
        copy_inputs,
        |(keys, values, planned, map, style, command, lang)| {
            let copy = CopySource {
                keys,
                values: values.as_deref(),
                planned,
                map,
            };
            let text = copy_plan(lang.messages(), &copy, *style, command);
            // A plan too long for a text field (one MGET of 100,000 keys is 4 MB on one line)
            // shows its start there, as a held batch does; Copy copies all of it.
            let cut = (text.len() > COPIED_FIELD_BYTES).then(|| {
                let start = preview(&text).0;
                (AttrValue::from(start.to_string()), start.len(), text.len())
            });
            (AttrValue::from(text), cut)
        },
    );
    let (copied, copied_cut) = (*copied).clone();
    // The batch's results are not shown while what they come from is still being worked out:
    // a paste taken in, a big key list read, many keys planned.
    let working = if *pasting {
        Some(("pasting", t.plan_pasting.to_string(), None))
    } else if let Some((made, total)) = *generating {
        let words = fill(
            t.plan_generating,
            &[&grouped(made.into()), &grouped(total.into())],
        );
        Some(("generating", words, Some((made as usize, total as usize))))
    } else if let (Some(r), None) = (reading, generated) {
        let words = fill(t.plan_reading, &[&kb(r.read), &kb(r.total)]);
        Some(("reading", words, Some((r.read, r.total))))
    } else if planning {
        Some((
            "planning",
            fill(t.plan_planning, &[&count(t.n_keys, keys.len())]),
            None,
        ))
    } else {
        None
    };

    html! {
        <section class="card planner" aria-labelledby="planner-title">
            <h2 id="planner-title" class="section-title">{ t.plan_title }</h2>
            <p class="section-help">{ t.plan_help }</p>
            <div class="lab__row lab__form">
                <label for="command-select">{ t.plan_lines_are }</label>
                <select id="command-select" data-testid="command-select" onchange={on_command}>
                    <option value="commands" selected={state.lines == Lines::Commands}>{ t.plan_commands }</option>
                    { for KEY_COMMANDS.iter().map(|c| html! {
                        <option value={*c} selected={state.lines == Lines::KeysFor(c)}>{ fill(t.plan_keys_for, &[c]) }</option>
                    }) }
                </select>
                <label for="plan-node">{ t.plan_sent_to }</label>
                <NodeSelect id="plan-node" testid="plan-node" onchange={on_node}
                        map={map.clone()} selected={AttrValue::from(node_addr.clone())} roles={t.node_roles} />
            </div>
            <textarea class="lab__paste mono" rows="7" data-testid="batch-input" ref={field}
                      value={held.as_ref().as_ref().map_or_else(|| AttrValue::from(state.text.clone()), |h| h.0.clone())}
                      readonly={state.held || *pasting} data-held={state.held.then_some("true")}
                      aria-busy={pasting.then_some("true")}
                      oninput={on_text} onpaste={on_paste} ondrop={on_drop} spellcheck="false" aria-label={t.plan_batch_label}
                      aria-describedby={state.held.then_some("batch-held")} />
            if undo_clear {
                <p class="section-help" role="status" data-testid="batch-cleared">
                    { t.plan_cleared }{ t.sentence_gap }
                    <button type="button" class="link-button" data-testid="batch-undo-clear" onclick={on_undo_clear}>{ t.plan_undo_clear }</button>
                </p>
            }
            if let Some(n) = state.too_big {
                <p class="lab__error" role="alert" data-testid="batch-error">
                    { fill(t.plan_too_big, &[&grouped(n as u64), &grouped(MAX_PASTE_BYTES as u64)]) }
                </p>
            }
            if let Some((start, shown, lines, bytes, cut)) = held.as_ref() {
                <div class="lab__row planner__held" id="batch-held" data-testid="batch-held"
                     data-lines={lines.to_string()}>
                    <p class="section-help">{ if *cut {
                        fill(t.plan_held_bytes, &[&kb(start.len()), &kb(*bytes), &count(t.n_lines, *lines), &held_all])
                    } else {
                        fill(t.plan_held, &[&count(t.n_lines, *shown), &count(t.n_lines, *lines), &kb(*bytes), &held_all])
                    } }</p>
                    if warning {
                        <p class="lab__error planner__slow" role="alert" data-testid="batch-edit-slow">{ fill(t.plan_edit_slow, &[&kb(*bytes)]) }</p>
                    }
                    <button type="button" class="button" data-testid="batch-edit-in-field" onclick={on_edit_in_field}>
                        { if warning { t.plan_edit_anyway } else { t.plan_edit_in_field } }
                    </button>
                    <button type="button" class="button button--quiet" data-testid="batch-clear" onclick={on_clear}>{ t.plan_clear }</button>
                </div>
            }
            <div class="lab__row lab__form planner__gen">
                <span>{ t.plan_or_generate }</span>
                <select aria-label={t.plan_generator}
                        onchange={select_to(on.clone(), |v| GenKind::from_value(&v).map(PlannerAction::GenKind))}>
                    <option value="template" selected={state.gen_kind == GenKind::Template}>{ t.plan_gen_template }</option>
                    <option value="h3" selected={state.gen_kind == GenKind::H3}>{ t.plan_gen_h3 }</option>
                </select>
                if state.gen_kind == GenKind::Template {
                    <input class="mono lab__weights" type="text" data-testid="gen-template" value={state.gen_template.clone()}
                           oninput={input_to(on.clone(), PlannerAction::GenTemplate)} onpaste={gen_template_paste}
                           aria-label={t.plan_gen_template} />
                }
                <input class="lab__number" type="number" min="1" max={MAX_KEYS.to_string()} data-testid="gen-count"
                       value={state.gen_count.clone()} oninput={input_to(on.clone(), PlannerAction::GenCount)} aria-label={t.plan_gen_count} />
                <button type="button" class="button" data-testid="generate" onclick={on_generate}>{ t.plan_generate }</button>
            </div>
            { gen_template_refused }
            if let Some(e) = &state.gen_error {
                <p class="lab__error" role="alert">{ match e {
                    GenError::Count(typed) => fill(t.plan_count_error, &[&grouped(MAX_KEYS as u64), typed]),
                    GenError::Plan(e) => plan_error(t, e),
                } }</p>
            }
            if let Some((phase, words, progress)) = working {
                // What the batch's results wait for, where they will be.
                <div class="planner__working" role="status" data-testid="batch-working" data-phase={phase}>
                    <span>{ words }</span>
                    if let Some((done, all)) = progress {
                        <progress max={all.to_string()} value={done.to_string()} aria-hidden="true"></progress>
                    }
                </div>
            } else {
                // The replies, the plan and its copy, of the text answered (`answering`: the text
                // before, until the field's is answered a task later).
                <div class="planner__results" data-testid="batch-results" aria-busy={answering.then_some("true")}>
                    // One batch at a time: generated keys set the pasted lines (and what they got wrong)
                    // aside until the reader goes back to them or edits them.
                    if generated.is_none() {
                        { for batch.problems.iter().map(|p| html! { <p class="lab__error" role="alert">{ p.describe(t) }</p> }) }
                        if let Some(first) = first_key_like_command {
                            <p class="lab__error" data-testid="keys-look-like-commands">{ fill(t.plan_keys_like_commands, &[&first]) }</p>
                        }
                    }

                    if let Some(keys) = generated {
                        <p class="section-help planner__switch" data-testid="generated-note" role="status">
                            { fill(t.plan_showing_generated, &[&count(t.n_keys, keys.len())]) }{ t.sentence_gap }
                            <button type="button" class="link-button" data-testid="show-pasted"
                                    onclick={on_show_pasted}>{ t.plan_show_pasted }</button>
                        </p>
                        <ol class="verdicts">{ routed_item.unwrap_or_default() }</ol>
                    } else {
                        <ol class={classes!("verdicts", window.windowed.then_some("verdicts--windowed"))}
                            ref={verdict_list} onscroll={windowed.onscroll.clone()} data-testid="verdicts"
                            data-rows={batch.lines.len().to_string()}
                            tabindex={window.windowed.then_some("0")} aria-label={window.windowed.then_some(t.plan_verdicts_label)}>
                            { spacer(&windowed, &windowed.before) }
                            { for verdicts }
                            { routed_item.unwrap_or_default() }
                            { spacer(&windowed, &windowed.after) }
                        </ol>
                    }

                    if p.n_keys > 0 {
                        <h3 class="lab__title">{ fill(t.plan_strategies, &[&count(t.n_keys, p.n_keys), &count(t.n_slots, p.slots.len()), &count(t.n_masters, p.masters.len())]) }</h3>
                        <div class="planner__plans">
                            <table class="compare__table">
                                <thead><tr>
                                    <th scope="col">{ t.plan_col_strategy }</th>
                                    <th scope="col">{ t.plan_col_trips }</th>
                                    <th scope="col">{ t.plan_col_parallel }</th>
                                    <th scope="col">{ t.plan_col_commands }</th>
                                    <th scope="col">{ t.plan_col_queue }</th>
                                    <th scope="col">{ t.plan_col_largest }</th>
                                    <th scope="col">{ t.plan_col_atomic }</th>
                                </tr></thead>
                                <tbody>{ for rows }</tbody>
                            </table>
                            { fan_out(t, p, map, &props.colours) }
                        </div>
                        <p class="section-help">{ t.plan_latency_note }</p>
                        if p.unserved.n_keys > 0 {
                            <p class="lab__error">{ fill(t.plan_unserved, &[&count(t.n_keys, p.unserved.n_keys)]) }</p>
                        }
                        <div class="lab__row lab__form">
                            <label for="chunk">{ t.plan_chunk }</label>
                            <input id="chunk" class="lab__number" type="number" min="1" value={state.chunk.clone()}
                                   oninput={input_to(on.clone(), PlannerAction::Chunk)} />
                            <span data-testid="chunk-stats">{ fill(t.plan_chunk_stats, &[
                                &mean(unsorted.mean_masters), &unsorted.max_masters,
                                &mean(sorted.mean_masters), &sorted.max_masters]) }</span>
                        </div>
                        <div class="lab__row lab__form">
                            <label for="copy-style">{ t.plan_copy_as }</label>
                            <select id="copy-style"
                                    onchange={select_to(on.clone(), |v| CopyStyle::from_value(&v).map(PlannerAction::Style))}>
                                <option value="mget" selected={state.style == CopyStyle::PerSlot}>{ fill(t.plan_copy_per_slot, &[&sent_as]) }</option>
                                <option value="eval" selected={state.style == CopyStyle::Eval}>{ t.plan_copy_eval }</option>
                                <option value="tagged" selected={state.style == CopyStyle::Tagged}>{ t.plan_copy_tagged }</option>
                            </select>
                        </div>
                        <textarea class="lab__commands mono" rows="6" readonly=true data-testid="plan-commands"
                                  value={copied_cut.as_ref().map_or_else(|| copied.clone(), |c| c.0.clone())}
                                  aria-label={t.plan_commands_label} aria-busy={copy_behind.then_some("true")} />
                        if copy_behind {
                            // The field still holds the previous plan's commands: no Copy until then.
                            <p class="section-help" role="status" data-testid="plan-commands-writing">
                                { fill(t.plan_copy_writing, &[&count(t.n_keys, p.n_keys)]) }
                            </p>
                        } else {
                            if let Some((_, shown, all)) = &copied_cut {
                                <p class="section-help" data-testid="plan-commands-cut" data-bytes={all.to_string()}>
                                    { fill(t.plan_copy_cut, &[&kb(*shown), &kb(*all)]) }
                                </p>
                            }
                            <CopyButton text={copied} disabled={answering} />
                            <p class="section-help" data-testid="plan-commands-comments">
                                if let Some((before, after)) = t.plan_copy_comments.split_once("{0}") {
                                    { before }<code class="mono">{ "ERR unknown command '#', with args beginning with: …" }</code>{ after }
                                }
                                { " " }<code class="mono">{ "grep -v '^#' plan.txt | redis-cli -c" }</code>
                            </p>
                        }
                    }
                </div>
            }
        </section>
    }
}
