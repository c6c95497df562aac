//! The scenario select and the free-play settings (node-timeout, masters, replicas per master,
//! full coverage, replica migration, seed).

use super::model::{replicas_per_master, uniform};
use super::scenarios::{slugs, FREE};
use super::BusMsg;
use crate::core::bus::scenario::Knobs;
use crate::ui::bus_words::{use_bus_words, BusWords};
use crate::ui::messages::{fill, grouped};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Props of [`BusKnobs`].
#[derive(Properties, PartialEq)]
pub struct BusKnobsProps {
    /// The scenario shown.
    pub slug: String,
    /// Free play's knobs.
    pub free: Knobs,
    /// Where changes go.
    pub on_msg: Callback<BusMsg>,
}

/// PINGs per simulated second from which the settings say the run may play slower than the
/// speed chosen. Measured in Chromium on a 2-core machine: 100 nodes at NT 2000 (about 9,900
/// PINGs a second) simulate about 7× real time; 1000 nodes at NT 15000 (about 133,000) play
/// at about 0.55×, and at NT 2000 (about 1,000,000) at about 0.05×.
pub const BUSY_PINGS: u64 = 50_000;

/// The PINGs a cluster of these knobs sends per simulated second in steady state, roughly:
/// every node pings every peer whose last PONG is older than NT/2 (`clusterCron`, BUS.md), so
/// about N × (N − 1) every NT/2 ms. `None` below [`BUSY_PINGS`].
pub fn busy(k: &Knobs) -> Option<(u64, u64, u64)> {
    let n = k.nodes() as u64;
    let half = u64::from(k.node_timeout / 2).max(1);
    let pings = n * n.saturating_sub(1) * 1000 / half;
    (pings >= BUSY_PINGS).then_some((n, half, pings))
}

/// The settings form's fields (uncontrolled: see [`Fields::show`]).
#[derive(Clone, Default)]
struct Fields {
    nt: NodeRef,
    masters: NodeRef,
    replicas: NodeRef,
    seed: NodeRef,
    coverage: NodeRef,
    migration: NodeRef,
}

impl Fields {
    /// A field's text ("" before it is mounted).
    fn text(r: &NodeRef) -> String {
        r.cast::<HtmlInputElement>()
            .map(|i| i.value())
            .unwrap_or_default()
    }

    /// Whether a checkbox is ticked.
    fn ticked(r: &NodeRef) -> bool {
        r.cast::<HtmlInputElement>().is_some_and(|i| i.checked())
    }

    /// The number fields in the order node timeout, masters, replicas, seed.
    fn numbers(&self) -> [&NodeRef; 4] {
        [&self.nt, &self.masters, &self.replicas, &self.seed]
    }

    /// Puts the knobs applied into the fields.
    fn show(&self, f: &Knobs) {
        let texts = [
            f.node_timeout.to_string(),
            f.masters.to_string(),
            replicas_per_master(f).to_string(),
            f.seed.to_string(),
        ];
        for (r, text) in self.numbers().into_iter().zip(texts) {
            if let Some(i) = r.cast::<HtmlInputElement>() {
                i.set_value(&text);
            }
        }
        for (r, on) in [
            (&self.coverage, f.require_full_coverage),
            (&self.migration, f.allow_replica_migration),
        ] {
            if let Some(i) = r.cast::<HtmlInputElement>() {
                i.set_checked(on);
            }
        }
    }
}

fn title(w: &BusWords, slug: &str) -> &'static str {
    if slug == FREE {
        return w.free_play;
    }
    w.scenarios.iter().find(|s| s.0 == slug).map_or("", |s| s.1)
}

/// The select and the settings form.
#[function_component(BusKnobs)]
pub fn bus_knobs(props: &BusKnobsProps) -> Html {
    let w = use_bus_words();
    let fields = use_memo((), |_| Fields::default());
    let error = use_state(|| None::<String>);
    // The settings as typed (before Run again), for the note on a busy cluster.
    let draft = use_state_eq(|| props.free.clone());
    let on_select = {
        let on_msg = props.on_msg.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            on_msg.emit(BusMsg::Scenario(v));
        })
    };
    let on_draft = {
        let (fields, draft) = (fields.clone(), draft.setter());
        let free = props.free.clone();
        Callback::from(move |_: InputEvent| {
            let [t, m, r, _] = fields
                .numbers()
                .map(|f| Fields::text(f).trim().parse::<u64>().ok());
            if let (Some(t), Some(m), Some(r)) = (t, m, r) {
                draft.set(uniform(
                    m,
                    r,
                    t,
                    free.seed,
                    free.require_full_coverage,
                    free.allow_replica_migration,
                ));
            }
        })
    };
    let on_apply = {
        let (fields, on_msg, error) = (fields.clone(), props.on_msg.clone(), error.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let mut vals = [0u64; 4];
            for (i, r) in fields.numbers().into_iter().enumerate() {
                let text = Fields::text(r);
                match text.trim().parse::<u64>() {
                    Ok(v) => vals[i] = v,
                    Err(_) => {
                        let shown: String = text.chars().take(40).collect();
                        error.set(Some(shown));
                        return;
                    }
                }
            }
            error.set(None);
            on_msg.emit(BusMsg::Knobs(uniform(
                vals[1],
                vals[2],
                vals[0],
                vals[3],
                Fields::ticked(&fields.coverage),
                Fields::ticked(&fields.migration),
            )));
        })
    };
    let f = &props.free;
    // The fields are the reader's while they type: a render for any other reason must not put
    // them back (Yew sets a `value` it renders whenever the field differs). They, and the
    // draft, follow the knobs applied only when those change; only the build-time prerender
    // writes attributes.
    {
        let (fields, draft) = (fields.clone(), draft.setter());
        use_effect_with(props.free.clone(), move |f| {
            fields.show(f);
            draft.set(f.clone());
        });
    }
    let ssr = cfg!(feature = "ssr");
    let text = |v: String| ssr.then(|| AttrValue::from(v));
    let check = |r: NodeRef, id: &'static str, on: bool| {
        if ssr {
            html! { <input ref={r} type="checkbox" data-testid={id} checked={on} /> }
        } else {
            html! { <input ref={r} type="checkbox" data-testid={id} /> }
        }
    };
    html! {
        <div class="bus__knobs">
            <div class="lab__row lab__form">
                <label for="bus-scenario">{ w.scenario }</label>
                <select id="bus-scenario" data-testid="bus-scenario-select" onchange={on_select}>
                    { for slugs().map(|s| html! {
                        <option value={s} selected={s == props.slug}>{ title(w, s) }</option>
                    }) }
                </select>
            </div>
            <details class="bus__settings">
                <summary>{ w.knobs }</summary>
                <form class="lab__row lab__form" onsubmit={on_apply} oninput={on_draft}>
                    <label>{ w.node_timeout }{ " " }
                        <input ref={fields.nt.clone()} class="lab__number" inputmode="numeric" data-testid="bus-node-timeout"
                               value={text(f.node_timeout.to_string())} /></label>
                    <label>{ w.masters }{ " " }
                        <input ref={fields.masters.clone()} class="lab__number" inputmode="numeric" data-testid="bus-masters"
                               value={text(f.masters.to_string())} /></label>
                    <label>{ w.replicas }{ " " }
                        <input ref={fields.replicas.clone()} class="lab__number" inputmode="numeric" data-testid="bus-replicas"
                               value={text(replicas_per_master(f).to_string())} /></label>
                    <label>{ w.seed }{ " " }
                        <input ref={fields.seed.clone()} class="lab__number" inputmode="numeric" data-testid="bus-seed"
                               value={text(f.seed.to_string())} /></label>
                    <label class="lab__check mono">{ check(fields.coverage.clone(), "bus-full-coverage", f.require_full_coverage) }{ w.full_coverage }</label>
                    <label class="lab__check mono">{ check(fields.migration.clone(), "bus-replica-migration", f.allow_replica_migration) }{ w.replica_migration }</label>
                    <button type="submit" class="button" data-testid="bus-apply">{ w.apply }</button>
                </form>
                if let Some((n, half, pings)) = busy(&draft) {
                    <p class="section-help" data-testid="bus-busy-note">
                        { fill(w.busy_run, &[&n, &draft.node_timeout, &half, &grouped(pings)]) }
                    </p>
                }
                if let Some(bad) = &*error {
                    <p class="lab__error" role="alert">{ fill(w.bad_knob, &[bad]) }</p>
                }
            </details>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_busy_cluster_is_named_from_its_ping_rate() {
        // 100 nodes at NT 2000: 100 × 99 PINGs every 1000 ms, under the mark.
        assert_eq!(busy(&uniform(50, 1, 2000, 1, true, true)), None);
        // 1000 nodes at NT 15000: 1000 × 999 every 7500 ms.
        assert_eq!(
            busy(&uniform(500, 1, 15_000, 1, true, true)),
            Some((1000, 7500, 133_200))
        );
        // The form's clamps apply first: NT 0 is run as 100.
        assert_eq!(
            busy(&uniform(500, 1, 0, 1, true, true)),
            Some((1000, 50, 19_980_000))
        );
    }
}
