//! The key field: redis-cli escape syntax in, and a malformed escape pointed at by column.

use crate::ui::localize::escape_sentence;
use crate::ui::messages::{fill, use_messages, Messages};
use crate::ui::state::{KeyProblem, MAX_KEY_BYTES};
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
    /// The text in the field.
    pub value: AttrValue,
    /// Why the text is not explained, if it is not.
    pub error: Option<KeyProblem>,
    /// Called with the new text on every edit.
    pub on_input: Callback<String>,
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
        KeyProblem::TooLong { bytes } => fill(t.err_too_long, &[bytes, &MAX_KEY_BYTES]),
    }
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
    {
        let (field, known, value) = (field.clone(), known.clone(), props.value.clone());
        use_effect(move || {
            let mut known = known.borrow_mut();
            if known.as_ref() != Some(&value) {
                if let Some(input) = field.cast::<HtmlInputElement>() {
                    input.set_value(&value);
                }
                *known = Some(value);
            }
        });
    }
    let oninput = {
        let (on_input, known) = (props.on_input.clone(), known.clone());
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let text = input.value();
            *known.borrow_mut() = Some(AttrValue::from(text.clone()));
            on_input.emit(text);
        })
    };
    // Prerendered, the field carries its text as HTML; live, the effect above sets it.
    let value = cfg!(feature = "ssr").then(|| props.value.clone());
    let error = props.error.as_ref().map(|err| {
        // Point at the column inside the text, clipped around it so a long key stays one line.
        let pointer = err.column().map(|column| {
            let (before, at, after) = split_at_column(&props.value, column);
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
    html! {
        <div class="key-input">
            <label class="key-input__label" for="key-field">{ t.key_label }</label>
            <input id="key-field" class={classes!("key-input__field", props.error.is_some().then_some("is-invalid"))}
                type="text" data-testid="key-input"
                ref={field} {value} {oninput}
                spellcheck="false" autocomplete="off" autocapitalize="off"
                aria-invalid={props.error.is_some().to_string()}
                aria-describedby={if props.error.is_some() { "key-error key-help" } else { "key-help" }} />
            // Always one node here (empty when there is no error): Yew matches unkeyed siblings
            // from the end, so a child that comes and goes made it rebuild the <input> and drop
            // the reader's focus mid-word.
            { error.unwrap_or_default() }
            <p class="key-input__help" id="key-help">{ t.key_help }</p>
            <div class="key-input__examples">
                <span class="key-input__examples-label">{ t.examples }</span>
                { for EXAMPLES.iter().map(|&ex| {
                    let on_input = props.on_input.clone();
                    let onclick = Callback::from(move |_: MouseEvent| on_input.emit(ex.to_string()));
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
