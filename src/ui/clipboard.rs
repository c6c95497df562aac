//! Copying text to the clipboard, and a button that does it and says so.

use crate::ui::messages::use_messages;
use yew::prelude::*;

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
