//! The nodes on a circle (SVG): each node's role, config epoch, process and election, the
//! chosen observer's opinion of every other node, and the messages in flight on the chords —
//! each type its own shape and label, not its colour alone.

use super::model::{config_epoch, opinion, process_code, shard_of};
use super::{BusMsg, RunHandle, SPEEDS};
use crate::core::bus::{EventKind, MsgType, Opinion, Process};
use crate::ui::bus_words::{msg_label, process_word, use_bus_words};
use crate::ui::messages::fill;
use crate::ui::palette::master_colour;
use yew::prelude::*;

/// The circle's radius in the SVG's units (the view box is 500 wide).
const R: f64 = 150.0;
/// How long a message is drawn on its chord, in wall milliseconds.
const FLIGHT_WALL_MS: f64 = 450.0;
/// At most this many messages are drawn at once.
const MAX_DRAWN: usize = 120;

/// Above 1×, one ping or pong in this many is drawn (each drawn message still crosses its
/// chord in [`FLIGHT_WALL_MS`]); every other type always is. At 20× every message drawn would
/// put about 500 on six nodes' chords, capped to the newest 120 that vanished a fifth of the
/// way along, and their layout and paint took the frame (12 fps). Sampling keeps the density
/// of 1×.
pub fn ping_sample(rate: f64) -> u64 {
    if rate > 1.0 {
        rate.ceil() as u64
    } else {
        1
    }
}

/// Is the event at absolute index `i` among the pings and pongs drawn, one in `every`? A
/// hash of the index, so the choice is stable from frame to frame and follows no stride.
fn drawn(i: usize, every: u64) -> bool {
    every <= 1 || ((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40).is_multiple_of(every)
}

/// Props of [`BusCircle`].
#[derive(Properties, PartialEq)]
pub struct BusCircleProps {
    /// The run.
    pub run: RunHandle,
    /// The instant.
    pub t: u64,
    /// Index into [`SPEEDS`] (a message is drawn for the same wall time at every speed).
    pub speed: usize,
    /// Whose opinions are drawn.
    pub observer: u32,
    /// Clicks on nodes.
    pub on_msg: Callback<BusMsg>,
}

fn pos(i: usize, n: usize) -> (f64, f64) {
    let a = -std::f64::consts::FRAC_PI_2 + std::f64::consts::TAU * i as f64 / n.max(1) as f64;
    (R * a.cos(), R * a.sin())
}

/// The shape of a message type: an SVG path around (0, 0), about 11 units across, and whether
/// it is drawn as an outline. Paths, not glyphs: a glyph is text, and SVG text is laid out
/// and shaped (with font fallback for ◆ ⬢ ★) each time a message appears, which at 20× took
/// most of a frame.
fn shape(m: MsgType) -> (&'static str, bool) {
    match m {
        // ● and ○
        MsgType::Ping => ("M0 -4.5A4.5 4.5 0 1 0 0 4.5A4.5 4.5 0 1 0 0 -4.5Z", false),
        MsgType::Pong => ("M0 -4A4 4 0 1 0 0 4A4 4 0 1 0 0 -4Z", true),
        // ◆
        MsgType::Meet => ("M0 -5.5L5.5 0L0 5.5L-5.5 0Z", false),
        // ▲
        MsgType::Fail => ("M0 -5.5L5.5 4.5L-5.5 4.5Z", false),
        // ■
        MsgType::FailoverAuthRequest => ("M-4.5 -4.5H4.5V4.5H-4.5Z", false),
        // ✔
        MsgType::FailoverAuthAck => ("M-4.5 0.5L-1.5 3.5L4.5 -3.5", true),
        // ⬢
        MsgType::Update => (
            "M0 -5.2L4.5 -2.6L4.5 2.6L0 5.2L-4.5 2.6L-4.5 -2.6Z",
            false,
        ),
        // ★
        MsgType::MfStart => (
            "M0 -5.8L1.4 -1.9L5.5 -1.8L2.3 0.7L3.4 4.7L0 2.4L-3.4 4.7L-2.3 0.7L-5.5 -1.8L-1.4 -1.9Z",
            false,
        ),
    }
}

/// A message type's shape as a path element (class `bus__msg-shape`).
fn shape_path(m: MsgType) -> Html {
    let (d, outline) = shape(m);
    html! {
        <path class={classes!("bus__msg-shape", outline.then_some("bus__msg-shape--outline"))} d={d} />
    }
}

/// The glyph of an opinion.
pub fn opinion_glyph(o: Opinion) -> &'static str {
    match o {
        Opinion::Ok => "✓",
        Opinion::Pfail => "?",
        Opinion::Fail => "✕",
    }
}

/// The chords between every pair of nodes (up to 30): rendered once per cluster size.
#[derive(Properties, PartialEq)]
pub struct BusChordsProps {
    /// Nodes on the circle.
    pub n: usize,
}

/// The chords.
#[function_component(BusChords)]
pub fn bus_chords(props: &BusChordsProps) -> Html {
    let n = props.n;
    let mut out = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let (a, b) = (pos(i, n), pos(j, n));
            out.push(html! { <line class="bus__chord" x1={format!("{:.1}", a.0)} y1={format!("{:.1}", a.1)}
                                   x2={format!("{:.1}", b.0)} y2={format!("{:.1}", b.1)} /> });
        }
    }
    html! { <g class="bus__chords">{ for out }</g> }
}

/// Props of [`BusShapes`].
#[derive(Properties, PartialEq)]
pub struct BusShapesProps {
    /// Messages are not drawn (too many nodes): say so.
    pub quiet: bool,
    /// One ping or pong in this many is drawn (the speed is above 1×): say so.
    pub sampled: Option<u64>,
}

/// The legend of message shapes under the circle.
#[function_component(BusShapes)]
pub fn bus_shapes(props: &BusShapesProps) -> Html {
    let w = use_bus_words();
    let note = props
        .quiet
        .then(|| fill(w.no_messages, &[&super::model::DRAW_MESSAGES_UP_TO]));
    html! {
        <figcaption class="bus__shapes">
            { for [MsgType::Ping, MsgType::Pong, MsgType::Meet, MsgType::Fail, MsgType::FailoverAuthRequest,
                   MsgType::FailoverAuthAck, MsgType::Update, MsgType::MfStart].into_iter().map(|m| html! {
                <span class={classes!("bus__shape", format!("bus__msg--{}", msg_label(m)))}>
                    <svg class="bus__shape-icon" viewBox="-7 -7 14 14" aria-hidden="true">{ shape_path(m) }</svg>{ " " }<span class="mono">{ msg_label(m) }</span>
                </span>
            }) }
            if let Some(note) = note {
                <span class="section-help">{ note }</span>
            }
            if let Some(every) = props.sampled {
                <span class="section-help" data-testid="bus-sampled" data-every={every.to_string()}>{ fill(w.sampled, &[&every]) }</span>
            }
        </figcaption>
    }
}

/// The circle: the messages in flight follow the clock every frame; the chords, the nodes and
/// the legend are parts of their own that render only when what they show changes.
#[function_component(BusCircle)]
pub fn bus_circle(props: &BusCircleProps) -> Html {
    let w = use_bus_words();
    let r = props.run.run.borrow();
    let sim = r.cursor();
    let n = sim.nodes.len();
    let t = props.t;
    let big = n > 30;
    let obs = props.observer;
    let events = r.events();
    let upto = events.partition_point(|e| e.t <= t);
    // Messages in flight: sent at or before t, drawn for a fixed wall time (or their latency).
    let rate = SPEEDS.get(props.speed).copied().unwrap_or(1.0);
    let shown_ms = (FLIGHT_WALL_MS * rate).max(1.0) as u64;
    let every = ping_sample(rate);
    let lookback = shown_ms.max(50);
    let first = events.partition_point(|e| e.t.saturating_add(lookback) < t);
    let mut flights = Vec::new();
    // Where labels are drawn: a message whose label would overprint one of them (two messages
    // crossing, "update" over "ping") is drawn without its label.
    let mut labelled: Vec<(f64, f64)> = Vec::new();
    // Keyed by the event: as the clock moves, a message keeps its element and only its
    // position is written (unkeyed, every element took its neighbour's type and text).
    for (k, e) in events[first..upto].iter().enumerate().rev() {
        if flights.len() >= MAX_DRAWN {
            break;
        }
        if let EventKind::Sent {
            msg,
            from,
            to,
            arrives,
            ..
        } = e.kind
        {
            if matches!(msg, MsgType::Ping | MsgType::Pong) && !drawn(first + k, every) {
                continue;
            }
            let dur = arrives.map_or(shown_ms, |a| a.saturating_sub(e.t).max(shown_ms));
            if t >= e.t + dur {
                continue;
            }
            let f = (t - e.t) as f64 / dur.max(1) as f64;
            let (a, b) = (pos(from as usize, n), pos(to as usize, n));
            let (x, y) = (a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f);
            let label = msg_label(msg);
            // Labels only mid-chord (near the nodes they would pile up), pings and pongs only
            // on a small circle.
            let quiet = (matches!(msg, MsgType::Ping | MsgType::Pong) && n > 8)
                || !(0.2..=0.8).contains(&f)
                || labelled
                    .iter()
                    .any(|(lx, ly)| (lx - x).abs() < 44.0 && (ly - y).abs() < 16.0);
            if !quiet {
                labelled.push((x, y));
            }
            flights.push(html! {
                <g key={first + k} class={classes!("bus__msg", format!("bus__msg--{label}"), arrives.is_none().then_some("bus__msg--lost"))}
                   data-testid="bus-message" data-type={label}
                   transform={format!("translate({x:.1} {y:.1})")}>
                    { shape_path(msg) }
                    if !quiet {
                        <text class="bus__msg-label" x="9" dy="-0.4em">{ label }</text>
                    }
                </g>
            });
        }
    }
    let nodes = node_views(&r, t, obs);
    let quiet = !r.full().cfg.record_messages || big;
    let masters = usize::from(r.knobs.masters);
    drop(r);
    html! {
        <figure class="bus__circle">
            <svg viewBox="-250 -210 500 420" role="group" aria-label={w.title}>
                if !big {
                    <BusChords n={n} />
                }
                <g class="bus__flights">{ for flights }</g>
                <BusNodes nodes={nodes} masters={masters} observer={obs} on_msg={props.on_msg.clone()} />
            </svg>
            <BusShapes quiet={quiet} sampled={(!quiet && every > 1).then_some(every)} />
        </figure>
    }
}

/// What an election under way shows beside its candidate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Election {
    /// Started: its epoch, the votes so far, the votes it needs.
    Votes(u64, u32, u32),
    /// Scheduled: ms until it starts, the replica's rank.
    In(u64, u32),
}

/// One node as the circle draws it at the instant shown.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeView {
    /// Its port.
    pub port: u16,
    /// Its shard (for the colour).
    pub shard: usize,
    /// A master.
    pub master: bool,
    /// Its config epoch as `CLUSTER NODES` prints it.
    pub epoch: u64,
    /// Running, hung or crashed.
    pub process: Process,
    /// The observer's opinion of it with the failure reports held (not for the observer).
    pub seen: Option<(Opinion, usize)>,
    /// Its election under way (up to 30 nodes, where the labels are drawn).
    pub election: Option<Election>,
}

/// Every node as drawn at instant `t` (the cursor's state), through `obs`'s eyes.
pub fn node_views(r: &super::model::Run, t: u64, obs: u32) -> Vec<NodeView> {
    let sim = r.cursor();
    let n = sim.nodes.len();
    let big = n > 30;
    // The elections under way: scheduled (delay running down) or started (votes coming in).
    let mut sched: Vec<Option<(u64, u32)>> = vec![None; n];
    let mut started: Vec<Option<(u64, u32)>> = vec![None; n];
    if !big {
        let events = r.events();
        let upto = events.partition_point(|e| e.t <= t);
        // Elections live within a few node-timeouts: look back over that window only.
        let window = u64::from(r.knobs.node_timeout).saturating_mul(4).max(5000);
        let from = events.partition_point(|e| e.t + window < t);
        for e in &events[from..upto] {
            match e.kind {
                EventKind::ElectionScheduled { node, at, rank } => {
                    if let Some(s) = sched.get_mut(node as usize) {
                        *s = Some((at, rank));
                    }
                }
                EventKind::ElectionStarted { node, epoch } => {
                    if let Some(s) = started.get_mut(node as usize) {
                        *s = Some((epoch, 0));
                    }
                }
                EventKind::Vote {
                    candidate, epoch, ..
                } => {
                    if let Some(Some((e, v))) = started.get_mut(candidate as usize)
                        && *e == epoch
                    {
                        *v += 1;
                    }
                }
                EventKind::Role { node, .. } => {
                    if let Some(s) = sched.get_mut(node as usize) {
                        *s = None;
                    }
                    if let Some(s) = started.get_mut(node as usize) {
                        *s = None;
                    }
                }
                EventKind::Sent { .. }
                | EventKind::Delivered { .. }
                | EventKind::Opinion { .. }
                | EventKind::LinkFreed { .. }
                | EventKind::State { .. }
                | EventKind::Process { .. }
                | EventKind::Partition { .. } => {}
            }
        }
    }
    sim.nodes
        .iter()
        .enumerate()
        .map(|(i, node)| {
            let election = match (started[i], sched[i]) {
                (Some((e, v)), _) => Some(Election::Votes(e, v, node.size / 2 + 1)),
                (None, Some((at, rank))) if at > t => Some(Election::In(at - t, rank)),
                _ => None,
            };
            NodeView {
                port: node.port,
                shard: shard_of(&r.knobs, i as u32),
                master: node.is_master(),
                epoch: config_epoch(sim, i as u32),
                process: node.process,
                seen: (i as u32 != obs)
                    .then(|| opinion(sim, obs, i as u32))
                    .flatten(),
                election,
            }
        })
        .collect()
}

/// Props of [`BusNodes`].
#[derive(Properties, PartialEq)]
pub struct BusNodesProps {
    /// Every node as drawn now.
    pub nodes: Vec<NodeView>,
    /// Masters the run was made with (the colours' count).
    pub masters: usize,
    /// Whose opinions are drawn.
    pub observer: u32,
    /// Clicks on nodes.
    pub on_msg: Callback<BusMsg>,
}

/// The nodes layer: rendered only when a node's drawing changes (an event, an election's
/// countdown) or the observer does.
#[function_component(BusNodes)]
pub fn bus_nodes(props: &BusNodesProps) -> Html {
    let w = use_bus_words();
    let n = props.nodes.len();
    let big = n > 30;
    let node_r = (22.0f64).min(520.0 / n.max(1) as f64).max(1.6);
    let obs = props.observer;
    let nodes = props.nodes.iter().enumerate().map(|(i, node)| {
        let (x, y) = pos(i, n);
        let master = node.master;
        let colour = master_colour(node.shard, props.masters);
        let epoch = node.epoch;
        let addr = format!("127.0.0.1:{}", node.port);
        let role = if master { "master" } else { "replica" };
        let process = process_code(node.process);
        let on = props.on_msg.clone();
        let onclick = Callback::from(move |_: MouseEvent| on.emit(BusMsg::Observe(i as u32)));
        let on = props.on_msg.clone();
        let onkeydown = Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" || e.key() == " " {
                e.prevent_default();
                e.stop_propagation();
                on.emit(BusMsg::Observe(i as u32));
            }
        });
        // Labels sit outside the circle.
        let (lx, ly) = (x * (1.0 + (node_r + 14.0) / R), y * (1.0 + (node_r + 14.0) / R));
        let anchor = if lx.abs() < 20.0 { "middle" } else if lx > 0.0 { "start" } else { "end" };
        let seen = node.seen;
        let election = node.election.map(|e| match e {
            Election::Votes(e, v, need) => fill(w.votes, &[&e, &v, &need]),
            Election::In(ms, rank) => fill(w.election_in, &[&ms, &rank]),
        });
        // A label centred above its node grows upwards, its last line just clear of the
        // circle (its lines go down from the first, and covered the node's top at 390 px).
        let lines = if election.is_some() { 3.0 } else { 2.0 };
        let (label_y, lift) = if anchor == "middle" && y < 0.0 {
            (-node_r - 5.0, format!("{:.1}em", -1.1 * (lines - 1.0)))
        } else {
            (ly - y, "0".to_string())
        };
        let aria = format!(
            "{addr} {} {} {}",
            if master { w.roles[0] } else { w.roles[1] },
            fill(w.epoch, &[&epoch]),
            process_word(w, node.process)
        );
        html! {
            <g class={classes!("bus__node", (i as u32 == obs).then_some("is-observer"), format!("is-{process}"))}
               data-testid="bus-node" data-addr={addr.clone()} data-role={role}
               data-config-epoch={epoch.to_string()} data-process={process}
               transform={format!("translate({x:.1} {y:.1})")} role="button" tabindex={if big { "-1" } else { "0" }}
               aria-label={aria} {onclick} {onkeydown}>
                if master {
                    <circle r={format!("{node_r:.1}")} fill={colour.clone()} class="bus__node-shape" />
                } else {
                    <circle r={format!("{:.1}", node_r * 0.85)} fill="var(--surface)" stroke={colour.clone()}
                            stroke-width={format!("{:.1}", (node_r / 4.0).max(1.0))} class="bus__node-shape" />
                }
                if !big && node.process != Process::Crashed {
                    <text class={classes!("bus__node-role", (master && !crate::ui::palette::dark_text_on(&colour)).then_some("bus__node-role--light"), (master && crate::ui::palette::dark_text_on(&colour)).then_some("bus__node-role--dark"))}
                          text-anchor="middle" dy="0.35em">{ if master { "M" } else { "S" } }</text>
                }
                { match node.process {
                    Process::Running => html! {},
                    Process::Hung => html! { <text class="bus__node-proc" text-anchor="middle" dy={format!("{:.1}", -node_r - 4.0)}>{ "⏸" }</text> },
                    Process::Crashed => html! { <text class="bus__node-proc bus__node-proc--dead" text-anchor="middle" dy="0.35em" font-size={format!("{:.0}", (node_r * 1.6).max(6.0))}>{ "✕" }</text> },
                } }
                if let Some((op, reports)) = seen.filter(|_| !big) {
                    <text class={classes!("bus__seen", format!("bus__seen--{}", super::model::opinion_code(op)))}
                          x={format!("{:.1}", node_r * 0.7)} y={format!("{:.1}", -node_r * 0.7)}>
                        { opinion_glyph(op) }{ if reports > 0 { format!("{reports}") } else { String::new() } }
                    </text>
                }
                if !big {
                    <text class="bus__node-label" x={format!("{:.1}", lx - x)} y={format!("{:.1}", label_y)} text-anchor={anchor}>
                        <tspan class="mono" dy={lift}>{ format!(":{}", node.port) }</tspan>
                        <tspan x={format!("{:.1}", lx - x)} dy="1.1em">{ fill(w.epoch, &[&epoch]) }</tspan>
                        if let Some(e) = election.clone() {
                            <tspan x={format!("{:.1}", lx - x)} dy="1.1em" class="bus__election">{ e }</tspan>
                        }
                    </text>
                }
            </g>
        }
    });
    let nodes: Vec<Html> = nodes.collect();
    html! { <g class="bus__nodes">{ for nodes }</g> }
}
