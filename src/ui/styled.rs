//! Inline styles that a strict Content-Security-Policy allows: set through the CSSOM, never as a
//! `style="…"` attribute (which `style-src 'self'` refuses).

use yew::prelude::*;

/// Props of [`StyledSpan`].
#[derive(Properties, PartialEq)]
pub struct StyledSpanProps {
    /// Declarations as they would appear in a `style` attribute, e.g. `background:#0072B2`.
    pub style: AttrValue,
    /// Classes of the span.
    #[prop_or_default]
    pub class: Classes,
    /// A tooltip, if any.
    #[prop_or_default]
    pub title: Option<AttrValue>,
    /// Hide the span from assistive technology (it repeats text said elsewhere).
    #[prop_or_default]
    pub aria_hidden: bool,
    /// What the span holds.
    #[prop_or_default]
    pub children: Children,
}

/// A `<span>` whose `style` is written with `element.style.cssText`, after every change of
/// `style`. Effects run before the browser paints, so the unstyled span is never seen.
#[function_component]
pub fn StyledSpan(props: &StyledSpanProps) -> Html {
    let node = use_node_ref();
    {
        let node = node.clone();
        use_effect_with(props.style.clone(), move |style| {
            if let Some(el) = node.cast::<web_sys::HtmlElement>() {
                el.style().set_css_text(style);
            }
        });
    }
    html! {
        <span ref={node} class={props.class.clone()} title={props.title.clone()}
              aria-hidden={props.aria_hidden.then_some("true")}>
            { for props.children.iter() }
        </span>
    }
}
