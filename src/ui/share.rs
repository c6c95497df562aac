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
    // A reload reloads the address as it was before the page, as it was left, wrote its last
    // change there: that change is opened instead.
    if let Some(left) = left_instead(&fragment) {
        replace_address(&left);
        fragment = left;
    }
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
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some(&format!("#{link}")),
        );
    }
}

/// Where the change written as the page was left is kept ([`leave`]): the time (ms since the
/// epoch), the address it replaced and the link written, a line each.
pub const LEFT_KEY: &str = "slotscope.left";

/// How long after the page was left a load of the address it replaced opens what the page
/// wrote instead: a reload, not a bookmark of the old link opened later.
const LEFT_MS: f64 = 10_000.0;

/// [`save`] as the page is left, with a change that had not waited out its pause. A reload
/// loads the address as it was before this (the browser took it when the reload began), so
/// the next load is told, for a moment, which link replaced it.
pub fn leave(link: &str) {
    let from = fragment();
    save(link);
    if let Some(s) = storage() {
        let _ = s.set_item(
            LEFT_KEY,
            &format!("{}\n{from}\n{link}", js_sys::Date::now()),
        );
    }
}

/// The link [`leave`] wrote in place of `fragment` just before this load, if any; read once.
fn left_instead(fragment: &str) -> Option<String> {
    let s = storage()?;
    let text = s.get_item(LEFT_KEY).ok().flatten()?;
    let _ = s.remove_item(LEFT_KEY);
    let mut lines = text.splitn(3, '\n');
    let (at, from, link) = (lines.next()?, lines.next()?, lines.next()?);
    let age = js_sys::Date::now() - at.parse::<f64>().ok()?;
    (from == fragment && (0.0..LEFT_MS).contains(&age)).then(|| link.to_string())
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
