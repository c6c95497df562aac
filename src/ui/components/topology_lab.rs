//! The topology lab, in three parts mounted once each: its controls beside the map (add a
//! master, reshard, rebalance, move a selected range, undo, redo), and below it the last change
//! (what moved, and the redis-cli commands that would do it) and import/export (paste a real
//! cluster's CLUSTER NODES/SHARDS/SLOTS, export it back).

use crate::core::bus::FailoverTimes;
use crate::core::cluster::import::MAX_INPUT_BYTES;
use crate::core::cluster::lab;
use crate::core::SlotMap;
use crate::ui::clipboard::{use_paste_limit, CopyButton, SHORT_FIELD_BYTES};
use crate::ui::components::master_options::MasterSelect;
use crate::ui::forms::{bind_input, bind_textarea};
use crate::ui::localize::Note;
use crate::ui::messages::{fill, use_messages, Messages};
use crate::ui::state::{Change, ClusterAction as Action};
use std::rc::Rc;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// How many moved ranges the change panel lists before summarising the rest.
const MAX_MOVES_SHOWN: usize = 24;

/// Props of [`LabControls`].
#[derive(Properties, PartialEq)]
pub struct LabControlsProps {
    /// The cluster.
    pub map: Rc<SlotMap>,
    /// Whether undo and redo have something to do.
    pub can_undo: bool,
    /// See `can_undo`.
    pub can_redo: bool,
    /// Why the last action was refused.
    pub error: Option<Note>,
    /// A master whose removal was refused because it owns slots: offer to drain it first.
    pub refused_removal: Option<usize>,
    /// Something to say about the last action.
    pub notice: Option<Note>,
    /// The slots selected on the map.
    pub selection: Option<(u16, u16)>,
    /// Where actions go.
    pub on_action: Callback<Action>,
    /// Clears the map selection.
    pub on_clear_selection: Callback<()>,
}

fn select_value(e: &Event) -> String {
    let el: HtmlSelectElement = e.target_unchecked_into();
    el.value()
}

/// The master indices picked in a multiple select; "all" (or nothing) gives none, meaning all.
fn selected_sources(e: &Event) -> Vec<usize> {
    let el: HtmlSelectElement = e.target_unchecked_into();
    let options = el.selected_options();
    let picked: Vec<String> = (0..options.length())
        .filter_map(|i| options.item(i))
        .filter_map(|o| o.get_attribute("value"))
        .collect();
    if picked.iter().any(|v| v == "all") {
        return Vec::new();
    }
    picked.iter().filter_map(|v| v.parse().ok()).collect()
}

/// The lab's controls, beside the map (below it on a narrow screen), so an operation and its
/// animation are on screen together and the map comes first on a phone.
#[function_component(LabControls)]
pub fn lab_controls(props: &LabControlsProps) -> Html {
    let t = use_messages();
    let map = &props.map;
    let n = map.n_masters();
    // Form fields live here until the reader acts; the reducer validates them.
    let n_slots = use_state(|| "1000".to_string());
    // Source masters by index; empty means all (`--cluster-from all`).
    let sources = use_state(Vec::<usize>::new);
    // Default target: the last master (usually the one just added).
    let target = use_state(|| None::<usize>);
    let target_idx = (*target).filter(|&i| i < n).unwrap_or(n.saturating_sub(1));
    let use_empty = use_state(|| false);
    let threshold = use_state(|| "2".to_string());
    let weights = use_state(String::new);
    let (weights_paste, weights_refused) =
        use_paste_limit(&weights, SHORT_FIELD_BYTES, |t| t.paste_too_long);

    let act = |action: Action| {
        let cb = props.on_action.clone();
        Callback::from(move |_: MouseEvent| cb.emit(action.clone()))
    };
    let on_reshard = {
        let (cb, n_slots, sources) = (props.on_action.clone(), n_slots.clone(), sources.clone());
        Callback::from(move |_: MouseEvent| {
            cb.emit(Action::Reshard {
                from: (*sources).clone(),
                target: target_idx,
                n_slots: (*n_slots).clone(),
            })
        })
    };
    let on_rebalance = {
        let (cb, use_empty, threshold, weights) = (
            props.on_action.clone(),
            use_empty.clone(),
            threshold.clone(),
            weights.clone(),
        );
        Callback::from(move |_: MouseEvent| {
            cb.emit(Action::Rebalance {
                use_empty_masters: *use_empty,
                threshold: (*threshold).clone(),
                weights: (*weights).clone(),
            })
        })
    };
    let on_move_selection = {
        let (cb, clear) = (props.on_action.clone(), props.on_clear_selection.clone());
        let selection = props.selection;
        Callback::from(move |_: MouseEvent| {
            if let Some((first, last)) = selection {
                cb.emit(Action::MoveRange {
                    first,
                    last,
                    target: target_idx,
                });
                clear.emit(());
            }
        })
    };
    html! {
        <section class="lab" aria-labelledby="lab-title">
            <h3 id="lab-title" class="lab__title">{ t.lab_title }</h3>
            <p class="section-help">{ t.lab_help }</p>

            <div class="lab__row">
                <button type="button" class="button" data-testid="add-master" onclick={act(Action::AddMaster)}>{ t.lab_add_master }</button>
                <button type="button" class="button button--quiet" data-testid="undo"
                        disabled={!props.can_undo} onclick={act(Action::Undo)}>{ t.lab_undo }</button>
                <button type="button" class="button button--quiet" data-testid="redo"
                        disabled={!props.can_redo} onclick={act(Action::Redo)}>{ t.lab_redo }</button>
            </div>

            <div class="lab__row lab__form">
                // Each label stays on the line of its field when the row wraps.
                <span class="lab__pair">
                <label for="reshard-n">{ t.lab_reshard }</label>
                <input id="reshard-n" class="lab__number" type="number" min="1" max="16384"
                       data-testid="reshard-slots" value={(*n_slots).clone()}
                       oninput={bind_input(&n_slots)} />
                </span>
                <span class="lab__pair">
                <label for="reshard-from">{ t.lab_from }</label>
                <MasterSelect id="reshard-from" testid="reshard-from" all={t.lab_all_masters}
                        title={t.lab_from_help} map={map.clone()} selected={Rc::<[usize]>::from(sources.as_slice())}
                        onchange={ let s = sources.clone(); Callback::from(move |e: Event| s.set(selected_sources(&e))) } />
                </span>
                <span class="lab__pair">
                <label for="reshard-to">{ t.lab_to }</label>
                <MasterSelect id="reshard-to" testid="reshard-to" map={map.clone()} selected={Rc::<[usize]>::from([target_idx])}
                        onchange={ let s = target.clone(); Callback::from(move |e: Event| s.set(select_value(&e).parse().ok())) } />
                </span>
                <button type="button" class="button" data-testid="reshard" onclick={on_reshard}>{ t.lab_reshard_go }</button>
            </div>

            <div class="lab__row lab__form">
                <button type="button" class="button" data-testid="rebalance" onclick={on_rebalance}>{ t.lab_rebalance }</button>
                <label class="lab__check">
                    <input type="checkbox" data-testid="use-empty-masters" checked={*use_empty}
                           onchange={ let s = use_empty.clone(); Callback::from(move |_: Event| s.set(!*s)) } />
                    { " " }{ t.lab_use_empty }
                </label>
                <span class="lab__pair">
                <label for="threshold">{ t.lab_threshold }</label>
                <input id="threshold" class="lab__number" type="number" min="0" step="0.5"
                       value={(*threshold).clone()}
                       oninput={bind_input(&threshold)} />
                <span>{ "%" }</span>
                </span>
                <span class="lab__pair">
                <label for="weights">{ t.lab_weights }</label>
                <input id="weights" class="lab__weights mono" type="text" data-testid="weights"
                       placeholder="127.0.0.1:7000=2" value={(*weights).clone()}
                       oninput={bind_input(&weights)} onpaste={weights_paste} />
                </span>
            </div>
            { weights_refused }

            if let Some((first, last)) = props.selection {
                <div class="lab__row lab__selection" data-testid="selection">
                    <span>{ fill(t.lab_selected, &[&first, &last, &(last - first + 1)]) }</span>
                    <label for="move-to">{ t.lab_to }</label>
                    <MasterSelect id="move-to" map={map.clone()} selected={Rc::<[usize]>::from([target_idx])}
                            onchange={ let s = target.clone(); Callback::from(move |e: Event| s.set(select_value(&e).parse().ok())) } />
                    <button type="button" class="button" data-testid="move-selection" onclick={on_move_selection}>{ t.lab_move }</button>
                    <button type="button" class="button button--quiet"
                            onclick={ let c = props.on_clear_selection.clone(); Callback::from(move |_: MouseEvent| c.emit(())) }>
                        { t.lab_clear }
                    </button>
                </div>
            } else {
                // nav-phone: the row keeps its place while nothing is selected, so a drag that
                // starts a selection moves nothing on the page.
                <div class="lab__row lab__selection lab__selection--idle">
                    <span>{ t.lab_select_hint }</span>
                </div>
            }

            <div aria-live="polite">
                if let Some(err) = &props.error {
                    <p class="lab__error" role="alert" data-testid="topology-error">
                        { err.text(t) }
                        if let Some(idx) = props.refused_removal {
                            { " " }
                            <button type="button" class="button button--quiet" data-testid="drain-and-remove"
                                    onclick={act(Action::DrainAndRemove(idx))}>{ t.lab_drain }</button>
                        }
                    </p>
                }
                if let Some(notice) = &props.notice {
                    if let Note::RedisCli { lines, empty_masters_hint } = notice {
                        // What redis-cli printed is quoted as it printed it; only the hint is prose.
                        <div class="lab__notice" data-testid="topology-notice">
                            if !lines.is_empty() {
                                <pre class="mono lab__cli">{ lines.join("\n") }</pre>
                            }
                            if *empty_masters_hint { <p>{ t.hint_empty_masters }</p> }
                        </div>
                    } else {
                        <p class="lab__notice" data-testid="topology-notice">{ notice.text(t) }</p>
                    }
                }
            </div>

        </section>
    }
}

/// Props of [`LastChange`].
#[derive(Properties, PartialEq)]
pub struct LastChangeProps {
    /// The cluster now (names masters the change added).
    pub map: Rc<SlotMap>,
    /// The last change, if any.
    pub change: Option<Rc<Change>>,
}

/// What the last change moved, and the redis-cli commands that would do it.
#[function_component(LastChange)]
pub fn last_change(props: &LastChangeProps) -> Html {
    let t = use_messages();
    let show_commands = use_state(|| false);
    let Some(c) = &props.change else {
        return Html::default();
    };
    let map = &props.map;
    let addr = |id: &Option<String>| -> String {
        match id {
            None => t.unowned.to_string(),
            // A removed master is only in `before`; an added one only in the current map.
            Some(id) => c
                .before
                .addr_of_id(id)
                .map_or_else(|| map.name_of_id(id), str::to_owned),
        }
    };
    let lines = c.moves.iter().take(MAX_MOVES_SHOWN).map(|m| {
        html! {
            <li class="mono">
                { addr(&m.from) }{ " → " }{ addr(&m.to) }{ ": " }{ m.range.to_string() }
                { format!(" ({})", m.range.len()) }
            </li>
        }
    });
    let more = c.moves.len().saturating_sub(MAX_MOVES_SHOWN);
    let toggle = {
        let show = show_commands.clone();
        Callback::from(move |_: MouseEvent| show.set(!*show))
    };
    html! {
        <div class="lab__change" data-testid="last-change">
            <h4 class="lab__subtitle">{ c.label.text(t) }{ " · " }{
                // map18: a new cluster moved nothing; it is not "0 slots moved" of a reshard.
                if c.replaced { t.lab_new_cluster.to_string() } else { fill(t.lab_moved, &[&c.n_slots()]) }
            }</h4>
            if !c.moves.is_empty() {
                <ul class="lab__moves">{ for lines }</ul>
                if more > 0 { <p class="lab__more">{ fill(t.lab_more_moves, &[&more]) }</p> }
            }
            // bus-engine: how long the failover shown at once really takes.
            if let Some(text) = real_failover_text(t, &c.label) {
                <p class="lab__notice" data-testid="lab-real-failover">{ text }</p>
            }
            if !c.commands.is_empty() {
                <button type="button" class="link-button" aria-expanded={show_commands.to_string()}
                        onclick={toggle}>{ t.lab_show_commands }</button>
                if *show_commands {
                    <textarea class="lab__commands mono" readonly=true rows="6"
                              data-testid="change-commands" value={c.commands.join("\n")}
                              aria-label={t.lab_commands_label} />
                    <CopyButton text={c.commands.join("\n")} />
                }
            }
        </div>
    }
}

/// After a failover, how long a real one takes (measured on the bus simulator with the lab's
/// `cluster-node-timeout`), in seconds with one decimal.
fn real_failover_text(t: &Messages, label: &Note) -> Option<String> {
    if !matches!(label, Note::Promoted { .. }) {
        return None;
    }
    // One simulated run (a few ms), the first time a failover is shown.
    static REAL: std::sync::OnceLock<FailoverTimes> = std::sync::OnceLock::new();
    let times = *REAL.get_or_init(|| lab::real_failover_time(lab::NODE_TIMEOUT_MS));
    let s = |ms: Option<u64>| {
        ms.map_or_else(|| "?".to_owned(), |ms| format!("{:.1}", ms as f64 / 1000.0))
    };
    Some(fill(
        t.lab_real_failover,
        &[
            &s(Some(times.node_timeout)),
            &s(times.pfail_ms),
            &s(times.fail_ms),
            &s(times.promoted_ms),
        ],
    ))
}

/// Props of [`LabImport`].
#[derive(Properties, PartialEq)]
pub struct LabImportProps {
    /// The cluster (what Export writes).
    pub map: Rc<SlotMap>,
    /// Where the import goes.
    pub on_action: Callback<Action>,
    /// Why the last paste was refused, if it was.
    pub error: Option<Note>,
    /// What the last import noticed (overlaps, uncovered slots, orphan replicas).
    pub notice: Option<Note>,
}

/// Import a pasted CLUSTER NODES / SHARDS / SLOTS output, or export the cluster as CLUSTER NODES.
#[function_component(LabImport)]
pub fn lab_import(props: &LabImportProps) -> Html {
    let t = use_messages();
    let paste = use_state(String::new);
    let export = use_state(|| None::<String>);
    let on_import = {
        let (cb, paste) = (props.on_action.clone(), paste.clone());
        Callback::from(move |_: MouseEvent| cb.emit(Action::Import((*paste).clone())))
    };
    // A paste that would make the text longer than the import reads is refused before the
    // field holds it (10 MB took seconds to lay out), and said so under it.
    let (on_paste, paste_refused) =
        use_paste_limit(&paste, MAX_INPUT_BYTES, |t| t.imp_paste_too_large);
    let on_export = {
        let (export, map) = (export.clone(), props.map.clone());
        Callback::from(move |_: MouseEvent| {
            export.set(match *export {
                Some(_) => None,
                None => Some(crate::core::cluster::export::export_nodes(&map)),
            })
        })
    };
    html! {
        <details class="lab__import">
            <summary>{ t.lab_import_title }</summary>
            <p class="section-help">{ t.lab_import_help }</p>
            <textarea class="lab__paste mono" rows="8" data-testid="topology-input"
                      placeholder={t.lab_import_placeholder} value={(*paste).clone()}
                      oninput={bind_textarea(&paste)} onpaste={on_paste} />
            { paste_refused }
            <div class="lab__row">
                <button type="button" class="button" data-testid="topology-apply" onclick={on_import}>{ t.lab_import_go }</button>
                <button type="button" class="button button--quiet" data-testid="topology-export" onclick={on_export}>
                    { if export.is_some() { t.lab_export_hide } else { t.lab_export } }
                </button>
            </div>
            <div aria-live="polite">
                if let Some(err) = &props.error {
                    <p class="lab__error" role="alert" data-testid="topology-error">{ err.text(t) }</p>
                }
                if let Some(notice) = &props.notice {
                    <p class="lab__notice" data-testid="topology-notice">{ notice.text(t) }</p>
                }
            </div>
            if let Some(text) = &*export {
                <textarea class="lab__paste mono" rows="8" readonly=true data-testid="topology-export-text" value={text.clone()} />
                <CopyButton text={text.clone()} />
            }
        </details>
    }
}
