//! What a reshard (or any change of owners) shows on the slot map, beyond the new colours: each
//! moved range outlined, an arrow from what its old owner kept to the range it gave up, a
//! running count of the slots moved while the map repaints them, and the keys that moved with
//! them (the page's key and the transcripts' sample keys, slots from the core's CRC16).

use crate::core::cluster::topology::{OwnerChange, SlotMap};
use crate::core::key::slot::key_slot;
use crate::ui::components::slot_map::{batch_size, COLS};
use crate::ui::messages::{fill, use_messages};
use crate::ui::state::Change;
use gloo_timers::callback::Interval;
use std::rc::Rc;
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

/// The overlay on the map: moved ranges outlined, arrows from what each source kept.
#[function_component(ReshardTrail)]
pub fn reshard_trail(props: &ReshardTrailProps) -> Html {
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
    let arrows = moves.iter().filter_map(|m| {
        let from = kept_centre(&props.map, m.from.as_ref())?;
        let to = centre(m.range.first, m.range.last);
        let colour = colour_of(m.to.as_ref());
        Some(html! {
            <g class="trail__arrow" data-testid="reshard-trail" data-from={addr_of(&change.before, m.from.as_ref())}
               data-to={addr_of(&props.map, m.to.as_ref())} data-slots={m.range.len().to_string()}>
                <line x1={format!("{:.1}", from.0)} y1={format!("{:.1}", from.1)}
                      x2={format!("{:.1}", to.0)} y2={format!("{:.1}", to.1)} stroke={colour} />
                <circle cx={format!("{:.1}", to.0)} cy={format!("{:.1}", to.1)} r="1.6" />
            </g>
        })
    });
    html! {
        <svg class="trail" viewBox={format!("0 0 {cols} {cols}")} preserveAspectRatio="none" aria-hidden="true"
             key={change.serial.to_string()}>
            { for outlines }
            { for arrows }
        </svg>
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
    let Some(change) = props.change.as_ref().filter(|c| !c.moves.is_empty()) else {
        return Html::default();
    };
    let keys = moved_keys(change, &props.map, props.marked);
    let sources: Vec<String> = {
        let mut s: Vec<String> = change
            .moves
            .iter()
            .map(|m| addr_of(&change.before, m.from.as_ref()))
            .collect();
        s.sort();
        s.dedup();
        s
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
}
