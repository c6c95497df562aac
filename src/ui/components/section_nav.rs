//! The section bar: one link per section of the page, the one being read marked
//! (`aria-current`), kept in view in its own sideways-scrolling row; and the hook that follows
//! the reader's scroll position to say which section that is.

use crate::ui::messages::use_messages;
use crate::ui::sections::{current, Place};
use wasm_bindgen::{JsCast, JsValue};
use yew::prelude::*;

/// Where in the window (a fraction of its height, from the top) a section counts as reached.
const READING_LINE: f64 = 0.35;

fn set(obj: &js_sys::Object, key: &str, value: impl Into<JsValue>) {
    let _ = js_sys::Reflect::set(obj, &JsValue::from_str(key), &value.into());
}

/// Calls `el.method(options)` (`scrollIntoView`, `focus`) with an options object: web-sys
/// names these only behind features the page does not otherwise need.
fn call_with_options(el: &web_sys::Element, method: &str, options: &js_sys::Object) {
    if let Ok(f) = js_sys::Reflect::get(el, &JsValue::from_str(method))
        .and_then(|f| f.dyn_into::<js_sys::Function>())
    {
        let _ = f.call1(el, options);
    }
}

fn reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| {
            w.match_media("(prefers-reduced-motion: reduce)")
                .ok()
                .flatten()
        })
        .is_some_and(|m| m.matches())
}

/// The section's element, if the page has it.
pub fn element_of(place: Place) -> Option<web_sys::Element> {
    web_sys::window()?.document()?.get_element_by_id(place.id())
}

/// Scrolls `place` to the top of the window (under the sticky bar, by its `scroll-margin-top`)
/// and moves the keyboard's starting point there without a second scroll. A section the page
/// does not have is left alone.
pub fn go_to(place: Place, smooth: bool) {
    let Some(el) = element_of(place) else {
        return;
    };
    let options = js_sys::Object::new();
    let smooth = smooth && !reduced_motion();
    set(&options, "behavior", if smooth { "smooth" } else { "auto" });
    set(&options, "block", "start");
    call_with_options(&el, "scrollIntoView", &options);
    focus_in_place(&el);
}

/// Focuses `el` without scrolling to it (the page is already on its way there).
pub fn focus_in_place(el: &web_sys::Element) {
    let focus = js_sys::Object::new();
    set(&focus, "preventScroll", true);
    call_with_options(el, "focus", &focus);
}

/// The section being read, followed as the reader scrolls (and as the window is resized).
/// Starts at `initial` (the section a link opened at) until the first scroll says otherwise.
#[hook]
pub fn use_reading_place(initial: Place) -> Place {
    let place = use_state_eq(|| initial);
    {
        let place = place.clone();
        use_effect_with((), move |_| {
            let measure = move || {
                let Some(window) = web_sys::window() else {
                    return;
                };
                let line = window
                    .inner_height()
                    .ok()
                    .and_then(|h| h.as_f64())
                    .unwrap_or(800.0)
                    * READING_LINE;
                let tops: Vec<(Place, Option<f64>)> = Place::ALL
                    .into_iter()
                    .map(|p| (p, element_of(p).map(|e| e.get_bounding_client_rect().top())))
                    .collect();
                place.set(current(&tops, line));
            };
            let listeners = web_sys::window().map(|w| {
                let on_scroll = measure.clone();
                [
                    gloo_events::EventListener::new(&w, "scroll", move |_| on_scroll()),
                    gloo_events::EventListener::new(&w, "resize", move |_| measure()),
                ]
            });
            move || drop(listeners)
        });
    }
    *place
}

/// Props of [`SectionNav`].
#[derive(Properties, PartialEq)]
pub struct SectionNavProps {
    /// The section being read.
    pub current: Place,
}

/// The bar of section links.
#[function_component(SectionNav)]
pub fn section_nav(props: &SectionNavProps) -> Html {
    let t = use_messages();
    let row = use_node_ref();
    // Keep the current link in sight in the bar's own row (on a phone it scrolls sideways),
    // by moving that row only: scrolling the page here would cut short a smooth scroll.
    {
        let row = row.clone();
        use_effect_with(props.current, move |place| {
            if let Some(row) = row.cast::<web_sys::HtmlElement>()
                && let Ok(Some(link)) =
                    row.query_selector(&format!("[data-section=\"{}\"]", place.id()))
                && let Ok(link) = link.dyn_into::<web_sys::HtmlElement>()
            {
                let (left, width) = (link.offset_left(), link.offset_width());
                let (shown, view) = (row.scroll_left(), row.client_width());
                if left < shown || left + width > shown + view {
                    row.set_scroll_left(left - (view - width) / 2);
                }
            }
        });
    }
    let links = Place::ALL.into_iter().map(|place| {
        let is_current = place == props.current;
        let onclick = Callback::from(move |e: MouseEvent| {
            // A plain click scrolls here; a click that opens a tab or window is the browser's.
            if e.ctrl_key() || e.meta_key() || e.shift_key() || e.button() != 0 {
                return;
            }
            e.prevent_default();
            go_to(place, true);
        });
        html! {
            <li>
                <a href={format!("#{}", place.id())} data-section={place.id()}
                   class={classes!("section-nav__link", is_current.then_some("is-current"))}
                   aria-current={is_current.then_some("location")} {onclick}>
                    { place.label(t) }
                </a>
            </li>
        }
    });
    html! {
        <nav class="section-nav" aria-label={t.nav_label} data-testid="section-nav">
            <ul class="section-nav__list" ref={row}>{ for links }</ul>
        </nav>
    }
}
