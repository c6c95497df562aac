//! Copying text to the clipboard, a button that does it and says so, and reading what a
//! reader pastes or drops into a field.

use crate::ui::messages::{fill, grouped, use_messages, Messages};
use js_sys::JsString;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// A paste's or drop's `DataTransfer`, read with its text left in JavaScript (web-sys's
    /// `get_data` copies it into wasm at once).
    type PasteData;
    #[wasm_bindgen(method, catch, js_name = getData)]
    fn get_data(this: &PasteData, format: &str) -> Result<JsString, JsValue>;
}

/// The plain text `data` carries, left in JavaScript.
pub fn text_of(data: &web_sys::DataTransfer) -> Option<JsString> {
    data.unchecked_ref::<PasteData>()
        .get_data("text/plain")
        .ok()
}

/// The plain text a `paste` event carries, left in JavaScript.
pub fn pasted_text(e: &Event) -> Option<JsString> {
    e.dyn_ref::<web_sys::ClipboardEvent>()?
        .clipboard_data()
        .and_then(|d| text_of(&d))
}

/// The text the field of a `paste` event (a one-line `<input>` or a `<textarea>`) would hold
/// once the paste replaces its selection, when that is over `limit` bytes (`text_after_paste`).
pub fn paste_over(e: &Event, limit: usize) -> Option<String> {
    let pasted = pasted_text(e)?;
    let target = e.target()?;
    let (before, selection, one_line) =
        if let Some(area) = target.dyn_ref::<web_sys::HtmlTextAreaElement>() {
            let at = (area.selection_start(), area.selection_end());
            (area.value(), at, false)
        } else {
            let field = target.dyn_ref::<web_sys::HtmlInputElement>()?;
            let at = (field.selection_start(), field.selection_end());
            (field.value(), at, true)
        };
    let selection = (selection.0.ok().flatten(), selection.1.ok().flatten());
    text_after_paste(&before, selection, &pasted, limit, one_line)
}

/// The text a field holding `before` holds once `pasted` replaces its `selection` (UTF-16
/// offsets; none: at the end), when that text is over `limit` bytes; `None` when it is not,
/// and then, when each UTF-16 unit's three UTF-8 bytes at most keep it within, without reading
/// the paste into wasm. Line breaks as `with_line_breaks`. For the fields that refuse a text
/// too long before the browser lays it out (10 MB: seconds).
fn text_after_paste(
    before: &str,
    selection: (Option<u32>, Option<u32>),
    pasted: &JsString,
    limit: usize,
    one_line: bool,
) -> Option<String> {
    if before.len() + 3 * pasted.length() as usize <= limit {
        return None;
    }
    let text = pasted_into(before, selection, String::from(pasted), one_line);
    (text.len() > limit).then_some(text)
}

/// The longest text the page's short one-line fields (templates, weights) take from a paste.
/// A 64 KB template is read in a few ms; a 10 MB paste took 7 to 9 s to reach such a field.
pub const SHORT_FIELD_BYTES: usize = 64 * 1024;

/// For a field whose text is `text`: an `onpaste` that refuses a paste leaving it over `limit`
/// bytes before the field holds it, and the refusal to show right after the field, worded by
/// `words` (the bytes it would have held, then `limit`, grouped), brought into view (a phone
/// may show only the field). It goes once the field's text changes.
#[hook]
pub fn use_paste_limit(
    text: &str,
    limit: usize,
    words: fn(&Messages) -> &'static str,
) -> (Callback<Event>, Html) {
    let t = use_messages();
    let refused = use_state_eq(|| None::<usize>);
    let shown = use_node_ref();
    {
        let refused = refused.clone();
        use_effect_with(text.to_owned(), move |_| refused.set(None));
    }
    {
        let shown = shown.clone();
        use_effect_with(*refused, move |refused| {
            if let (Some(_), Some(p)) = (refused, shown.cast::<web_sys::Element>()) {
                let options = web_sys::ScrollIntoViewOptions::new();
                options.set_block(web_sys::ScrollLogicalPosition::Nearest);
                p.scroll_into_view_with_scroll_into_view_options(&options);
            }
        });
    }
    let onpaste = {
        let refused = refused.clone();
        Callback::from(move |e: Event| {
            if let Some(text) = paste_over(&e, limit) {
                e.prevent_default();
                refused.set(Some(text.len()));
            }
        })
    };
    let message = match *refused {
        Some(bytes) => html! {
            <p class="lab__error lab__error--paste" role="alert" data-testid="paste-refused" ref={shown}>
                { fill(words(t), &[&grouped(bytes as u64), &grouped(limit as u64)]) }
            </p>
        },
        None => Html::default(),
    };
    (onpaste, message)
}

/// The text a field holding `before` holds once `pasted` replaces its `selection` (UTF-16
/// offsets, either way round; none: at the end), its line breaks as a field (`one_line` or not)
/// pastes them (`with_line_breaks`).
pub fn pasted_into(
    before: &str,
    selection: (Option<u32>, Option<u32>),
    pasted: String,
    one_line: bool,
) -> String {
    let byte = |u: Option<u32>| u.map(|u| utf16_to_byte(before, u as usize));
    let start = byte(selection.0).unwrap_or(before.len());
    let end = byte(selection.1).unwrap_or(start);
    let (start, end) = (start.min(end), start.max(end));
    [
        &before[..start],
        &with_line_breaks(pasted, one_line),
        &before[end..],
    ]
    .concat()
}

/// `text` with its line breaks as Chromium 156 pastes them (measured): into a textarea each
/// CR LF, CR or LF is a `\n`; into a one-line field (`one_line`) those at the end are dropped
/// and each other is a space ("a\r\nb\n" is "a b").
fn with_line_breaks(text: String, one_line: bool) -> String {
    // A textarea's `\n` stays: only a text with CR is copied (a 4 MB batch of keys, a line
    // each, was copied twice for nothing: 20 ms in the task that takes a paste in).
    // `contains(char)` is a memchr; a set of chars is read char by char (as slow as the copy).
    let breaks = match one_line {
        true => text.contains(['\r', '\n']),
        false => text.contains('\r'),
    };
    if !breaks {
        return text;
    }
    let (text, line_break) = match one_line {
        true => (text.trim_end_matches(['\r', '\n']), " "),
        false => (text.as_str(), "\n"),
    };
    text.replace("\r\n", line_break)
        .replace(['\r', '\n'], line_break)
}

/// The byte offset in `text` of UTF-16 offset `u` (a field's selection), at most its end.
fn utf16_to_byte(text: &str, u: usize) -> usize {
    let mut units = 0;
    for (i, c) in text.char_indices() {
        if units >= u {
            return i;
        }
        units += c.len_utf16();
    }
    text.len()
}

/// Writes `text` to the clipboard. A refusal (no permission, no secure context) is swallowed:
/// the text is also on screen to select by hand, and a rejected promise must not reach the
/// console as an error.
pub fn copy(text: String) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let promise = window.navigator().clipboard().write_text(&text);
    wasm_bindgen_futures::spawn_local(async move {
        let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
    });
}

/// Props of [`CopyButton`].
#[derive(Properties, PartialEq)]
pub struct CopyButtonProps {
    /// What to copy.
    pub text: AttrValue,
    /// Whether the text is not yet what the page shows beside it (the planner's replies still
    /// to come): the button is disabled until it is.
    #[prop_or_default]
    pub disabled: bool,
}

/// A "Copy" button that reads "Copied" once clicked.
#[function_component(CopyButton)]
pub fn copy_button(props: &CopyButtonProps) -> Html {
    let t = use_messages();
    let done = use_state(|| false);
    let onclick = {
        let (text, done) = (props.text.to_string(), done.clone());
        Callback::from(move |_: MouseEvent| {
            copy(text.clone());
            done.set(true);
        })
    };
    html! {
        <button type="button" class="button button--quiet button--small" {onclick} disabled={props.disabled}>
            { if *done { t.copied } else { t.copy } }
        </button>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_paste_replaces_the_selection_counted_in_utf16_units() {
        let both = |a, b| (Some(a), Some(b));
        assert_eq!(pasted_into("abcd", both(1, 3), "X".into(), true), "aXd");
        assert_eq!(pasted_into("abcd", both(3, 1), "X".into(), true), "aXd");
        // 用 and 户 are one UTF-16 unit and three bytes each; 😀 is two units.
        assert_eq!(
            pasted_into("用户:1", both(2, 2), "X".into(), true),
            "用户X:1"
        );
        assert_eq!(pasted_into("😀b", both(2, 3), "X".into(), true), "😀X");
        assert_eq!(pasted_into("ab", (None, None), "X".into(), true), "abX");
        assert_eq!(pasted_into("ab", both(9, 9), "X".into(), true), "abX");
    }

    #[test]
    fn line_breaks_are_pasted_as_the_field_takes_them() {
        // As Chromium 156 pasted them into a one-line field (e2e bad_input.test), and a textarea.
        let one_line = |t: &str| pasted_into("", (None, None), t.into(), true);
        assert_eq!(one_line("a\nb\r\nc\rd"), "a b c d");
        assert_eq!(one_line("ab\r\n"), "ab");
        assert_eq!(one_line("ab\n\n"), "ab");
        assert_eq!(one_line("\r\n\r\nab"), "  ab");
        assert_eq!(one_line("a\n \n"), "a  ");
        assert_eq!(one_line("\n"), "");
        let area = pasted_into("x", (None, None), "a\r\nb\n".into(), false);
        assert_eq!(area, "xa\nb\n");
    }
}
