//! The key field's state, held outside every component (issue 17): a keystroke re-renders only
//! the components that show the key, each only when what it shows changed, and not the page.
//!
//! `App` makes one [`KeyStore`] and hands it down; the field dispatches into it, each component
//! that shows the key picks its part with [`use_key_select`], and what only needs the key once
//! the reader pauses (the share link) follows it with [`use_key_settled`].

use crate::ui::state::KeyState;
use gloo_timers::callback::Timeout;
use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The most frames an edit waits for one without a key in it ([`KeyStore::edited`]): while
/// keys keep coming in every frame, the pipeline still follows them about every 200 ms (at
/// 60 frames a second).
const MOST_FRAMES_WAITED: u32 = 12;

/// Something told of the key's changes.
type Listener = Rc<dyn Fn(&KeyState)>;

/// A field edited, and what to tell with the text read from it ([`KeyStore::edited`]).
type Edit = (web_sys::HtmlInputElement, Rc<dyn Fn(&str)>);

/// When a listener is told.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// At every change.
    Every,
    /// Once the key has stood still for the store's pause, or at once when it is settled.
    Settled,
}

struct Inner {
    state: RefCell<Rc<KeyState>>,
    listeners: RefCell<Vec<(u64, Kind, Listener)>>,
    next_id: Cell<u64>,
    /// Milliseconds without a change after which the key counts as settled.
    pause_ms: u32,
    /// True while a change has not settled yet.
    unsettled: Cell<bool>,
    /// The timer that settles it (kept after it fired until the next change replaces it: a
    /// timer is not dropped from inside its own callback).
    timer: RefCell<Option<Timeout>>,
    /// True while an edit of the field waits to be taken into the state ([`KeyStore::edited`]).
    edit_waiting: Cell<bool>,
    /// The edited field, and what to tell with the text read from it.
    edit_field: RefCell<Option<Edit>>,
    /// Which wait for a quiet frame is the edit's ([`KeyStore::edited`]): a wait whose number
    /// is not this one stops.
    edit_wait: Cell<u64>,
    /// Key events (keydown, keyup, an edit) in the field so far.
    key_events: Cell<u64>,
    /// Frames a wait for a quiet frame has seen so far, all waits together.
    frames_seen: Cell<u64>,
    /// The number in `frames_seen` when a key last went down (not repeating). Only waits count
    /// frames, so a key that went down while no edit waited holds a wait's first frame too.
    down_at: Cell<u64>,
    /// Keys down in the field (a key that goes up elsewhere is forgotten when the field is
    /// left; all are when Meta comes up: macOS sends no keyup for a key pressed with it).
    down: Cell<u32>,
}

/// Takes the edit wait `wait` into the state ([`KeyStore::edited`]) a task after the next frame
/// has painted, if no key came since that frame began, nor is a key still down while the
/// latest keydown came after the frame before (or it is the [`MOST_FRAMES_WAITED`]th frame of
/// the wait), or else waits for the frame after: an animation frame callback notes the key
/// count and the frame's number, a task set from it compares. Stops when the store is gone or
/// the wait is no longer the edit's (taken or dropped meanwhile).
fn wait_quiet(store: Weak<Inner>, wait: u64, frames: u32) {
    let Some(w) = web_sys::window() else { return };
    // Each closure is freed by wasm-bindgen once called.
    let frame = Closure::once_into_js(move || {
        let Some(inner) = store.upgrade().filter(|i| i.edit_wait.get() == wait) else {
            return;
        };
        let seen = inner.key_events.get();
        let frame = inner.frames_seen.get() + 1;
        inner.frames_seen.set(frame);
        drop(inner);
        let task = Closure::once_into_js(move || {
            let Some(inner) = store.upgrade().filter(|i| i.edit_wait.get() == wait) else {
                return;
            };
            // A key pressed and released at once (a script's, or a quick tap) comes up a few
            // milliseconds after its echo's frame began: shown with the pipeline's frame, its
            // keyup would wait for it.
            let just_down = inner.down.get() > 0 && inner.down_at.get() + 1 >= frame;
            let quiet = inner.key_events.get() == seen && !just_down;
            if quiet || frames + 1 >= MOST_FRAMES_WAITED {
                KeyStore(inner).take_edit();
            } else {
                wait_quiet(store, wait, frames + 1);
            }
        });
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback(task.unchecked_ref());
        }
    });
    let _ = w.request_animation_frame(frame.unchecked_ref());
}

impl Inner {
    fn tell(&self, kind: Kind) {
        // A copy of the list: a listener may re-render a component, which may (un)subscribe.
        let listeners: Vec<Listener> = self
            .listeners
            .borrow()
            .iter()
            .filter(|(_, k, _)| *k == kind)
            .map(|(_, _, l)| l.clone())
            .collect();
        let state = self.state.borrow().clone();
        for listener in listeners {
            listener(&state);
        }
    }
}

/// The key field's state and who follows it. Clones share it; two handles are equal when they
/// are the same store.
#[derive(Clone)]
pub struct KeyStore(Rc<Inner>);

impl PartialEq for KeyStore {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// A listener's place in the store; dropping it unsubscribes.
pub struct Subscription {
    store: Weak<Inner>,
    id: u64,
}

impl Drop for Subscription {
    fn drop(&mut self) {
        if let Some(inner) = self.store.upgrade() {
            inner
                .listeners
                .borrow_mut()
                .retain(|(id, _, _)| *id != self.id);
        }
    }
}

impl KeyStore {
    /// A store holding `state`, whose changes settle after `pause_ms` without another.
    pub fn new(state: KeyState, pause_ms: u32) -> Self {
        KeyStore(Rc::new(Inner {
            state: RefCell::new(Rc::new(state)),
            listeners: RefCell::new(Vec::new()),
            next_id: Cell::new(0),
            pause_ms,
            unsettled: Cell::new(false),
            timer: RefCell::new(None),
            edit_waiting: Cell::new(false),
            edit_field: RefCell::new(None),
            edit_wait: Cell::new(0),
            key_events: Cell::new(0),
            frames_seen: Cell::new(0),
            down_at: Cell::new(0),
            down: Cell::new(0),
        }))
    }

    /// The state now.
    pub fn get(&self) -> Rc<KeyState> {
        self.0.state.borrow().clone()
    }

    /// The field now holds `text`: the new state, told to every listener, and settled after the
    /// pause. An edit of the field still waiting is dropped: this text replaces it.
    pub fn dispatch(&self, text: String) {
        self.drop_edit();
        self.change(text);
    }

    /// The reader edited `field`: its text is taken into the state a task after a frame has
    /// painted in which no key came (issue 17), so a keystroke's own frame holds only the
    /// browser's echo of the character, and the pipeline and everything that follows the key
    /// show it in a frame of their own, one where no key waits to be shown: a key released
    /// while its echo's frame was being made, or just after (a keyup the page does not change
    /// for), is shown with the quiet frame after it, and keys coming faster than frames are
    /// taken together once they pause (or after [`MOST_FRAMES_WAITED`]). Edits made meanwhile
    /// are taken together: the task reads the field's text as it is then, and tells it to
    /// `read` before the listeners. While an edit waits, the field carries `data-pending` (the
    /// tests wait for it to go). Held here, not in the field's component, so the edit survives
    /// the component being made anew (the app mounting in place of the prerendered page hands
    /// the text over as an edit).
    pub fn edited(&self, field: web_sys::HtmlInputElement, read: Rc<dyn Fn(&str)>) {
        self.note_key();
        let first = !self.0.edit_waiting.replace(true);
        if first {
            let _ = field.set_attribute("data-pending", "");
            let wait = self.0.edit_wait.get() + 1;
            self.0.edit_wait.set(wait);
            wait_quiet(Rc::downgrade(&self.0), wait, 0);
        }
        *self.0.edit_field.borrow_mut() = Some((field, read));
    }

    /// A key went down in the field (`repeat`: a held key's repeat): a frame with it in is not
    /// quiet, nor, while a key is still down, the first frame after it ([`KeyStore::edited`]).
    pub fn key_down(&self, repeat: bool) {
        self.note_key();
        if !repeat {
            self.0.down.set(self.0.down.get() + 1);
            self.0.down_at.set(self.0.frames_seen.get());
        }
    }

    /// A key came up in the field (`meta`: the Meta key, with which macOS sends no keyup for the
    /// keys pressed meanwhile, so none is counted down after it).
    pub fn key_up(&self, meta: bool) {
        self.note_key();
        let keys = &self.0.down;
        keys.set(if meta {
            0
        } else {
            keys.get().saturating_sub(1)
        });
    }

    fn note_key(&self) {
        self.0.key_events.set(self.0.key_events.get() + 1);
    }

    /// Whether an edit of the field waits to be taken: the field holds newer text than the
    /// state, so nothing sets the field from the state meanwhile.
    pub fn edit_waiting(&self) -> bool {
        self.0.edit_waiting.get()
    }

    /// Takes an edit of the field that is still waiting into the state now.
    pub fn take_edit(&self) {
        self.0.edit_wait.set(self.0.edit_wait.get() + 1);
        if !self.0.edit_waiting.replace(false) {
            return;
        }
        let Some((field, read)) = self.0.edit_field.borrow_mut().take() else {
            return;
        };
        let _ = field.remove_attribute("data-pending");
        let text = field.value();
        read(&text);
        self.change(text);
    }

    /// Forgets a waiting edit.
    fn drop_edit(&self) {
        self.0.edit_wait.set(self.0.edit_wait.get() + 1);
        let edit = self.0.edit_field.borrow_mut().take();
        if let (true, Some((field, _))) = (self.0.edit_waiting.replace(false), edit) {
            let _ = field.remove_attribute("data-pending");
        }
    }

    fn change(&self, text: String) {
        let next = Rc::new(self.get().read(text));
        *self.0.state.borrow_mut() = next;
        self.0.tell(Kind::Every);
        let settles = self
            .0
            .listeners
            .borrow()
            .iter()
            .any(|(_, k, _)| *k == Kind::Settled);
        if settles {
            let weak = Rc::downgrade(&self.0);
            let timeout = Timeout::new(self.0.pause_ms, move || {
                if let Some(inner) = weak.upgrade() {
                    inner.unsettled.set(false);
                    // The link's own pause starts from here (App's save, same task).
                    crate::ui::share::mark_saving(false);
                    inner.tell(Kind::Settled);
                }
            });
            // Replacing the armed timer cancels it.
            self.0.unsettled.set(true);
            crate::ui::share::mark_saving(true);
            *self.0.timer.borrow_mut() = Some(timeout);
        }
    }

    /// Settles a change now instead of after the pause (the field lost the focus: the reader
    /// is about to do something else, e.g. share the link), an edit still waiting taken first,
    /// and the keys down in the field forgotten. Nothing else happens if all is settled.
    pub fn settle(&self) {
        self.0.down.set(0);
        self.take_edit();
        if self.0.unsettled.replace(false) {
            drop(self.0.timer.borrow_mut().take());
            crate::ui::share::mark_saving(false);
            self.0.tell(Kind::Settled);
        }
    }

    fn subscribe(&self, kind: Kind, listener: Listener) -> Subscription {
        let id = self.0.next_id.get();
        self.0.next_id.set(id + 1);
        self.0.listeners.borrow_mut().push((id, kind, listener));
        Subscription {
            store: Rc::downgrade(&self.0),
            id,
        }
    }
}

/// What `select` picks from the key state; the component re-renders whenever a change of the
/// key changes what it picks (and only then). `select` may read the component's props: the
/// latest render's is the one used.
#[hook]
pub fn use_key_select<T, F>(store: &KeyStore, select: F) -> T
where
    T: Clone + PartialEq + 'static,
    F: Fn(&KeyState) -> T + 'static,
{
    let update = use_force_update();
    let shown = select(&store.get());
    let latest = use_mut_ref(|| None::<(Rc<dyn Fn(&KeyState) -> T>, T)>);
    let select: Rc<dyn Fn(&KeyState) -> T> = Rc::new(select);
    *latest.borrow_mut() = Some((select, shown.clone()));
    use_effect_with(store.clone(), move |store| {
        let check: Listener = Rc::new(move |state: &KeyState| {
            let changed = latest
                .borrow()
                .as_ref()
                .is_some_and(|(select, shown)| select(state) != *shown);
            if changed {
                update.force_update();
            }
        });
        // A change between the render and this effect.
        check(&store.get());
        let subscription = store.subscribe(Kind::Every, check);
        move || drop(subscription)
    });
    shown
}

/// The key state, re-rendering the component only once a change has settled (see
/// [`KeyStore::settle`]); any other render reads the state as it is.
#[hook]
pub fn use_key_settled(store: &KeyStore) -> Rc<KeyState> {
    let update = use_force_update();
    use_effect_with(store.clone(), move |store| {
        let subscription = store.subscribe(
            Kind::Settled,
            Rc::new(move |_: &KeyState| update.force_update()),
        );
        move || drop(subscription)
    });
    store.get()
}

/// An `Rc` compared by pointer: the key state shares its explanation while the key's bytes do
/// not change, so a new pointer is a new key.
#[derive(Clone, Debug)]
pub struct Same<T>(pub Rc<T>);

impl<T> PartialEq for Same<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listener_hears_each_change_and_unsubscribes_when_dropped() {
        let store = KeyStore::new(KeyState::default(), 300);
        let heard = Rc::new(RefCell::new(Vec::new()));
        let h = heard.clone();
        let sub = store.subscribe(
            Kind::Every,
            Rc::new(move |s: &KeyState| h.borrow_mut().push(s.explained.slot)),
        );
        store.dispatch("foo".into());
        store.dispatch("{user1}:x".into());
        assert_eq!(*heard.borrow(), vec![12182, 8106]);
        assert_eq!(store.get().input, "{user1}:x");
        drop(sub);
        store.dispatch("bar".into());
        assert_eq!(heard.borrow().len(), 2);
        assert!(store.0.listeners.borrow().is_empty());
    }

    #[test]
    fn a_refused_paste_keeps_the_text_and_says_why() {
        let store = KeyStore::new(KeyState::default(), 300);
        store.dispatch("kept".into());
        let before = store.get();
        store.dispatch("x".repeat(crate::ui::state::MAX_KEY_BYTES + 1));
        let after = store.get();
        assert_eq!(after.input, "kept");
        assert!(Rc::ptr_eq(&after.explained, &before.explained));
        assert!(after.error.is_some());
    }

    #[test]
    fn handles_compare_by_store() {
        let a = KeyStore::new(KeyState::default(), 300);
        let b = KeyStore::new(KeyState::default(), 300);
        assert!(a == a.clone());
        assert!(a != b);
        let e = a.get().explained.clone();
        assert_eq!(Same(e.clone()), Same(e.clone()));
        assert_ne!(Same(e), Same(b.get().explained.clone()));
    }
}
