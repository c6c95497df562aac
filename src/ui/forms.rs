//! Binding form fields to state: a field's value into a `use_state`, or into a reducer's action.

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

/// An `oninput` for an `<input>` that sends its text to a reducer as `to(text)`.
pub fn input_to<A: 'static>(cb: Callback<A>, to: fn(String) -> A) -> Callback<InputEvent> {
    Callback::from(move |e: InputEvent| {
        cb.emit(to(e.target_unchecked_into::<HtmlInputElement>().value()))
    })
}

/// An `onchange` for a `<select>` that sends the chosen value to a reducer as `to(value)`;
/// a value `to` does not know is ignored.
pub fn select_to<A: 'static>(cb: Callback<A>, to: fn(String) -> Option<A>) -> Callback<Event> {
    Callback::from(move |e: Event| {
        if let Some(a) = to(e.target_unchecked_into::<HtmlSelectElement>().value()) {
            cb.emit(a)
        }
    })
}
