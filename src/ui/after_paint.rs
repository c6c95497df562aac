//! Work the next frame does not need, done a task after that frame paints (issue 17): a value
//! that costs a long computation (a big batch's copied plan) follows its inputs a task later,
//! and meanwhile the page shows what it showed, marked as being brought up to date.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Runs `work` in a task of its own after the next frame has painted (a timeout set from an
/// animation frame callback), unless the returned guard is dropped first.
pub fn after_paint(work: impl FnOnce() + 'static) -> AfterPaint {
    let cancelled = Rc::new(Cell::new(false));
    let timeout = Rc::new(RefCell::new(None));
    let (c, t) = (cancelled.clone(), timeout.clone());
    if let Some(w) = web_sys::window() {
        // Freed by wasm-bindgen once the browser has called it.
        let frame = Closure::once_into_js(move || {
            if !c.get() {
                *t.borrow_mut() = Some(gloo_timers::callback::Timeout::new(0, work));
            }
        });
        let _ = w.request_animation_frame(frame.unchecked_ref());
    }
    AfterPaint { cancelled, timeout }
}

/// Runs `step` in a task after each paint, once per frame, until it says it is done (returns
/// `true`), unless the returned guard is dropped first: long work in slices, each followed by
/// a frame, so the page keeps answering and can show how far the work has come.
pub fn in_slices(step: impl FnMut() -> bool + 'static) -> Slices {
    let cancelled = Rc::new(Cell::new(false));
    next_slice(Rc::new(RefCell::new(step)), cancelled.clone());
    Slices { cancelled }
}

/// Sets the next slice of [`in_slices`]: an animation frame callback sets a timeout (each
/// closure is freed by wasm-bindgen once called; a cancelled chain does nothing at its next
/// call).
fn next_slice(step: Rc<RefCell<dyn FnMut() -> bool>>, cancelled: Rc<Cell<bool>>) {
    let Some(w) = web_sys::window() else { return };
    let frame = Closure::once_into_js(move || {
        let Some(w) = web_sys::window().filter(|_| !cancelled.get()) else {
            return;
        };
        let task = Closure::once_into_js(move || {
            if cancelled.get() {
                return;
            }
            let done = (step.borrow_mut())();
            if !done {
                next_slice(step, cancelled);
            }
        });
        let _ = w.set_timeout_with_callback(task.unchecked_ref());
    });
    let _ = w.request_animation_frame(frame.unchecked_ref());
}

/// Stops the work of [`in_slices`] when dropped.
pub struct Slices {
    cancelled: Rc<Cell<bool>>,
}

impl Drop for Slices {
    fn drop(&mut self) {
        self.cancelled.set(true);
    }
}

/// Runs `unit` until it says the work is done (returns `true`) or `ms` milliseconds have
/// passed, and says whether the work is done: one slice of [`in_slices`].
pub fn for_ms(ms: f64, mut unit: impl FnMut() -> bool) -> bool {
    let start = now_ms();
    loop {
        if unit() {
            return true;
        }
        if now_ms() - start >= ms {
            return false;
        }
    }
}

/// The page's clock in milliseconds (`performance.now()`; 0 where there is none: the
/// build-time prerender). Work split into slices times each slice with it.
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Cancels the work of [`after_paint`] when dropped before it ran.
pub struct AfterPaint {
    cancelled: Rc<Cell<bool>>,
    timeout: Rc<RefCell<Option<gloo_timers::callback::Timeout>>>,
}

impl Drop for AfterPaint {
    fn drop(&mut self) {
        self.cancelled.set(true);
        self.timeout.borrow_mut().take();
    }
}

/// `value`, except that when `late` and it changed, the value it had stays until a task after
/// the next paint renders again with the new one; the flag says the value returned is behind.
#[hook]
pub fn use_after_paint<T: Clone + PartialEq + 'static>(value: T, late: bool) -> (T, bool) {
    let shown = use_mut_ref(|| value.clone());
    let redraw = use_force_update();
    let behind = late && *shown.borrow() != value;
    if !behind && *shown.borrow() != value {
        *shown.borrow_mut() = value.clone();
    }
    let out = shown.borrow().clone();
    use_effect_with(behind.then_some(value), move |pending| {
        let guard = pending.clone().map(|v| {
            after_paint(move || {
                *shown.borrow_mut() = v;
                redraw.force_update();
            })
        });
        move || drop(guard)
    });
    (out, behind)
}
