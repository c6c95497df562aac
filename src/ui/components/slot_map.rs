//! The 16384-slot map: a 128 × 128 canvas coloured by master, the typed key's slot ringed,
//! hover and keyboard focus reading out slot, owner and range.
//!
//! Two stacked canvases: the base (`data-testid="slot-map"`) is repainted only when the
//! cluster or the colour scheme (`prefers-color-scheme`, followed live) changes; the overlay, which ignores the pointer, carries the ring,
//! the hover and the keyboard cursor, so moving the mouse never repaints 16384 slots.

use crate::core::{SlotMap as Slots, N_SLOTS};
use crate::ui::components::map_ranges::MapRanges;
use crate::ui::components::reshard_trail::{ReshardCount, ReshardTrail};
use crate::ui::key_store::{use_key_select, KeyStore};
use crate::ui::messages::{fill, use_messages};
use crate::ui::palette;
use crate::ui::state::Change;
use crate::ui::styled::StyledSpan;
use gloo_timers::callback::Interval;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};
use yew::prelude::*;

/// Slots per row of the map.
pub const COLS: u16 = 128;
/// Backing-store pixels per slot at a device pixel ratio of 1.
const CELL: f64 = 4.0;

/// Frames a change takes to animate, whatever its size: about a second and a half at 60 Hz,
/// slow enough to follow, short enough not to wait for.
const ANIMATION_FRAMES: usize = 90;

/// Props of [`SlotMap`].
#[derive(Properties, PartialEq)]
pub struct SlotMapProps {
    /// The cluster to draw.
    pub map: Rc<Slots>,
    /// Colour of each master, by index.
    pub colours: Rc<Vec<String>>,
    /// The last change to the cluster: its moved slots are repainted one batch per frame.
    #[prop_or_default]
    pub change: Option<Rc<Change>>,
    /// The key's state: the slot of the key in the pipeline is ringed on the map (the map
    /// re-renders when that slot changes, not at every keystroke).
    pub key_store: KeyStore,
    /// A selected range of slots (first, last), outlined; the parent offers to move it.
    #[prop_or_default]
    pub selection: Option<(u16, u16)>,
    /// Called when the reader drags (or shift-arrows) across slots to select them.
    #[prop_or_default]
    pub on_select: Callback<Option<(u16, u16)>>,
}

/// How many slots to repaint per frame so `n` moved slots take [`ANIMATION_FRAMES`] frames.
pub fn batch_size(n: usize) -> usize {
    n.div_ceil(ANIMATION_FRAMES).max(1)
}

fn prefers_reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| {
            w.match_media("(prefers-reduced-motion: reduce)")
                .ok()
                .flatten()
        })
        .map(|m| m.matches())
        .unwrap_or(false)
}

/// Row and column of a slot on the map.
pub fn cell_of(slot: u16) -> (u16, u16) {
    (slot / COLS, slot % COLS)
}

/// The slot under a point given as fractions (0..1) of the map's width and height.
pub fn slot_at(fx: f64, fy: f64) -> Option<u16> {
    if !(0.0..1.0).contains(&fx) || !(0.0..1.0).contains(&fy) {
        return None;
    }
    let col = (fx * COLS as f64) as u16;
    let row = (fy * (N_SLOTS as u16 / COLS) as f64) as u16;
    Some(row * COLS + col)
}

/// The slots `first..=last` cut at row ends: `(row, first column, cells)` per row they cross.
pub fn row_segments(first: u16, last: u16) -> impl Iterator<Item = (u16, u16, u16)> {
    let mut next = (first <= last).then_some(first);
    core::iter::from_fn(move || {
        let s = next?;
        let (row, col) = cell_of(s);
        let e = last.min((row + 1) * COLS - 1);
        next = (e < last).then(|| e + 1);
        Some((row, col, e - s + 1))
    })
}

/// Where the keyboard cursor goes from `slot` on `key`, or `None` if the key is not ours.
pub fn step_cursor(slot: u16, key: &str) -> Option<u16> {
    let last = N_SLOTS as i32 - 1;
    let s = slot as i32;
    let next = match key {
        "ArrowRight" => s + 1,
        "ArrowLeft" => s - 1,
        "ArrowDown" => s + COLS as i32,
        "ArrowUp" => s - COLS as i32,
        "PageDown" => s + 8 * COLS as i32,
        "PageUp" => s - 8 * COLS as i32,
        "Home" => 0,
        "End" => last,
        _ => return None,
    };
    Some(next.clamp(0, last) as u16)
}

/// Whether the reader's scheme is dark.
pub fn prefers_dark() -> bool {
    // Prerendered natively at build time (`ui::prerender`): no window, the light scheme.
    if cfg!(not(target_arch = "wasm32")) {
        return false;
    }
    web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .map(|m| m.matches())
        .unwrap_or(false)
}

fn context_of(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
}

/// Sizes the canvas backing store for the device pixel ratio; returns the scale to draw at.
fn fit(canvas: &HtmlCanvasElement) -> f64 {
    let dpr = web_sys::window()
        .map(|w| w.device_pixel_ratio())
        .unwrap_or(1.0)
        .clamp(1.0, 3.0);
    let side = (COLS as f64 * CELL * dpr).round() as u32;
    if canvas.width() != side {
        canvas.set_width(side);
        canvas.set_height(side);
    }
    CELL * dpr
}

/// Every slot in its owner's colour as one pixel of a 128 × 128 image, drawn scaled onto
/// `ctx` (nearest neighbour, so each slot is a square of `cell` pixels): one canvas call for
/// the whole map. A `fillStyle` per run parses its colour, 4.5 µs for an `oklch()`: 1000
/// masters cost 4.5 ms that way. `None` (nothing drawn) if a colour is not one
/// [`palette::srgb`] reads, or the browser gives no image or canvas.
fn paint_image(
    ctx: &CanvasRenderingContext2d,
    side: f64,
    map: &Slots,
    colours: &[String],
    dark: bool,
) -> Option<()> {
    let mut pixels = vec![0u8; N_SLOTS * 4];
    for run in map.runs() {
        let [r, g, b] = palette::srgb(palette::owner_colour(run.owner, colours, dark))?;
        let (first, last) = (run.range.first as usize, run.range.last as usize);
        for px in pixels[first * 4..(last + 1) * 4].chunks_exact_mut(4) {
            px.copy_from_slice(&[r, g, b, 255]);
        }
    }
    let rows = (N_SLOTS / COLS as usize) as u32;
    let image = web_sys::ImageData::new_with_u8_clamped_array_and_sh(
        wasm_bindgen::Clamped(&pixels),
        COLS as u32,
        rows,
    )
    .ok()?;
    let scratch = scratch_canvas(rows)?;
    context_of(&scratch)?
        .put_image_data(&image, 0.0, 0.0)
        .ok()?;
    ctx.set_image_smoothing_enabled(false);
    ctx.draw_image_with_html_canvas_element_and_dw_and_dh(&scratch, 0.0, 0.0, side, side)
        .ok()
}

/// The canvas, one pixel per slot, that [`paint_image`] puts the map's pixels on: made once.
fn scratch_canvas(rows: u32) -> Option<HtmlCanvasElement> {
    SCRATCH.with(|s| {
        if s.borrow().is_none() {
            let c = web_sys::window()?
                .document()?
                .create_element("canvas")
                .ok()?
                .dyn_into::<HtmlCanvasElement>()
                .ok()?;
            c.set_width(COLS as u32);
            c.set_height(rows);
            *s.borrow_mut() = Some(c);
        }
        s.borrow().clone()
    })
}

thread_local! {
    /// See [`scratch_canvas`].
    static SCRATCH: RefCell<Option<HtmlCanvasElement>> = const { RefCell::new(None) };
}

/// Paints every slot in its owner's colour: as one image ([`paint_image`]), else one
/// rectangle per run per row.
fn paint_base(canvas: &HtmlCanvasElement, map: &Slots, colours: &[String], dark: bool) {
    let Some(ctx) = context_of(canvas) else {
        return;
    };
    let cell = fit(canvas);
    let side = canvas.width() as f64;
    ctx.clear_rect(0.0, 0.0, side, side);
    if paint_image(&ctx, side, map, colours, dark).is_none() {
        for run in map.runs() {
            let colour = palette::owner_colour(run.owner, colours, dark);
            ctx.set_fill_style_str(colour);
            for (row, col, len) in row_segments(run.range.first, run.range.last) {
                ctx.fill_rect(
                    col as f64 * cell,
                    row as f64 * cell,
                    len as f64 * cell,
                    cell,
                );
            }
        }
    }
    // Uncovered slots are struck through in red: a cluster with them answers CLUSTERDOWN.
    ctx.set_fill_style_str(palette::uncovered(dark));
    let stroke = (cell / 3.0).max(1.0);
    for run in map.runs().filter(|r| r.owner.is_none()) {
        for (row, col, len) in row_segments(run.range.first, run.range.last) {
            let y = row as f64 * cell + (cell - stroke) / 2.0;
            ctx.fill_rect(col as f64 * cell, y, len as f64 * cell, stroke);
        }
    }
    // Slots being migrated get a square in the accent colour around them, on both sides.
    ctx.set_stroke_style_str(if dark { "#6cb4ff" } else { "#0b6bcb" });
    ctx.set_line_width((cell / 2.0).max(1.0));
    for slot in open_slots(map) {
        let (row, col) = cell_of(slot);
        ctx.stroke_rect(
            col as f64 * cell - cell,
            row as f64 * cell - cell,
            cell * 3.0,
            cell * 3.0,
        );
    }
    paint_rules(&ctx, cell, side, dark);
}

/// Every slot some master is migrating or importing.
fn open_slots(map: &Slots) -> impl Iterator<Item = u16> + '_ {
    map.masters().iter().flat_map(|m| {
        m.migrating
            .iter()
            .chain(m.importing.iter())
            .map(|&(slot, _)| slot)
    })
}

/// Repaints single slots in their owner's colour in `map` (one frame of an animation).
fn paint_slots(
    canvas: &HtmlCanvasElement,
    map: &Slots,
    colours: &[String],
    slots: &[u16],
    dark: bool,
) {
    let Some(ctx) = context_of(canvas) else {
        return;
    };
    let cell = fit(canvas);
    for &slot in slots {
        let colour = palette::owner_colour(map.owner(slot), colours, dark);
        ctx.set_fill_style_str(colour);
        let (row, col) = cell_of(slot);
        ctx.fill_rect(col as f64 * cell, row as f64 * cell, cell, cell);
    }
}

/// Faint rules every 16 rows (2048 slots) and 16 columns, to read positions by eye.
fn paint_rules(ctx: &CanvasRenderingContext2d, cell: f64, side: f64, dark: bool) {
    ctx.set_fill_style_str(if dark {
        "rgba(0,0,0,0.35)"
    } else {
        "rgba(255,255,255,0.55)"
    });
    let hair = (cell / 4.0).max(1.0);
    for k in 1..8 {
        let at = k as f64 * 16.0 * cell;
        ctx.fill_rect(at - hair / 2.0, 0.0, hair, side);
        ctx.fill_rect(0.0, at - hair / 2.0, side, hair);
    }
}

/// Draws the selection, the ring around the typed key's slot and the hover or cursor square.
fn paint_overlay(
    canvas: &HtmlCanvasElement,
    marked: Option<u16>,
    pointed: Option<u16>,
    selection: Option<(u16, u16)>,
    dark: bool,
) {
    let Some(ctx) = context_of(canvas) else {
        return;
    };
    let cell = fit(canvas);
    let side = canvas.width() as f64;
    ctx.clear_rect(0.0, 0.0, side, side);
    let (ink, paper) = if dark {
        ("#f4f1ea", "#111")
    } else {
        ("#1b1a17", "#fff")
    };
    if let Some((a, b)) = selection {
        // Veil the selected slots row by row, so the range reads as one band across rows.
        ctx.set_fill_style_str(if dark {
            "rgba(255,255,255,0.45)"
        } else {
            "rgba(0,0,0,0.38)"
        });
        let (first, last) = (a.min(b), a.max(b).min(N_SLOTS as u16 - 1));
        for (row, col, len) in row_segments(first, last) {
            ctx.fill_rect(
                col as f64 * cell,
                row as f64 * cell,
                len as f64 * cell,
                cell,
            );
        }
    }
    if let Some(slot) = marked {
        let (row, col) = cell_of(slot);
        let (cx, cy) = ((col as f64 + 0.5) * cell, (row as f64 + 0.5) * cell);
        // Crosshair along the slot's row and column, then a two-tone ring: visible on any colour.
        ctx.set_fill_style_str(if dark {
            "rgba(255,255,255,0.18)"
        } else {
            "rgba(0,0,0,0.12)"
        });
        ctx.fill_rect(0.0, row as f64 * cell, side, cell);
        ctx.fill_rect(col as f64 * cell, 0.0, cell, side);
        for (colour, width, r) in [
            (paper, cell * 1.2, cell * 2.6),
            (ink, cell * 0.6, cell * 2.6),
        ] {
            ctx.set_stroke_style_str(colour);
            ctx.set_line_width(width);
            ctx.stroke_rect(cx - r, cy - r, 2.0 * r, 2.0 * r);
        }
    }
    if let Some(slot) = pointed {
        let (row, col) = cell_of(slot);
        ctx.set_stroke_style_str(ink);
        ctx.set_line_width((cell / 3.0).max(1.0));
        ctx.stroke_rect(
            col as f64 * cell - cell * 0.5,
            row as f64 * cell - cell * 0.5,
            cell * 2.0,
            cell * 2.0,
        );
    }
}

/// The slot map.
#[function_component(SlotMap)]
pub fn slot_map(props: &SlotMapProps) -> Html {
    let t = use_messages();
    let base = use_node_ref();
    let overlay = use_node_ref();
    let hover = use_state(|| None::<u16>);
    let cursor = use_state(|| None::<u16>);
    let pointed = (*hover).or(*cursor);
    let marked = use_key_select(&props.key_store, |k| k.explained.slot);

    // The colour scheme the canvases are painted for; the reader's system may switch it while
    // the page is open (dark mode at sunset), and both canvases follow.
    let dark = use_state(prefers_dark);
    {
        let dark = dark.setter();
        use_effect_with((), move |_| {
            let query = web_sys::window()
                .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten());
            let listener = query.map(|q| {
                gloo_events::EventListener::new(&q, "change", move |_| dark.set(prefers_dark()))
            });
            move || drop(listener)
        });
    }
    // The change last animated, so a repaint for another reason (the colour scheme) does not
    // play it again.
    let animated = use_mut_ref(|| None::<Rc<Change>>);
    {
        // Paint the map; after a change, paint the cluster as it was and then walk the moved
        // slots into their new colours, a batch per frame. The interval stops when the last
        // batch is painted, and is dropped when the map changes again or the component goes away.
        let base = base.clone();
        let deps = (
            props.map.clone(),
            props.colours.clone(),
            props.change.clone(),
            *dark,
        );
        use_effect_with(deps, move |(map, colours, change, dark)| {
            let dark = *dark;
            let timer: Rc<RefCell<Option<Interval>>> = Rc::default();
            if let Some(canvas) = base.cast::<HtmlCanvasElement>() {
                let fresh = match (change, &*animated.borrow()) {
                    (Some(c), Some(seen)) => !Rc::ptr_eq(c, seen),
                    (Some(_), None) => true,
                    (None, _) => false,
                };
                animated.replace(change.clone());
                let moved: Vec<u16> = change
                    .as_ref()
                    .filter(|_| fresh)
                    .map(|c| {
                        c.moves
                            .iter()
                            .flat_map(|m| m.range.first..=m.range.last)
                            .collect()
                    })
                    .unwrap_or_default();
                match change {
                    Some(c) if !moved.is_empty() && !prefers_reduced_motion() => {
                        paint_base(&canvas, &c.before, &c.before_colours, dark);
                        let (map, colours) = (map.clone(), colours.clone());
                        let step = batch_size(moved.len());
                        let mut done = 0;
                        let holder = timer.clone();
                        *timer.borrow_mut() = Some(Interval::new(16, move || {
                            if done >= moved.len() {
                                return;
                            }
                            let end = (done + step).min(moved.len());
                            paint_slots(&canvas, &map, &colours, &moved[done..end], dark);
                            done = end;
                            if done == moved.len() {
                                // The end state, with the rules the single-slot frames covered.
                                paint_base(&canvas, &map, &colours, dark);
                                // Stop ticking: dropped once this tick has returned.
                                let holder = holder.clone();
                                wasm_bindgen_futures::spawn_local(async move {
                                    holder.borrow_mut().take();
                                });
                            }
                        }));
                    }
                    _ => paint_base(&canvas, map, colours, dark),
                }
            }
            move || drop(timer.borrow_mut().take())
        });
    }
    {
        let overlay = overlay.clone();
        use_effect_with(
            (marked, pointed, props.selection, *dark),
            move |&(marked, pointed, selection, dark)| {
                if let Some(canvas) = overlay.cast::<HtmlCanvasElement>() {
                    paint_overlay(&canvas, Some(marked), pointed, selection, dark);
                }
            },
        );
    }

    // Where a drag started (mouse) or a Shift-selection is anchored (keyboard).
    let anchor = use_mut_ref(|| None::<u16>);
    let dragging = use_mut_ref(|| false);
    let slot_of_event = {
        let base = base.clone();
        move |e: &MouseEvent| -> Option<u16> {
            let canvas = base.cast::<HtmlCanvasElement>()?;
            let rect = canvas.get_bounding_client_rect();
            if rect.width() <= 0.0 || rect.height() <= 0.0 {
                return None;
            }
            let fx = (e.client_x() as f64 - rect.left()) / rect.width();
            let fy = (e.client_y() as f64 - rect.top()) / rect.height();
            slot_at(fx, fy)
        }
    };
    let onmousedown = {
        let (anchor, dragging, on_select) =
            (anchor.clone(), dragging.clone(), props.on_select.clone());
        let slot_of_event = slot_of_event.clone();
        Callback::from(move |e: MouseEvent| {
            if e.button() != 0 {
                return;
            }
            if let Some(slot) = slot_of_event(&e) {
                *anchor.borrow_mut() = Some(slot);
                *dragging.borrow_mut() = true;
                on_select.emit(Some((slot, slot)));
            }
        })
    };
    let onmousemove = {
        let (hover, anchor, dragging, on_select) = (
            hover.clone(),
            anchor.clone(),
            dragging.clone(),
            props.on_select.clone(),
        );
        let slot_of_event = slot_of_event.clone();
        Callback::from(move |e: MouseEvent| {
            let slot = slot_of_event(&e);
            if *hover != slot {
                hover.set(slot);
            }
            if *dragging.borrow()
                && let (Some(a), Some(s)) = (*anchor.borrow(), slot)
            {
                on_select.emit(Some((a.min(s), a.max(s))));
            }
        })
    };
    let onmouseup = {
        let dragging = dragging.clone();
        Callback::from(move |_: MouseEvent| *dragging.borrow_mut() = false)
    };
    let onmouseleave = {
        let (hover, dragging) = (hover.clone(), dragging.clone());
        Callback::from(move |_: MouseEvent| {
            *dragging.borrow_mut() = false;
            hover.set(None);
        })
    };
    let onkeydown = {
        let (cursor, hover, anchor, on_select) = (
            cursor.clone(),
            hover.clone(),
            anchor.clone(),
            props.on_select.clone(),
        );
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                *anchor.borrow_mut() = None;
                on_select.emit(None);
                return;
            }
            let from = (*cursor).unwrap_or(marked);
            if let Some(next) = step_cursor(from, &e.key()) {
                e.prevent_default();
                cursor.set(Some(next));
                // The keyboard was used last: its slot, not the pointer's, is the one to read out.
                hover.set(None);
                if e.shift_key() {
                    let a = anchor.borrow().unwrap_or(from);
                    *anchor.borrow_mut() = Some(a);
                    on_select.emit(Some((a.min(next), a.max(next))));
                } else {
                    *anchor.borrow_mut() = None;
                }
            }
        })
    };
    let onfocus = {
        let cursor = cursor.clone();
        Callback::from(move |_: FocusEvent| cursor.set(Some(marked)))
    };
    let onblur = {
        let cursor = cursor.clone();
        Callback::from(move |_: FocusEvent| cursor.set(None))
    };

    let map = &props.map;
    let describe = |slot: u16| -> (String, Option<usize>) {
        let owner = map.owner(slot);
        let name = owner
            .map(|m| map.masters()[m].addr.clone())
            .unwrap_or_else(|| t.unowned.to_string());
        let range = map
            .run_containing(slot)
            .map(|r| r.range.to_string())
            .unwrap_or_default();
        let mut text = fill(t.map_readout, &[&slot, &name, &range]);
        for m in map.masters() {
            for (_, to) in m.migrating.iter().filter(|(s, _)| *s == slot) {
                text.push_str(&fill(t.map_migrating, &[&m.addr, &map.name_of_id(to)]));
            }
        }
        if marked == slot {
            text.push_str(t.map_your_key);
        }
        (text, owner)
    };

    let tooltip = (*hover).map(|slot| {
        let (text, owner) = describe(slot);
        let (row, col) = cell_of(slot);
        let left = (col as f64 + 0.5) / COLS as f64 * 100.0;
        let top = row as f64 / COLS as f64 * 100.0;
        // Keep the label inside the map near its left and right edges.
        let shift = if col < 24 {
            "0%"
        } else if col > 104 {
            "-100%"
        } else {
            "-50%"
        };
        let swatch = owner.and_then(|m| props.colours.get(m).cloned());
        html! {
            <StyledSpan class="slot-map__tip" aria_hidden=true
                 style={format!("left:{left:.3}%;top:{top:.3}%;--tip-shift:{shift}")}>
                <StyledSpan class="swatch" style={swatch.map(|c| format!("background:{c}")).unwrap_or_default()} />
                { text }
            </StyledSpan>
        }
    });

    let readout = match pointed {
        Some(slot) => describe(slot).0,
        None => t.map_readout_idle.to_string(),
    };

    html! {
        <div class="slot-map__wrap">
        <figure class="slot-map">
            <div class="slot-map__frame">
                <canvas ref={base} class="slot-map__canvas" data-testid="slot-map"
                    tabindex="0" role="img" aria-label={t.map_label}
                    aria-describedby="slot-map-readout" aria-details="slot-map-ranges"
                    {onmousedown} {onmousemove} {onmouseup} {onmouseleave} {onkeydown} {onfocus} {onblur}>
                </canvas>
                <canvas ref={overlay} class="slot-map__overlay" aria-hidden="true"></canvas>
                // diagrams-tour: a reshard's trail (moved ranges, arrows from their old owners).
                <ReshardTrail map={props.map.clone()} colours={props.colours.clone()} change={props.change.clone()} />
                { tooltip.unwrap_or_default() }
                <ol class="slot-map__rows" aria-hidden="true">
                    { for (0..8).map(|k| html! { <li>{ k * 2048 }</li> }) }
                </ol>
            </div>
            <figcaption class="slot-map__readout" id="slot-map-readout" aria-live="polite">
                { readout }
            </figcaption>
        </figure>
        // diagrams-tour: the running count of a reshard and the keys that moved with it.
        <ReshardCount map={props.map.clone()} change={props.change.clone()} marked={Some(marked)} />
        <MapRanges map={props.map.clone()} />
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_map_to_slots_and_back() {
        assert_eq!(slot_at(0.0, 0.0), Some(0));
        assert_eq!(slot_at(0.999, 0.999), Some(16383));
        assert_eq!(slot_at(1.0, 0.5), None);
        assert_eq!(slot_at(-0.01, 0.5), None);
        for slot in [0u16, 127, 128, 8106, 16383] {
            let (row, col) = cell_of(slot);
            let fx = (col as f64 + 0.5) / 128.0;
            let fy = (row as f64 + 0.5) / 128.0;
            assert_eq!(slot_at(fx, fy), Some(slot));
        }
    }

    #[test]
    fn ranges_split_at_row_ends() {
        assert_eq!(row_segments(0, 127).collect::<Vec<_>>(), vec![(0, 0, 128)]);
        assert_eq!(
            row_segments(120, 300).collect::<Vec<_>>(),
            vec![(0, 120, 8), (1, 0, 128), (2, 0, 45)]
        );
        assert_eq!(
            row_segments(16383, 16383).collect::<Vec<_>>(),
            vec![(127, 127, 1)]
        );
        assert_eq!(row_segments(5, 4).count(), 0);
        let cells: u32 = row_segments(0, 16383).map(|(_, _, n)| n as u32).sum();
        assert_eq!(cells, 16384);
    }

    #[test]
    fn the_cursor_stays_on_the_map() {
        assert_eq!(step_cursor(0, "ArrowLeft"), Some(0));
        assert_eq!(step_cursor(0, "ArrowUp"), Some(0));
        assert_eq!(step_cursor(16383, "ArrowDown"), Some(16383));
        assert_eq!(step_cursor(100, "ArrowDown"), Some(228));
        assert_eq!(step_cursor(100, "End"), Some(16383));
        assert_eq!(step_cursor(100, "a"), None);
    }
}
