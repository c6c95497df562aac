//! The reader's language: English or 简体中文, chosen from the browser, switchable, remembered.
//!
//! [`Lang`] travels to every component through a Yew context (see [`crate::ui::App`]);
//! `use_messages()` reads it. The choice is kept in `localStorage` under [`STORAGE_KEY`]; the
//! share link carries it too.

use crate::ui::messages::{Messages, EN, ZH};

/// Where the chosen language is remembered between visits.
pub const STORAGE_KEY: &str = "slotscope.lang";

/// A language the page is written in (defined with the share link, which carries it).
pub use crate::persist::Lang;

impl Lang {
    /// Every language, in the order the switch lists them.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Zh];

    /// Where this language stands in [`Lang::ALL`].
    pub fn place(self) -> usize {
        Lang::ALL.iter().position(|l| *l == self).unwrap_or(0)
    }

    /// The page's text in this language.
    pub fn messages(self) -> &'static Messages {
        match self {
            Lang::En => &EN,
            Lang::Zh => &ZH,
        }
    }

    /// The BCP 47 tag for `<html lang>` (so screen readers pick the right voice).
    pub fn bcp47(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-Hans",
        }
    }

    /// The short code used in links, storage and the switch's values.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// The language's name in itself, as the switch shows it.
    pub fn endonym(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Zh => "简体中文",
        }
    }

    /// Reads a code from a link, storage or the switch (`en`, `zh`, and the browser's tags
    /// such as `zh-CN`, `zh-Hans-SG`, `en-GB`). Anything else is `None`.
    pub fn from_code(code: &str) -> Option<Lang> {
        let primary = code.split(['-', '_']).next().unwrap_or("");
        if primary.eq_ignore_ascii_case("zh") {
            // Traditional-script tags get English: the page has no Traditional text, and
            // Simplified is not what a zh-TW or zh-Hant reader asked for.
            let lower = code.to_ascii_lowercase();
            if ["hant", "-tw", "-hk", "-mo"]
                .iter()
                .any(|t| lower.contains(t))
            {
                return Some(Lang::En);
            }
            Some(Lang::Zh)
        } else if primary.eq_ignore_ascii_case("en") {
            Some(Lang::En)
        } else {
            None
        }
    }

    /// The first of the browser's preferred languages the page has, else English.
    pub fn from_preferences<'a>(tags: impl IntoIterator<Item = &'a str>) -> Lang {
        tags.into_iter()
            .find_map(Lang::from_code)
            .unwrap_or_default()
    }
}

#[cfg(target_arch = "wasm32")]
mod browser {
    use super::{Lang, STORAGE_KEY};
    use wasm_bindgen::JsCast;

    /// The remembered choice, else the browser's preference.
    pub fn initial() -> Lang {
        stored().unwrap_or_else(preferred)
    }

    /// What `localStorage` remembers, if it can be read.
    pub fn stored() -> Option<Lang> {
        let storage = web_sys::window()?.local_storage().ok()??;
        Lang::from_code(&storage.get_item(STORAGE_KEY).ok()??)
    }

    /// `navigator.languages`, in order.
    pub fn preferred() -> Lang {
        let Some(nav) = web_sys::window().map(|w| w.navigator()) else {
            return Lang::En;
        };
        let tags: Vec<String> = nav
            .languages()
            .iter()
            .filter_map(|v| v.as_string())
            .chain(nav.language())
            .collect();
        Lang::from_preferences(tags.iter().map(String::as_str))
    }

    /// Remembers the reader's choice (quietly skipped where storage is off or full).
    pub fn remember(lang: Lang) {
        if let Some(Ok(Some(storage))) = web_sys::window().map(|w| w.local_storage()) {
            let _ = storage.set_item(STORAGE_KEY, lang.code());
        }
    }

    /// Sets `<html lang>`, so screen readers and fonts follow the text, and the document's
    /// title.
    pub fn apply(lang: Lang) {
        let document = web_sys::window().and_then(|w| w.document());
        if let Some(d) = &document {
            d.set_title(lang.messages().doc_title);
        }
        if let Some(root) = document
            .and_then(|d| d.document_element())
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        {
            root.set_lang(lang.bcp47());
        }
    }
}

#[cfg(target_arch = "wasm32")]
pub use browser::{apply, initial, remember};

/// The language a render outside a browser is in, as its place in [`Lang::ALL`] (English
/// unless [`render_in`] chose another).
#[cfg(not(target_arch = "wasm32"))]
static SERVER_LANG: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Outside a browser there is nothing to read: the language the build-time render was asked
/// for ([`render_in`]), English by default.
#[cfg(not(target_arch = "wasm32"))]
pub fn initial() -> Lang {
    let at = SERVER_LANG.load(std::sync::atomic::Ordering::Relaxed);
    Lang::ALL.get(at).copied().unwrap_or(Lang::En)
}

/// Makes renders outside a browser start in `lang` (the build-time render of another
/// language's first screen, `ui::prerender::render_in`). One setting for the whole process:
/// `src/bin/prerender.rs` renders one language per run.
#[cfg(not(target_arch = "wasm32"))]
pub fn render_in(lang: Lang) {
    SERVER_LANG.store(lang.place(), std::sync::atomic::Ordering::Relaxed);
}

/// Outside a browser there is nowhere to remember it.
#[cfg(not(target_arch = "wasm32"))]
pub fn remember(_lang: Lang) {}

/// Outside a browser there is no document.
#[cfg(not(target_arch = "wasm32"))]
pub fn apply(_lang: Lang) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn browser_tags_map_to_the_languages_the_page_has() {
        for (tag, want) in [
            ("zh", Some(Lang::Zh)),
            ("zh-CN", Some(Lang::Zh)),
            ("zh-Hans-SG", Some(Lang::Zh)),
            ("ZH_cn", Some(Lang::Zh)),
            ("zh-TW", Some(Lang::En)),
            ("zh-Hant", Some(Lang::En)),
            ("en-GB", Some(Lang::En)),
            ("en", Some(Lang::En)),
            ("fr-FR", None),
            ("", None),
        ] {
            assert_eq!(Lang::from_code(tag), want, "{tag}");
        }
        assert_eq!(
            Lang::from_preferences(["fr", "de", "zh-CN", "en"]),
            Lang::Zh
        );
        assert_eq!(Lang::from_preferences(["fr", "en-US", "zh-CN"]), Lang::En);
        assert_eq!(Lang::from_preferences(["fr"]), Lang::En);
        for l in Lang::ALL {
            assert_eq!(Lang::from_code(l.code()), Some(l));
            assert_eq!(Lang::from_code(l.bcp47()), Some(l));
        }
    }
}
