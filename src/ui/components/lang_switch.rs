//! The language switch in the masthead: English or 简体中文, each named in itself.

use crate::ui::lang::Lang;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// Props of [`LangSwitch`].
#[derive(Properties, PartialEq)]
pub struct LangSwitchProps {
    /// The language shown now.
    pub lang: Lang,
    /// Called with the reader's choice.
    pub on_change: Callback<Lang>,
}

/// A labelled `<select>`; its label is in both languages, so a reader who cannot read the
/// current one still finds it.
#[function_component(LangSwitch)]
pub fn lang_switch(props: &LangSwitchProps) -> Html {
    let onchange = {
        let on_change = props.on_change.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            if let Some(lang) = Lang::from_code(&select.value()) {
                on_change.emit(lang);
            }
        })
    };
    html! {
        <div class="lang-switch">
            <label for="lang" class="lang-switch__label">{ "Language · 语言" }</label>
            <select id="lang" data-testid="lang-select" {onchange}>
                { for Lang::ALL.iter().map(|l| html! {
                    <option value={l.code()} lang={l.bcp47()} selected={*l == props.lang}>{ l.endonym() }</option>
                }) }
            </select>
        </div>
    }
}
