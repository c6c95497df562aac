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
    let fragment = fragment();
    let (link, _) = split_fragment(&fragment);
    if !link.is_empty() {
        return (decode(link), Source::Link);
    }
    match saved() {
        // A saved link may name the section it was read at; a plain visit opens at the top.
        Some(text) if !text.is_empty() => (decode(split_fragment(&text).0), Source::Saved),
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

/// Writes `link` (a fragment without `#`) into the address, replacing the current history
/// entry, and into `localStorage`.
pub fn save(link: &str) {
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(
            &wasm_bindgen::JsValue::NULL,
            "",
            Some(&format!("#{link}")),
        );
    }
    if let Some(s) = storage() {
        let _ = s.set_item(STORAGE_KEY, link);
    }
}

/// The page's address with `link` as its fragment.
pub fn full_url(link: &str) -> String {
    let base = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    let base = base.split('#').next().unwrap_or_default();
    format!("{base}#{link}")
}
