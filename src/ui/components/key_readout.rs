//! The sticky read-out `key → slot → master`: the page's answer kept in view while the reader
//! is elsewhere; a click goes back to the key field.

use crate::core::key::escape::push_formatted;
use crate::core::SlotMap;
use crate::ui::components::section_nav::{focus_in_place, go_to};
use crate::ui::key_store::{use_key_select, KeyStore, Same};
use crate::ui::messages::{fill, use_messages};
use crate::ui::sections::Place;
use crate::ui::state::KeyProblem;
use crate::ui::styled::StyledSpan;
use std::rc::Rc;
use yew::prelude::*;

/// Bytes of the key the read-out shows before it cuts the key short with "…".
const SHOWN_BYTES: usize = 24;

/// Characters of the key as printed (`\xff` is four) the read-out shows at most, so its width
/// never pushes the section links or the master aside (the stylesheet may cut it shorter).
const SHOWN_CHARS: usize = 20;

/// Bytes of the key its tooltip shows (the whole key up to this; the key card shows all).
const TITLE_BYTES: usize = 1024;

/// Props of [`KeyReadout`].
#[derive(Properties, PartialEq)]
pub struct KeyReadoutProps {
    /// The key's state (the read-out shows the last key that parsed, dimmed while the field
    /// holds text that does not; it re-renders only when one of those changes).
    pub key_store: KeyStore,
    /// The cluster, to name the slot's master.
    pub map: Rc<SlotMap>,
    /// Colour of each master, by index.
    pub colours: Rc<Vec<String>>,
}

/// The key as redis-cli prints it, cut after [`SHOWN_BYTES`] bytes or [`SHOWN_CHARS`]
/// characters.
fn short_key(key: &[u8]) -> String {
    let mut s = String::new();
    push_formatted(&mut s, &key[..key.len().min(SHOWN_BYTES)]);
    if s.chars().count() > SHOWN_CHARS {
        s = s.chars().take(SHOWN_CHARS).collect();
        s.push('…');
    } else if key.len() > SHOWN_BYTES {
        s.push('…');
    }
    s
}

/// What part of a master's address a phone shows: the port when no other master has it, else
/// the host when no other master has that, else both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Naming {
    /// `:7001`
    Port,
    /// `10.0.0.2`
    Host,
    /// `10.0.0.2:6379`
    Both,
}

/// How `addr` is told apart from the other addresses of `all` (see [`Naming`]).
pub fn naming<'a>(all: impl IntoIterator<Item = &'a str> + Clone, addr: &str) -> Naming {
    if !port_shared(all.clone(), addr) {
        return Naming::Port;
    }
    let host = |a: &str| a.rsplit_once(':').map(|(h, _)| h.to_owned());
    let mine = host(addr);
    if all.into_iter().any(|a| a != addr && host(a) == mine) {
        Naming::Both
    } else {
        Naming::Host
    }
}

/// True when another of `all` has the same port as `addr`: then the port alone does not say
/// which master it is, and its host must be shown (e.g. 10.0.0.1:6379 and 10.0.0.2:6379).
pub fn port_shared<'a>(all: impl IntoIterator<Item = &'a str>, addr: &str) -> bool {
    // Borrowed, not copied: the reshard trail asks this of 2,000 addresses at 1000 masters.
    fn port(a: &str) -> Option<&str> {
        a.rsplit_once(':').map(|(_, p)| p)
    }
    let mine = port(addr);
    all.into_iter().any(|a| a != addr && port(a) == mine)
}

/// The key as redis-cli prints it for the tooltip: whole up to [`TITLE_BYTES`] bytes.
fn title_key(key: &[u8]) -> String {
    let mut s = String::new();
    push_formatted(&mut s, &key[..key.len().min(TITLE_BYTES)]);
    if key.len() > TITLE_BYTES {
        s.push('…');
    }
    s
}

/// The read-out.
#[function_component(KeyReadout)]
pub fn key_readout(props: &KeyReadoutProps) -> Html {
    let t = use_messages();
    let (Same(explained), stale) = use_key_select(&props.key_store, |k| {
        (
            Same(k.explained.clone()),
            k.error.as_ref().is_some_and(KeyProblem::is_in_field),
        )
    });
    let e = &explained;
    let key = short_key(&e.key);
    let owner = props.map.owner(e.slot);
    let master = owner
        .and_then(|m| props.map.masters().get(m))
        .map_or(t.unowned, |m| m.addr.as_str());
    let colour = owner.and_then(|m| props.colours.get(m)).cloned();
    // map18: on a phone the host shows only where the port alone does not name the master.
    let naming = naming(props.map.masters().iter().map(|m| m.addr.as_str()), master);
    let host_needed = naming != Naming::Port;
    let port_spare = naming == Naming::Host;
    let title = fill(t.readout_label, &[&title_key(&e.key), &e.slot, &master]);
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
        <a class={classes!("key-readout", stale.then_some("key-readout--stale"))} href="#key"
           data-testid="key-readout" data-slot={e.slot.to_string()} data-master={master.to_string()}
           aria-label={title.clone()} {title} {onclick}>
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
                // On a narrow phone only what tells the master apart shows: its port, or its
                // host where ports repeat (the tooltip has the whole address).
                if let Some((host, port)) = master.rsplit_once(':') {
                    <code>
                        <span class={classes!("key-readout__host", host_needed.then_some("key-readout__host--needed"))}>{ host }</span>
                        <span class={classes!("key-readout__port", port_spare.then_some("key-readout__port--spare"))}>{ ":" }{ port }</span>
                    </code>
                } else {
                    <code>{ master }</code>
                }
            </span>
        </a>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_port_shared_by_two_masters_needs_its_host() {
        let pasted = ["10.0.0.1:6379", "10.0.0.2:6379", "10.0.0.3:6379"];
        assert!(port_shared(pasted, "10.0.0.2:6379"));
        let local = ["127.0.0.1:7000", "127.0.0.1:7001", "127.0.0.1:7002"];
        assert!(!port_shared(local, "127.0.0.1:7001"));
        assert!(!port_shared(["10.0.0.1:6379"], "10.0.0.1:6379"));
        assert_eq!(naming(pasted, "10.0.0.2:6379"), Naming::Host);
        assert_eq!(naming(local, "127.0.0.1:7001"), Naming::Port);
        let mixed = ["10.0.0.1:6379", "10.0.0.2:6379", "10.0.0.2:6380"];
        assert_eq!(naming(mixed, "10.0.0.2:6379"), Naming::Both);
        assert_eq!(naming(mixed, "10.0.0.2:6380"), Naming::Port);
        assert_eq!(naming(mixed, "10.0.0.1:6379"), Naming::Host);
    }

    #[test]
    fn the_tooltip_has_the_whole_key_up_to_its_cap() {
        assert_eq!(title_key(b"{user1}:profile"), "{user1}:profile");
        assert_eq!(title_key(&[b'a'; 30]), "a".repeat(30));
        assert_eq!(short_key(&[b'a'; 30]), format!("{}…", "a".repeat(20)));
        assert_eq!(short_key(&[b'a'; 20]), "a".repeat(20));
        assert_eq!(short_key(&[b'a'; 24]), format!("{}…", "a".repeat(20)));
        assert_eq!(short_key(&[0xff; 6]), format!("{}…", r"\xff".repeat(5)));
        assert_eq!(short_key(&[0xff; 5]), r"\xff".repeat(5));
        let long = vec![b'b'; 70_000];
        assert_eq!(title_key(&long), format!("{}…", "b".repeat(TITLE_BYTES)));
    }
}
