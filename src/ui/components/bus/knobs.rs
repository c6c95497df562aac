//! The scenario select and the free-play settings (node-timeout, masters, replicas per master,
//! full coverage, replica migration, seed).

use super::model::{replicas_per_master, uniform};
use super::scenarios::{slugs, FREE};
use super::BusMsg;
use crate::core::bus::scenario::Knobs;
use crate::ui::bus_words::{use_bus_words, BusWords};
use crate::ui::messages::fill;
use std::cell::RefCell;
use std::rc::Rc;
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

/// `n` with a comma between each group of three digits (both languages write it so).
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Where the settings form sends the knobs as typed: the note's state setter, once mounted.
type DraftSlot = Rc<RefCell<Option<UseStateSetter<Knobs>>>>;

/// Props of [`BusyNote`].
#[derive(Properties)]
struct BusyNoteProps {
    slot: DraftSlot,
    /// The knobs applied: the note starts from them, and again after each Run again.
    free: Knobs,
}

impl PartialEq for BusyNoteProps {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.slot, &o.slot) && self.free == o.free
    }
}

/// Under the settings: a cluster this size and node timeout is busy, and may play slower than
/// the speed chosen (only when [`busy`] says so).
#[function_component(BusyNote)]
fn busy_note(props: &BusyNoteProps) -> Html {
    let w = use_bus_words();
    let draft = use_state_eq(|| props.free.clone());
    {
        let set = draft.setter();
        use_effect_with(props.free.clone(), move |f| set.set(f.clone()));
    }
    {
        let (slot, set) = (props.slot.clone(), draft.setter());
        use_effect_with((), move |_| {
            *slot.borrow_mut() = Some(set);
            move || *slot.borrow_mut() = None
        });
    }
    match busy(&draft) {
        Some((n, half, pings)) => html! {
            <p class="section-help" data-testid="bus-busy-note">
                { fill(w.busy_run, &[&n, &draft.node_timeout, &half, &grouped(pings)]) }
            </p>
        },
        None => html! {},
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
    let nt = use_node_ref();
    let masters = use_node_ref();
    let replicas = use_node_ref();
    let seed = use_node_ref();
    let coverage = use_node_ref();
    let migration = use_node_ref();
    let error = use_state(|| None::<String>);
    // The settings as typed (before Run again) go to the note on a busy cluster, which keeps
    // them in its own state: a render of this form would put the fields back to `free`.
    let draft: DraftSlot = use_mut_ref(|| None);
    let on_select = {
        let on_msg = props.on_msg.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            on_msg.emit(BusMsg::Scenario(v));
        })
    };
    let on_draft = {
        let (nt, masters, replicas, draft) =
            (nt.clone(), masters.clone(), replicas.clone(), draft.clone());
        let free = props.free.clone();
        Callback::from(move |_: InputEvent| {
            let read = |r: &NodeRef| {
                r.cast::<HtmlInputElement>()
                    .and_then(|i| i.value().trim().parse::<u64>().ok())
            };
            let set = draft.borrow().clone();
            if let (Some(t), Some(m), Some(r), Some(set)) =
                (read(&nt), read(&masters), read(&replicas), set)
            {
                set.set(uniform(
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
        let (nt, masters, replicas, seed, coverage, migration) = (
            nt.clone(),
            masters.clone(),
            replicas.clone(),
            seed.clone(),
            coverage.clone(),
            migration.clone(),
        );
        let (on_msg, error) = (props.on_msg.clone(), error.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let read = |r: &NodeRef| {
                r.cast::<HtmlInputElement>()
                    .map(|i| i.value())
                    .unwrap_or_default()
            };
            let check = |r: &NodeRef| r.cast::<HtmlInputElement>().is_some_and(|i| i.checked());
            let mut vals = [0u64; 4];
            for (i, r) in [&nt, &masters, &replicas, &seed].into_iter().enumerate() {
                let text = read(r);
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
                check(&coverage),
                check(&migration),
            )));
        })
    };
    let f = &props.free;
    // The fields are the reader's while they type: a render for any other reason must not put
    // them back (Yew sets a `value` it renders whenever the field differs). They follow the
    // knobs applied only when those change; only the build-time prerender writes attributes.
    {
        let refs = (
            nt.clone(),
            masters.clone(),
            replicas.clone(),
            seed.clone(),
            coverage.clone(),
            migration.clone(),
        );
        use_effect_with(props.free.clone(), move |f| {
            let (nt, masters, replicas, seed, coverage, migration) = refs;
            let texts = [
                (nt, f.node_timeout.to_string()),
                (masters, f.masters.to_string()),
                (replicas, replicas_per_master(f).to_string()),
                (seed, f.seed.to_string()),
            ];
            for (r, text) in texts {
                if let Some(i) = r.cast::<HtmlInputElement>() {
                    i.set_value(&text);
                }
            }
            for (r, on) in [
                (coverage, f.require_full_coverage),
                (migration, f.allow_replica_migration),
            ] {
                if let Some(i) = r.cast::<HtmlInputElement>() {
                    i.set_checked(on);
                }
            }
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
                        <input ref={nt} class="lab__number" inputmode="numeric" data-testid="bus-node-timeout"
                               value={text(f.node_timeout.to_string())} /></label>
                    <label>{ w.masters }{ " " }
                        <input ref={masters} class="lab__number" inputmode="numeric" data-testid="bus-masters"
                               value={text(f.masters.to_string())} /></label>
                    <label>{ w.replicas }{ " " }
                        <input ref={replicas} class="lab__number" inputmode="numeric" data-testid="bus-replicas"
                               value={text(replicas_per_master(f).to_string())} /></label>
                    <label>{ w.seed }{ " " }
                        <input ref={seed} class="lab__number" inputmode="numeric" data-testid="bus-seed"
                               value={text(f.seed.to_string())} /></label>
                    <label class="lab__check mono">{ check(coverage, "bus-full-coverage", f.require_full_coverage) }{ w.full_coverage }</label>
                    <label class="lab__check mono">{ check(migration, "bus-replica-migration", f.allow_replica_migration) }{ w.replica_migration }</label>
                    <button type="submit" class="button" data-testid="bus-apply">{ w.apply }</button>
                </form>
                <BusyNote slot={draft} free={f.clone()} />
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

    #[test]
    fn numbers_are_grouped_by_three() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(133_200), "133,200");
        assert_eq!(grouped(19_980_000), "19,980,000");
    }
}
