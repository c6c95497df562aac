//! Paints another language's first screen once, unseen, when the reader reaches for the
//! language switch, so that the first switch finds the browser's glyphs ready (issue 17).
//!
//! A page's first switch to 简体中文 took 64–128 ms to its paint, a second one 32–56: the
//! browser was drawing Chinese glyphs at the page's sizes for the first time. (Measured on
//! fresh pages: a copy of the Chinese first screen laid out but not painted did not help; one
//! painted did.) `scripts/prerender.py` writes `warm-zh.json`, the first screen rendered in
//! Chinese at build time without ids, links or ARIA, as a tree of elements (the
//! Content-Security-Policy's Trusted Types let no HTML be parsed, so [`build`] makes each
//! element, never one that could load or run something). When the pointer enters the switch,
//! or the switch gets the focus or a press, [`reach`] fetches that copy from the page's own
//! origin, builds it under the page (`.lang-warm` in `static/style.css`: fixed behind
//! everything, 0.4 % opaque, inert, hidden from assistive technology), and removes it
//! [`KEEP_MS`] later, time for the browser to paint it (the stylesheet hides it after a second
//! whatever happens). Once per language and page, never for a language already shown, and not
//! when the switch was made while the copy was on its way; where the copy cannot be fetched
//! nothing happens, and the switch works as before.

use crate::ui::lang::Lang;

/// How long the copy stays under the page: a few frames, for the browser to paint it.
pub const KEEP_MS: u32 = 300;

/// The copy of `lang`'s first screen beside `index.html`, if the build writes one (every
/// language but the prerendered English).
pub fn copy_file(lang: Lang) -> Option<&'static str> {
    match lang {
        Lang::En => None,
        Lang::Zh => Some("warm-zh.json"),
    }
}

/// The reader reached for the switch while the page is in `current`: paints each other
/// language's first screen once (see the module's documentation). A language the page has
/// shown needs no copy: its glyphs are drawn.
#[cfg(target_arch = "wasm32")]
pub fn reach(current: Lang) {
    use std::cell::Cell;
    thread_local! {
        /// The languages this page has shown or fetched a copy of (one bit each, by `Lang::ALL`).
        static DONE: Cell<u8> = const { Cell::new(0) };
    }
    let bit = |lang: Lang| 1u8 << lang.place();
    DONE.set(DONE.get() | bit(current));
    for lang in Lang::ALL {
        let Some(file) = copy_file(lang) else {
            continue;
        };
        if DONE.get() & bit(lang) != 0 {
            continue;
        }
        DONE.set(DONE.get() | bit(lang));
        wasm_bindgen_futures::spawn_local(async move {
            let _ = paint(lang, file).await;
        });
    }
}

/// Outside a browser there is nothing to paint.
#[cfg(not(target_arch = "wasm32"))]
pub fn reach(_current: Lang) {}

/// Fetches `file`, builds its tree under the page for [`KEEP_MS`], then removes it.
#[cfg(target_arch = "wasm32")]
async fn paint(lang: Lang, file: &str) -> Result<(), wasm_bindgen::JsValue> {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    let none = || wasm_bindgen::JsValue::NULL;
    let window = web_sys::window().ok_or_else(none)?;
    let response: web_sys::Response = JsFuture::from(window.fetch_with_str(file))
        .await?
        .dyn_into()?;
    if !response.ok() {
        return Ok(());
    }
    let nodes: js_sys::Array = JsFuture::from(response.json()?).await?.dyn_into()?;
    let document = window.document().ok_or_else(none)?;
    // Switched already while the copy was on its way: the page itself draws the glyphs now.
    let shown = document
        .get_element_by_id("lang")
        .and_then(|e| e.dyn_into::<web_sys::HtmlSelectElement>().ok())
        .is_none_or(|select| select.value() == lang.code());
    if shown {
        return Ok(());
    }
    let holder = document.create_element("div")?;
    holder.set_class_name("lang-warm");
    holder.set_attribute("aria-hidden", "true")?;
    holder.set_attribute("inert", "")?;
    holder.set_attribute("lang", lang.bcp47())?;
    for node in nodes.iter() {
        holder.append_child(&build(&document, &node, false)?)?;
    }
    document.body().ok_or_else(none)?.append_child(&holder)?;
    gloo_timers::callback::Timeout::new(KEEP_MS, move || holder.remove()).forget();
    Ok(())
}

/// Tags the copy is never given, whatever the file holds: they could load, run, link or
/// animate something. (`scripts/prerender.py` only writes the tags and attributes of today's
/// first screen, and stops the build on any other.)
#[cfg(target_arch = "wasm32")]
const REFUSED_TAGS: [&str; 17] = [
    "script", "style", "link", "meta", "base", "iframe", "frame", "object", "embed", "img",
    "image", "video", "audio", "source", "use", "animate", "set",
];

/// Attributes the copy is never given: any `on…` and any holding a name space (`xlink:href`),
/// and these, which load or send something.
#[cfg(target_arch = "wasm32")]
const REFUSED_ATTRS: [&str; 9] = [
    "style",
    "href",
    "src",
    "srcset",
    "srcdoc",
    "action",
    "formaction",
    "data",
    "poster",
];

/// One node of the copy's tree: a string is text; `[tag, [name, value, ...], child, ...]` an
/// element (in SVG's namespace from an `<svg>` down). An element with a refused tag is left
/// out (an empty text), a refused attribute not set.
#[cfg(target_arch = "wasm32")]
fn build(
    document: &web_sys::Document,
    node: &wasm_bindgen::JsValue,
    in_svg: bool,
) -> Result<web_sys::Node, wasm_bindgen::JsValue> {
    use wasm_bindgen::JsCast;
    if let Some(text) = node.as_string() {
        return Ok(document.create_text_node(&text).into());
    }
    let parts: js_sys::Array = node.clone().dyn_into()?;
    let tag = parts.get(0).as_string().unwrap_or_default();
    let lower = tag.to_ascii_lowercase();
    if REFUSED_TAGS.contains(&lower.as_str()) || lower.starts_with("foreign") {
        return Ok(document.create_text_node("").into());
    }
    let in_svg = in_svg || lower == "svg";
    let element = if in_svg {
        document.create_element_ns(Some("http://www.w3.org/2000/svg"), &tag)?
    } else {
        document.create_element(&tag)?
    };
    let attrs: js_sys::Array = parts.get(1).dyn_into()?;
    for i in (0..attrs.length().saturating_sub(1)).step_by(2) {
        let name = attrs.get(i).as_string().unwrap_or_default();
        let lower = name.to_ascii_lowercase();
        if lower.starts_with("on") || lower.contains(':') || REFUSED_ATTRS.contains(&lower.as_str())
        {
            continue;
        }
        element.set_attribute(&name, &attrs.get(i + 1).as_string().unwrap_or_default())?;
    }
    for child in parts.iter().skip(2) {
        element.append_child(&build(document, &child, in_svg)?)?;
    }
    Ok(element.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_but_the_prerendered_one_has_a_copy() {
        // scripts/prerender.py writes `warm-<code>.json` for each language in its WARM list.
        for lang in Lang::ALL {
            match copy_file(lang) {
                None => assert_eq!(lang, Lang::En),
                Some(file) => assert_eq!(file, format!("warm-{}.json", lang.code())),
            }
        }
    }
}
