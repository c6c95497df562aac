//! The page's first screen rendered at build time, and the hand-over to the live page.
//!
//! `render` (feature `ssr`, native only) renders [`App`](crate::ui::App) with Yew's server
//! renderer, in its default state (English, the default key, the fixtures' cluster):
//! `src/bin/prerender.rs` prints it and `scripts/prerender.py` puts it into `dist/index.html`,
//! so a reader sees the real page before the wasm has arrived. [`mount`] starts the live page
//! in its place.

/// The page as the reader first sees it, as HTML (the `<div class="page">` that `App`
/// renders), without Yew's hydration marks: the browser mounts a fresh app in its place.
#[cfg(feature = "ssr")]
pub fn render() -> String {
    render_in(crate::ui::lang::Lang::En)
}

/// [`render`] with the page in `lang`: for another language than the first screen's, the
/// copy the live page paints unseen before a reader's first switch to it
/// (`ui::lang_warm`).
#[cfg(feature = "ssr")]
pub fn render_in(lang: crate::ui::lang::Lang) -> String {
    crate::ui::lang::render_in(lang);
    block_on(
        yew::ServerRenderer::<crate::ui::App>::new()
            .hydratable(false)
            .render(),
    )
}

/// Runs `future` to its end on this thread, parked while it waits (Yew's server renderer
/// wakes it): `render` here, and the tests that render a component to HTML.
#[cfg(feature = "ssr")]
pub fn block_on<F: std::future::Future>(future: F) -> F::Output {
    use std::sync::Arc;
    use std::task::{Context, Poll, Wake, Waker};

    /// Wakes this thread, parked below while the future waits.
    struct Unpark(std::thread::Thread);
    impl Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }
    let mut future = std::pin::pin!(future);
    let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
    let mut cx = Context::from_waker(&waker);
    loop {
        if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return out;
        }
        std::thread::park();
    }
}

/// What the reader did to the prerendered page before the app started.
struct Left {
    /// The key field's text, if the reader changed it.
    typed: Option<String>,
    /// The caret (or selection) in the key field, if it had the focus.
    focus: Option<(u32, u32)>,
    /// Where the page was scrolled to.
    scroll: (f64, f64),
}

/// Starts the page: mounts [`App`](crate::ui::App) on `<body>` in place of the prerendered
/// copy, keeping what the reader did to that copy: the text typed into the key field (the app
/// then answers it), the focus and caret in it, and the scroll position.
///
/// Yew empties `<body>` now and renders in a microtask it queues now; the hand-over is queued
/// after it, so it runs once the live page is in the document, in the same task: the browser
/// paints the prerendered page, then the live one, and no blank frame between them.
pub fn mount() {
    let left = read_left();
    yew::Renderer::<crate::ui::App>::new().render();
    if let Some(left) = left {
        wasm_bindgen_futures::spawn_local(async move { hand_over(left) });
    }
}

fn key_field(document: &web_sys::Document) -> Option<web_sys::HtmlInputElement> {
    use wasm_bindgen::JsCast;
    document.get_element_by_id("key-field")?.dyn_into().ok()
}

/// Reads the prerendered page's key field, if there is one.
fn read_left() -> Option<Left> {
    let window = web_sys::window()?;
    let document = window.document()?;
    let input = key_field(&document)?;
    let (value, typed_over) = (input.value(), input.default_value());
    let focused = document.active_element().is_some_and(|a| a == **input);
    let focus = focused.then(|| {
        let start = input.selection_start().ok().flatten().unwrap_or(0);
        let end = input.selection_end().ok().flatten().unwrap_or(start);
        (start, end)
    });
    Some(Left {
        typed: (value != typed_over).then_some(value),
        focus,
        scroll: (
            window.scroll_x().unwrap_or(0.0),
            window.scroll_y().unwrap_or(0.0),
        ),
    })
}

/// Gives the live page what the reader left in the prerendered one.
fn hand_over(left: Left) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Some(input) = window.document().as_ref().and_then(key_field) else {
        return;
    };
    if let Some(text) = left.typed {
        input.set_value(&text);
        // The app reads the field on `input`, as when the reader types.
        let init = web_sys::EventInit::new();
        init.set_bubbles(true);
        if let Ok(event) = web_sys::Event::new_with_event_init_dict("input", &init) {
            let _ = input.dispatch_event(&event);
        }
    }
    if let Some((start, end)) = left.focus {
        let _ = input.focus();
        let _ = input.set_selection_range(start, end);
    }
    if (
        window.scroll_x().unwrap_or(0.0),
        window.scroll_y().unwrap_or(0.0),
    ) != left.scroll
    {
        window.scroll_to_with_x_and_y(left.scroll.0, left.scroll.1);
    }
}
