//! The Share button (in the sticky section bar, so it is at hand in every section and the link
//! names the section being read): puts a link to the page as it is now on the clipboard, and
//! says so in a small panel under the bar.

use crate::persist::Section;
use crate::ui::messages::use_messages;
use crate::ui::share::{full_url, save};
use yew::prelude::*;

/// Props of [`ShareButton`].
#[derive(Properties, PartialEq)]
pub struct ShareButtonProps {
    /// The current state's link (a fragment, without `#`).
    pub link: AttrValue,
    /// What the link had to leave out.
    pub omitted: Vec<Section>,
}

/// How long "Link copied" stays before its panel closes, in milliseconds.
const COPIED_SHOWN_MS: u32 = 6000;

/// What the last click did.
#[derive(Clone, PartialEq)]
enum Outcome {
    Copied(String),
    Refused(String),
}

/// Writes `text` to the clipboard and reports whether the browser allowed it.
fn copy_reporting(text: String, done: Callback<bool>) {
    let Some(window) = web_sys::window() else {
        done.emit(false);
        return;
    };
    let promise = window.navigator().clipboard().write_text(&text);
    wasm_bindgen_futures::spawn_local(async move {
        let ok = wasm_bindgen_futures::JsFuture::from(promise).await.is_ok();
        done.emit(ok);
    });
}

/// The button, and after a click what happened (with the link in a field if the copy failed).
#[function_component(ShareButton)]
pub fn share_button(props: &ShareButtonProps) -> Html {
    let t = use_messages();
    let outcome = use_state(|| None::<Outcome>);
    let onclick = {
        let (link, outcome) = (props.link.to_string(), outcome.clone());
        Callback::from(move |_: MouseEvent| {
            // The address and the saved state catch up at once, not after the debounce.
            save(&link);
            let url = full_url(&link);
            let outcome = outcome.clone();
            let shown = url.clone();
            copy_reporting(
                url,
                Callback::from(move |ok: bool| {
                    outcome.set(Some(if ok {
                        Outcome::Copied(shown.clone())
                    } else {
                        Outcome::Refused(shown.clone())
                    }))
                }),
            );
        })
    };
    // nav-phone: "Link copied" closes by itself; a refusal (with the link to copy by hand)
    // stays until closed.
    {
        let outcome = outcome.clone();
        use_effect_with((*outcome).clone(), move |now| {
            let timeout = matches!(now, Some(Outcome::Copied(_))).then(|| {
                gloo_timers::callback::Timeout::new(COPIED_SHOWN_MS, move || outcome.set(None))
            });
            move || drop(timeout)
        });
    }
    let close = {
        let outcome = outcome.clone();
        Callback::from(move |_: MouseEvent| outcome.set(None))
    };
    let omitted = props.omitted.iter().map(|s| match s {
        Section::Planner => t.share_batch_omitted,
        Section::Key => t.share_key_omitted,
        // Only a cluster too big for a link is left out in practice; the language and a
        // scenario id the page wrote always fit.
        Section::Cluster | Section::Lang | Section::Scenario | Section::Bus => {
            t.share_cluster_omitted
        }
    });
    html! {
        <div class="share">
            <button type="button" class="button" data-testid="share" {onclick}>{ t.share }</button>
            if let Some(o) = &*outcome {
                <div class="share__popup">
                    <span class="share__status" role="status" data-testid="share-status">
                        { match o { Outcome::Copied(_) => t.share_copied, Outcome::Refused(_) => t.share_refused } }
                        { for omitted.map(|m| html! { <>{ " " }{ m }</> }) }
                    </span>
                    if let Outcome::Refused(url) = o {
                        <input class="mono share__link" type="text" readonly=true data-testid="share-link"
                               value={url.clone()} aria-label={t.share_link_label} />
                    }
                    <button type="button" class="share__close" aria-label={t.share_close} onclick={close}>{ "×" }</button>
                </div>
            }
        </div>
    }
}
