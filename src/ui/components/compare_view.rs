//! "Why slots?": adding one master under hash slots, a consistent-hash ring and `hash mod N`,
//! on the same 100,000 keys, with the share of keys that move and the balance afterwards.

use crate::core::schemes::{add_one_master, Outcome};
use crate::ui::localize::compare_error;
use crate::ui::messages::{fill, use_messages, Messages};
use crate::ui::styled::StyledSpan;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Keys in the experiment.
pub const N_KEYS: u32 = 100_000;

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// One method's row: name, keys moved, ideal, balance, and a bar per master after.
fn row(t: &Messages, name: &str, note: &str, o: &Outcome, ideal: f64) -> Html {
    let max = o.after.max.max(1) as f64;
    let bars = o.after.per_master.iter().enumerate().map(|(i, &n)| {
        let h = (n as f64 / max * 100.0).round();
        html! {
            <StyledSpan class="compare__bar" style={format!("height:{h}%")}
                  title={fill(t.cmp_bar_title, &[&(i + 1), &n])} />
        }
    });
    html! {
        <tr>
            <th scope="row">{ name }<span class="compare__note">{ note }</span></th>
            // Each cell names its column: on a phone the header row is hidden.
            <td class="mono" data-label={t.cmp_moved}>{ pct(o.moved_fraction()) }<span class="compare__sub">{ fill(t.cmp_keys, &[&o.moved]) }</span></td>
            <td class="mono" data-label={t.cmp_ideal}>{ pct(ideal) }</td>
            <td class="mono" data-label={t.cmp_balance}>{ format!("{:.3}", o.after.max_over_mean) }<span class="compare__sub">{ format!("±{:.1}%", o.after.stddev_pct) }</span></td>
            <td data-label={t.cmp_after}><span class="compare__bars" aria-hidden="true">{ for bars }</span></td>
        </tr>
    }
}

/// The comparison card.
#[function_component(CompareView)]
pub fn compare_view() -> Html {
    let t = use_messages();
    let n_text = use_state(|| "3".to_string());
    let v_text = use_state(|| "160".to_string());
    let n = n_text
        .trim()
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=64).contains(n));
    let v = v_text
        .trim()
        .parse::<u32>()
        .ok()
        .filter(|v| (1..=1000).contains(v));
    // Recomputed only when the inputs change (a few milliseconds for 100,000 keys).
    let result = use_memo((n, v), |&(n, v)| match (n, v) {
        (Some(n), Some(v)) => Some(add_one_master(n, v, N_KEYS)),
        _ => None,
    });
    let on_n = {
        let s = n_text.clone();
        Callback::from(move |e: InputEvent| {
            s.set(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let on_v = {
        let s = v_text.clone();
        Callback::from(move |e: InputEvent| {
            s.set(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let body = match (&*result, n, v) {
        (Some(Ok(c)), Some(n), _) => {
            let ideal = 1.0 / (n as f64 + 1.0);
            html! {
                <table class="compare__table" data-testid="compare-table">
                    <thead><tr>
                        <th scope="col">{ t.cmp_method }</th>
                        <th scope="col">{ t.cmp_moved }</th>
                        <th scope="col">{ t.cmp_ideal }</th>
                        <th scope="col">{ t.cmp_balance }</th>
                        <th scope="col">{ t.cmp_after }</th>
                    </tr></thead>
                    <tbody>
                        { row(t, t.cmp_slots, t.cmp_slots_note, &c.slots, ideal) }
                        { row(t, &fill(t.cmp_ring, &[&c.vnodes]), t.cmp_ring_note, &c.ring, ideal) }
                        { row(t, t.cmp_mod, t.cmp_mod_note, &c.mod_n, ideal) }
                    </tbody>
                </table>
            }
        }
        (Some(Err(e)), _, _) => {
            html! { <p class="lab__error" role="alert">{ compare_error(t, e) }</p> }
        }
        _ => html! { <p class="lab__error" role="alert">{ t.cmp_bad_input }</p> },
    };
    html! {
        <section class="card compare" aria-labelledby="compare-title">
            <h2 id="compare-title" class="section-title">{ t.cmp_title }</h2>
            <p class="section-help">{ fill(t.cmp_help, &[&N_KEYS]) }</p>
            <div class="lab__row lab__form">
                <label for="cmp-n">{ t.cmp_n }</label>
                <input id="cmp-n" class="lab__number" type="number" min="1" max="64" value={(*n_text).clone()} oninput={on_n} />
                <label for="cmp-v">{ t.cmp_v }</label>
                <input id="cmp-v" class="lab__number" type="number" min="1" max="1000" value={(*v_text).clone()} oninput={on_v} />
            </div>
            { body }
            <p class="section-help">{ t.cmp_takeaway }</p>
        </section>
    }
}
