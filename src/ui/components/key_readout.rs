//! The sticky read-out `key → slot → master`: the page's answer kept in view while the reader
//! is elsewhere; a click goes back to the key field.

use crate::core::key::escape::push_formatted;
use crate::core::{Explanation, SlotMap};
use crate::ui::components::section_nav::{focus_in_place, go_to};
use crate::ui::messages::{fill, use_messages};
use crate::ui::sections::Place;
use crate::ui::styled::StyledSpan;
use std::rc::Rc;
use yew::prelude::*;

/// Bytes of the key the read-out shows before it cuts the key short with "…".
const SHOWN_BYTES: usize = 24;

/// Props of [`KeyReadout`].
#[derive(Properties, PartialEq)]
pub struct KeyReadoutProps {
    /// The key, explained by the core.
    pub explained: Rc<Explanation>,
    /// The cluster, to name the slot's master.
    pub map: Rc<SlotMap>,
    /// Colour of each master, by index.
    pub colours: Rc<Vec<String>>,
    /// True while the key field holds text that does not parse (the read-out shows the last key
    /// that did, dimmed).
    pub stale: bool,
}

/// The key as redis-cli prints it, cut after [`SHOWN_BYTES`] bytes.
fn short_key(key: &[u8]) -> String {
    let mut s = String::new();
    push_formatted(&mut s, &key[..key.len().min(SHOWN_BYTES)]);
    if key.len() > SHOWN_BYTES {
        s.push('…');
    }
    s
}

/// The read-out.
#[function_component(KeyReadout)]
pub fn key_readout(props: &KeyReadoutProps) -> Html {
    let t = use_messages();
    let e = &props.explained;
    let key = short_key(&e.key);
    let owner = props.map.owner(e.slot);
    let master = owner
        .and_then(|m| props.map.masters().get(m))
        .map_or(t.unowned, |m| m.addr.as_str());
    let colour = owner.and_then(|m| props.colours.get(m)).cloned();
    let onclick = Callback::from(|ev: MouseEvent| {
        if ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.button() != 0 {
            return;
        }
        ev.prevent_default();
        go_to(Place::Key, true);
        let field = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id("key-field"));
        if let Some(field) = field {
            focus_in_place(&field);
        }
    });
    html! {
        <a class={classes!("key-readout", props.stale.then_some("key-readout--stale"))} href="#key"
           data-testid="key-readout" data-slot={e.slot.to_string()} data-master={master.to_string()}
           aria-label={fill(t.readout_label, &[&key, &e.slot, &master])} {onclick}>
            <code class="key-readout__key">{ if key.is_empty() { t.empty_key.to_string() } else { key } }</code>
            <span class="key-readout__arrow" aria-hidden="true">{ "→" }</span>
            <span class="key-readout__slot">{ fill(t.readout_slot, &[&e.slot]) }</span>
            <span class="key-readout__arrow" aria-hidden="true">{ "→" }</span>
            <span class="key-readout__master">
                if let Some(c) = colour {
                    <StyledSpan class="swatch" style={format!("background:{c}")} />
                } else {
                    <span class="swatch swatch--unowned"></span>
                }
                // On a narrow phone the host gives way to the key (the port names the master).
                if let Some((host, port)) = master.rsplit_once(':') {
                    <code><span class="key-readout__host">{ host }</span>{ ":" }{ port }</code>
                } else {
                    <code>{ master }</code>
                }
            </span>
        </a>
    }
}
