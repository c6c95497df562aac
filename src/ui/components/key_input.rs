//! The key field: redis-cli escape syntax in, and a malformed escape pointed at by column.

use crate::core::key::field::read_key;
use crate::ui::clipboard::paste_over;
use crate::ui::key_store::{use_key_select, KeyStore};
use crate::ui::localize::escape_sentence;
use crate::ui::messages::{fill, grouped, use_messages, Messages};
use crate::ui::state::{KeyProblem, MAX_KEY_BYTES};
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Keys a learner should try: each shows one rule (the PRODUCT.md edge cases among them).
pub const EXAMPLES: &[&str] = &[
    "{user1}:profile",
    "user1:profile",
    "foo",
    "a{b}c",
    "{}a",
    "x{}{y}",
    "{{a}}",
    "{a}{b}",
    "a{b",
    "用户:1001",
    r"\xff\x00{a}",
];

/// Props of [`KeyInput`].
#[derive(Properties, PartialEq)]
pub struct KeyInputProps {
    /// The key's state: the field reads it and dispatches every edit into it.
    pub key_store: KeyStore,
}

/// Splits `text` around the character at 1-based `column`: (before, at, after).
pub fn split_at_column(text: &str, column: usize) -> (&str, &str, &str) {
    let mut idx = text.char_indices().skip(column.saturating_sub(1));
    match idx.next() {
        Some((start, c)) => {
            let end = start + c.len_utf8();
            (&text[..start], &text[start..end], &text[end..])
        }
        None => (text, "", ""),
    }
}

/// The reader-facing sentence for a key problem.
pub fn describe(t: &Messages, problem: &KeyProblem) -> String {
    match problem {
        KeyProblem::Escape(e) => escape_sentence(t, e),
        KeyProblem::TooLong { bytes, at_least } => {
            let text = if *at_least {
                t.err_too_long_at_least
            } else {
                t.err_too_long
            };
            fill(
                text,
                &[&grouped(*bytes as u64), &grouped(MAX_KEY_BYTES as u64)],
            )
        }
    }
}

/// The length from which the field holds its text on a composited layer of its own
/// (`.key-input__field.is-long`, issue 17), in bytes: a single line of text is drawn whole in
/// every tile it crosses, and the page's tiles are 256 px wide, a layer as short as the field
/// 512 px. A 64 KB key was drawn in 5 or more tiles per frame, each about 3 ms; typed keys are
/// far shorter, and keep their text on the page's own layer. Compared with the state's text
/// at each render and when an edit is taken, and with the caret's offset in the input handler
/// (a paste's own frame; UTF-16 units there, so a pasted key of 1000 units or fewer but more
/// bytes gets its layer a frame later).
const LONG_KEY: usize = 1000;

/// Puts `field` on its own layer or back on the page's (`LONG_KEY`), whatever Yew last set:
/// the input handler and a taken edit know the field's text before a render does.
fn mark_long(field: &HtmlInputElement, long: bool) {
    let _ = field.class_list().toggle_with_force("is-long", long);
}

/// The key field with its help, examples and error.
#[function_component(KeyInput)]
pub fn key_input(props: &KeyInputProps) -> Html {
    let t = use_messages();
    // The field's text is the browser's own, not Yew's (issue 17): Yew reads a controlled
    // input's value back from the page at every render to compare it, which for a 64 KB key
    // was a second 64 KB copy per keystroke. `known` is what the field holds as far as this
    // component knows (what it reported on `input`, or set); after each render the field is
    // set only where the text differs from it: an example, the tour, a refused paste put back.
    let field = use_node_ref();
    let known = use_mut_ref(|| None::<AttrValue>);
    // What the field shows besides the reader's own text: the error (with the text around its
    // column), and the text when it is not what the field last reported. A keystroke that
    // changes neither does not re-render the field.
    let (error, value, long) = {
        let known = known.clone();
        use_key_select(&props.key_store, move |k| {
            let foreign = k.error.is_some() || known.borrow().as_ref() != Some(&k.input);
            let long = k.input.len() > LONG_KEY;
            (k.error.clone(), foreign.then(|| k.input.clone()), long)
        })
    };
    let value = value.unwrap_or_else(|| props.key_store.get().input.clone());
    {
        let (field, known, value) = (field.clone(), known.clone(), value.clone());
        let store = props.key_store.clone();
        use_effect(move || {
            // Yew sets the class only when its own changes: an edit dropped for a dispatched
            // key, or refused, leaves what the input handler set (an edit still waiting keeps
            // it: the field is newer than the state).
            if let (Some(input), false) = (field.cast::<HtmlInputElement>(), store.edit_waiting()) {
                mark_long(&input, long);
            }
            let mut known = known.borrow_mut();
            // An edit still waiting is newer than the state (the app mounting hands over what
            // the reader typed into the prerendered page as an edit, before this first runs).
            if known.as_ref() != Some(&value) && !store.edit_waiting() {
                if let Some(input) = field.cast::<HtmlInputElement>() {
                    input.set_value(&value);
                }
                *known = Some(value);
            }
        });
    }
    // An edit reaches the key's state a task after a frame that shows it in the field and has
    // no key in it (issue 17, `KeyStore::edited`): the keystroke's own frame holds only the
    // browser's echo of the character, as on a page with nothing but the field.
    let oninput = {
        let (store, known, node) = (props.key_store.clone(), known.clone(), field.clone());
        let read: Rc<dyn Fn(&str)> = Rc::new(move |text: &str| {
            if let Some(input) = node.cast::<HtmlInputElement>() {
                mark_long(&input, text.len() > LONG_KEY);
            }
            *known.borrow_mut() = Some(AttrValue::from(text.to_string()))
        });
        Callback::from(move |e: InputEvent| {
            let field: HtmlInputElement = e.target_unchecked_into();
            // A long key pasted (the caret after it): on its own layer from the paste's own
            // frame, before the state knows it is long (`LONG_KEY`).
            if field.selection_end().ok().flatten().unwrap_or(0) as usize > LONG_KEY {
                mark_long(&field, true);
            }
            store.edited(field, read.clone())
        })
    };
    // A key down or up in the field: the edit waits for a frame without one (issue 17,
    // `KeyStore::edited`).
    let onkeydown = {
        let store = props.key_store.clone();
        Callback::from(move |e: KeyboardEvent| store.key_down(e.repeat()))
    };
    let onkeyup = {
        let store = props.key_store.clone();
        Callback::from(move |e: KeyboardEvent| store.key_up(e.key() == "Meta"))
    };
    // A paste too long to explain is refused before the field holds it (`too_long_paste`): the
    // state words the refusal and keeps the key before, an edit still waiting taken first.
    let onpaste = {
        let store = props.key_store.clone();
        Callback::from(move |e: Event| {
            // Escapes only shorten a key: a text within the limit is a key within it. A 10 MB
            // paste was laid out in the field before being refused, over 4 s here (1 s for
            // 2 MB), and the field then set back; refused here, the field never holds it.
            let too_long = paste_over(&e, MAX_KEY_BYTES)
                .filter(|text| matches!(read_key(text), Err(KeyProblem::TooLong { .. })));
            if let Some(text) = too_long {
                e.prevent_default();
                store.take_edit();
                store.dispatch(text);
            }
        })
    };
    // Leaving the field settles the key at once (the share link catches up before a click on
    // Share lands), an edit still waiting included.
    let onblur = {
        let store = props.key_store.clone();
        Callback::from(move |_: FocusEvent| store.settle())
    };
    let onsubmit = Callback::from(|e: SubmitEvent| e.prevent_default());
    // A key too long was refused: the field holds the key before, which is no invalid text.
    let invalid = error.as_ref().is_some_and(KeyProblem::is_in_field);
    let error = error.as_ref().map(|err| {
        // Point at the column inside the text, clipped around it so a long key stays one line.
        let pointer = err.column().map(|column| {
            let (before, at, after) = split_at_column(&value, column);
            let before = tail_chars(before, 40);
            let after = head_chars(after, 40);
            html! {
                <code class="key-input__where">
                    { before }<mark>{ if at.is_empty() { "\u{2003}" } else { at } }</mark>{ after }
                </code>
            }
        });
        html! {
            <div class="key-input__error" id="key-error" role="alert" data-testid="key-error">
                { pointer.unwrap_or_default() }
                <span>{ describe(t, err) }</span>
            </div>
        }
    });
    // Prerendered, the field carries its text as HTML; live, the effect above sets it.
    let value = cfg!(feature = "ssr").then_some(value);
    html! {
        <div class="key-input">
            <label class="key-input__label" for="key-field">{ t.key_label }</label>
            // The field in a form of its own (issue 17): Chromium's autofill looks at every
            // field of the form an edited field is in, and a field in no form is in one with
            // every other formless control of the page (a hundred here), each checked for
            // visibility, about 4 ms after each keystroke. `method="dialog"` outside a dialog
            // submits nowhere, so Enter (before the app has started too) does nothing.
            <form class="key-input__form" method="dialog" {onsubmit}>
            <input id="key-field" class={classes!("key-input__field", invalid.then_some("is-invalid"), long.then_some("is-long"))}
                type="text" data-testid="key-input"
                ref={field} {value} {oninput} {onblur} {onpaste}
                {onkeydown} {onkeyup}
                spellcheck="false" autocomplete="off" autocapitalize="off"
                aria-invalid={invalid.to_string()}
                aria-describedby={if invalid { "key-error key-help" } else { "key-help" }} />
            </form>
            // Always one node here (empty when there is no error): Yew matches unkeyed siblings
            // from the end, so a child that comes and goes made it rebuild the <input> and drop
            // the reader's focus mid-word.
            { error.unwrap_or_default() }
            <p class="key-input__help" id="key-help">{ t.key_help }</p>
            <div class="key-input__examples">
                <span class="key-input__examples-label">{ t.examples }</span>
                { for EXAMPLES.iter().map(|&ex| {
                    let store = props.key_store.clone();
                    let onclick = Callback::from(move |_: MouseEvent| store.dispatch(ex.to_string()));
                    html! { <button type="button" class="chip" {onclick}>{ ex }</button> }
                }) }
            </div>
        </div>
    }
}

/// The last `n` characters of `s`, with "…" in front if cut.
fn tail_chars(s: &str, n: usize) -> String {
    let count = s.chars().count();
    if count <= n {
        return s.to_string();
    }
    let start = s.char_indices().nth(count - n).map_or(0, |(i, _)| i);
    format!("…{}", &s[start..])
}

/// The first `n` characters of `s`, with "…" after if cut.
fn head_chars(s: &str, n: usize) -> String {
    match s.char_indices().nth(n) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_characters() {
        assert_eq!(split_at_column(r"ab\x4", 3), ("ab", "\\", "x4"));
        assert_eq!(split_at_column("用户\\q", 3), ("用户", "\\", "q"));
        assert_eq!(split_at_column("ab", 9), ("ab", "", ""));
    }

    #[test]
    fn clipping_keeps_the_ends_near_the_column() {
        assert_eq!(tail_chars("abcdef", 3), "…def");
        assert_eq!(tail_chars("用户资料", 9), "用户资料");
        assert_eq!(head_chars("用户资料", 2), "用户…");
    }

    #[test]
    fn every_escape_error_has_a_sentence_with_its_column() {
        use crate::core::key::escape::parse_key;
        use crate::ui::messages::EN;
        for bad in [r"\x4", r"\xZZ", "a\\", r"\q", "\"abc", "\"a\"b"] {
            let err = KeyProblem::Escape(parse_key(bad).unwrap_err());
            let text = describe(&EN, &err);
            assert!(text.starts_with("Column "), "{bad}: {text}");
            assert!(!text.contains('{'), "{bad}: unfilled hole in {text}");
        }
    }
}
