//! Who thinks what: row = observer, column = subject. Up to 16 nodes a table whose cells say
//! ok / fail? / fail with the failure reports held; above that a canvas (one pixel block per
//! pair, up to 1000 × 1000), repainted only when the instant's events change.

use super::circle::opinion_glyph;
use super::model::{opinion, opinion_code};
use super::RunHandle;
use crate::core::bus::{flag, Opinion};
use crate::ui::bus_words::use_bus_words;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};
use yew::prelude::*;

/// Up to this many nodes the matrix is a table.
pub const TABLE_UP_TO: usize = 16;
/// The canvas's side in CSS pixels.
const SIDE: u32 = 400;

/// Props of [`BusMatrix`].
#[derive(Properties, PartialEq)]
pub struct BusMatrixProps {
    /// The run.
    pub run: RunHandle,
    /// Events at or before the instant (the matrix changes only with events).
    pub step: usize,
    /// The instant.
    pub t: u64,
    /// The chosen observer (its row is marked).
    pub observer: u32,
}

fn dark() -> bool {
    web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .is_some_and(|m| m.matches())
}

fn paint(canvas: &HtmlCanvasElement, run: &RunHandle, observer: u32) {
    let Some(ctx) = canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
    else {
        return;
    };
    let r = run.run.borrow();
    let sim = r.cursor();
    let n = sim.nodes.len().max(1);
    let dpr = web_sys::window()
        .map_or(1.0, |w| w.device_pixel_ratio())
        .clamp(1.0, 3.0);
    let px = (f64::from(SIDE) * dpr) as u32;
    if canvas.width() != px {
        canvas.set_width(px);
        canvas.set_height(px);
    }
    let cell = f64::from(px) / n as f64;
    let dark = dark();
    let (ok, pfail, fail, unknown, mark) = if dark {
        ("#2c3b2f", "#e0a100", "#ff6b5e", "#3a3732", "#6cb4ff")
    } else {
        ("#dcebdc", "#e69f00", "#c0392b", "#e2ddd3", "#0b6bcb")
    };
    ctx.set_fill_style_str(ok);
    ctx.fill_rect(0.0, 0.0, f64::from(px), f64::from(px));
    for (i, node) in sim.nodes.iter().enumerate() {
        for (j, p) in node.peers.iter().enumerate() {
            let colour = if i == j || !p.known() {
                unknown
            } else if p.flags & flag::FAIL != 0 {
                fail
            } else if p.flags & flag::PFAIL != 0 {
                pfail
            } else {
                continue;
            };
            ctx.set_fill_style_str(colour);
            ctx.fill_rect(
                j as f64 * cell,
                i as f64 * cell,
                cell.max(1.0),
                cell.max(1.0),
            );
        }
    }
    ctx.set_stroke_style_str(mark);
    ctx.set_line_width(dpr.max(1.0));
    ctx.stroke_rect(
        0.0,
        f64::from(observer) * cell,
        f64::from(px),
        cell.max(1.0),
    );
}

/// The legend and the help under the matrix (the words only).
#[function_component(BusMatrixNotes)]
fn bus_matrix_notes() -> Html {
    let w = use_bus_words();
    html! {
        <>
            <p class="bus__legend">
                <span class="bus__cell bus__cell--ok">{ "✓ " }{ w.legend[0] }</span>
                <span class="bus__cell bus__cell--pfail">{ "? " }{ w.legend[1] }</span>
                <span class="bus__cell bus__cell--fail">{ "✕ " }{ w.legend[2] }</span>
                <span class="bus__cell bus__cell--none">{ "· " }{ w.legend[3] }</span>
            </p>
            <p class="section-help">{ w.matrix_help }</p>
        </>
    }
}

/// Props of [`BusTable`].
#[derive(Properties, PartialEq)]
pub struct BusTableProps {
    /// Every node's port, by index.
    pub ports: Vec<u16>,
    /// Row by row (observer, then subject): the opinion with its failure reports, if known.
    pub cells: Vec<Option<(Opinion, usize)>>,
    /// The chosen observer (its row is marked).
    pub observer: u32,
}

/// The table (up to [`TABLE_UP_TO`] nodes): rendered only when a cell or the observer changes.
#[function_component(BusTable)]
fn bus_table(props: &BusTableProps) -> Html {
    let w = use_bus_words();
    let ports = &props.ports;
    let n = ports.len();
    let rows = (0..n).map(|i| {
        let cells = (0..n).map(|j| {
            if i == j {
                return html! { <td class="bus__cell bus__cell--self">{ "—" }</td> };
            }
            match props.cells.get(i * n + j).copied().flatten() {
                Some((op, reports)) => {
                    let code = opinion_code(op);
                    html! {
                        <td class={classes!("bus__cell", format!("bus__cell--{code}"))} data-testid="bus-opinion"
                            data-observer={format!("127.0.0.1:{}", ports[i])} data-subject={format!("127.0.0.1:{}", ports[j])}
                            data-flag={code} data-reports={reports.to_string()}>
                            { opinion_glyph(op) }
                            if reports > 0 || op != Opinion::Ok {
                                <span class="bus__reports">{ reports }</span>
                            }
                        </td>
                    }
                }
                None => html! { <td class="bus__cell bus__cell--none">{ "·" }</td> },
            }
        });
        html! {
            <tr class={classes!((i as u32 == props.observer).then_some("is-observer"))}>
                <th scope="row" class="mono">{ format!(":{}", ports[i]) }</th>
                { for cells }
            </tr>
        }
    });
    let head = ports
        .iter()
        .map(|p| html! { <th scope="col" class="mono">{ format!(":{p}") }</th> });
    html! {
        <div class="bus__matrix-scroll" tabindex="0" role="group" aria-label={w.matrix_title}>
            <table class="bus__table" data-testid="bus-matrix">
                <thead><tr><td></td>{ for head }</tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
        </div>
    }
}

/// The matrix.
#[function_component(BusMatrix)]
pub fn bus_matrix(props: &BusMatrixProps) -> Html {
    let w = use_bus_words();
    let canvas = use_node_ref();
    let n = props.run.run.borrow().cursor().nodes.len();
    {
        let (canvas, run, obs) = (canvas.clone(), props.run.clone(), props.observer);
        use_effect_with((props.step, props.run.version, obs, n), move |_| {
            if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                paint(&c, &run, obs);
            }
        });
    }
    if n > TABLE_UP_TO {
        return html! {
            <div class="bus__matrix">
                <h3 class="lab__title">{ w.matrix_title }</h3>
                <canvas ref={canvas} class="bus__matrix-canvas" width={SIDE.to_string()} height={SIDE.to_string()}
                        data-testid="bus-matrix" role="img" aria-label={w.matrix_help}></canvas>
                <BusMatrixNotes />
            </div>
        };
    }
    // The cells as they stand at the instant (every frame: at most 16 × 16 look-ups); the table
    // renders only when one of them changes.
    let r = props.run.run.borrow();
    let sim = r.cursor();
    let ports: Vec<u16> = sim.nodes.iter().map(|x| x.port).collect();
    let cells: Vec<Option<(Opinion, usize)>> = (0..n)
        .flat_map(|i| (0..n).map(move |j| (i, j)))
        .map(|(i, j)| {
            if i == j {
                None
            } else {
                opinion(sim, i as u32, j as u32)
            }
        })
        .collect();
    drop(r);
    html! {
        <div class="bus__matrix">
            <h3 class="lab__title">{ w.matrix_title }</h3>
            <BusTable ports={ports} cells={cells} observer={props.observer} />
            <BusMatrixNotes />
        </div>
    }
}
