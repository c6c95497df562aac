//! Free mode of the redirections view: the reader types commands and watches a chosen client
//! (one of six libraries as its source behaves, redis-cli -c, MOVED-only) run them against the current
//! cluster, migrations set up in the topology lab included; `@addr CMD` goes straight to a
//! node as an operator would, to set up a migration by hand.

use crate::core::client::{
    parse_action, play, ActionError, Client, ClientLibrary, EventKind, Policy, Scenario, Step,
    LIBRARIES, MOVED_ONLY_BUDGET,
};
use crate::core::server::{Cluster, Reply};
use crate::core::SlotMap;
use crate::ui::clipboard::use_paste_limit;
use crate::ui::components::sequence::Sequence;
use crate::ui::forms::{bind_input, bind_select};
use crate::ui::localize::action_error;
use crate::ui::messages::{fill, grouped, use_messages};
use crate::ui::narration::{library_name, use_narration_text};
use crate::ui::redirect_view::view_of;
use crate::ui::reply_words::{note_of, note_text, reply_text};
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// Steps kept (older ones scroll away), so a long session stays light.
const MAX_STEPS: usize = 40;
/// The longest command line free mode takes: the diagram shows every argument.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Props of [`FreeMode`].
#[derive(Properties, PartialEq)]
pub struct FreeModeProps {
    /// The cluster the commands run against (the topology lab's).
    pub map: Rc<SlotMap>,
}

/// Why the last line was not sent, kept as data so it is worded in the language shown.
#[derive(Clone, Debug, PartialEq)]
enum FreeError {
    /// Longer than [`MAX_LINE_BYTES`]: its length in bytes.
    TooLong(usize),
    /// Not a command.
    Action(ActionError),
}

/// redis-cli -c's redirect budget here.
const CLI_BUDGET: u32 = 16;

/// The client chosen in the select, by its value: a library's id, `cli` or `moved-only`.
fn client_of(s: &str, map: &SlotMap) -> Client {
    match s {
        "cli" => Client::new(Policy::RedisCliC, CLI_BUDGET, map),
        "moved-only" => Client::new(Policy::MovedOnly, MOVED_ONLY_BUDGET, map),
        id => Client::library(
            ClientLibrary::by_id(id).unwrap_or(ClientLibrary::Ioredis),
            map,
        ),
    }
}

/// The free mode panel.
#[function_component(FreeMode)]
pub fn free_mode(props: &FreeModeProps) -> Html {
    let t = use_messages();
    let words = use_narration_text();
    let policy = use_state(|| ClientLibrary::Ioredis.id().to_string());
    let line = use_state(String::new);
    let error = use_state(|| None::<FreeError>);
    // Shared, so a keystroke in the command field neither copies nor re-narrates them.
    let steps = use_state(|| Rc::new(Vec::<Step>::new()));
    // The cluster and the client live across commands; they start again when the topology,
    // or the client changes.
    let world = use_mut_ref(|| None::<(Cluster, Client, Vec<(crate::core::SlotRange, String)>)>);
    {
        let (world, steps) = (world.clone(), steps.clone());
        use_effect_with(
            (props.map.clone(), (*policy).clone()),
            move |(map, policy)| {
                let client = client_of(policy, map);
                let table = client.table();
                *world.borrow_mut() = Some((Cluster::new((**map).clone()), client, table));
                steps.set(Rc::new(Vec::new()));
            },
        );
    }
    let send = {
        let (world, steps, line, error) =
            (world.clone(), steps.clone(), line.clone(), error.clone());
        move || match (line.len() <= MAX_LINE_BYTES).then(|| parse_action(&line)) {
            None => error.set(Some(FreeError::TooLong(line.len()))),
            Some(Err(e)) => error.set(Some(FreeError::Action(e))),
            Some(Ok(action)) => {
                let mut guard: std::cell::RefMut<'_, _> = RefCell::borrow_mut(&world);
                if let Some((cluster, client, _)) = guard.as_mut() {
                    let mut all = (**steps).clone();
                    all.extend(play(cluster, client, vec![action]));
                    let skip = all.len().saturating_sub(MAX_STEPS);
                    steps.set(Rc::new(all.split_off(skip)));
                    error.set(None);
                    line.set(String::new());
                }
            }
        }
    };
    // A paste that would make the line too long is refused before the field holds it, and said
    // so under it: a 10 MB paste took 5.7 s to reach the field, and its Send 6.4 s more to be
    // refused.
    let (onpaste, paste_refused) =
        use_paste_limit(&line, MAX_LINE_BYTES, |t| t.free_paste_too_long);
    let onclick = {
        let send = send.clone();
        Callback::from(move |_: MouseEvent| send())
    };
    let onkeydown = Callback::from(move |e: KeyboardEvent| {
        if e.key() == "Enter" {
            e.prevent_default();
            send();
        }
    });
    // The diagram and its narration are worked out once per command sent (or language, or
    // session), not on every keystroke in the command field.
    let view = use_memo(
        (
            (*steps).clone(),
            words.lang,
            props.map.clone(),
            (*policy).clone(),
        ),
        {
            let world = world.clone();
            move |(steps, ..)| {
                let guard = world.borrow();
                guard.as_ref().map(|(_, client, table)| {
                    view_of(
                        &Scenario {
                            id: "free",
                            title: "Your commands",
                            policy: client.policy(),
                            rule: client.rule(),
                            max_redirects: client.max_redirects(),
                            start_table: table.clone(),
                            steps: (**steps).clone(),
                        },
                        words,
                    )
                })
            }
        },
    );
    // Each reply as redis-cli prints it; a command or script the page does not run is its note,
    // in the reader's language (Redis's own errors are never translated).
    let replies = steps
        .iter()
        .flat_map(|step| &step.events)
        .filter_map(|e| {
            let EventKind::Reply { reply } = &e.kind else {
                return None;
            };
            Some(match note_of(reply) {
                Some(note) => html! {
                    <li class="verdict__note" data-testid="free-note">
                        <strong>{ t.note_label }</strong>{ " " }{ note_text(t, note) }
                    </li>
                },
                // An EXEC's array may hold the page's notes: worded too.
                None if matches!(reply, Reply::Array(_)) => html! {
                    <li class="mono">{ reply_text(t, reply).trim_end_matches('\n') }</li>
                },
                None => html! { <li class="mono">{ e.cli.trim_end_matches('\n') }</li> },
            })
        })
        .collect::<Html>();
    html! {
        <div class="redir__free">
            <h3 class="lab__title">{ t.free_title }</h3>
            <p class="section-help">{ t.free_help }</p>
            <div class="lab__row lab__form">
                <label for="free-policy">{ t.free_client }</label>
                <select id="free-policy" data-testid="free-policy" onchange={bind_select(&policy)}>
                    { for LIBRARIES.iter().map(|l| html! {
                        <option value={l.id()} selected={*policy == l.id()}>
                            { format!("{} ({})", library_name(*l), l.behaviour().max_redirects) }
                        </option>
                    }) }
                    <option value="cli" selected={*policy == "cli"}>{ "redis-cli -c" }</option>
                    <option value="moved-only" selected={*policy == "moved-only"}>{ fill(t.free_moved_only, &[&MOVED_ONLY_BUDGET]) }</option>
                </select>
            </div>
            <div class="lab__row lab__form">
                <input class="mono lab__free-input" type="text" data-testid="free-command-input"
                       placeholder="GET {user:1001}:profile   ·   @127.0.0.1:7001 CLUSTER SETSLOT 5712 MIGRATING <id>"
                       value={(*line).clone()} spellcheck="false" aria-label={t.free_input}
                       oninput={bind_input(&line)}
                       {onkeydown} {onpaste} />
                <button type="button" class="button" data-testid="free-send" {onclick}>{ t.free_send }</button>
            </div>
            { paste_refused }
            if let Some(e) = &*error {
                <p class="lab__error" role="alert" data-testid="free-error">{ match e {
                    FreeError::TooLong(bytes) => fill(
                        t.free_too_long,
                        &[&grouped(*bytes as u64), &grouped(MAX_LINE_BYTES as u64)],
                    ),
                    FreeError::Action(e) => action_error(t, e),
                } }</p>
            }
            if let Some(v) = &*view {
                if !v.arrows.is_empty() {
                    <p class="redir__narration" aria-live="polite">{ v.narrations.last().cloned().unwrap_or_default() }</p>
                    <Sequence lanes={v.lanes.clone()} lane_colours={v.lane_colours.clone()}
                              arrows={v.arrows.clone()} shown={v.arrows.len()} wire={false}
                              states={v.states.clone()} />
                    <ol class="redir__wire" data-testid="free-replies">{ replies }</ol>
                }
            }
        </div>
    }
}
