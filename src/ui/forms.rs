//! Binding form fields to component state: one callback shape for every text field and select.

use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

/// An `oninput` for an `<input>` that stores its text in `state`.
pub fn bind_input(state: &UseStateHandle<String>) -> Callback<InputEvent> {
    let state = state.clone();
    Callback::from(move |e: InputEvent| {
        state.set(e.target_unchecked_into::<HtmlInputElement>().value())
    })
}

/// An `oninput` for a `<textarea>` that stores its text in `state`.
pub fn bind_textarea(state: &UseStateHandle<String>) -> Callback<InputEvent> {
    let state = state.clone();
    Callback::from(move |e: InputEvent| {
        state.set(e.target_unchecked_into::<HtmlTextAreaElement>().value())
    })
}

/// An `onchange` for a `<select>` that stores the chosen value in `state`.
pub fn bind_select(state: &UseStateHandle<String>) -> Callback<Event> {
    let state = state.clone();
    Callback::from(move |e: Event| {
        state.set(e.target_unchecked_into::<HtmlSelectElement>().value())
    })
}
