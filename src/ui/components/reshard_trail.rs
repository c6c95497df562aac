//! What a reshard (or any change of owners) shows on the slot map, beyond the new colours: each
//! moved range outlined, an arrow from what its old owner kept to the range it gave up, its
//! ends labelled with the source and target masters, a running count of the slots moved while
//! the map repaints them, and the keys that moved with them (the page's key and the
//! transcripts' sample keys, slots from the core's CRC16). A new cluster (create, import) is no
//! reshard: it shows no trail, only that it is new. After a change the map's changed rows are
//! brought into view if they are out of sight (on a phone the lab is under the map).

use crate::core::cluster::topology::{OwnerChange, SlotMap};
use crate::core::key::slot::key_slot;
use crate::ui::components::key_readout::port_shared;
use crate::ui::components::slot_map::{batch_size, COLS};
use crate::ui::messages::{fill, use_messages};
use crate::ui::state::Change;
use crate::ui::styled::StyledSpan;
use gloo_timers::callback::Interval;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Keys recorded in the transcripts, shown when a change carries them to another master.
pub const SAMPLE_KEYS: [&str; 6] = [
    "foo",
    "hello",
    "bar",
    "user:1002",
    "{user:1001}:profile",
    "a{b}c",
];

/// A key (or the page's key's slot) that moved: its name (empty for the page's key), slot, and
/// the addresses of the old and new owners.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovedKey {
    /// The key (empty: the key in the key field).
    pub key: String,
    /// Its slot.
    pub slot: u16,
    /// The master that held it.
    pub from: String,
    /// The master that holds it now.
    pub to: String,
}

fn addr_of(map: &SlotMap, id: Option<&String>) -> String {
    id.and_then(|id| map.masters().iter().find(|m| &m.id == id))
        .map_or_else(|| "-".to_string(), |m| m.addr.clone())
}

/// The keys a change carried to another master: the page's key's slot first, then the samples.
pub fn moved_keys(change: &Change, after: &SlotMap, marked: Option<u16>) -> Vec<MovedKey> {
    let find = |slot: u16| change.moves.iter().find(|m| m.range.contains(slot));
    let mut out = Vec::new();
    let mut add = |key: &str, slot: u16| {
        if let Some(m) = find(slot) {
            out.push(MovedKey {
                key: key.to_string(),
                slot,
                from: addr_of(&change.before, m.from.as_ref()),
                to: addr_of(after, m.to.as_ref()),
            });
        }
    };
    if let Some(s) = marked {
        add("", s);
    }
    for k in SAMPLE_KEYS {
        add(k, key_slot(k.as_bytes()));
    }
    out
}

/// The centre of a range of slots on the 128 × 128 map, in cells (the middle slot's cell).
fn centre(first: u16, last: u16) -> (f64, f64) {
    let mid = (u32::from(first) + u32::from(last)) / 2;
    let cols = u32::from(COLS);
    (f64::from(mid % cols) + 0.5, f64::from(mid / cols) + 0.5)
}

/// The centre of the largest run a master still owns after the change, if any.
fn kept_centre(map: &SlotMap, id: Option<&String>) -> Option<(f64, f64)> {
    let i = map.masters().iter().position(|m| Some(&m.id) == id)?;
    map.runs()
        .filter(|r| r.owner == Some(i))
        .max_by_key(|r| r.range.len())
        .map(|r| centre(r.range.first, r.range.last))
}

/// Props of [`ReshardTrail`].
#[derive(Properties, PartialEq)]
pub struct ReshardTrailProps {
    /// The cluster now.
    pub map: Rc<SlotMap>,
    /// Colours of its masters.
    pub colours: Rc<Vec<String>>,
    /// The last change.
    pub change: Option<Rc<Change>>,
}

/// How a master is named at an end of a trail: its port (`:7000`), or its whole address when
/// another master of the cluster before or after has the same port.
fn end_name(before: &SlotMap, after: &SlotMap, addr: &str) -> String {
    let all = before
        .masters()
        .iter()
        .chain(after.masters())
        .map(|m| m.addr.as_str());
    match addr.rsplit_once(':') {
        Some((_, port)) if !port_shared(all, addr) => format!(":{port}"),
        _ => addr.to_owned(),
    }
}

/// One label at an end of the trails: its text, where (in cells), and on which side of the
/// point it sits (below when true).
struct EndLabel {
    text: String,
    at: (f64, f64),
    below: bool,
    target: bool,
}

/// The label's place as `left`/`top` percentages of the map, shifted so it stays on the map.
fn label_style(l: &EndLabel) -> String {
    let cols = f64::from(COLS);
    let (x, y) = l.at;
    let dx = if x < cols * 0.2 {
        "0%"
    } else if x > cols * 0.8 {
        "-100%"
    } else {
        "-50%"
    };
    // Near the map's top or bottom edge the label goes on the side that stays on the map.
    let below = if y < 8.0 {
        true
    } else if y > cols - 8.0 {
        false
    } else {
        l.below
    };
    let dy = if below { "8px" } else { "calc(-100% - 8px)" };
    format!(
        "left:{:.3}%;top:{:.3}%;transform:translate({dx},{dy})",
        x / cols * 100.0,
        y / cols * 100.0
    )
}

/// Brings the rows `first..=last` of the map (the frame holding `el`) into view under the
/// sticky section bar, if any of them is out of sight: smoothly unless the reader prefers
/// reduced motion. Nothing moves while the tour is open (it points at the result itself).
fn bring_into_view(el: &web_sys::Element, first_row: u16, last_row: u16) {
    let Some(win) = web_sys::window() else {
        return;
    };
    let Some(doc) = win.document() else {
        return;
    };
    if doc.get_element_by_id("tour").is_some() {
        return;
    }
    let view_h = crate::ui::viewport::height(&win);
    let bar = crate::ui::viewport::bar_bottom(&doc);
    let r = el.get_bounding_client_rect();
    let rows = f64::from(COLS);
    let top = r.top() + f64::from(first_row) / rows * r.height();
    let bottom = r.top() + f64::from(last_row + 1) / rows * r.height();
    let margin = 12.0;
    let (ceiling, floor) = (bar + margin, view_h - margin);
    let delta = if top < ceiling || bottom - top > floor - ceiling {
        top - ceiling
    } else if bottom > floor {
        bottom - floor
    } else {
        return;
    };
    let reduced = win
        .match_media("(prefers-reduced-motion: reduce)")
        .ok()
        .flatten()
        .is_some_and(|m| m.matches());
    // `scrollBy({top, behavior})`, called by name: the options type is not among the page's
    // web-sys features.
    let opts = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&opts, &"top".into(), &delta.into());
    let behavior = if reduced { "auto" } else { "smooth" };
    let _ = js_sys::Reflect::set(&opts, &"behavior".into(), &behavior.into());
    if let Ok(f) = js_sys::Reflect::get(&win, &"scrollBy".into())
        && let Some(f) = f.dyn_ref::<js_sys::Function>()
    {
        let _ = f.call1(&win, &opts);
    }
}

/// The overlay on the map: moved ranges outlined, arrows from what each source kept to what it
/// gave, their ends labelled with the masters.
#[function_component(ReshardTrail)]
pub fn reshard_trail(props: &ReshardTrailProps) -> Html {
    let t = use_messages();
    let svg = use_node_ref();
    // map18: the map's changed rows come into view after a change (not on first paint).
    {
        let svg = svg.clone();
        let serial = props.change.as_ref().map(|c| c.serial);
        let seen = use_mut_ref(|| serial);
        let rows = props.change.as_ref().and_then(|c| {
            let first = c.moves.iter().map(|m| m.range.first / COLS).min()?;
            let last = c.moves.iter().map(|m| m.range.last / COLS).max()?;
            Some((first, last))
        });
        use_effect_with(serial, move |serial| {
            let fresh = *seen.borrow() != *serial;
            seen.replace(*serial);
            if let (true, Some((first, last)), Some(el)) =
                (fresh, rows, svg.cast::<web_sys::Element>())
            {
                bring_into_view(&el, first, last);
            }
        });
    }
    let Some(change) = props.change.as_ref().filter(|c| !c.moves.is_empty()) else {
        return Html::default();
    };
    let cols = f64::from(COLS);
    let colour_of = |id: Option<&String>| {
        props
            .map
            .masters()
            .iter()
            .position(|m| Some(&m.id) == id)
            .and_then(|i| props.colours.get(i).cloned())
            .unwrap_or_default()
    };
    // Many small moves (a rebalance of a created cluster) would be a thicket: the 12 largest.
    let mut moves: Vec<&OwnerChange> = change.moves.iter().collect();
    moves.sort_by_key(|m| std::cmp::Reverse(m.range.len()));
    moves.truncate(12);
    let outlines = moves.iter().flat_map(|m| {
        let colour = colour_of(m.to.as_ref());
        let (first, last) = (m.range.first, m.range.last);
        let mut segs = Vec::new();
        let mut s = first;
        while s <= last {
            let row = s / COLS;
            let end = (row * COLS + COLS - 1).min(last);
            segs.push((row, s % COLS, end - s + 1));
            if end == u16::MAX {
                break;
            }
            s = end + 1;
        }
        segs.into_iter().map(move |(row, col, n)| {
            html! {
                <rect class="trail__range" x={col.to_string()} y={row.to_string()} width={n.to_string()} height="1"
                      stroke={colour.clone()} />
            }
        })
    });
    // The targets' labels first, then the sources' (see below).
    let mut labels: Vec<EndLabel> = Vec::new();
    let mut sources: Vec<EndLabel> = Vec::new();
    let mut arrows = Vec::new();
    for (i, m) in moves.iter().enumerate() {
        let Some(from) = kept_centre(&props.map, m.from.as_ref()) else {
            continue;
        };
        let to = centre(m.range.first, m.range.last);
        let colour = colour_of(m.to.as_ref());
        let (from_addr, to_addr) = (
            addr_of(&change.before, m.from.as_ref()),
            addr_of(&props.map, m.to.as_ref()),
        );
        let head = format!("trail-head-{}-{i}", change.serial);
        arrows.push(html! {
            <g class="trail__arrow" data-testid="reshard-trail" data-from={from_addr.clone()}
               data-to={to_addr.clone()} data-slots={m.range.len().to_string()}>
                <defs>
                    // The head points along the line at the range the slots went to.
                    <marker id={head.clone()} class="trail__head" viewBox="0 0 10 10" refX="9" refY="5"
                            markerUnits="userSpaceOnUse" markerWidth="5" markerHeight="5" orient="auto-start-reverse">
                        <path d="M0,0 L10,5 L0,10 z" fill={colour.clone()} />
                    </marker>
                </defs>
                <line x1={format!("{:.1}", from.0)} y1={format!("{:.1}", from.1)}
                      x2={format!("{:.1}", to.0)} y2={format!("{:.1}", to.1)} stroke={colour}
                      marker-end={format!("url(#{head})")} />
                <circle cx={format!("{:.1}", from.0)} cy={format!("{:.1}", from.1)} r="1.2" />
            </g>
        });
        // One label per source (its arrows all start at the same place); a target's label
        // once per neighbourhood.
        let from_text = fill(
            t.trail_from,
            &[&end_name(&change.before, &props.map, &from_addr)],
        );
        if !sources.iter().any(|l| l.text == from_text) {
            sources.push(EndLabel {
                text: from_text,
                at: from,
                below: from.1 > to.1,
                target: false,
            });
        }
        let to_text = fill(
            t.trail_to,
            &[&end_name(&change.before, &props.map, &to_addr)],
        );
        let near = |l: &EndLabel| (l.at.0 - to.0).abs() < 24.0 && (l.at.1 - to.1).abs() < 6.0;
        if !labels
            .iter()
            .any(|l| l.target && l.text == to_text && near(l))
        {
            labels.push(EndLabel {
                text: to_text,
                at: to,
                below: to.1 >= from.1,
                target: true,
            });
        }
    }
    // A source's label that would sit on another label is left out (at 1000 masters the
    // sources of a reshard from all are neighbours, and their labels piled up): its arrow
    // stays, and the count under the map says how many sources there were. Near means within
    // what a label covers on a phone's map, where a cell is about 3 px.
    for s in sources {
        let crowded = labels
            .iter()
            .any(|l| (l.at.0 - s.at.0).abs() < 30.0 && (l.at.1 - s.at.1).abs() < 8.0);
        if !crowded {
            labels.push(s);
        }
    }
    let labels = labels.iter().map(|l| {
        html! {
            <StyledSpan class={classes!("trail__end", l.target.then_some("trail__end--to"))}
                        style={label_style(l)}>{ html! { l.text.clone() } }</StyledSpan>
        }
    });
    html! {
        <>
        <svg ref={svg} class="trail" viewBox={format!("0 0 {cols} {cols}")} preserveAspectRatio="none" aria-hidden="true"
             key={change.serial.to_string()}>
            { for outlines }
            { for arrows }
        </svg>
        <div class="trail__ends" data-testid="trail-ends" aria-hidden="true" key={format!("ends-{}", change.serial)}>
            { for labels }
        </div>
        </>
    }
}

/// Props of [`ReshardCount`].
#[derive(Properties, PartialEq)]
pub struct ReshardCountProps {
    /// The cluster now.
    pub map: Rc<SlotMap>,
    /// The last change.
    pub change: Option<Rc<Change>>,
    /// The slot of the page's key.
    pub marked: Option<u16>,
}

/// Under the map: the running count of slots moved, and the keys that went with them.
#[function_component(ReshardCount)]
pub fn reshard_count(props: &ReshardCountProps) -> Html {
    let t = use_messages();
    let shown = use_state(|| 0usize);
    let total = props.change.as_ref().map_or(0, |c| c.n_slots());
    // Counts up with the map's repaint (the same batches per frame), or at once under reduced
    // motion.
    {
        let shown = shown.clone();
        let serial = props.change.as_ref().map(|c| c.serial);
        use_effect_with((serial, total), move |&(_, total)| {
            let reduced = web_sys::window()
                .and_then(|w| {
                    w.match_media("(prefers-reduced-motion: reduce)")
                        .ok()
                        .flatten()
                })
                .is_some_and(|m| m.matches());
            let ticking = shown.clone();
            let timer = (!reduced && total > 0).then(move || {
                let shown = ticking;
                let step = batch_size(total);
                let mut done = 0usize;
                shown.set(0);
                Interval::new(16, move || {
                    if done < total {
                        done = (done + step).min(total);
                        shown.set(done);
                    }
                })
            });
            if timer.is_none() {
                shown.set(total);
            }
            move || drop(timer)
        });
    }
    // map18: a new cluster was made, not resharded: nothing moved, and the caption says so.
    if let Some(c) = props.change.as_ref().filter(|c| c.replaced) {
        return html! {
            <div class="trail__caption" data-testid="new-cluster">
                <p>{ fill(t.trail_new_cluster, &[&c.label.text(t)]) }</p>
            </div>
        };
    }
    let Some(change) = props.change.as_ref().filter(|c| !c.moves.is_empty()) else {
        return Html::default();
    };
    let keys = moved_keys(change, &props.map, props.marked);
    // Sorted and without repeats; masters looked up by id once, not once per move (a
    // reshard from all of 1000 masters is 1000 moves, issue 17).
    let sources: Vec<String> = {
        let by_id: std::collections::HashMap<&str, &str> = change
            .before
            .masters()
            .iter()
            .map(|m| (m.id.as_str(), m.addr.as_str()))
            .collect();
        let s: std::collections::BTreeSet<&str> = change
            .moves
            .iter()
            .map(|m| {
                m.from
                    .as_ref()
                    .and_then(|id| by_id.get(id.as_str()).copied())
                    .unwrap_or("-")
            })
            .collect();
        s.into_iter().map(str::to_owned).collect()
    };
    html! {
        <div class="trail__caption" data-testid="reshard-count" data-moved={(*shown).to_string()} data-total={total.to_string()}>
            <p class="mono trail__count" aria-live="off">
                { fill(t.trail_count, &[&(*shown).min(total), &total, &sources.join(", ")]) }
            </p>
            if keys.is_empty() {
                // The sample keys are code (Redis keys), the sentence around them prose.
                <p class="trail__keys">{
                    match t.trail_no_keys.split_once("{0}") {
                        Some((before, after)) => html! { <>{ before }<code>{ SAMPLE_KEYS.join(", ") }</code>{ after }</> },
                        None => html! { { fill(t.trail_no_keys, &[&SAMPLE_KEYS.join(", ")]) } },
                    }
                }</p>
            } else {
                <p class="trail__keys">{ t.trail_keys }</p>
                <ul class="trail__key-list">
                    { for keys.iter().map(|k| html! {
                        <li class="mono" data-testid="moved-key" data-key={k.key.clone()}>
                            { if k.key.is_empty() { fill(t.trail_your_key, &[&k.slot, &k.from, &k.to]) }
                              else { fill(t.trail_key, &[&k.key, &k.slot, &k.from, &k.to]) } }
                        </li>
                    }) }
                </ul>
            }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Transcript 02 and 07: foo hashes to 12182, {user:1001}:profile to 5712.
    #[test]
    fn sample_key_slots_are_the_recorded_ones() {
        assert_eq!(key_slot(b"foo"), 12182);
        assert_eq!(key_slot(b"{user:1001}:profile"), 5712);
        assert_eq!(centre(0, 127), (63.5, 0.5));
        assert_eq!(centre(16383, 16383), (127.5, 127.5));
    }

    #[test]
    fn trail_ends_are_named_by_port_when_ports_differ() {
        let map = SlotMap::fixture_cluster();
        assert_eq!(end_name(&map, &map, "127.0.0.1:7000"), ":7000");
    }

    #[test]
    fn end_labels_stay_on_the_map() {
        let at = |x: f64, y: f64, below: bool| EndLabel {
            text: String::new(),
            at: (x, y),
            below,
            target: true,
        };
        assert_eq!(
            label_style(&at(2.5, 0.5, false)),
            "left:1.953%;top:0.391%;transform:translate(0%,8px)"
        );
        assert_eq!(
            label_style(&at(127.5, 127.5, true)),
            "left:99.609%;top:99.609%;transform:translate(-100%,calc(-100% - 8px))"
        );
        assert_eq!(
            label_style(&at(64.0, 64.0, false)),
            "left:50.000%;top:50.000%;transform:translate(-50%,calc(-100% - 8px))"
        );
    }
}
