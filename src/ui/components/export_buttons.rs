//! Download buttons for slides: the slot map and the sequence diagram, as SVG or PNG.

use crate::core::SlotMap;
use crate::ui::messages::{fill, use_messages, Messages};
use std::rc::Rc;
use yew::prelude::*;

/// The two formats a picture is offered in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Scalable, editable.
    Svg,
    /// Twice the size, for tools that take no SVG.
    Png,
}

impl Format {
    fn ext(self) -> &'static str {
        match self {
            Format::Svg => "svg",
            Format::Png => "png",
        }
    }
    fn name(self) -> &'static str {
        match self {
            Format::Svg => "SVG",
            Format::Png => "PNG",
        }
    }
}

/// Offers `svg` (of size `w` × `h`) as `{stem}.svg` or `{stem}.png`.
#[cfg(target_arch = "wasm32")]
fn offer(svg: &str, w: u32, h: u32, stem: &str, format: Format) {
    let name = format!("{stem}.{}", format.ext());
    match format {
        Format::Svg => crate::ui::export::download_svg(svg, &name),
        Format::Png => crate::ui::export::download_png(svg, w, h, 2, &name),
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn offer(_svg: &str, _w: u32, _h: u32, _stem: &str, _format: Format) {}

fn buttons(
    t: &Messages,
    label: &'static str,
    testid: &str,
    on: impl Fn(Format) -> Callback<MouseEvent>,
) -> Html {
    html! {
        <div class="export" role="group" aria-label={label}>
            <span class="export__label" aria-hidden="true">{ label }</span>
            { for [Format::Svg, Format::Png].into_iter().map(|f| html! {
                <button type="button" class="button button--quiet button--small export__button"
                        aria-label={fill(t.export_button, &[&label, &f.name()])}
                        data-testid={format!("{testid}-{}", f.ext())} onclick={on(f)}>
                    { f.name() }
                </button>
            }) }
        </div>
    }
}

/// Props of [`MapExport`].
#[derive(Properties, PartialEq)]
pub struct MapExportProps {
    /// The cluster drawn.
    pub map: Rc<SlotMap>,
    /// Its masters' colours.
    pub colours: Rc<Vec<String>>,
}

/// "Download the map: SVG PNG".
#[function_component(MapExport)]
pub fn map_export(props: &MapExportProps) -> Html {
    let t = use_messages();
    let on = |format: Format| {
        let (map, colours) = (props.map.clone(), props.colours.clone());
        Callback::from(move |_: MouseEvent| {
            let dark = crate::ui::components::slot_map::prefers_dark();
            let (svg, w, h) = crate::ui::export::slot_map_svg(&map, &colours, dark, t);
            offer(&svg, w, h, "slotscope-slot-map", format);
        })
    };
    buttons(t, t.export_map, "export-map", on)
}

/// Props of [`SeqExport`].
#[derive(Properties, PartialEq)]
pub struct SeqExportProps {
    /// File name without extension.
    pub stem: AttrValue,
}

/// "Download the diagram: SVG PNG", for the sequence diagram in the same `.redir__player`.
#[function_component(SeqExport)]
pub fn seq_export(props: &SeqExportProps) -> Html {
    let t = use_messages();
    let on = |format: Format| {
        let stem = props.stem.clone();
        Callback::from(move |e: MouseEvent| {
            #[cfg(target_arch = "wasm32")]
            {
                use wasm_bindgen::JsCast;
                let svg = e
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .and_then(|el| el.closest(".redir__player").ok().flatten())
                    .and_then(|p| p.query_selector("svg.seq").ok().flatten());
                if let Some((text, w, h)) =
                    svg.and_then(|s| crate::ui::export::standalone_svg(&s, "seq"))
                {
                    offer(&text, w, h, &stem, format);
                }
            }
            #[cfg(not(target_arch = "wasm32"))]
            let _ = (&e, &stem, format);
        })
    };
    buttons(t, t.export_seq, "export-seq", on)
}
