//! Hash tags chosen per master: try `%d` = 0, 1, 2, … in a template until every master owns N
//! tags; and the shortest tag that pins a key to any given slot.

use crate::core::workload::tags::{generate_tags, shortest_tag_for_slot};
use crate::core::{SlotMap, N_SLOTS};
use crate::ui::clipboard::{use_paste_limit, CopyButton, SHORT_FIELD_BYTES};
use crate::ui::forms::bind_input;
use crate::ui::localize::tag_error;
use crate::ui::messages::{fill, grouped, use_messages};
use crate::ui::styled::StyledSpan;
use std::rc::Rc;
use yew::prelude::*;

/// Integers tried at most before the page gives up (a bound, so a bad request cannot freeze the tab).
pub const MAX_TRIES: u64 = 5_000_000;

/// Props of [`TagGenerator`].
#[derive(Properties, PartialEq)]
pub struct TagGeneratorProps {
    /// The cluster.
    pub map: Rc<SlotMap>,
    /// Colour of each master, by index.
    pub colours: Rc<Vec<String>>,
}

/// The tag generator's card.
#[function_component(TagGenerator)]
pub fn tag_generator(props: &TagGeneratorProps) -> Html {
    let t = use_messages();
    let template = use_state(|| "routing:v1:%d".to_string());
    let per_master = use_state(|| "4".to_string());
    let (template_paste, template_refused) =
        use_paste_limit(&template, SHORT_FIELD_BYTES, |t| t.paste_too_long);
    let slot_text = use_state(|| "0".to_string());
    let n = per_master.trim().parse::<usize>();
    let result = use_memo(
        (
            (*template).clone(),
            (*per_master).clone(),
            props.map.clone(),
        ),
        |(template, per_master, map)| match per_master.trim().parse::<usize>() {
            // `None`: the count is not a number.
            Ok(n) => generate_tags(template, n, map, MAX_TRIES).map_err(Some),
            Err(_) => Err(None),
        },
    );
    let body = match &*result {
        Ok(set) => {
            let groups = props.map.masters().iter().enumerate().take(64).map(|(idx, m)| {
                let colour = props.colours.get(idx).cloned().unwrap_or_default();
                // Keyed, the master by index and each tag by its text: a master's tags are the
                // smallest integers landing on it, so one more per master adds a tag at the end
                // of each list, which an unkeyed list (Yew matches those from the end) rewrote
                // whole: 3,000 attributes at 16 per master and 1000 masters (issue 17).
                html! {
                    <li class="tags__master" key={idx}>
                        <StyledSpan class="swatch" style={format!("background:{colour}")} />
                        <span class="mono tags__addr">{ &m.addr }</span>
                        <span class="tags__list">
                            { for set.for_master(idx).map(|tag| html! {
                                <code key={tag.tag.as_str()} class="tags__tag" data-testid="tag-row" data-tag={tag.tag.clone()}
                                      data-slot={tag.slot.to_string()} data-addr={m.addr.clone()}
                                      title={fill(t.tags_slot, &[&tag.slot])}>{ &tag.tag }</code>
                            }) }
                        </span>
                    </li>
                }
            });
            let all: Vec<String> = set.tags.iter().map(|t| t.tag.clone()).collect();
            html! {
                <>
                    <p class="section-help" data-testid="tags-tried">{ fill(t.tags_tried, &[&grouped(set.tries), &grouped(set.tags.len() as u64)]) }</p>
                    <ul class="tags__masters">{ for groups }</ul>
                    if props.map.n_masters() > 64 {
                        <p class="section-help">{ fill(t.hot_more_masters, &[&grouped((props.map.n_masters() - 64) as u64)]) }</p>
                    }
                    <CopyButton text={all.join("\n")} />
                </>
            }
        }
        Err(e) => {
            let text = match e {
                Some(e) => tag_error(t, e),
                None => fill(t.tags_not_a_number, &[&*per_master]),
            };
            html! { <p class="lab__error" role="alert" data-testid="tags-error">{ text }</p> }
        }
    };
    let pinned = slot_text
        .trim()
        .parse::<u16>()
        .ok()
        .filter(|s| (*s as usize) < N_SLOTS)
        .map(shortest_tag_for_slot);
    html! {
        <section class="card tags" aria-labelledby="tags-title">
            <h2 id="tags-title" class="section-title">{ t.tags_title }</h2>
            <p class="section-help">{ t.tags_help }</p>
            <p class="section-help" data-testid="tags-pin-slots">{ t.tags_pin_slots_note }</p>
            <div class="lab__row lab__form">
                <label for="tag-template">{ t.tags_template }</label>
                <input id="tag-template" class="mono lab__weights" type="text" data-testid="tag-template"
                       value={(*template).clone()} oninput={bind_input(&template)} onpaste={template_paste}
                       spellcheck="false" />
                <label for="tags-per-master">{ t.tags_per_master }</label>
                <input id="tags-per-master" class="lab__number" type="number" min="0" max="10000"
                       data-testid="tags-per-master" value={(*per_master).clone()} oninput={bind_input(&per_master)}
                       aria-invalid={n.is_err().to_string()} />
            </div>
            { template_refused }
            { body }
            <h3 class="lab__title tags__pin-title">{ t.tags_pin_title }</h3>
            <div class="lab__row lab__form">
                <label for="pin-slot">{ t.tags_pin_slot }</label>
                <input id="pin-slot" class="lab__number" type="number" min="0" max="16383" data-testid="pin-slot"
                       value={(*slot_text).clone()} oninput={bind_input(&slot_text)} />
                if let Some(tag) = pinned {
                    <span>{ t.tags_pin_use }{ " " }<code data-testid="pin-tag">{ &tag }</code>
                        { " — " }<span class="mono">{ format!("{tag}:anything") }</span></span>
                } else {
                    <span class="lab__error" role="alert">{ t.tags_pin_bad }</span>
                }
            </div>
        </section>
    }
}
