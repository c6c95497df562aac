//! The bus section's numbers panel (branch `numbers`), measured by `core::bus::measure` when
//! the reader opens it, a piece per timer tick so the page never stalls: heartbeat traffic per
//! node and per cluster for N masters with 16384 and 65536 slots, time to failover against
//! `cluster-node-timeout` over seeded runs (an SVG chart and the same figures as text), and
//! "why at least 3 masters" shown with 2 (with a button that plays it).

use super::BusMsg;
use crate::core::bus::measure::{
    failover_run, heartbeat_traffic, minimum_masters, FailoverRun, Spread, Traffic, TrafficRun,
    SLOT_BITMAP_BYTES, SLOT_BITMAP_BYTES_65536,
};
use crate::core::bus::scenario::{Action, Knobs, Note, ScenarioSpec, Timeline};
use crate::ui::after_paint::now_ms;
use crate::ui::components::tour::rate;
use crate::ui::messages::{fill, use_messages, Messages};
use gloo_timers::callback::Timeout;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// The masters the traffic table offers (the reader picks one; each is measured once). 300
/// takes a few seconds of slices; 1000 would take about a minute (29 s natively).
pub const TRAFFIC_MASTERS: [usize; 5] = [3, 10, 30, 100, 300];
/// Simulator events between two looks at the clock while measuring traffic.
const TRAFFIC_STEPS: usize = 256;
/// The traffic table's node timeout: Redis's default.
pub const TRAFFIC_NT: u64 = 15_000;
/// Simulated ms counted (after the `2 × NT` warm-up).
pub const TRAFFIC_MS: u64 = 10_000;
/// The chart's node timeouts.
pub const CHART_NTS: [u64; 4] = [1000, 2000, 5000, 15_000];
/// Seeded runs per node timeout.
pub const CHART_RUNS: usize = 24;
/// The first seed of the chart's runs.
pub const CHART_SEED: u64 = 11;
/// How long the 2-master run is watched (ms).
pub const TWO_WATCH_MS: u64 = 15_000;
/// Wall ms of work per tick before yielding to the page.
const SLICE_MS: f64 = 40.0;

/// The chart's figures for one node timeout.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartGroup {
    /// `cluster-node-timeout`, ms.
    pub nt: u64,
    /// First PFAIL, first FAIL, promotion.
    pub spreads: [Option<Spread>; 3],
}

/// The 2-masters case as measured.
#[derive(Clone, Debug, PartialEq)]
pub struct TwoMasters {
    /// First PFAIL about the killed master, ms.
    pub pfail_ms: Option<u64>,
    /// The surviving master's view when it turned `cluster_state:fail`: reachable, needed.
    pub reachable: u32,
    /// Masters it needs.
    pub needed: u32,
    /// Whether a replica was promoted (it never is).
    pub promoted: bool,
    /// With 3 masters: promotion ms after the kill.
    pub three_promoted_ms: Option<u64>,
}

/// Up to this many nodes the tour's first stop measures at once, in the render (a few ms).
pub const TOUR_AT_ONCE_NODES: usize = 30;
/// Above these the tour's first stop quotes no measurement, and says so: the simulation would
/// take longer than a reader waits (300 nodes take about 2 s of slices; 1000 masters 29 s
/// natively). The numbers panel's largest cluster is the same size.
pub const TOUR_MAX_NODES: usize = 300;
/// The largest node timeout the tour measures at (the warm-up is `2 × NT`).
pub const TOUR_MAX_NT: u64 = 60_000;

/// The tour's last measurement: (masters, replicas, NT) and its traffic.
type TourCache = Option<((usize, usize, u64), Traffic)>;

thread_local! {
    static TOUR_CACHE: std::cell::RefCell<TourCache> = const { std::cell::RefCell::new(None) };
}

/// What the tour's first stop can quote for a cluster.
#[derive(Clone, Debug, PartialEq)]
pub enum TourTraffic {
    /// Measured.
    Measured(Traffic),
    /// Being measured, a slice per task: `nodes` in all.
    Measuring {
        /// Nodes simulated.
        nodes: usize,
    },
    /// Too big to measure here (more than [`TOUR_MAX_NODES`]).
    TooBig {
        /// Nodes in the cluster.
        nodes: usize,
    },
    /// Nothing to quote: no master, replicas that differ between masters, or a node timeout
    /// outside 100..=[`TOUR_MAX_NT`].
    None,
}

/// The cached measurement for `key`, if it is the last one made.
fn tour_cached(key: (usize, usize, u64)) -> Option<Traffic> {
    TOUR_CACHE.with(|c| {
        c.borrow()
            .as_ref()
            .filter(|(k, _)| *k == key)
            .map(|(_, t)| t.clone())
    })
}

/// The heartbeat traffic of `masters` masters with `replicas` replicas each at `nt`, as the
/// tour's first stop quotes it (the last answer kept), measured at once; `None` for a cluster
/// of more than [`TOUR_AT_ONCE_NODES`] (see [`use_tour_traffic`]) or outside the ranges.
pub fn tour_traffic(masters: usize, replicas: usize, nt: u64) -> Option<Traffic> {
    let nodes = masters.saturating_mul(replicas.saturating_add(1));
    if masters == 0 || nodes > TOUR_AT_ONCE_NODES || !(100..=TOUR_MAX_NT).contains(&nt) {
        return None;
    }
    let key = (masters, replicas, nt);
    if let Some(t) = tour_cached(key) {
        return Some(t);
    }
    let t = heartbeat_traffic(masters, replicas, nt, 1, TRAFFIC_MS);
    TOUR_CACHE.with(|c| *c.borrow_mut() = Some((key, t.clone())));
    Some(t)
}

/// A measurement for the tour running a slice per task, until done or dropped.
struct TourJob {
    run: std::cell::RefCell<TrafficRun>,
    timeout: std::cell::RefCell<Option<Timeout>>,
}

/// Runs one slice of `job`; schedules the next, or caches the traffic and re-renders the tour.
fn tour_slice(job: std::rc::Rc<TourJob>, key: (usize, usize, u64), rerender: UseForceUpdateHandle) {
    let start = now_ms();
    let finished = loop {
        if let Some(t) = job.run.borrow_mut().advance_steps(TRAFFIC_STEPS) {
            break Some(t);
        }
        if now_ms() - start >= SLICE_MS {
            break None;
        }
    };
    match finished {
        Some(t) => {
            TOUR_CACHE.with(|c| *c.borrow_mut() = Some((key, t)));
            // The tour's next render finds the measurement cached.
            rerender.force_update();
        }
        None => {
            let next = std::rc::Rc::clone(&job);
            let timeout = Timeout::new(0, move || tour_slice(next, key, rerender));
            *job.timeout.borrow_mut() = Some(timeout);
        }
    }
}

/// The tour's first stop's measurement of `masters` masters with `replicas` replicas each at
/// `nt` (`replicas` is `None` when masters have different numbers of replicas): at once up to
/// [`TOUR_AT_ONCE_NODES`], a slice per task up to [`TOUR_MAX_NODES`] while `active`, never
/// above. Leaving the stop or changing the cluster drops a measurement under way.
#[hook]
pub fn use_tour_traffic(
    active: bool,
    masters: usize,
    replicas: Option<usize>,
    nt: u64,
) -> TourTraffic {
    let rerender = use_force_update();
    let measurable = replicas.filter(|_| masters > 0 && (100..=TOUR_MAX_NT).contains(&nt));
    let r = measurable.unwrap_or(0);
    let nodes = masters.saturating_mul(r.saturating_add(1));
    let key = (masters, r, nt);
    let sliced =
        measurable.is_some() && active && nodes > TOUR_AT_ONCE_NODES && nodes <= TOUR_MAX_NODES;
    {
        let rerender = rerender.clone();
        use_effect_with((sliced, masters, r, nt), move |&(sliced, ..)| {
            let job = (sliced && tour_cached(key).is_none()).then(|| {
                let job = std::rc::Rc::new(TourJob {
                    run: std::cell::RefCell::new(TrafficRun::new(masters, r, nt, 1, TRAFFIC_MS)),
                    timeout: std::cell::RefCell::new(None),
                });
                let first = std::rc::Rc::clone(&job);
                *job.timeout.borrow_mut() =
                    Some(Timeout::new(0, move || tour_slice(first, key, rerender)));
                job
            });
            // Dropping the pending timeout stops the job.
            move || {
                if let Some(job) = job {
                    job.timeout.borrow_mut().take();
                }
            }
        });
    }
    if measurable.is_none() || !active {
        TourTraffic::None
    } else if nodes > TOUR_MAX_NODES {
        TourTraffic::TooBig { nodes }
    } else if let Some(t) = tour_traffic(masters, r, nt).or_else(|| tour_cached(key)) {
        TourTraffic::Measured(t)
    } else {
        TourTraffic::Measuring { nodes }
    }
}

/// What the panel has measured so far, and the work under way.
#[derive(Default)]
struct Measured {
    traffic: Vec<Traffic>,
    /// A traffic measurement under way: its masters and its run.
    pending: Option<(usize, TrafficRun)>,
    chart: Vec<ChartGroup>,
    /// Runs of the chart's group in progress.
    partial: Vec<FailoverRun>,
    two: Option<TwoMasters>,
    /// The 3-masters comparison is in `two`.
    three_done: bool,
}

/// The spec of the 2-masters case: 2 masters with a replica each, master 7200 killed at 0.
pub fn two_masters_spec() -> ScenarioSpec {
    let mut spec = ScenarioSpec::new(Knobs::uniform(2, 1, 2000, 1), TWO_WATCH_MS);
    spec.script.push((0, Action::Crash(0)));
    spec
}

fn measure_two() -> TwoMasters {
    let tl = Timeline::build(two_masters_spec());
    let pfail_ms = tl
        .notable
        .iter()
        .find(|n| matches!(n.note, Note::Pfail { subject: 0, .. }))
        .map(|n| n.t);
    let (reachable, needed) = tl
        .notable
        .iter()
        .find_map(|n| {
            if let Note::State {
                node: 1,
                ok: false,
                why,
            } = n.note
            {
                Some((why.reachable, why.needed))
            } else {
                None
            }
        })
        .unwrap_or((0, 0));
    let promoted = tl
        .notable
        .iter()
        .any(|n| matches!(n.note, Note::Role { master: None, .. }));
    TwoMasters {
        pfail_ms,
        reachable,
        needed,
        promoted,
        three_promoted_ms: None,
    }
}

/// One slice of work: what is missing, for at most `SLICE_MS`. `true` when more is left.
fn work(m: &mut Measured, masters: usize) -> bool {
    let start = now_ms();
    if !m.traffic.iter().any(|t| t.masters == masters) {
        // A big cluster's warm-up and count take longer than a frame, and one simulated
        // instant can too (at NT/2 every node pings every peer): a few hundred events at a
        // time until the slice is used up.
        if m.pending.as_ref().is_none_or(|p| p.0 != masters) {
            m.pending = Some((
                masters,
                TrafficRun::new(masters, 0, TRAFFIC_NT, 1, TRAFFIC_MS),
            ));
        }
        if let Some((_, run)) = m.pending.as_mut() {
            while now_ms() - start < SLICE_MS {
                if let Some(t) = run.advance_steps(TRAFFIC_STEPS) {
                    m.traffic.push(t);
                    m.pending = None;
                    break;
                }
            }
        }
        return true;
    }
    // The 2-masters run, then (another slice) the same crash with 3.
    let Some(two) = m.two.as_mut() else {
        m.two = Some(measure_two());
        return true;
    };
    if !m.three_done {
        two.three_promoted_ms = minimum_masters(3, 2000, 1, 30_000).promoted_ms;
        m.three_done = true;
        return true;
    }
    while let Some(&nt) = CHART_NTS.get(m.chart.len()) {
        let watch = nt.saturating_mul(4).saturating_add(10_000);
        let seed = CHART_SEED.wrapping_add(m.partial.len() as u64);
        m.partial.push(failover_run(3, 1, nt, seed, watch));
        if m.partial.len() >= CHART_RUNS {
            let runs = std::mem::take(&mut m.partial);
            let pick = |f: fn(&FailoverRun) -> Option<u64>| {
                Spread::of(&runs.iter().filter_map(f).collect::<Vec<_>>())
            };
            m.chart.push(ChartGroup {
                nt,
                spreads: [
                    pick(|r| r.pfail_ms),
                    pick(|r| r.fail_ms),
                    pick(|r| r.promoted_ms),
                ],
            });
        }
        if now_ms() - start > SLICE_MS {
            return true;
        }
    }
    false
}

/// Props of [`BusNumbers`].
#[derive(Properties, PartialEq)]
pub struct BusNumbersProps {
    /// Where "watch it" goes.
    pub on_msg: Callback<BusMsg>,
}

/// The panel: closed until the reader opens it; measured piece by piece once open.
#[function_component(BusNumbers)]
pub fn bus_numbers(props: &BusNumbersProps) -> Html {
    let m = use_messages();
    let open = use_state(|| false);
    let masters = use_state(|| TRAFFIC_MASTERS[0]);
    let measured = use_mut_ref(Measured::default);
    // Bumped after each slice of work: a new render, and the next slice if more is left.
    let tick = use_state(|| 0u64);
    {
        let measured = measured.clone();
        let setter = tick.setter();
        use_effect_with((*open, *masters, *tick), move |&(open, masters, tick)| {
            let mut timer = None;
            let missing = {
                let cur = measured.borrow();
                !cur.traffic.iter().any(|t| t.masters == masters)
                    || !cur.three_done
                    || cur.chart.len() < CHART_NTS.len()
            };
            if open && missing {
                timer = Some(Timeout::new(0, move || {
                    work(&mut measured.borrow_mut(), masters);
                    setter.set(tick + 1);
                }));
            }
            move || drop(timer)
        });
    }
    let ontoggle = {
        let open = open.clone();
        Callback::from(move |e: Event| {
            let d: web_sys::Element = e.target_unchecked_into();
            open.set(d.has_attribute("open"));
        })
    };
    let on_masters = {
        let masters = masters.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            if let Ok(n) = v.parse::<usize>() {
                masters.set(n);
            }
        })
    };
    let body = (*open).then(|| {
        let measured = measured.borrow();
        let traffic = measured.traffic.iter().find(|t| t.masters == *masters);
        html! {
            <>
                { traffic_view(m, *masters, traffic, on_masters.clone()) }
                { chart_view(m, &measured.chart) }
                { two_view(m, measured.two.as_ref().filter(|_| measured.three_done), &props.on_msg) }
            </>
        }
    });
    html! {
        <details class="bus-numbers" id="bus-numbers" data-testid="bus-numbers" {ontoggle}>
            <summary>{ m.bn_title }</summary>
            { body.unwrap_or_default() }
        </details>
    }
}

fn traffic_view(
    m: &Messages,
    masters: usize,
    t: Option<&Traffic>,
    on_masters: Callback<Event>,
) -> Html {
    let choice = html! {
        <label class="lab__row">
            { m.bn_masters }{ " " }
            <select data-testid="bus-numbers-masters" onchange={on_masters}>
                { for TRAFFIC_MASTERS.iter().map(|n| html! {
                    <option value={n.to_string()} selected={*n == masters}>{ n.to_string() }</option>
                }) }
            </select>
        </label>
    };
    let table = match t {
        None => html! { <p aria-live="polite">{ m.bn_computing }</p> },
        Some(t) => {
            let big = t.bytes_per_s_65536.max(1.0);
            let row = |slots: u32, per_s: f64| {
                let per_msg = if t.msgs_per_s > 0.0 {
                    per_s / t.msgs_per_s
                } else {
                    0.0
                };
                let per_node = per_s / t.nodes.max(1) as f64;
                // A bar drawn as SVG (the page's CSP allows no inline style).
                let width = format!("{:.1}", 60.0 * per_s / big);
                let class = if slots == 65536 {
                    "bus-numbers__bar bus-numbers__bar--big"
                } else {
                    "bus-numbers__bar"
                };
                html! {
                    <tr data-testid="bus-traffic" data-slots={slots.to_string()} data-masters={t.masters.to_string()}
                        data-bytes-per-msg={format!("{per_msg:.1}")} data-msgs-per-s={format!("{:.2}", t.msgs_per_s)}
                        data-bytes-per-s-node={format!("{per_node:.0}")} data-bytes-per-s={format!("{per_s:.0}")}>
                        <td class="mono">{ slots.to_string() }</td>
                        <td>{ format!("{per_msg:.0}") }</td>
                        <td>{ format!("{:.2}", t.msgs_per_s_per_node()) }</td>
                        <td>{ fill(m.bn_per_s, &[&rate(per_node)]) }</td>
                        <td><svg class={class} width="60" height="10" viewBox="0 0 60 10" aria-hidden="true"><rect width={width} height="10" /></svg>{ fill(m.bn_per_s, &[&rate(per_s)]) }</td>
                    </tr>
                }
            };
            let ratio = t.bytes_per_s_65536 / t.bytes_per_s.max(1.0);
            let extra = rate(t.bytes_per_s_65536 - t.bytes_per_s);
            html! {
                <>
                    <div class="bus-numbers__scroll">
                        <table>
                            <thead><tr>{ for m.bn_cols.iter().map(|c| html! { <th scope="col">{ *c }</th> }) }</tr></thead>
                            <tbody>
                                { row(16384, t.bytes_per_s) }
                                { row(65536, t.bytes_per_s_65536) }
                            </tbody>
                        </table>
                    </div>
                    <p>{ fill(m.bn_traffic_grow, &[&t.masters, &format!("{ratio:.1}"), &fill(m.bn_per_s, &[&extra])]) }</p>
                </>
            }
        }
    };
    html! {
        <section class="bus-numbers__part" aria-labelledby="bus-traffic-title">
            <h3 class="bus-numbers__title" id="bus-traffic-title">{ m.bn_traffic_title }</h3>
            <p>{ fill(m.bn_traffic_help, &[&SLOT_BITMAP_BYTES, &SLOT_BITMAP_BYTES_65536, &(TRAFFIC_MS / 1000), &TRAFFIC_NT]) }</p>
            { choice }
            { table }
        </section>
    }
}

/// The kinds' codes (test hooks).
const KINDS: [&str; 3] = ["pfail", "fail", "promoted"];

fn chart_view(m: &Messages, chart: &[ChartGroup]) -> Html {
    let head = html! {
        <>
            <h3 class="bus-numbers__title">{ m.bn_chart_title }</h3>
            <p>{ fill(m.bn_chart_help, &[&CHART_RUNS]) }</p>
        </>
    };
    if chart.is_empty() {
        return html! {
            <section class="bus-numbers__part">{ head }<p aria-live="polite">{ m.bn_computing }</p></section>
        };
    }
    // Geometry: a y axis in ms from 0 to a round top, one group of 3 bars per node timeout.
    let (w, h, left, right, top, bottom) = (640.0, 340.0, 80.0, 12.0, 44.0, 60.0);
    let most = chart
        .iter()
        .flat_map(|g| g.spreads.iter().flatten().map(|s| s.max))
        .max()
        .unwrap_or(1000);
    let step = nice_step(most);
    let y_top = most.div_ceil(step).max(1) * step;
    let y = |ms: u64| top + (h - top - bottom) * (1.0 - ms as f64 / y_top as f64);
    let groups = CHART_NTS.len() as f64;
    let gw = (w - left - right) / groups;
    let ticks = (0..=y_top / step).map(|i| {
        let v = i * step;
        html! {
            <g>
                <line class="grid" x1={left.to_string()} x2={(w - right).to_string()} y1={y(v).to_string()} y2={y(v).to_string()} />
                <text x={(left - 6.0).to_string()} y={(y(v) + 4.0).to_string()} text-anchor="end">{ v.to_string() }</text>
            </g>
        }
    });
    let bars = chart.iter().enumerate().map(|(gi, g)| {
        let cx = left + gw * (gi as f64 + 0.5);
        let label = html! {
            <text x={cx.to_string()} y={(h - bottom + 20.0).to_string()} text-anchor="middle">{ g.nt.to_string() }</text>
        };
        let kinds = g.spreads.iter().enumerate().filter_map(|(k, s)| {
            let s = (*s)?;
            let x = cx + (k as f64 - 1.0) * gw * 0.22;
            let mark = match k {
                0 => html! { <rect x={(x - 5.0).to_string()} y={(y(s.p50) - 5.0).to_string()} width="10" height="10" /> },
                1 => html! { <circle cx={x.to_string()} cy={y(s.p50).to_string()} r="5.5" /> },
                _ => html! { <rect x={(x - 4.5).to_string()} y={(y(s.p50) - 4.5).to_string()} width="9" height="9"
                                   transform={format!("rotate(45 {x} {})", y(s.p50))} /> },
            };
            Some(html! {
                <g class={format!("k{k}")} data-testid="bus-failover-bar" data-nt={g.nt.to_string()} data-kind={KINDS[k]}
                   data-min={s.min.to_string()} data-p50={s.p50.to_string()} data-p90={s.p90.to_string()} data-max={s.max.to_string()}>
                    <line x1={x.to_string()} x2={x.to_string()} y1={y(s.min).to_string()} y2={y(s.max).to_string()} stroke-width="3" />
                    <line x1={(x - 7.0).to_string()} x2={(x + 7.0).to_string()} y1={y(s.p90).to_string()} y2={y(s.p90).to_string()} stroke-width="1.5" />
                    { mark }
                </g>
            })
        });
        html! { <g>{ label }{ for kinds }</g> }
    });
    let rows = chart.iter().map(|g| {
        let items = g.spreads.iter().enumerate().filter_map(|(k, s)| {
            let s = (*s)?;
            Some(html! { <li>{ fill(m.bn_chart_row, &[&m.bn_chart_kinds[k], &s.min, &s.p50, &s.p90, &s.max]) }</li> })
        });
        html! {
            <li><code>{ format!("cluster-node-timeout {}", g.nt) }</code><ul>{ for items }</ul></li>
        }
    });
    html! {
        <section class="bus-numbers__part">
            { head }
            <ul class="bus-numbers__key">
                { for (0..3).map(|k| html! { <li class={format!("k{k}")}>{ m.bn_chart_kinds[k] }</li> }) }
            </ul>
            <svg class="bus-numbers__chart" viewBox={format!("0 0 {w} {h}")} role="img" aria-label={m.bn_chart_label}
                 data-testid="bus-failover-chart" data-runs={CHART_RUNS.to_string()} data-groups={chart.len().to_string()}>
                { for ticks }
                <line class="axis" x1={left.to_string()} x2={left.to_string()} y1={top.to_string()} y2={(h - bottom).to_string()} />
                <line class="axis" x1={left.to_string()} x2={(w - right).to_string()} y1={(h - bottom).to_string()} y2={(h - bottom).to_string()} />
                { for bars }
                <text x={(left + (w - left - right) / 2.0).to_string()} y={(h - 8.0).to_string()} text-anchor="middle">{ m.bn_chart_axes[0] }</text>
                // The y axis's title above it, level (a rotated one collides with the labels
                // when a phone draws the chart at half size).
                <text x={(left - 6.0).to_string()} y={(top - 16.0).to_string()} text-anchor="start">{ m.bn_chart_axes[1] }</text>
            </svg>
            if chart.len() < CHART_NTS.len() {
                <p aria-live="polite">{ m.bn_computing }</p>
            }
            <ul class="bus-numbers__rows">{ for rows }</ul>
        </section>
    }
}

/// A round grid step for an axis up to `most` ms (about 4 to 8 lines).
fn nice_step(most: u64) -> u64 {
    [
        250, 500, 1000, 2000, 2500, 5000, 10_000, 20_000, 50_000, 100_000,
    ]
    .into_iter()
    .find(|s| most / s <= 7)
    .unwrap_or(200_000)
}

fn two_view(m: &Messages, two: Option<&TwoMasters>, on_msg: &Callback<BusMsg>) -> Html {
    let body = match two {
        None => html! { <p aria-live="polite">{ m.bn_computing }</p> },
        Some(t) => {
            let watch = {
                let on_msg = on_msg.clone();
                Callback::from(move |_: MouseEvent| on_msg.emit(BusMsg::Open(two_masters_spec())))
            };
            // The surviving master: the spec's second port.
            let survivor = format!("127.0.0.1:{}", two_masters_spec().knobs.base_port + 1);
            let dash = |v: Option<u64>| v.map_or_else(|| "—".to_string(), |v| v.to_string());
            html! {
                <>
                    <p data-testid="bus-two-masters-why" data-reachable={t.reachable.to_string()} data-needed={t.needed.to_string()}
                       data-promoted={t.promoted.to_string()}>
                        { fill(m.bn_three, &[&survivor, &dash(t.pfail_ms), &t.reachable, &t.needed, &TWO_WATCH_MS, &dash(t.three_promoted_ms)]) }
                    </p>
                    <button type="button" class="button" data-testid="bus-two-masters" onclick={watch}>{ m.bn_three_run }</button>
                </>
            }
        }
    };
    html! {
        <section class="bus-numbers__part">
            <h3 class="bus-numbers__title">{ m.bn_three_title }</h3>
            { body }
        </section>
    }
}
