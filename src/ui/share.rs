//! Where share links live in the browser: the address's fragment and `localStorage`.
//!
//! Every call here falls back quietly: no window, a refused `localStorage` (disabled, private
//! mode, quota) or a refused `history` call leaves the page as it is and never panics.

use crate::persist::{decode, Decoded};
use crate::ui::sections::{split_fragment, Place};

/// The `localStorage` key the last state is kept under.
pub const STORAGE_KEY: &str = "slotscope.state";

/// Where the opening state came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The address's fragment.
    Link,
    /// What this browser saved last time.
    Saved,
    /// Nothing: the defaults.
    Defaults,
}

/// The address's fragment, without `#` (empty when there is none).
pub fn fragment() -> String {
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    hash.strip_prefix('#').unwrap_or(&hash).to_string()
}

fn storage() -> Option<web_sys::Storage> {
    // `localStorage` itself may throw (a sandboxed frame, cookies blocked): that is `Err` here.
    web_sys::window()?.local_storage().ok().flatten()
}

/// The link this browser saved last, if any.
pub fn saved() -> Option<String> {
    storage()?.get_item(STORAGE_KEY).ok().flatten()
}

/// The opening state: the fragment wins, else what was saved, else the defaults. A section
/// the fragment names (`&at=map`, or `#map` alone) is not state: see [`opening_place`].
pub fn startup() -> (Decoded, Source) {
    // Prerendered at build time (natively, `ui::prerender`): no address, no storage.
    if cfg!(not(target_arch = "wasm32")) {
        return (decode(""), Source::Defaults);
    }
    let mut fragment = fragment();
    // A reload of a page just left loads an address that page had, not necessarily the one it
    // wrote last as it was left: that one is opened instead.
    if let Some(left) = left_instead(&fragment) {
        fragment = left;
    }
    replace_address(&fragment);
    let (link, _) = split_fragment(&fragment);
    if !link.is_empty() {
        return (with_kept_batch(decode(link), link), Source::Link);
    }
    match saved() {
        // A saved link may name the section it was read at; a plain visit opens at the top.
        Some(text) if !text.is_empty() => {
            let link = split_fragment(&text).0;
            (with_kept_batch(decode(link), link), Source::Saved)
        }
        _ => (decode(""), Source::Defaults),
    }
}

/// The section the address's fragment asks the page to open at, if any.
pub fn opening_place() -> Option<Place> {
    // Prerendered at build time (natively, `ui::prerender`): no address.
    if cfg!(not(target_arch = "wasm32")) {
        return None;
    }
    split_fragment(&fragment()).1
}

/// Where a batch too long for its link is kept in this browser, after the link it belongs to
/// and a newline (a link has none).
pub const BATCH_KEY: &str = "slotscope.batch";

/// Keeps `batch`, which the link `link` (the state's part, no `&at=`) left out, in this
/// browser; with no batch, forgets the one kept.
pub fn keep_batch(link: &str, batch: Option<&str>) {
    let Some(s) = storage() else { return };
    let _ = match batch {
        Some(b) => s.set_item(BATCH_KEY, &format!("{link}\n{b}")),
        None => s.remove_item(BATCH_KEY),
    };
}

/// The batch this browser kept for `link`, which left it out.
fn kept_batch(link: &str) -> Option<String> {
    let kept = storage()?.get_item(BATCH_KEY).ok().flatten()?;
    let (of, batch) = kept.split_once('\n')?;
    (of == link).then(|| batch.to_string())
}

/// `decoded` with the batch this browser kept for `link`, when the link left it out (it
/// carries an empty batch then).
fn with_kept_batch(mut decoded: Decoded, link: &str) -> Decoded {
    if decoded.state.planner.text.is_empty()
        && let Some(batch) = kept_batch(link)
    {
        decoded.state.planner.text = std::rc::Rc::from(batch);
    }
    decoded
}

/// Writes `link` (a fragment without `#`) into the address, replacing the current history
/// entry, and into `localStorage`.
pub fn save(link: &str) {
    replace_address(link);
    if let Some(s) = storage() {
        let _ = s.set_item(STORAGE_KEY, link);
    }
}

fn replace_address(link: &str) {
    ADDRESSES.with(|a| {
        let mut a = a.borrow_mut();
        if a.last().map(String::as_str) != Some(link) {
            if a.len() == MAX_ADDRESSES {
                a.remove(0);
            }
            a.push(link.to_string());
        }
    });
    if fragment() == link {
        return;
    }
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some(&format!("#{link}")),
        );
    }
}

/// How many of this page's addresses (its opening one, then each it wrote) are remembered.
const MAX_ADDRESSES: usize = 16;

/// Where the page's state as it was left is kept ([`leave`]): the time (ms since the epoch),
/// the link written, then every address this page had, a line each.
pub const LEFT_KEY: &str = "slotscope.left";

/// How long after the page was left a load of one of its addresses opens what the page wrote
/// as it was left: a reload, not a bookmark of an old link opened later.
const LEFT_MS: f64 = 10_000.0;

/// Whether leaving the page should write its state ([`leave`]): a change waits for its pause,
/// or the page has written the address since it opened (a reload can load an address older
/// than the last one written, when the two cross). Not after [`leave_as_is`].
pub fn leave_writes() -> bool {
    LEAVE_WRITES.with(|w| w.get()) && (saving() || ADDRESSES.with(|a| a.borrow().len() > 1))
}

/// A link the reader put into the address is what opens next: leaving does not write over it.
pub fn leave_as_is() {
    LEAVE_WRITES.with(|w| w.set(false));
    mark_saving(false);
}

/// [`save`] as the page is left, with any change that had not waited out its pause. A reload
/// loads the address the browser took when the reload began, which this page may since have
/// replaced (by this, or by a save crossing the reload), so the next load is told, for a
/// moment, which link to open in place of any address this page had.
pub fn leave(link: &str) {
    save(link);
    let addresses = ADDRESSES.with(|a| a.borrow().join("\n"));
    if let Some(s) = storage() {
        let _ = s.set_item(
            LEFT_KEY,
            &format!("{}\n{link}\n{addresses}", js_sys::Date::now()),
        );
    }
}

/// The link [`leave`] wrote just before this load, when `fragment` is one of the addresses
/// that page had; read once.
fn left_instead(fragment: &str) -> Option<String> {
    let s = storage()?;
    let text = s.get_item(LEFT_KEY).ok().flatten()?;
    let _ = s.remove_item(LEFT_KEY);
    let mut lines = text.split('\n');
    let (at, link) = (lines.next()?, lines.next()?);
    let age = js_sys::Date::now() - at.parse::<f64>().ok()?;
    ((0.0..LEFT_MS).contains(&age) && lines.any(|a| a == fragment)).then(|| link.to_string())
}

/// Marks `<html>` with `data-saving` while a change waits for a pause before [`save`] (the
/// key's, in `key_store`, then App's): the tests read the address once it is gone, rather than
/// guessing how long the pauses took on a loaded machine.
pub fn mark_saving(waiting: bool) {
    SAVING.with(|s| s.set(waiting));
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element());
    if let Some(root) = root {
        let _ = if waiting {
            root.set_attribute("data-saving", "")
        } else {
            root.remove_attribute("data-saving")
        };
    }
}

thread_local! {
    /// Whether a change waits for a pause before [`save`] (what `data-saving` shows).
    static SAVING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// The addresses this page has had, oldest first (see [`leave`]).
    static ADDRESSES: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
    /// Cleared by [`leave_as_is`].
    static LEAVE_WRITES: std::cell::Cell<bool> = const { std::cell::Cell::new(true) };
}

/// Whether a change waits for a pause before it is saved (see [`mark_saving`]).
pub fn saving() -> bool {
    SAVING.with(|s| s.get())
}

/// The page's address with `link` as its fragment.
pub fn full_url(link: &str) -> String {
    let base = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    let base = base.split('#').next().unwrap_or_default();
    format!("{base}#{link}")
}
