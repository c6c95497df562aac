//! Picks the cluster the page maps keys onto: the fixtures' own, or what
//! `redis-cli --cluster create` would build from N masters.

use crate::ui::messages::{fill, use_messages};
use crate::ui::state::{ClusterChoice, CountRefused, MAX_MASTERS};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Props of [`ClusterPicker`].
#[derive(Properties, PartialEq)]
pub struct ClusterPickerProps {
    /// The cluster shown now.
    pub choice: ClusterChoice,
    /// A master count that was refused, and why.
    pub error: Option<CountRefused>,
    /// The reader chose the fixtures' cluster.
    pub on_fixture: Callback<()>,
    /// The reader asked for a created cluster with this many masters (as typed).
    pub on_create: Callback<String>,
}

/// The cluster picker.
#[function_component(ClusterPicker)]
pub fn cluster_picker(props: &ClusterPickerProps) -> Html {
    let t = use_messages();
    let n_text = use_state(|| "6".to_string());
    let created = matches!(props.choice, ClusterChoice::Created(_));
    let onchange = {
        let (on_fixture, on_create, n_text) = (
            props.on_fixture.clone(),
            props.on_create.clone(),
            n_text.clone(),
        );
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            if select.value() == "create" {
                on_create.emit((*n_text).clone());
            } else {
                on_fixture.emit(());
            }
        })
    };
    let oninput = {
        let (on_create, n_text) = (props.on_create.clone(), n_text.clone());
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            n_text.set(input.value());
            on_create.emit(input.value());
        })
    };
    let n_label = match props.choice {
        ClusterChoice::Created(n) => fill(t.cluster_created, &[&n]),
        ClusterChoice::Fixture => fill(t.cluster_created, &[&"N"]),
    };
    html! {
        <div class="cluster-picker">
            <label for="cluster">{ t.cluster_label }</label>
            <select id="cluster" data-testid="cluster-select" {onchange}>
                <option value="fixture" selected={!created}>{ t.cluster_fixture }</option>
                <option value="create" selected={created}>{ n_label }</option>
            </select>
            if created {
                <label for="n-masters">{ t.cluster_n_label }</label>
                <input id="n-masters" type="number" min="3" max={MAX_MASTERS.to_string()}
                    class="cluster-picker__n" data-testid="n-masters"
                    value={(*n_text).clone()} {oninput}
                    aria-invalid={props.error.is_some().to_string()} />
            }
            { match &props.error {
                Some(CountRefused::NotACount(bad)) => html! {
                    <p class="cluster-picker__error" role="alert" data-testid="cluster-error">
                        { fill(t.cluster_n_error, &[bad]) }
                    </p>
                },
                // redis-cli's own words, as it prints them, after the page's.
                Some(CountRefused::ByCli(refused)) => html! {
                    <div class="cluster-picker__error" role="alert" data-testid="cluster-error">
                        <p>{ t.cluster_cli_refused }</p>
                        <pre class="mono cluster-picker__cli" data-testid="cluster-refusal">
                            { format!("$ {}\n{}", refused.command, refused.output.join("\n")) }
                        </pre>
                    </div>
                },
                None => html! {},
            } }
        </div>
    }
}
