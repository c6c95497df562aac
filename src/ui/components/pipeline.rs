//! The pipeline: key → bytes → hashed part → CRC16 → slot → master, one card per stage,
//! each with its value large and the rule that produced it in a sentence below. A long key is
//! shortened in each card (its start, "…", its end) with a button that shows it all.

use crate::core::key::crc16::register_steps;
use crate::core::key::display::{
    bit_groups, hex16, hex_list, marked, shortened, verify, LONG_BYTES,
};
use crate::core::key::escape::format_key;
use crate::core::key::slot::SLOT_MASK;
use crate::core::{Explanation, SlotMap, TagRule};
use crate::ui::components::client_rules::ClientRules;
use crate::ui::key_store::{use_key_select, KeyStore, Same};
use crate::ui::messages::{fill, use_messages, Messages};
use crate::ui::state::KeyProblem;
use crate::ui::styled::StyledSpan;
use gloo_timers::callback::Timeout;
use std::rc::Rc;
use yew::prelude::*;

/// Rows of the CRC register table.
const SHOWN_REGISTER_ROWS: usize = 256;
/// Quiet time (ms) after the last keystroke before the result is announced, so typing a word
/// is read out once, not letter by letter.
const ANNOUNCE_AFTER_MS: u32 = 600;

/// Props of [`Pipeline`].
#[derive(Properties, PartialEq)]
pub struct PipelineProps {
    /// The key's state (the pipeline re-renders when its explanation or its staleness
    /// changes, not at every keystroke).
    pub key_store: KeyStore,
    /// The cluster, to name the slot's master.
    pub map: Rc<SlotMap>,
    /// Colour of each master, by index.
    pub colours: Rc<Vec<String>>,
}

/// Which bytes a [`Value`] shows.
#[derive(Clone, Copy, PartialEq)]
enum Part {
    /// The whole key.
    Key,
    /// The hashed part.
    Hashed,
}

#[derive(Properties, PartialEq)]
struct ValueProps {
    explained: Rc<Explanation>,
    part: Part,
    class: Classes,
    testid: &'static str,
}

/// A stage's value: in full when short, else shortened with a button that shows it all (in a
/// box that scrolls, so the card keeps its size).
#[function_component(Value)]
fn value(props: &ValueProps) -> Html {
    let t = use_messages();
    let open = use_state(|| false);
    let e = &props.explained;
    let bytes = match props.part {
        Part::Key => &e.key[..],
        Part::Hashed => e.hashed(),
    };
    let long = bytes.len() > LONG_BYTES;
    let text = if bytes.is_empty() && props.part == Part::Key {
        t.empty_key.to_string()
    } else if long && !*open {
        shortened(bytes)
    } else {
        format_key(bytes)
    };
    let toggle = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    html! {
        <>
            <div class={classes!(props.class.clone(), (long && *open).then_some("stage__value--all"))}
                 data-testid={props.testid}>{ text }</div>
            if long {
                <button type="button" class="link-button stage__all" aria-expanded={open.to_string()}
                        onclick={toggle}>
                    { if *open { t.key_show_less.to_string() } else { fill(t.key_show_all, &[&bytes.len()]) } }
                </button>
            }
        </>
    }
}

/// The sentence for the rule that chose the hashed part.
pub fn rule_sentence(t: &Messages, rule: TagRule) -> String {
    match rule {
        TagRule::NoOpenBrace => fill(t.rule_no_open, &[]),
        TagRule::NoCloseBrace { open } => fill(t.rule_no_close, &[&open]),
        TagRule::EmptyTag { open } => fill(t.rule_empty_tag, &[&open]),
        TagRule::Tag { open, close } => fill(t.rule_tag, &[&open, &close]),
    }
}

/// The key with its hashed part marked, each side clipped so a 64 KB key stays readable.
fn highlighted_key(e: &Explanation) -> Html {
    let [before, inner, after] = marked(e);
    html! {
        <code class="stage__key">{ before }<mark>{ inner }</mark>{ after }</code>
    }
}

/// The low 14 bits of the CRC kept, the top two struck, in groups of four.
fn bits(crc: u16) -> Html {
    let (dropped, kept) = bit_groups(crc);
    html! {
        <code class="bits" aria-label={format!("{crc:016b}")}>
            <s class="bits__dropped">{ dropped }</s>{ kept }
        </code>
    }
}

#[derive(Properties, PartialEq)]
struct RegisterProps {
    hashed: Rc<Explanation>,
}

/// The CRC register byte by byte, rendered only when asked for: a card under the CRC stage that
/// spans the columns to its right, where its five columns have room (inside the CRC stage they
/// were cut to a third).
#[function_component(Register)]
fn register(props: &RegisterProps) -> Html {
    let t = use_messages();
    let hashed = props.hashed.hashed();
    let rows = register_steps(hashed).take(SHOWN_REGISTER_ROWS).map(|st| {
        html! {
            <tr>
                <td>{ st.idx }</td>
                <td>{ format_key(&[st.byte]) }{ format!(" ({:02x})", st.byte) }</td>
                <td>{ hex16(st.before) }</td>
                <td>{ format!("{:02x}", st.table_idx) }</td>
                <td>{ hex16(st.after) }</td>
            </tr>
        }
    });
    html! {
        <div id="crc-register" class="register" tabindex="0" role="region" aria-label={t.crc_register_label}>
            <table>
                <thead><tr>{ for t.crc_cols.iter().map(|c| html! { <th scope="col">{ *c }</th> }) }</tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
            if hashed.len() > SHOWN_REGISTER_ROWS {
                <p class="register__more">{ fill(t.crc_truncated, &[&SHOWN_REGISTER_ROWS, &hashed.len()]) }</p>
            }
        </div>
    }
}

/// The five stages.
#[function_component(Pipeline)]
pub fn pipeline(props: &PipelineProps) -> Html {
    let t = use_messages();
    // The last key that parsed, and whether the field holds text that does not (then the cards
    // are dimmed).
    let (Same(explained), stale) = use_key_select(&props.key_store, |k| {
        (
            Same(k.explained.clone()),
            k.error.as_ref().is_some_and(KeyProblem::is_in_field),
        )
    });
    let e = &explained;
    let map = &props.map;
    let n_bytes = e.key.len();
    let owner = map.owner(e.slot);
    let master_html = match owner {
        Some(m) => {
            let master = &map.masters()[m];
            let range = map
                .run_containing(e.slot)
                .map(|r| r.range.to_string())
                .unwrap_or_default();
            let colour = props.colours.get(m).cloned().unwrap_or_default();
            html! {
                <>
                    <div class="stage__value stage__value--master mono">
                        <StyledSpan class="swatch swatch--large" style={format!("background:{colour}")} />
                        <span data-testid="node">{ &master.addr }</span>
                    </div>
                    <p class="stage__rule">
                        { fill(t.master_rule, &[&e.slot, &range, &master.addr]) }
                        if !master.replicas.is_empty() {
                            { " " }{ fill(t.master_replicas, &[&master.replica_addrs()]) }
                        }
                    </p>
                </>
            }
        }
        None => html! {
            <>
                <div class="stage__value stage__value--master mono">
                    <span class="swatch swatch--large swatch--unowned"></span>
                    <span data-testid="node">{ t.unowned }</span>
                </div>
                <p class="stage__rule">{ fill(t.master_none, &[&e.slot]) }</p>
            </>
        },
    };
    let masked = e.crc & SLOT_MASK;
    // One concise sentence for screen readers, announced politely once typing pauses.
    let summary = match owner {
        Some(m) => fill(t.pipeline_summary, &[&e.slot, &map.masters()[m].addr]),
        None => fill(t.pipeline_summary_unowned, &[&e.slot]),
    };
    let announced = use_state_eq(|| summary.clone());
    let register_open = use_state(|| false);
    let toggle_register = {
        let open = register_open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    {
        let announced = announced.clone();
        use_effect_with(summary, move |summary| {
            let summary = summary.clone();
            let timeout = Timeout::new(ANNOUNCE_AFTER_MS, move || announced.set(summary));
            move || drop(timeout)
        });
    }
    // Prerendered only: the first-screen module (`crates/first`, `static/first.js`) answers a
    // key typed before the app has started from these runs of slots and their masters'
    // addresses ("0-5460 127.0.0.1:7000;…"), and shows the note while it does.
    let prerendered = cfg!(feature = "ssr");
    let owners = prerendered.then(|| {
        map.runs()
            .filter_map(|r| Some(format!("{} {}", r.range, map.masters().get(r.owner?)?.addr)))
            .collect::<Vec<_>>()
            .join(";")
    });
    html! {
        <section class={classes!("pipeline", stale.then_some("pipeline--stale"))}
                 aria-label={t.pipeline_label} aria-busy={stale.to_string()}
                 data-owners={owners}>
            <p class="visually-hidden" aria-live="polite" aria-atomic="true"
               data-testid="pipeline-summary">{ (*announced).clone() }</p>
            if prerendered {
                <p class="pipeline__early-note" data-testid="pipeline-early" hidden=true>{ t.pipeline_early }</p>
            }
            if stale {
                <p class="pipeline__stale-note">{ t.stale_note }</p>
            }
            <ol class="pipeline__stages">
                <li class="stage">
                    <h2 class="stage__title">{ t.stage_bytes }</h2>
                    <Value explained={explained.clone()} part={Part::Key}
                           class={classes!("stage__value", "stage__value--key", "mono")} testid="key-bytes" />
                    <p class="stage__meta mono">{ fill(t.bytes_count, &[&n_bytes]) }
                        if n_bytes > 0 { { " · " }{ hex_list(&e.key) } }</p>
                    <p class="stage__rule">{ t.bytes_rule }</p>
                </li>
                <li class={classes!("stage", e.rule.is_tag().then_some("stage--tag"))}>
                    <h2 class="stage__title">{ t.stage_hashed }</h2>
                    { highlighted_key(e) }
                    <Value explained={explained.clone()} part={Part::Hashed}
                           class={classes!("stage__value", "mono")} testid="hashed-part" />
                    <p class="stage__rule" data-testid="tag-rule">{ rule_sentence(t, e.rule) }</p>
                </li>
                <li class="stage">
                    <h2 class="stage__title">{ t.stage_crc }</h2>
                    <div class="stage__value mono" data-testid="crc16">{ hex16(e.crc) }</div>
                    <p class="stage__rule">{ fill(t.crc_rule, &[&e.span.len()]) }</p>
                    <div class="stage__more">
                        <button type="button" class="link-button" aria-controls="crc-register"
                                aria-expanded={register_open.to_string()} onclick={toggle_register}>
                            { t.crc_show_register }
                        </button>
                    </div>
                </li>
                // nav-phone: the register opens under the CRC card, as a card of its own.
                if *register_open {
                    <li class="stage-register">
                        <Register hashed={explained.clone()} />
                    </li>
                }
                <li class="stage">
                    <h2 class="stage__title">{ t.stage_slot }</h2>
                    <div class="stage__value mono" data-testid="slot">{ e.slot }</div>
                    { bits(e.crc) }
                    <p class="stage__rule">{ fill(t.slot_rule, &[&hex16(e.crc), &hex16(masked), &e.slot]) }</p>
                </li>
                <li class="stage">
                    <h2 class="stage__title">{ t.stage_master }</h2>
                    { master_html }
                </li>
            </ol>
            if let Some((command, reply)) = verify(e) {
                <p class="pipeline__verify">
                    { t.verify }{ " " }
                    <code data-testid="verify-command">{ command }</code>
                    { " → " }<code>{ reply }</code>
                </p>
            }
            <ClientRules explained={explained.clone()} map={props.map.clone()} colours={props.colours.clone()} />
        </section>
    }
}
