//! Windowing for long lists (the node list at 1000 masters, the planner's 20,000 verdicts):
//! only the rows in and near the list's scrolled viewport are in the DOM; the rows above and
//! below are stood in for by two spacer items, so its scroll height stays what the whole list
//! would take. Short lists are rendered whole.

use yew::prelude::*;

/// Lists with more rows than this are windowed.
pub const WINDOW_FROM: usize = 60;
/// Rows rendered above and below the viewport, so a scroll of a few rows shows rows already
/// there.
const OVERSCAN: usize = 24;
/// Row height assumed until the rendered rows are measured, in CSS pixels.
const FIRST_GUESS_PX: f64 = 32.0;
/// Viewport height assumed until the list is measured, in CSS pixels.
const FIRST_VIEWPORT_PX: f64 = 600.0;

/// The rows to render: `start..end` of `n`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Window {
    /// First row rendered.
    pub start: usize,
    /// One past the last row rendered.
    pub end: usize,
    /// Whether the list is windowed at all (false: every row is rendered).
    pub windowed: bool,
}

impl Window {
    /// The rows of `n` to render when the viewport shows `top_px..top_px + height_px` and a
    /// row takes `row_px` (a pure function, so it is tested natively).
    pub fn of(n: usize, top_px: f64, height_px: f64, row_px: f64) -> Window {
        if n <= WINDOW_FROM {
            return Window {
                start: 0,
                end: n,
                windowed: false,
            };
        }
        let row = if row_px.is_finite() && row_px >= 1.0 {
            row_px
        } else {
            FIRST_GUESS_PX
        };
        let top = if top_px.is_finite() {
            top_px.max(0.0)
        } else {
            0.0
        };
        let height = if height_px.is_finite() && height_px > 0.0 {
            height_px
        } else {
            FIRST_VIEWPORT_PX
        };
        let first = ((top / row) as usize).min(n.saturating_sub(1));
        let shown = (height / row).ceil() as usize + 1;
        let start = first.saturating_sub(OVERSCAN);
        let end = first
            .saturating_add(shown)
            .saturating_add(OVERSCAN)
            .min(n)
            .max(start.saturating_add(1).min(n));
        Window {
            start,
            end,
            windowed: true,
        }
    }
}

/// Where the list is scrolled to and how tall a row is, as last measured.
#[derive(Clone, Copy, PartialEq)]
struct View {
    top_px: f64,
    height_px: f64,
    row_px: f64,
    /// The row count `row_px` was measured for: rows are measured once per list, so rows of
    /// unequal heights cannot make the window and the measure chase each other.
    measured: Option<usize>,
    /// Scrolled to the end: the last rows stay rendered and the list stays at its end, though
    /// the rows measured (of unequal heights) make the list taller or shorter than estimated.
    at_end: bool,
}

/// A windowed list's state: the rows to render, the list's `onscroll`, and the two spacers
/// that stand in for the rows above and below (render them with [`spacer`] first and last).
pub struct Windowed {
    /// The rows to render.
    pub window: Window,
    /// Give it to the scrolling list.
    pub onscroll: Callback<Event>,
    /// The spacer before the rows.
    pub before: NodeRef,
    /// The spacer after the rows.
    pub after: NodeRef,
}

/// An empty item whose height the window sets (hidden from assistive technology); nothing
/// when the list is not windowed.
pub fn spacer(windowed: &Windowed, node: &NodeRef) -> Html {
    if windowed.window.windowed {
        html! { <li ref={node.clone()} class="window-spacer" aria-hidden="true"></li> }
    } else {
        Html::default()
    }
}

fn html_element(node: &NodeRef) -> Option<web_sys::HtmlElement> {
    node.cast::<web_sys::HtmlElement>()
}

/// Windows a list of `n` rows whose scrolling element is `list` (give it the returned
/// `onscroll`, and put the two spacers around the rows). After each render the spacers take
/// the height of the rows left out; the first render of each row count measures its rows.
#[hook]
pub fn use_window(list: NodeRef, n: usize) -> Windowed {
    let view = use_state(|| View {
        top_px: 0.0,
        height_px: FIRST_VIEWPORT_PX,
        row_px: FIRST_GUESS_PX,
        measured: None,
        at_end: false,
    });
    let (before, after) = (use_node_ref(), use_node_ref());
    // At the end, the window is the last rows whatever the estimate says the offset is.
    let top_px = if view.at_end {
        (n as f64 * view.row_px - view.height_px).max(0.0)
    } else {
        view.top_px
    };
    let window = Window::of(n, top_px, view.height_px, view.row_px);
    let onscroll = {
        let (view, list) = (view.clone(), list.clone());
        Callback::from(move |_: Event| {
            let Some(el) = list.cast::<web_sys::Element>() else {
                return;
            };
            let (top_px, height_px) = (el.scroll_top() as f64, el.client_height() as f64);
            let at_end = top_px + height_px >= el.scroll_height() as f64 - 2.0;
            // Re-render only when the window would move by a few rows, or reaches or leaves
            // the end.
            let now = Window::of(n, top_px, height_px, view.row_px);
            let was = Window::of(n, view.top_px, view.height_px, view.row_px);
            if now.start.abs_diff(was.start) >= OVERSCAN / 4
                || now.end.abs_diff(was.end) >= OVERSCAN / 4
                || at_end != view.at_end
            {
                view.set(View {
                    top_px,
                    height_px,
                    at_end,
                    ..*view
                });
            }
        })
    };
    {
        let (view, before, after) = (view.clone(), before.clone(), after.clone());
        use_effect_with((window, view.row_px, n), move |&(window, row_px, n)| {
            let (Some(el), Some(top), Some(bottom)) = (
                html_element(&list),
                html_element(&before),
                html_element(&after),
            ) else {
                return;
            };
            let above = window.start as f64 * row_px;
            let below = n.saturating_sub(window.end) as f64 * row_px;
            let _ = top.style().set_property("height", &format!("{above:.0}px"));
            let _ = bottom
                .style()
                .set_property("height", &format!("{below:.0}px"));
            // A new list (another row count) does not inherit the old one's place at the end.
            if view.at_end && view.measured == Some(n) {
                el.set_scroll_top(el.scroll_height());
            }
            // The rows rendered, measured: their height (with the gaps between them) per row.
            // Only a windowed list is measured (a short one is whole whatever its rows
            // measure), and once per row count: reading offsets forces a layout of the page
            // inside the task, which 1000 masters → 6 → 1000 paid at every switch (issue 17).
            if !window.windowed || view.measured == Some(n) {
                return;
            }
            let span = (bottom.offset_top() - top.offset_top() - top.offset_height()) as f64;
            let count = window.end.saturating_sub(window.start).max(1) as f64;
            let measured = span / count;
            let height_px = el.client_height() as f64;
            if measured >= 1.0 {
                view.set(View {
                    row_px: measured,
                    height_px,
                    measured: Some(n),
                    at_end: false,
                    ..*view
                });
            }
        });
    }
    Windowed {
        window,
        onscroll,
        before,
        after,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_lists_are_whole() {
        assert_eq!(
            Window::of(12, 5000.0, 600.0, 30.0),
            Window {
                start: 0,
                end: 12,
                windowed: false
            }
        );
    }

    #[test]
    fn long_lists_render_the_viewport_and_some_rows_around_it() {
        // 1000 rows of 20 px, scrolled to row 500, 400 px tall: rows 500..521 visible.
        let w = Window::of(1000, 10_000.0, 400.0, 20.0);
        assert!(w.windowed);
        assert!(w.start <= 500 && w.start >= 500 - OVERSCAN, "{w:?}");
        assert!(w.end >= 521 && w.end <= 521 + OVERSCAN + 1, "{w:?}");
        // At the top and past the end.
        assert_eq!(Window::of(1000, 0.0, 400.0, 20.0).start, 0);
        let end = Window::of(1000, 1e9, 400.0, 20.0);
        assert_eq!(end.end, 1000);
        assert!(end.start < end.end);
        // Nonsense measurements fall back to the guesses instead of panicking.
        let w = Window::of(1000, f64::NAN, -1.0, 0.0);
        assert!(w.start == 0 && w.end > 0 && w.end <= 1000);
    }
}
