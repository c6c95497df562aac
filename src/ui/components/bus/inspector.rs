//! One node's view at the instant shown: its role, epochs, process and cluster state, what it
//! does to the others (crash, hang, resume, restart, cut off, `CLUSTER FAILOVER` with Redis's
//! reply), and `CLUSTER NODES` / `CLUSTER INFO` as it answers now (copy; open in the lab).

use super::matrix::TABLE_UP_TO;
use super::model::{config_epoch, mode_code, opinion, opinion_code};
use super::{BusMsg, RunHandle};
use crate::core::bus::scenario::Action as Act;
use crate::core::bus::{FailoverMode, Opinion, Process};
use crate::ui::bus_words::{failover_command, process_word, use_bus_words};
use crate::ui::clipboard::CopyButton;
use crate::ui::messages::fill;
use crate::ui::state::ClusterAction;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// Props of [`BusInspector`].
#[derive(Properties, PartialEq)]
pub struct BusInspectorProps {
    /// The run.
    pub run: RunHandle,
    /// The instant.
    pub t: u64,
    /// Whose view.
    pub observer: u32,
    /// Actions on nodes, and the observer's choice.
    pub on_msg: Callback<BusMsg>,
    /// The topology lab's actions.
    pub on_action: Callback<ClusterAction>,
}

/// The inspector: what the observer's view holds at the instant, computed each time the
/// instant moves; each part below renders only when its own piece of it changes.
#[function_component(BusInspector)]
pub fn bus_inspector(props: &BusInspectorProps) -> Html {
    let w = use_bus_words();
    let r = props.run.run.borrow();
    let sim = r.cursor();
    let obs = props.observer;
    let Some(node) = sim.nodes.get(obs as usize) else {
        return Html::default();
    };
    let port = node.port;
    // A killed process refuses the connection (redis-cli's own words); a stopped one never
    // answers.
    let (nodes_text, info_text) = match node.process {
        Process::Running => (sim.cluster_nodes(obs), sim.cluster_info(obs)),
        Process::Crashed => {
            let refused = format!(
                "Could not connect to Redis at 127.0.0.1:{}: Connection refused",
                node.port
            );
            (refused.clone(), refused)
        }
        Process::Hung => (w.no_answer.to_string(), w.no_answer.to_string()),
    };
    let master = node.is_master();
    let facts = Facts {
        port,
        master,
        master_of: node
            .my_master()
            .filter(|_| !master)
            .and_then(|m| sim.nodes.get(m as usize))
            .map(|m| m.port),
        epoch: config_epoch(sim, obs),
        current_epoch: node.current_epoch,
        process: node.process,
        state_ok: node.state_ok,
    };
    let process = node.process;
    let reply = r
        .replies
        .iter()
        .rev()
        .find(|x| x.t <= props.t && x.t + 5000 >= props.t)
        .map(|x| {
            let who = sim.nodes.get(x.node as usize).map_or(0, |n| n.port);
            let text = match &x.result {
                Ok(()) => "OK".to_string(),
                Err(e) => format!("(error) {e}"),
            };
            (
                format!("127.0.0.1:{who}> {}", failover_command(x.mode)),
                text,
            )
        });
    let n = sim.nodes.len();
    // Above the table's size, the observer's opinions that are not "ok" carry the hooks.
    let doubts: Vec<(u16, Opinion, usize)> = if n > TABLE_UP_TO {
        (0..n as u32)
            .filter(|j| *j != obs)
            .filter_map(|j| opinion(sim, obs, j).map(|o| (j, o)))
            .filter(|(_, (op, _))| *op != Opinion::Ok)
            .take(200)
            .map(|(j, (op, reports))| {
                let subject = sim.nodes.get(j as usize).map_or(0, |x| x.port);
                (subject, op, reports)
            })
            .collect()
    } else {
        Vec::new()
    };
    let ports: Vec<u16> = sim.nodes.iter().map(|x| x.port).collect();
    drop(r);
    html! {
        <div class="bus__inspector">
            <ObserverSelect ports={ports} observer={obs} on_msg={props.on_msg.clone()} />
            <InspectorFacts facts={facts} />
            <InspectorActions port={port} observer={obs} process={process} reply={reply}
                              on_msg={props.on_msg.clone()} />
            if !doubts.is_empty() {
                <InspectorDoubts port={port} doubts={doubts} />
            }
            <InspectorTexts nodes_text={nodes_text} info_text={info_text} on_action={props.on_action.clone()} />
        </div>
    }
}

/// Props of [`ObserverSelect`].
#[derive(Properties, PartialEq)]
struct ObserverSelectProps {
    ports: Vec<u16>,
    observer: u32,
    on_msg: Callback<BusMsg>,
}

/// Whose view is shown.
#[function_component(ObserverSelect)]
fn observer_select(props: &ObserverSelectProps) -> Html {
    let w = use_bus_words();
    let obs = props.observer;
    let options = props.ports.iter().enumerate().map(|(i, port)| {
        html! { <option value={i.to_string()} selected={i as u32 == obs}>{ format!("127.0.0.1:{port}") }</option> }
    });
    let on_observer = {
        let on = props.on_msg.clone();
        Callback::from(move |e: Event| {
            if let Ok(i) = e
                .target_unchecked_into::<HtmlSelectElement>()
                .value()
                .parse::<u32>()
            {
                on.emit(BusMsg::Observe(i));
            }
        })
    };
    html! {
        <div class="lab__row lab__form">
            <label for="bus-observer">{ w.observer }</label>
            <select id="bus-observer" data-testid="bus-observer" onchange={on_observer}>{ for options }</select>
        </div>
    }
}

/// The observer's own facts.
#[derive(Clone, Debug, PartialEq)]
struct Facts {
    port: u16,
    master: bool,
    master_of: Option<u16>,
    epoch: u64,
    current_epoch: u64,
    process: Process,
    state_ok: bool,
}

/// Props of [`InspectorFacts`].
#[derive(Properties, PartialEq)]
struct InspectorFactsProps {
    facts: Facts,
}

/// Role, epochs, process and cluster state of the observer.
#[function_component(InspectorFacts)]
fn inspector_facts(props: &InspectorFactsProps) -> Html {
    let w = use_bus_words();
    let f = &props.facts;
    let master_of = f.master_of.map(|p| format!("127.0.0.1:{p}"));
    html! {
        <>
            <p class="bus__facts">
                <strong class="mono">{ format!("127.0.0.1:{}", f.port) }</strong>{ " · " }
                { if f.master { w.roles[0].to_string() } else { format!("{} → {}", w.roles[1], master_of.unwrap_or_default()) } }
                { " · " }{ fill(w.epoch, &[&f.epoch]) }
                { " · " }<span class="mono">{ format!("currentEpoch {}", f.current_epoch) }</span>
                { " · " }{ process_word(w, f.process) }
                // A process that does not answer has no state to tell.
                if f.process == Process::Running {
                    { " · " }<span class="mono">{ if f.state_ok { "cluster_state:ok" } else { "cluster_state:fail" } }</span>
                }
            </p>
            <p class="section-help">{ w.pick_node }</p>
        </>
    }
}

/// Props of [`InspectorActions`].
#[derive(Properties, PartialEq)]
struct InspectorActionsProps {
    port: u16,
    observer: u32,
    process: Process,
    /// The last `CLUSTER FAILOVER` of the past 5 s: the command line and the reply.
    reply: Option<(String, String)>,
    on_msg: Callback<BusMsg>,
}

/// What the reader can do to the observer.
#[function_component(InspectorActions)]
fn inspector_actions(props: &InspectorActionsProps) -> Html {
    let w = use_bus_words();
    let obs = props.observer;
    let addr = format!("127.0.0.1:{}", props.port);
    let process = props.process;
    let act = |a: Act| {
        let on = props.on_msg.clone();
        Callback::from(move |_: MouseEvent| on.emit(BusMsg::Act(a)))
    };
    let running = process == Process::Running;
    let failover = |mode: FailoverMode, label: &'static str| {
        html! {
            <button type="button" class="button button--quiet mono" data-testid="bus-failover"
                    data-mode={mode_code(mode)} data-node={addr.clone()}
                    onclick={act(Act::Failover(obs, mode))}>{ label }</button>
        }
    };
    html! {
        <fieldset class="bus__actions">
            <legend>{ fill(w.actions_on, &[&addr]) }</legend>
            <button type="button" class="button button--quiet" data-testid="bus-crash" data-node={addr.clone()}
                    disabled={process == Process::Crashed} onclick={act(Act::Crash(obs))}>{ w.crash }</button>
            <button type="button" class="button button--quiet" data-testid="bus-hang" data-node={addr.clone()}
                    disabled={!running} onclick={act(Act::Hang(obs))}>{ w.hang }</button>
            <button type="button" class="button button--quiet" data-testid="bus-resume" data-node={addr.clone()}
                    disabled={process != Process::Hung} onclick={act(Act::Resume(obs))}>{ w.resume }</button>
            <button type="button" class="button button--quiet" data-testid="bus-restart" data-node={addr.clone()}
                    disabled={process != Process::Crashed} onclick={act(Act::Restart(obs))}>{ w.restart }</button>
            <button type="button" class="button button--quiet" data-testid="bus-cut" data-node={addr.clone()}
                    onclick={act(Act::Isolate(obs))}>{ w.isolate }</button>
            <button type="button" class="button button--quiet" data-testid="bus-heal"
                    onclick={act(Act::Heal)}>{ w.reconnect }</button>
            { failover(FailoverMode::Default, "CLUSTER FAILOVER") }
            { failover(FailoverMode::Force, "FORCE") }
            { failover(FailoverMode::Takeover, "TAKEOVER") }
            if let Some((cmd, text)) = props.reply.clone() {
                <pre class="bus__reply mono" data-testid="bus-reply" aria-live="polite">{ format!("{cmd}\n{text}") }</pre>
            }
        </fieldset>
    }
}

/// Props of [`InspectorDoubts`].
#[derive(Properties, PartialEq)]
struct InspectorDoubtsProps {
    port: u16,
    /// (subject's port, opinion, failure reports), the first 200 not "ok".
    doubts: Vec<(u16, Opinion, usize)>,
}

/// Above the table's size: the observer's opinions that are not "ok".
#[function_component(InspectorDoubts)]
fn inspector_doubts(props: &InspectorDoubtsProps) -> Html {
    let w = use_bus_words();
    let addr = format!("127.0.0.1:{}", props.port);
    html! {
        <ul class="bus__doubts">
            { for props.doubts.iter().map(|&(subject, op, reports)| html! {
                <li class={classes!("bus__cell", format!("bus__cell--{}", opinion_code(op)))} data-testid="bus-opinion"
                    data-observer={addr.clone()} data-subject={format!("127.0.0.1:{subject}")}
                    data-flag={opinion_code(op)} data-reports={reports.to_string()}>
                    { format!(":{subject} {} ", super::circle::opinion_glyph(op)) }{ fill(w.reports, &[&reports]) }
                </li>
            }) }
        </ul>
    }
}

/// Props of [`InspectorTexts`].
#[derive(Properties, PartialEq)]
struct InspectorTextsProps {
    nodes_text: String,
    info_text: String,
    on_action: Callback<ClusterAction>,
}

/// `CLUSTER NODES` and `CLUSTER INFO` as the observer answers now.
#[function_component(InspectorTexts)]
fn inspector_texts(props: &InspectorTextsProps) -> Html {
    let w = use_bus_words();
    let open_lab = {
        let (on, text) = (props.on_action.clone(), props.nodes_text.clone());
        Callback::from(move |_: MouseEvent| {
            on.emit(ClusterAction::Import(text.clone()));
            if let Some(el) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id("map-title"))
            {
                el.scroll_into_view();
            }
        })
    };
    html! {
        <>
            <h3 class="lab__title mono">{ "CLUSTER NODES" }</h3>
            <pre class="bus__text mono" data-testid="bus-cluster-nodes" tabindex="0">{ props.nodes_text.clone() }</pre>
            <div class="lab__row">
                <CopyButton text={AttrValue::from(props.nodes_text.clone())} />
                <button type="button" class="button button--quiet button--small" data-testid="bus-open-lab"
                        onclick={open_lab}>{ w.open_lab }</button>
            </div>
            <h3 class="lab__title mono">{ "CLUSTER INFO" }</h3>
            <pre class="bus__text mono" data-testid="bus-cluster-info" tabindex="0">{ props.info_text.replace("\r\n", "\n") }</pre>
            <CopyButton text={AttrValue::from(props.info_text.clone())} />
        </>
    }
}
