//! The message near the top that says what a link (or the saved state) could not restore.

use crate::persist::{Problem, Section};
use crate::ui::messages::{fill, use_messages, Messages};
use std::rc::Rc;
use yew::prelude::*;

/// The name of a part of the state, as the reader knows it.
pub fn section_name(t: &Messages, s: Section) -> &'static str {
    match s {
        Section::Lang => t.section_lang,
        Section::Key => t.section_key,
        Section::Cluster => t.section_cluster,
        Section::Planner => t.section_planner,
        Section::Scenario => t.section_scenario,
        Section::Bus => t.section_bus,
    }
}

/// One problem, as a phrase.
pub fn problem_text(t: &Messages, p: &Problem) -> String {
    match p {
        Problem::NotALink => t.restore_not_a_link.to_string(),
        Problem::UnknownVersion(v) => fill(t.restore_version, &[v]),
        Problem::TooLong { bytes } => fill(t.restore_too_long, &[bytes]),
        Problem::BadBase64 => t.restore_bad_base64.to_string(),
        Problem::Truncated => t.restore_truncated.to_string(),
        Problem::BadSection(s) => fill(t.restore_bad_section, &[&section_name(t, *s)]),
        Problem::TextTooLong(s) => fill(t.restore_text_too_long, &[&section_name(t, *s)]),
        Problem::UnknownSection(n) => fill(t.restore_unknown_section, &[n]),
        Problem::Damaged => t.restore_damaged.to_string(),
        Problem::Trailing => t.restore_trailing.to_string(),
    }
}

/// Props of [`RestoreNotice`].
#[derive(Properties, PartialEq)]
pub struct RestoreNoticeProps {
    /// What could not be restored.
    pub problems: Rc<Vec<Problem>>,
    /// Whether they come from the state saved in this browser rather than the link.
    pub saved: bool,
}

/// Says what could not be restored; renders nothing when everything was.
#[function_component(RestoreNotice)]
pub fn restore_notice(props: &RestoreNoticeProps) -> Html {
    let t = use_messages();
    // Its own `lang`: after a language switch, `<html lang>` names the new language only a
    // task after this text is in it (`late_lang`).
    let lang = yew::use_context::<crate::ui::lang::Lang>()
        .unwrap_or_default()
        .bcp47();
    if props.problems.is_empty() {
        return Html::default();
    }
    let head = if props.saved {
        t.restore_saved
    } else {
        t.restore_link
    };
    html! {
        <div class="card lab__error restore-error" role="alert" data-testid="restore-error" {lang}>
            <p>{ head }</p>
            <ul>{ for props.problems.iter().map(|p| html! { <li>{ problem_text(t, p) }</li> }) }</ul>
        </div>
    }
}
