//! The cluster bus's logs of the run up to the instant shown (cluster.c's lines; replication's
//! own are not simulated), each line exactly as redis-server writes it,
//! filtered by node and by level (the last lines kept on screen, the pane following the end).

use super::RunHandle;
use crate::ui::bus_words::use_bus_words;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// The most lines on screen (the latest ones).
const SHOWN: usize = 300;

/// Props of [`BusLogs`].
#[derive(Properties, PartialEq)]
pub struct BusLogsProps {
    /// The run.
    pub run: RunHandle,
    /// Log lines of the timeline at or before the instant.
    pub upto: usize,
}

/// Whether a line of level `c` passes filter `min` (0 all, 1 notice and warnings, 2 warnings).
fn passes(c: char, min: u8) -> bool {
    match min {
        0 => true,
        1 => c == '*' || c == '#',
        _ => c == '#',
    }
}

/// The pane.
#[function_component(BusLogs)]
pub fn bus_logs(props: &BusLogsProps) -> Html {
    let w = use_bus_words();
    let node = use_state(|| None::<u32>);
    let level = use_state(|| 1u8);
    // Like `tail -f`: the pane follows its last line, unless the reader has scrolled up to
    // read (then it stays where they are until they come back to the end).
    let list = use_node_ref();
    let following = use_mut_ref(|| true);
    {
        let (list, following) = (list.clone(), following.clone());
        use_effect_with((props.upto, *node, *level), move |_| {
            if *following.borrow()
                && let Some(el) = list.cast::<web_sys::Element>()
            {
                el.set_scroll_top(el.scroll_height());
            }
        });
    }
    let on_scroll = {
        let following = following.clone();
        Callback::from(move |e: Event| {
            let el: web_sys::Element = e.target_unchecked_into();
            *following.borrow_mut() =
                el.scroll_top() + el.client_height() >= el.scroll_height() - 4;
        })
    };
    let r = props.run.run.borrow();
    let sim = r.full();
    let logs = sim.logs.get(r.log0..).unwrap_or(&[]);
    let upto = props.upto.min(logs.len());
    let start_ms = sim.cfg.start_unix_ms;
    // Keyed by the line's place in the log: when a line arrives and the oldest leaves, the
    // others keep their elements (not 300 texts rewritten).
    let mut lines: Vec<Html> = logs[..upto]
        .iter()
        .enumerate()
        .rev()
        .filter(|(_, l)| node.is_none_or(|n| n == l.node) && passes(l.level, *level))
        .take(SHOWN)
        .map(|(k, l)| {
            let port = sim.nodes.get(l.node as usize).map_or(0, |n| n.port);
            html! {
                <li key={k} class={classes!("bus__log", (l.level == '#').then_some("bus__log--warn"))}
                    data-testid="bus-log-line" data-node={format!("127.0.0.1:{port}")}>{ l.format(start_ms) }</li>
            }
        })
        .collect();
    lines.reverse();
    let options: Vec<Html> = sim
        .nodes
        .iter()
        .enumerate()
        .map(|(i, x)| html! { <option value={i.to_string()} selected={*node == Some(i as u32)}>{ format!("127.0.0.1:{}", x.port) }</option> })
        .collect();
    drop(r);
    let on_node = {
        let node = node.clone();
        Callback::from(move |e: Event| {
            node.set(
                e.target_unchecked_into::<HtmlSelectElement>()
                    .value()
                    .parse::<u32>()
                    .ok(),
            )
        })
    };
    let on_level = {
        let level = level.clone();
        Callback::from(move |e: Event| {
            level.set(
                e.target_unchecked_into::<HtmlSelectElement>()
                    .value()
                    .parse::<u8>()
                    .unwrap_or(0)
                    .min(2),
            )
        })
    };
    let empty = lines.is_empty();
    html! {
        <div class="bus__logs">
            <h3 class="lab__title">{ w.log_title }</h3>
            <div class="lab__row lab__form">
                <select data-testid="bus-log-node" aria-label={w.log_title} onchange={on_node}>
                    <option value="all" selected={node.is_none()}>{ w.all_nodes }</option>
                    { for options }
                </select>
                <span class="lab__pair">
                <label for="bus-log-level">{ w.level }</label>
                <select id="bus-log-level" data-testid="bus-log-level" onchange={on_level}>
                    { for w.levels.iter().enumerate().map(|(i, l)| html! {
                        <option value={i.to_string()} selected={*level as usize == i}>{ *l }</option>
                    }) }
                </select>
                </span>
            </div>
            <ol ref={list} class="bus__log-lines mono" tabindex="0" aria-live="off" onscroll={on_scroll}>
                { for lines }
            </ol>
            if empty {
                <p class="section-help">{ w.no_lines }</p>
            }
        </div>
    }
}
