//! "When clients disagree": under the pipeline, the slots that well-known client-side rules
//! compute for the key when they differ from Redis's, the master each would send the command
//! to (in its colour), what that costs on the wire, and a link to the scenario that plays that
//! rule's MOVED loop.

use crate::core::client::moved_loop_scenario;
use crate::core::key::client_rules::{consequence, divergences, ClientRule, Consequence, Outcome};
use crate::core::{Explanation, SlotMap};
use crate::ui::messages::{fill, use_messages, Messages};
use crate::ui::styled::StyledSpan;
use std::rc::Rc;
use yew::prelude::*;

/// Props of [`ClientRules`].
#[derive(Properties, PartialEq)]
pub struct ClientRulesProps {
    /// The key, explained by the core.
    pub explained: Rc<Explanation>,
    /// The cluster, to name each slot's master.
    pub map: Rc<SlotMap>,
    /// Colour of each master, by index.
    pub colours: Rc<Vec<String>>,
}

/// A rule's description.
fn rule_text(t: &Messages, rule: ClientRule) -> &'static str {
    match rule {
        ClientRule::ClusterKeySlot => t.rules_cluster_key_slot,
        ClientRule::LastBracePair => t.rules_last_brace,
        ClientRule::Utf16CodeUnits => t.rules_utf16,
        ClientRule::EmptyKeyRandom => t.rules_empty_random,
        ClientRule::Redis => "Redis",
    }
}

/// The consequence, in a sentence (the MOVED reply as Redis sends it, untranslated).
fn consequence_text(t: &Messages, c: &Consequence) -> String {
    match c {
        Consequence::Moved {
            sent_to,
            slot,
            owner,
        } => fill(t.rules_moved, &[sent_to, &format!("MOVED {slot} {owner}")]),
        Consequence::SameNode { addr } => fill(t.rules_same_node, &[addr]),
        Consequence::AnyNode { slot, owner } => {
            fill(t.rules_any, &[owner, &format!("MOVED {slot} {owner}")])
        }
        Consequence::NoRoute { slot } => fill(t.rules_no_route, &[slot]),
        Consequence::Unserved { slot } => fill(t.rules_unserved, &[slot]),
    }
}

/// The panel: nothing but a quiet line when every rule agrees with Redis.
#[function_component(ClientRules)]
pub fn client_rules(props: &ClientRulesProps) -> Html {
    let t = use_messages();
    let key = &props.explained.key;
    let found = divergences(key);
    if found.is_empty() {
        return html! {
            <p class="client-rules__agree" data-testid="client-rules-agree">{ t.rules_agree }</p>
        };
    }
    let redis = props.explained.slot;
    let rows = found.iter().map(|d| {
        let (slot_attr, slot_text, master) = match d.outcome {
            Outcome::Slot(s) => (
                s.to_string(),
                fill(t.rules_slot, &[&s]),
                props.map.owner(s).and_then(|i| {
                    let m = props.map.masters().get(i)?;
                    Some((
                        m.addr.clone(),
                        props.colours.get(i).cloned().unwrap_or_default(),
                    ))
                }),
            ),
            Outcome::AnyNode | Outcome::NotApplicable => {
                ("any".to_string(), t.rules_any_node.to_string(), None)
            }
        };
        let c = consequence(d, &props.map);
        // The link plays this rule's own loop (its scenario, its example key).
        let moved_loop = matches!(c, Consequence::Moved { .. })
            .then(|| moved_loop_scenario(d.rule))
            .flatten()
            .map(|id| format!("#redirect={id}:0"));
        html! {
            <li class="client-rule" data-testid="client-rule"
                data-rule={d.rule.id()} data-slot={slot_attr}>
                <span class="client-rule__name">{ rule_text(t, d.rule) }</span>
                <span class="client-rule__slot mono">
                    { slot_text }
                    if let Some((addr, colour)) = master {
                        { " → " }
                        <StyledSpan class="swatch" style={format!("background:{colour}")} />
                        { " " }<span data-testid="client-rule-node">{ addr }</span>
                    }
                </span>
                <span class="client-rule__effect">
                    { consequence_text(t, &c) }
                    if let Some(href) = moved_loop {
                        { " " }<a {href} data-testid="client-rule-watch">{ t.rules_watch }</a>
                    }
                </span>
            </li>
        }
    });
    html! {
        <section class="client-rules" data-testid="client-rules" aria-labelledby="client-rules-title">
            <h2 id="client-rules-title" class="client-rules__title">{ t.rules_title }</h2>
            <p class="client-rules__help">{ fill(t.rules_help, &[&redis]) }</p>
            <ul class="client-rules__list">{ for rows }</ul>
        </section>
    }
}
