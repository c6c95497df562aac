//! A sequence diagram that plays: lifelines for the client, each node and the operator (on the
//! far side), one arrow per request or reply, drawn up to the current step, a token travelling
//! along the current arrow until it arrives (CSS, still under reduced motion), its text as
//! redis-cli prints it (or as RESP on the wire); each node's lifeline carries bands for its
//! states on the slots in play (owner, `MIGRATING`, `IMPORTING`) over the steps they last, and
//! under its head the states and keys it holds now, a key gliding from node to node when
//! `MIGRATE` moves it (and only then). The heads stay in view under the player's sticky
//! controls while the diagram is on screen; labels sit on a plate of the page's colour, cut
//! to the room they have (the whole text in their tooltip). The diagram is as tall as the
//! steps drawn so far.

use crate::ui::messages::{fill, use_messages};
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// One arrow of the diagram, ready to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct Arrow {
    /// Lifeline the arrow leaves.
    pub from: usize,
    /// Lifeline it reaches.
    pub to: usize,
    /// What it carries, as redis-cli shows it (`GET user:1001`, `(error) ASK 5712 127.0.0.1:7002`).
    pub label: String,
    /// The same on the wire (RESP, escaped for display).
    pub wire: String,
    /// A reply (drawn dashed), not a request.
    pub reply: bool,
    /// An error reply (drawn in the error colour).
    pub error: bool,
    /// Not a message but a note on one lifeline (the client updating its table, giving up, an
    /// operator's command): drawn as a box on `from`.
    pub note: bool,
}

/// Which state a band shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BandKind {
    /// The node owns the slot.
    Owner,
    /// The node is migrating the slot to `peer`.
    Migrating,
    /// The node is importing the slot from `peer`.
    Importing,
}

impl BandKind {
    /// The `data-state` hook.
    fn hook(self) -> &'static str {
        match self {
            BandKind::Owner => "owner",
            BandKind::Migrating => "migrating",
            BandKind::Importing => "importing",
        }
    }
}

/// One node's state on one slot, on its lifeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaneBand {
    /// The lifeline.
    pub lane: usize,
    /// The node's address.
    pub node: String,
    /// The slot.
    pub slot: u16,
    /// The state.
    pub kind: BandKind,
    /// The other node of a migration (empty for an owner).
    pub peer: String,
}

/// What the lifelines carry at one moment: bands and the keys each lifeline's node holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LaneState {
    /// The bands.
    pub bands: Vec<LaneBand>,
    /// Each node lifeline's keys in the slots in play, as shown (lifeline, keys).
    pub keys: Vec<(usize, Vec<String>)>,
}

/// Props of [`Sequence`].
#[derive(Properties, PartialEq)]
pub struct SequenceProps {
    /// Lifeline names, left to right (the client first).
    pub lanes: Vec<String>,
    /// Colour of each lifeline's head (empty for the default).
    pub lane_colours: Vec<String>,
    /// Every arrow of the scenario.
    pub arrows: Vec<Arrow>,
    /// How many arrows are shown (the current one is the last of them).
    pub shown: usize,
    /// Show RESP instead of redis-cli's text.
    pub wire: bool,
    /// What the lifelines carry before the first step, then after each (arrows + 1 entries).
    #[prop_or_default]
    pub states: Vec<LaneState>,
    /// A lifeline to leave out (the operator's, on a phone): its arrows become notes on the
    /// node they reach or leave.
    #[prop_or_default]
    pub hidden: Option<usize>,
}

/// Vertical room per arrow, in SVG units.
const ROW: f64 = 38.0;
/// Room per line of state or key under a head.
const LINE: f64 = 14.0;
/// Most key lines under a head (then "+N").
const MAX_KEY_LINES: usize = 3;

/// The lines of state under one lifeline's head: one for the slots it owns, one per
/// migration.
fn state_lines(t: &crate::ui::messages::Messages, bands: &[&LaneBand]) -> Vec<(BandKind, String)> {
    let mut out = Vec::new();
    let owned: Vec<String> = bands
        .iter()
        .filter(|b| b.kind == BandKind::Owner)
        .map(|b| b.slot.to_string())
        .collect();
    if !owned.is_empty() {
        out.push((BandKind::Owner, fill(t.seq_owner, &[&owned.join(", ")])));
    }
    for b in bands {
        let peer = short(&b.peer);
        match b.kind {
            BandKind::Owner => {}
            BandKind::Migrating => out.push((b.kind, fill(t.seq_migrating, &[&b.slot, &peer]))),
            BandKind::Importing => out.push((b.kind, fill(t.seq_importing, &[&b.slot, &peer]))),
        }
    }
    out
}

/// Width of a 12 px monospace character, in SVG units (for placing a note's text).
const CHAR_W: f64 = 7.2;
/// Width of a character at the phone's larger label size (14 px), for cutting labels to fit.
const CHAR_W_MAX: f64 = 8.4;

/// Width of `text` in ems: 0.6 per monospace character, 1 for a wide (CJK) one.
fn width_em(text: &str) -> f64 {
    text.chars()
        .map(|c| if u32::from(c) >= 0x2E80 { 1.0 } else { 0.6 })
        .sum()
}

/// A label made to fit `room` SVG units at the largest size it is drawn: a reply of several
/// lines on one line, cut with `…` when it is longer than the room.
fn fit(text: &str, room: f64) -> String {
    let one = text
        .split('\n')
        .enumerate()
        .map(|(k, l)| if k == 0 { l.trim_end() } else { l.trim() })
        .collect::<Vec<_>>()
        .join(" ");
    let max_em = (room / (CHAR_W_MAX / 0.6)).max(6.0);
    if width_em(&one) <= max_em {
        return one;
    }
    let mut out = String::new();
    let mut used = 0.6; // the `…`
    for c in one.chars() {
        used += width_em(c.encode_utf8(&mut [0; 4]));
        if used > max_em {
            break;
        }
        out.push(c);
    }
    // Not inside a word or a number, where a space is near: a cut word reads as another
    // ("all key…"), a cut number as a wrong one.
    let cut = out.len();
    let inside = out.chars().last().is_some_and(char::is_alphanumeric)
        && one[cut..].chars().next().is_some_and(char::is_alphanumeric);
    if let Some(space) = out
        .rfind(' ')
        .filter(|&sp| inside && cut - sp <= 16 && sp > 0)
    {
        out.truncate(space);
    }
    out.truncate(out.trim_end().len());
    out.push('…');
    out
}

/// A plate of the page's colour under a label (`anchor` as the text's), sized in ems so it
/// follows the label's font size (set on the plate by the page's CSS).
fn plate(x: f64, y: f64, text: &str, anchor: &str) -> Html {
    let w = width_em(text) + 0.5;
    let left = match anchor {
        "end" => -w + 0.25,
        "start" => -0.25,
        _ => -w / 2.0,
    };
    html! {
        <g transform={format!("translate({x:.1} {y:.1})")} class="seq__plate" aria-hidden="true">
            <rect x={format!("{left:.2}em")} y="-0.95em" width={format!("{w:.2}em")} height="1.25em" rx="3" />
        </g>
    }
}

/// A 40-hex-digit node id cut to its first 8 digits and `…`, as `redis-cli --cluster` prints
/// ids (`2d5df5ae...`): the whole text stays in the label's tooltip.
fn elide_ids(text: &str) -> String {
    text.split(' ')
        .map(|w| {
            let hex = w.len() == 40 && w.bytes().all(|b| b.is_ascii_hexdigit());
            if hex {
                format!("{}…", w.get(..8).unwrap_or(w))
            } else {
                w.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `127.0.0.1:7002` → `:7002` when the host is the loopback every node shares.
fn short(addr: &str) -> String {
    addr.strip_prefix("127.0.0.1")
        .map_or_else(|| addr.to_string(), str::to_string)
}

/// Where a hidden lifeline's neighbours move: lane `l` drawn at this position, or `None`.
fn visible(l: usize, hidden: Option<usize>) -> Option<usize> {
    match hidden {
        Some(h) if l == h => None,
        Some(h) if l > h => Some(l - 1),
        _ => Some(l),
    }
}

/// The diagram.
#[function_component(Sequence)]
pub fn sequence(props: &SequenceProps) -> Html {
    let t = use_messages();
    let hidden = props.hidden.filter(|&h| h < props.lanes.len());
    let n = props
        .lanes
        .len()
        .saturating_sub(usize::from(hidden.is_some()))
        .max(1);
    let width = (200.0 * n.saturating_sub(1) as f64 + 160.0).max(560.0);
    let lane_x = |i: usize| 80.0 + (width - 160.0) * i as f64 / (n.saturating_sub(1).max(1)) as f64;
    let shown = props.shown.min(props.arrows.len());
    let now = props.states.get(shown).cloned().unwrap_or_default();
    let before = shown
        .checked_sub(1)
        .and_then(|i| props.states.get(i))
        .cloned()
        .unwrap_or_default();
    // Room under the heads for the most state and key lines any step needs, so the arrows
    // never jump while the reader steps.
    let per_lane = |s: &LaneState, lane: usize| {
        let bands: Vec<&LaneBand> = s.bands.iter().filter(|b| b.lane == lane).collect();
        let keys = s
            .keys
            .iter()
            .find(|(l, _)| *l == lane)
            .map_or(0, |(_, k)| k.len().min(MAX_KEY_LINES + 1));
        (state_lines(t, &bands).len(), keys)
    };
    let lanes_all = 0..props.lanes.len();
    let (state_room, key_room) = props.states.iter().fold((0, 0), |acc, s| {
        lanes_all.clone().fold(acc, |(a, b), l| {
            let (x, y) = per_lane(s, l);
            (a.max(x), b.max(y))
        })
    });
    let has_keys = props.states.iter().any(|s| !s.keys.is_empty());
    let key_room = if has_keys { key_room.max(1) } else { 0 };
    let head = 48.0 + LINE * (state_room + key_room) as f64 + 10.0;
    let arrow_y = |i: usize| head + ROW * (i as f64 + 0.6);
    // The diagram is as tall as the steps drawn so far.
    let height = head + ROW * shown.max(1) as f64 + 16.0;

    let heads = props.lanes.iter().enumerate().filter_map(|(i, name)| {
        let x = lane_x(visible(i, hidden)?);
        let colour = props.lane_colours.get(i).filter(|c| !c.is_empty()).cloned();
        let bands: Vec<&LaneBand> = now.bands.iter().filter(|b| b.lane == i).collect();
        let lines = state_lines(t, &bands);
        Some(html! {
            <g class="seq__lane" data-lane={name.clone()}>
                <rect x={format!("{:.1}", x - 66.0)} y="8" width="132" height="28" rx="6" class="seq__head"
                      stroke-width={colour.is_some().then_some("3")} stroke={colour} />
                <text x={format!("{x:.1}")} y="27" text-anchor="middle" class="seq__head-text">{ name }</text>
                { for lines.iter().enumerate().map(|(k, (kind, text))| html! {
                    <text x={format!("{x:.1}")} y={format!("{:.1}", 50.0 + LINE * k as f64)} text-anchor="middle"
                          class={classes!("seq__state", format!("seq__state--{}", kind.hook()))}>{ text }</text>
                }) }
            </g>
        })
    });

    // The lifelines, drawn under the arrows; their heads stay in view (below).
    let lifelines = props.lanes.iter().enumerate().filter_map(|(i, _)| {
        let x = lane_x(visible(i, hidden)?);
        Some(html! {
            <line x1={format!("{x:.1}")} y1="36" x2={format!("{x:.1}")} y2={format!("{height:.1}")} class="seq__life" />
        })
    });

    // The keys under the heads, placed where they are; a key that changed node at this step
    // is drawn anew and glides from where it was (a `MIGRATE`), every other stays put.
    let keys_top = 50.0 + LINE * state_room as f64;
    let mut chips: Vec<Html> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for (lane, keys) in &now.keys {
        let Some(x) = visible(*lane, hidden).map(lane_x) else {
            continue;
        };
        let node = props.lanes.get(*lane).cloned().unwrap_or_default();
        if keys.is_empty() && has_keys {
            chips.push(html! {
                <text key={format!("none-{lane}")} class="seq__key seq__key--none" text-anchor="middle"
                      x={format!("{x:.1}")} y={format!("{keys_top:.1}")}>{ t.seq_no_keys }</text>
            });
        }
        for (k, key) in keys.iter().take(MAX_KEY_LINES).enumerate() {
            let id = if seen.contains(key) {
                format!("{key}@{lane}")
            } else {
                key.clone()
            };
            seen.push(key.clone());
            let y = keys_top + LINE * k as f64;
            // Where the key was a step ago, if on another node's lifeline (shown there).
            let came_from = (shown > 0)
                .then(|| {
                    before.keys.iter().find_map(|(l, ks)| {
                        let row = ks.iter().position(|o| o == key)?;
                        (l != lane).then_some((*l, row.min(MAX_KEY_LINES)))
                    })
                })
                .flatten();
            let here_before = before
                .keys
                .iter()
                .any(|(l, ks)| l == lane && ks.contains(key));
            let moved = shown > 0 && !here_before;
            let glide = came_from.and_then(|(l, row)| {
                let fx = lane_x(visible(l, hidden)?);
                let fy = keys_top + LINE * row as f64;
                Some(format!(
                    "--seq-key-from: translate({:.1}px, {:.1}px)",
                    fx - x,
                    fy - y
                ))
            });
            // A gliding key is a new element, so its animation starts from its old place.
            let gliding = glide.is_some();
            let id = if gliding { format!("{id}>{shown}") } else { id };
            chips.push(html! {
                <text key={id} class={classes!("seq__key", moved.then_some("seq__key--moved"), gliding.then_some("seq__key--glide"))}
                      text-anchor="middle" x={format!("{x:.1}")} y={format!("{y:.1}")}
                      data-testid="lane-key" data-node={node.clone()} data-key={key.clone()}
                      aria-label={fill(t.seq_key_on, &[key, &node])} data-css={glide}>{ key }</text>
            });
        }
        if keys.len() > MAX_KEY_LINES {
            let y = keys_top + LINE * MAX_KEY_LINES as f64;
            chips.push(html! {
                <text key={format!("more-{lane}")} class="seq__key seq__key--none" text-anchor="middle"
                      x={format!("{x:.1}")} y={format!("{y:.1}")}>{ format!("+{}", keys.len() - MAX_KEY_LINES) }</text>
            });
        }
    }

    // Bands along the lifelines: each state from the step it began to the step it ended (or
    // the current one).
    let mut slots: Vec<u16> = props
        .states
        .iter()
        .flat_map(|s| s.bands.iter().map(|b| b.slot))
        .collect();
    slots.sort_unstable();
    slots.dedup();
    let y_of = |j: usize| if j == 0 { 36.0 } else { arrow_y(j - 1) };
    let mut open: Vec<(LaneBand, usize)> = Vec::new();
    let mut segments: Vec<(LaneBand, usize, Option<usize>)> = Vec::new();
    for j in 0..=shown {
        let here = props
            .states
            .get(j)
            .map(|s| s.bands.as_slice())
            .unwrap_or_default();
        open.retain(|(b, from)| {
            let stays = here.contains(b);
            if !stays {
                segments.push((b.clone(), *from, Some(j)));
            }
            stays
        });
        for b in here {
            if !open.iter().any(|(o, _)| o == b) {
                open.push((b.clone(), j));
            }
        }
    }
    segments.extend(open.into_iter().map(|(b, from)| (b, from, None)));
    let bands = segments.iter().filter_map(|(b, from, to)| {
        let x = lane_x(visible(b.lane, hidden)?);
        let slot_at = slots.iter().position(|s| *s == b.slot).unwrap_or(0) as f64;
        let (dx, w) = match b.kind {
            BandKind::Owner => (-3.0 - 8.0 * slot_at, 6.0),
            BandKind::Migrating => (5.0 + 10.0 * slot_at, 7.0),
            BandKind::Importing => (-12.0 - 10.0 * slot_at, 7.0),
        };
        let y1 = y_of(*from);
        let y2 = to.map_or(height - 6.0, y_of);
        let title = match b.kind {
            BandKind::Owner => fill(t.seq_owner, &[&b.slot]),
            BandKind::Migrating => fill(t.seq_migrating, &[&b.slot, &b.peer]),
            BandKind::Importing => fill(t.seq_importing, &[&b.slot, &b.peer]),
        };
        let hook = if b.kind == BandKind::Owner {
            "slot-owner"
        } else {
            "slot-state"
        };
        Some(html! {
            <rect x={format!("{:.1}", x + dx)} y={format!("{y1:.1}")} width={format!("{w:.1}")}
                  height={format!("{:.1}", (y2 - y1).max(2.0))} rx="2"
                  class={classes!("seq__band", format!("seq__band--{}", b.kind.hook()))}
                  data-testid={hook} data-node={b.node.clone()} data-slot={b.slot.to_string()}
                  data-state={b.kind.hook()} data-ends={to.is_none().then_some("open")}>
                <title>{ title }</title>
            </rect>
        })
    });

    let arrows = props.arrows.iter().take(shown).enumerate().map(|(i, a)| {
        let y = arrow_y(i);
        let current = i + 1 == shown;
        let (from, to) = (visible(a.from, hidden), visible(a.to, hidden));
        // An arrow to or from a hidden lifeline is a note on the other end, named by it.
        let (note, from, to, prefix) = match (from, to) {
            (Some(f), Some(t)) => (a.note || f == t, f, t, None),
            (Some(f), None) => (true, f, f, props.lanes.get(a.to)),
            (None, Some(t)) => (true, t, t, props.lanes.get(a.from)),
            (None, None) => (true, 0, 0, None),
        };
        // A note that is not a reply is worded by the page (the table update, a back-off):
        // it has no bytes on the wire.
        let worded = a.note && !a.reply;
        let body = if props.wire && !worded { &a.wire } else { &a.label };
        let text = match prefix {
            Some(p) => fill(t.seq_note_from, &[p, body]),
            None => body.clone(),
        };
        let (x1, x2) = (lane_x(from), lane_x(to));
        let class = classes!(
            "seq__arrow",
            a.reply.then_some("seq__arrow--reply"),
            a.error.then_some("seq__arrow--error"),
            current.then_some("seq__arrow--current"),
            (x2 < x1).then_some("seq__arrow--left")
        );
        let hook = current.then_some("seq-current");
        // The current arrow is a new element at every step, so its shaft draws and its token
        // travels again (a reused element's CSS animation has finished long ago).
        let key = format!("{i}{}", if current { "*" } else { "" });
        let full = text.clone();
        let text = elide_ids(&text);
        if note {
            let x = x1;
            // A note reads rightwards from its box unless that runs off the diagram; it is
            // cut to the wider side's room.
            let (room_right, room_left) = (width - 4.0 - (x + 14.0), x - 14.0 - 4.0);
            let text = fit(&text, room_right.max(room_left));
            let shortened = text != full;
            let len = width_em(&text) * (CHAR_W / 0.6);
            let over_right = x + 14.0 + len - (width - 4.0);
            let over_left = len - (x - 14.0 - 4.0);
            let left = over_right > 0.0 && over_left < over_right;
            let (tx, anchor) = if left { (x - 14.0, "end") } else { (x + 14.0, "start") };
            return html! {
                <g {key} class={classes!(class, "seq__note")} data-testid={hook} data-step={(i + 1).to_string()}>
                    <rect x={format!("{:.1}", x - 8.0)} y={format!("{:.1}", y - 14.0)} width="16" height="20" rx="3" />
                    { plate(tx, y, &text, anchor) }
                    // A note is the client's words, or a reply it builds (`(integer) 2`): code.
                    <text x={format!("{tx:.1}")} y={format!("{y:.1}")} text-anchor={anchor}
                          class={classes!("seq__label", is_reply(&text).then_some("mono"))}>{ text }</text>
                    if shortened { <title class={classes!(is_reply(&full).then_some("mono"))}>{ full }</title> }
                </g>
            };
        }
        let dir = if x2 > x1 { 1.0 } else { -1.0 };
        let tip = x2 - dir * 6.0;
        let mid = (x1 + x2) / 2.0;
        // Centred on the arrow, within the diagram (a long reply, as CLUSTER SLOTS's, is cut).
        let text = fit(&text, 2.0 * mid.min(width - mid) - 8.0);
        let shortened = text != full;
        html! {
            <g {key} class={class} data-testid={hook} data-step={(i + 1).to_string()}>
                <line x1={format!("{x1:.1}")} y1={format!("{y:.1}")} x2={format!("{tip:.1}")} y2={format!("{y:.1}")} class="seq__shaft" />
                <path d={format!("M{tip:.1},{:.1} L{x2:.1},{y:.1} L{tip:.1},{:.1} z", y - 5.0, y + 5.0)} class="seq__tip" />
                { plate(mid, y - 8.0, &text, "middle") }
                // An arrow carries a command or a reply: code, as redis-cli prints it.
                <text x={format!("{mid:.1}")} y={format!("{:.1}", y - 8.0)} text-anchor="middle" class="seq__label mono">{ text }</text>
                if shortened { <title class="mono">{ full }</title> }
                if current {
                    <circle class="seq__token" cx={format!("{x1:.1}")} cy={format!("{y:.1}")} r="5"
                            data-css={format!("--dx: {:.1}px", x2 - x1)} />
                }
            </g>
        }
    });

    // Follow the current arrow: when a step changes and the diagram is on screen, scroll its
    // box sideways (and the page, if need be) so the arrow is in view.
    let svg_ref = use_node_ref();
    // Inline styles through the CSSOM (the page's CSP refuses style attributes): each element's
    // `data-css`, after every render, before anything measures the diagram, so a gliding
    // key's first frame is already at its old place. The heads are placed for the new height.
    {
        let svg_ref = svg_ref.clone();
        use_effect(move || {
            apply_css(&svg_ref);
            stick(&svg_ref);
        });
    }
    {
        let svg_ref = svg_ref.clone();
        let first = use_mut_ref(|| true);
        use_effect_with((shown, props.arrows.len(), hidden), move |_| {
            if !std::mem::replace(&mut *first.borrow_mut(), false) {
                follow(&svg_ref);
            }
        });
    }
    // The heads follow the page's scroll (and a resize, which rescales the diagram).
    {
        let svg_ref = svg_ref.clone();
        use_effect_with((), move |_| {
            let listeners = web_sys::window().map(|win| {
                let on = |kind: &'static str| {
                    let svg_ref = svg_ref.clone();
                    gloo_events::EventListener::new(&win, kind, move |_| stick(&svg_ref))
                };
                [on("scroll"), on("resize")]
            });
            move || drop(listeners)
        });
    }
    let min_width = format!("min-width: {:.0}px", width * 0.72);
    html! {
        <svg class="seq" viewBox={format!("0 0 {width} {height:.0}")} role="img" ref={svg_ref}
             data-css={min_width}
             data-drawn-height={format!("{height:.0}")}
             aria-label={t.seq_label}>
            <g class="seq__bands">{ for bands }</g>
            { for lifelines }
            { for arrows }
            // Drawn last, over the arrows it slides over when it sticks.
            <g class="seq__heads" data-testid="seq-heads" data-head={format!("{:.1}", head - 6.0)} data-width={format!("{width:.1}")}>
                <rect class="seq__heads-plate" x="0" y="0" width={format!("{width:.1}")} height={format!("{:.1}", head - 6.0)} />
                { for heads }
                <g class="seq__keys">{ for chips }</g>
            </g>
        </svg>
    }
}

/// Keeps the heads (lane names, states, keys) in view while the diagram is on screen: slid
/// down to just under the player's sticky controls (or the top of the window), never past the
/// diagram's end; marked `data-seq-stuck` while they are slid.
fn stick(svg_ref: &NodeRef) {
    let Some(svg) = svg_ref.cast::<web_sys::Element>() else {
        return;
    };
    let Ok(Some(heads)) = svg.query_selector(".seq__heads") else {
        return;
    };
    let num = |name: &str| {
        heads
            .get_attribute(name)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    let (head, width) = (num("data-head"), num("data-width"));
    let area = svg.get_bounding_client_rect();
    if width <= 0.0 || area.width() <= 0.0 {
        return;
    }
    let scale = area.width() / width;
    let ceiling = controls_bottom(&svg);
    let room = area.height() - head * scale - 40.0 * scale;
    let slide = (ceiling - area.top()).min(room).max(0.0) / scale;
    // Through a custom property and a rule whose selector names no `.seq` class, so a
    // picture of the diagram (which copies the `.seq` rules) draws the heads at the top.
    let styled: &web_sys::HtmlElement = heads.unchecked_ref();
    let _ = styled
        .style()
        .set_property("--seq-slide", &format!("{slide:.1}px"));
    if slide > 0.0 {
        let _ = heads.set_attribute("data-seq-stuck", "");
    } else {
        let _ = heads.remove_attribute("data-seq-stuck");
    }
}

/// The bottom of what sticks at the top of the window over the diagram: the player's
/// controls (under the section bar), or 0.
fn controls_bottom(svg: &web_sys::Element) -> f64 {
    svg.closest(".redir__player")
        .ok()
        .flatten()
        .and_then(|p| p.query_selector(".redir__controls").ok().flatten())
        .map_or(0.0, |c| c.get_bounding_client_rect().bottom().max(0.0))
}

/// Brings the current arrow into view inside the diagram's scroll box and the window, if the
/// diagram is on screen at all (playing never pulls a reader back from elsewhere).
fn follow(svg_ref: &NodeRef) {
    let (Some(svg), Some(win)) = (svg_ref.cast::<web_sys::Element>(), web_sys::window()) else {
        return;
    };
    // The arrow's shaft, or a note's box (its text may run past it).
    let Ok(Some(cur)) = svg.query_selector("[data-testid=seq-current] > :first-child") else {
        return;
    };
    let view_h = crate::ui::viewport::height(&win);
    let area = svg.get_bounding_client_rect();
    if area.bottom() < 0.0 || area.top() > view_h {
        return;
    }
    if let Some(scroller) = svg
        .parent_element()
        .and_then(|p| p.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let (r, box_) = (
            cur.get_bounding_client_rect(),
            scroller.get_bounding_client_rect(),
        );
        if r.left() < box_.left() || r.right() > box_.right() {
            let centre = (r.left() + r.right()) / 2.0 - (box_.left() + box_.right()) / 2.0;
            scroller.set_scroll_left(scroller.scroll_left() + centre as i32);
        }
    }
    let r = cur.get_bounding_client_rect();
    // Only as far as it takes, clear of a sticky bar at the top and of the tour's panel when
    // it sits at the bottom of the window.
    let floor = win
        .document()
        .and_then(|d| d.query_selector("#tour[data-place=bottom]").ok().flatten())
        .map_or(view_h, |p| p.get_bounding_client_rect().top());
    // What sticks at the top: the section bar, then the player's own controls, then the
    // diagram's heads.
    let heads = svg
        .query_selector(".seq__heads > rect")
        .ok()
        .flatten()
        .map_or(0.0, |h| h.get_bounding_client_rect().height());
    let ceiling = controls_bottom(&svg) + heads;
    if r.bottom() > floor - 8.0 {
        win.scroll_by_with_x_and_y(0.0, r.bottom() - floor + 48.0);
    } else if r.top() < ceiling {
        win.scroll_by_with_x_and_y(0.0, r.top() - ceiling - 48.0);
    }
}

/// Writes every `data-css` of the diagram (and the diagram's own) into its element's style.
fn apply_css(svg_ref: &NodeRef) {
    let Some(svg) = svg_ref.cast::<web_sys::Element>() else {
        return;
    };
    let set = |el: &web_sys::Element| {
        if let Some(css) = el.get_attribute("data-css") {
            // `style` is the same CSSOM object on SVG and HTML elements.
            let styled: &web_sys::HtmlElement = el.unchecked_ref();
            styled.style().set_css_text(&css);
        }
    };
    set(&svg);
    if let Ok(list) = svg.query_selector_all("[data-css]") {
        for i in 0..list.length() {
            if let Some(el) = list
                .item(i)
                .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
            {
                set(&el);
            }
        }
    }
}

/// Text as redis-cli prints a reply (`(integer) 2`, `"v"`, `1) …`, `(nil)`), not prose.
fn is_reply(text: &str) -> bool {
    text.starts_with(['(', '"', '-', '+']) || text.starts_with(|c: char| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_ids_are_cut_and_a_hidden_lane_closes_up() {
        // Transcript 07's command, with 7002's id.
        assert_eq!(
            elide_ids("CLUSTER SETSLOT 5712 MIGRATING 44084a172411812451c56a0a3330ec6daa733083"),
            "CLUSTER SETSLOT 5712 MIGRATING 44084a17…"
        );
        assert_eq!(
            elide_ids("GET {user:1001}:profile"),
            "GET {user:1001}:profile"
        );
        assert_eq!(elide_ids("ééé"), "ééé");
        assert_eq!(visible(3, Some(3)), None);
        assert_eq!(visible(2, Some(1)), Some(1));
        assert_eq!(visible(0, Some(1)), Some(0));
        assert_eq!(visible(4, None), Some(4));
    }

    #[test]
    fn a_long_reply_is_cut_to_its_room_on_one_line() {
        // The first lines of CLUSTER SLOTS as redis-cli 7.0.15 printed it (transcript 14).
        let reply = "1) 1) (integer) 0\n   2) (integer) 332\n   3) 1) \"127.0.0.1\"\n      2) (integer) 7006";
        let cut = fit(reply, 300.0);
        assert!(
            cut.starts_with("1) 1) (integer) 0 2) (integer) 332"),
            "{cut}"
        );
        assert!(cut.ends_with('…'));
        // At 14 px a character is 8.4 units: the cut text fits 300 units.
        assert!(width_em(&cut) * 14.0 <= 300.0, "{cut}");
        assert_eq!(fit("OK", 20.0), "OK");
        assert_eq!(fit("(integer) 2", 400.0), "(integer) 2");
        // Wide characters count as a whole em; nothing is cut inside a character.
        assert_eq!(width_em("运维"), 2.0);
        assert_eq!(
            fit("运维运维运维运维运维运维运维运维", 100.0),
            "运维运维运维…"
        );
        // A cut falls at a word's end when one is near: a cut word reads as another.
        let cut = fit(
            "RedisClusterException: MGET - all keys must map to the same key slot",
            260.0,
        );
        assert!(cut.ends_with(" all…") || !cut.contains(" key…"), "{cut}");
        assert!(!cut.trim_end_matches('…').ends_with(' '), "{cut}");
    }
}
