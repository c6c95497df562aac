//! The language switch in the masthead: English or 简体中文, each named in itself.

use crate::ui::lang::Lang;
use crate::ui::lang_warm;
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
    // The reader reaching for the switch: the pointer over it, the focus, a press (a touch).
    // The other language's first screen is painted unseen meanwhile (`lang_warm`).
    let reach = {
        let lang = props.lang;
        Callback::from(move |_: Event| lang_warm::reach(lang))
    };
    html! {
        <div class="lang-switch" onpointerenter={reach.reform(Event::from)} onfocusin={reach.reform(Event::from)}
            onpointerdown={reach.reform(Event::from)}>
            <label for="lang" class="lang-switch__label">{ "Language · 语言" }</label>
            <select id="lang" data-testid="lang-select" {onchange}>
                { for Lang::ALL.iter().map(|l| html! {
                    <option value={l.code()} lang={l.bcp47()} selected={*l == props.lang}>{ l.endonym() }</option>
                }) }
            </select>
        </div>
    }
}
