//! The cluster-bus section: nodes on a circle with messages on the chords, the matrix of
//! opinions, a player over the simulated clock, the logs, `CLUSTER NODES` / `CLUSTER INFO`
//! from any node, ready-made scenarios and free play.
//!
//! - `model.rs` — the run (recorded future + cursor simulator), no yew.
//! - `scenarios.rs` — the scenario select's runs.
//! - `circle.rs` — the circle (SVG): the messages in flight follow every animation frame while
//!   playing; the nodes and chords render only when what they draw changes (branch busfps).
//! - `matrix.rs` — who thinks what (a table up to 16 nodes, a canvas up to 1000).
//! - `player.rs` — play, pause, step, scrub, speed, keys, narration.
//! - `inspector.rs` — one node's view: facts, `CLUSTER NODES`, `CLUSTER INFO`, actions.
//! - `log_pane.rs` — the logs filtered by node and level.
//! - `knobs.rs` — the scenario select and the settings.
//! - `numbers.rs` — the numbers panel: traffic, time to failover, 2 masters (branch `numbers`).
//! - `story.rs` — the writes and which were lost, a MEET's spread (branch `numbers`).

pub mod building;
pub mod circle;
pub mod inspector;
pub mod knobs;
pub mod log_pane;
pub mod matrix;
pub mod model;
pub mod numbers;
pub mod player;
pub mod scenarios;
pub mod story;

use crate::core::bus::scenario::{Action, Knobs, ScenarioId, ScenarioSpec};
use crate::persist::BusState;
use crate::ui::after_paint::now_ms;
use crate::ui::bus_words::use_bus_words;
use crate::ui::lang::Lang;
use crate::ui::messages::fill;
use crate::ui::state::ClusterAction;
use building::Building;
use model::Run;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Simulated ms per wall ms, slowest first.
pub const SPEEDS: [f64; 8] = [0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 20.0];
/// The speed a run opens at.
pub const DEFAULT_SPEED: usize = 3;
/// Wall milliseconds of each animation frame the simulator may take while playing (up to
/// [`BIG_SHARE_FROM`] nodes).
const SIM_SHARE_MS: f64 = 6.0;
/// Above this many nodes the view is cheap beside the simulator (no messages drawn, no story,
/// the nodes and the matrix redrawn only on events), and the simulator gets [`BIG_SHARE`] of
/// each frame's interval instead of [`SIM_SHARE_MS`].
pub const BIG_SHARE_FROM: usize = 100;
/// The simulator's share of the frame interval on a big cluster (the view has the rest).
const BIG_SHARE: f64 = 0.8;
/// The most wall ms a frame gives the simulator (a click is still answered within about
/// 100 ms: INP's "good").
const MAX_SHARE_MS: f64 = 60.0;
/// Steps the simulator runs between two looks at the clock while playing (at 100 nodes;
/// fewer on a bigger cluster): events and the messages they send (`Sim::run_until_work`), so
/// a burst's cron that pings every peer counts for its messages.
const PLAY_STEPS: usize = 500;

/// Wall ms of a frame the simulator may take while playing: on `nodes` nodes, after a frame
/// interval of `dt` wall ms. A share of the interval, not a fixed time: where the view takes
/// longer than the rest, frames come later, the interval grows and the simulator's time with
/// it, so it keeps its share at any frame rate.
pub fn sim_share_ms(nodes: usize, dt: f64) -> f64 {
    if nodes <= BIG_SHARE_FROM {
        SIM_SHARE_MS
    } else {
        (BIG_SHARE * dt).clamp(SIM_SHARE_MS, MAX_SHARE_MS)
    }
}

/// Steps between two looks at the clock on `nodes` nodes ([`PLAY_STEPS`] at up to 100).
pub fn play_steps(nodes: usize) -> usize {
    (PLAY_STEPS * 100 / nodes.max(100)).max(20)
}

/// The run, shared by the section's parts; equal when the same run at the same version.
#[derive(Clone)]
pub struct RunHandle {
    /// The run.
    pub run: Rc<RefCell<Run>>,
    /// Bumped whenever the run is replaced or acted on.
    pub version: u64,
}

impl PartialEq for RunHandle {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.run, &o.run) && self.version == o.version
    }
}

/// What the player, the circle and the inspector can ask of the section.
#[derive(Clone, Debug, PartialEq)]
pub enum BusMsg {
    /// Start playing.
    Play,
    /// Stop playing.
    Pause,
    /// Go to an absolute instant.
    Seek(u64),
    /// The next event's instant.
    Next,
    /// The previous event's instant.
    Prev,
    /// The next notable event.
    NextNotable,
    /// Faster (+1) or slower (−1).
    Speed(i32),
    /// Look through this node's eyes.
    Observe(u32),
    /// Act on the cluster at the current instant.
    Act(Action),
    /// Open a scenario (a slug) with the free-play knobs.
    Scenario(String),
    /// New knobs for free play.
    Knobs(Knobs),
    /// Free play from a spec with its own actions (the numbers panel's 2-masters case).
    Open(ScenarioSpec),
    /// Drop the run being built (the one shown stays).
    StopBuilding,
}

/// Props of [`BusSection`].
#[derive(Properties, PartialEq)]
pub struct BusSectionProps {
    /// What the link opened with (read once).
    pub opening: Option<BusState>,
    /// The share link's bus part, each time the reader stops somewhere.
    pub on_link: Callback<Option<BusState>>,
    /// The topology lab's actions (to open `CLUSTER NODES` there).
    pub on_action: Callback<ClusterAction>,
}

/// The scenario a page opens with.
pub const OPENING: &str = "master-crash";

type Opened = (
    String,
    Knobs,
    Option<Run>,
    u64,
    Option<LinkTrouble>,
    Option<LinkBuild>,
);

/// A link's run too big to build while the page opens: built a piece at a time once it has.
struct LinkBuild {
    spec: ScenarioSpec,
    slug: String,
    len: u64,
    at_ms: u64,
}

/// The state a link restores into (slug, free-play knobs, run, instant) and what it could not;
/// a big cluster's run is left to build in pieces (the page opens at its default run meanwhile).
fn opened(opening: &Option<BusState>) -> Opened {
    let default_spec = || ScenarioId::MasterCrash.spec(1);
    let Some(b) = opening else {
        let run = scenarios::build(&default_spec());
        let t = run.start;
        return (OPENING.into(), Knobs::default(), Some(run), t, None, None);
    };
    let mut trouble = None;
    let (slug, spec) = if !scenarios::known(&b.scenario) {
        let shown: String = b.scenario.chars().take(40).collect();
        trouble = Some(LinkTrouble::Unknown(shown));
        (OPENING.to_string(), default_spec())
    } else if b.spec.is_empty() {
        let spec = scenarios::spec_of(&b.scenario, &Knobs::default()).unwrap_or_else(default_spec);
        (b.scenario.clone(), spec)
    } else {
        match ScenarioSpec::decode(&b.spec) {
            Ok(spec) => (b.scenario.clone(), spec),
            Err(_) => {
                trouble = Some(LinkTrouble::BadSpec);
                (OPENING.to_string(), default_spec())
            }
        }
    };
    let free = spec.knobs.clone();
    let len = scenarios::length(&spec).max(b.at_ms.saturating_add(2000));
    if spec.knobs.nodes() > model::DRAW_MESSAGES_UP_TO {
        // A link to 1000 nodes at a short node timeout took minutes in one task (or a
        // tampered one asking for the longest run): the page opens first.
        let run = scenarios::build(&default_spec());
        let t = run.start;
        let at_ms = b.at_ms;
        let build = LinkBuild {
            spec,
            slug,
            len,
            at_ms,
        };
        return (OPENING.into(), free, Some(run), t, trouble, Some(build));
    }
    let mut run = Run::new(&spec, len);
    let t = run.start.saturating_add(b.at_ms);
    if t > run.end {
        trouble = trouble.or(Some(LinkTrouble::PastEnd));
    }
    let t = t.min(run.end);
    run.seek(t);
    (slug, free, Some(run), t, trouble, None)
}

/// What a bus link could not open.
#[derive(Clone, Debug, PartialEq)]
enum LinkTrouble {
    Unknown(String),
    BadSpec,
    PastEnd,
}

/// The link's bus part for the run at instant `t` (`None`: the page's opening state).
fn link_of(slug: &str, run: &Run, t: u64) -> Option<BusState> {
    let catalogued = ScenarioId::from_slug(slug).map(|id| id.spec(id.page_seed()));
    let as_catalogued = catalogued
        .as_ref()
        .is_some_and(|c| c.knobs == run.knobs && c.script == run.script);
    let at_ms = t.saturating_sub(run.start);
    if slug == OPENING && as_catalogued && at_ms == 0 {
        return None;
    }
    let spec = if as_catalogued {
        Vec::new()
    } else {
        let mut spec = run.spec();
        spec.until_ms = at_ms;
        spec.encode()
    };
    Some(BusState {
        scenario: slug.to_string(),
        spec,
        at_ms,
    })
}

/// Simulated ms as seconds with one decimal.
fn seconds(ms: u64) -> String {
    format!("{:.1}", ms as f64 / 1000.0)
}

/// The section's state as the (once-made) message callback reads it.
struct Latest {
    version: u64,
    speed: usize,
    slug: String,
    free: Knobs,
    /// Builds started (each build's number).
    builds: u64,
}

/// Wall ms of each piece of a build after the first (the page answers between pieces).
const BUILD_SLICE_MS: f64 = 12.0;
/// Wall ms of a build's first piece, in the event's own task: a small cluster is built in it,
/// and the section changes in that task as it always did.
const BUILD_FIRST_MS: f64 = 40.0;

/// Work the section does a slice at a time between frames.
struct Pending {
    job: Job,
    id: u64,
}

/// What is done in slices.
enum Job {
    /// A run being built, and what the section does with it once it is.
    Build(Box<Building>, Then),
    /// Seeking back on a cluster too big for copies of its recording: the cursor replayed from
    /// the cluster's creation (`model::Replay`); `play` starts the player once there.
    Replay {
        replay: Box<model::Replay>,
        play: bool,
    },
}

impl Job {
    fn work(&mut self, now: &dyn Fn() -> f64, budget: f64) -> bool {
        match self {
            Job::Build(b, _) => b.work(now, budget),
            Job::Replay { replay, .. } => replay.work(now, budget),
        }
    }

    fn progress(&self) -> Progress {
        let (nodes, (done, total), going_to) = match self {
            Job::Build(b, _) => (b.nodes(), b.progress(), None),
            Job::Replay { replay, .. } => (replay.nodes(), replay.progress(), Some(replay.t)),
        };
        Progress {
            nodes,
            done,
            total,
            going_to,
        }
    }
}

/// What follows a build.
enum Then {
    /// A ready-made scenario (its slug) opens.
    Scenario(String),
    /// Free play with new knobs.
    Knobs(Knobs),
    /// Free play from a spec of the numbers panel (the section comes into view).
    Open(Knobs),
    /// An action was done at the instant shown (on a ready-made scenario: it becomes free play).
    Act { from_scenario: bool },
    /// The run a link asked for, shown at `at_ms` after its start.
    Link { slug: String, at_ms: u64 },
}

/// A build under way as the section shows it: nodes, simulated ms done and to do.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Progress {
    nodes: usize,
    done: u64,
    total: u64,
    /// Seeking back: the instant (absolute) the replay goes to.
    going_to: Option<u64>,
}

/// The section's state as the message callback and a build's pieces change it.
#[derive(Clone)]
struct Ctx {
    run: Rc<RefCell<Run>>,
    version: UseStateHandle<u64>,
    t: UseStateHandle<u64>,
    t_ref: Rc<RefCell<u64>>,
    playing: UseStateHandle<bool>,
    observer: UseStateHandle<u32>,
    slug: UseStateHandle<String>,
    free: UseStateHandle<Knobs>,
    trouble: UseStateHandle<Option<LinkTrouble>>,
    latest: Rc<RefCell<Latest>>,
    pending: Rc<RefCell<Option<Pending>>>,
    progress: UseStateHandle<Option<Progress>>,
    /// A link's run is being built: the share link is left as it came until it is shown.
    link_pending: Rc<Cell<bool>>,
}

impl Ctx {
    /// Shows absolute instant `to` (clamped to the recording). Back in time on a cluster that
    /// keeps no copies of its recording, in slices (`replay_to`).
    fn goto(&self, to: u64) {
        self.goto_then(to, false);
    }

    /// [`Ctx::goto`], and plays from there if `play` (once a replay is done, if it replays).
    fn goto_then(&self, to: u64, play: bool) {
        let replays = {
            let r = self.run.borrow();
            r.replays_to(to).then(|| to.clamp(r.start, r.end))
        };
        if let Some(to) = replays {
            self.replay_to(to, play);
            return;
        }
        // The instant is reached at once: a replay under way would come back to another.
        {
            let mut pending = self.pending.borrow_mut();
            if matches!(
                pending.as_ref(),
                Some(Pending {
                    job: Job::Replay { .. },
                    ..
                })
            ) {
                pending.take();
                self.progress.set(None);
            }
        }
        if play {
            self.playing.set(true);
        }
        let to = {
            let mut r = self.run.borrow_mut();
            let to = to.clamp(r.start, r.end);
            r.seek(to);
            to
        };
        *self.t_ref.borrow_mut() = to;
        self.t.set(to);
    }

    /// The run was replaced or acted on.
    fn bump(&self) {
        let mut l = self.latest.borrow_mut();
        l.version += 1;
        self.version.set(l.version);
    }

    fn set_slug(&self, s: String) {
        self.latest.borrow_mut().slug = s.clone();
        self.slug.set(s);
    }

    fn set_free(&self, k: Knobs) {
        self.latest.borrow_mut().free = k.clone();
        self.free.set(k);
    }

    /// Builds `b` (in place of any build under way), then does `then`.
    fn build(&self, b: Building, then: Then) {
        self.link_pending.set(matches!(then, Then::Link { .. }));
        self.start_job(Job::Build(Box::new(b), then), BUILD_FIRST_MS);
    }

    /// Replays the cursor from the creation to `to` in slices, the instant shown staying until
    /// it is there; a replay under way that has not passed `to` goes on to it instead.
    fn replay_to(&self, to: u64, play: bool) {
        {
            let mut pending = self.pending.borrow_mut();
            if let Some(Pending { job, .. }) = pending.as_mut()
                && let Job::Replay { replay, play: p } = job
                && replay.retarget(to)
            {
                *p = play;
                self.progress.set(Some(job.progress()));
                return;
            }
        }
        let replay = self.run.borrow().replay(to);
        self.start_job(
            Job::Replay {
                replay: Box::new(replay),
                play,
            },
            BUILD_SLICE_MS,
        );
    }

    /// Starts `job` in place of any under way, its first slice in this task.
    fn start_job(&self, job: Job, first: f64) {
        let id = {
            let mut l = self.latest.borrow_mut();
            l.builds += 1;
            l.builds
        };
        *self.pending.borrow_mut() = Some(Pending { job, id });
        self.piece(id, first);
    }

    /// One piece of build `id` (nothing if it was dropped or replaced); the next in a task
    /// of its own.
    fn piece(&self, id: u64, budget: f64) {
        let built = {
            let mut pending = self.pending.borrow_mut();
            let Some(p) = pending.as_mut().filter(|p| p.id == id) else {
                return;
            };
            if p.job.work(&now_ms, budget) {
                pending.take()
            } else {
                self.progress.set(Some(p.job.progress()));
                None
            }
        };
        let Some(p) = built else {
            let ctx = self.clone();
            let next = Closure::once_into_js(move || ctx.piece(id, BUILD_SLICE_MS));
            if let Some(w) = web_sys::window() {
                let _ = w
                    .set_timeout_with_callback_and_timeout_and_arguments_0(next.unchecked_ref(), 0);
            }
            return;
        };
        self.progress.set(None);
        match p.job {
            Job::Build(b, then) => {
                if let Some(run) = b.take() {
                    self.finish(run, then);
                }
            }
            Job::Replay { replay, play } => {
                let t = replay.t;
                self.run.borrow_mut().seek_replayed(*replay);
                *self.t_ref.borrow_mut() = t;
                self.t.set(t);
                if play {
                    self.playing.set(true);
                }
            }
        }
    }

    fn stop_building(&self) {
        self.pending.borrow_mut().take();
        self.progress.set(None);
        self.link_pending.set(false);
    }

    /// The built run replaces the one shown.
    fn finish(&self, new: Run, then: Then) {
        let (start, at, end) = (new.start, new.at, new.end);
        *self.run.borrow_mut() = new;
        self.link_pending.set(false);
        match then {
            Then::Act { from_scenario } => {
                if from_scenario {
                    // Acting turns a scenario into free play from its own knobs.
                    let k = self.run.borrow().knobs.clone();
                    self.set_free(k);
                    self.set_slug(scenarios::FREE.to_string());
                }
                self.bump();
                self.goto(at);
                return;
            }
            Then::Link { ref slug, at_ms } => {
                self.set_slug(slug.clone());
                let t = start.saturating_add(at_ms);
                self.trouble.set((t > end).then_some(LinkTrouble::PastEnd));
                self.observer.set(0);
                self.bump();
                self.goto(t.min(end));
                return;
            }
            Then::Scenario(ref s) => self.set_slug(s.clone()),
            Then::Knobs(ref k) | Then::Open(ref k) => {
                self.set_free(k.clone());
                self.set_slug(scenarios::FREE.to_string());
            }
        }
        self.trouble.set(None);
        self.observer.set(0);
        self.bump();
        self.goto(start);
        if matches!(then, Then::Open(_))
            && let Some(el) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id("bus"))
        {
            el.scroll_into_view();
        }
    }
}

/// The animation-frame callback, kept where it can schedule itself again.
type FrameSlot = Rc<RefCell<Option<Closure<dyn FnMut(f64)>>>>;

/// The section.
#[function_component(BusSection)]
pub fn bus_section(props: &BusSectionProps) -> Html {
    let w = use_bus_words();
    // The section says which language it shows: just after a switch it may still be the
    // previous one (`late_lang`).
    let lang = use_context::<Lang>().unwrap_or_default().bcp47();
    let init = use_mut_ref(|| opened(&props.opening));
    let run = {
        let init = init.clone();
        use_mut_ref(move || {
            init.borrow_mut()
                .2
                .take()
                .unwrap_or_else(|| scenarios::build(&ScenarioSpec::new(Knobs::default(), 10_000)))
        })
    };
    let slug = use_state(|| init.borrow().0.clone());
    let free = use_state(|| init.borrow().1.clone());
    let trouble = use_state(|| init.borrow().4.clone());
    let t0 = init.borrow().3;
    let version = use_state(|| 0u64);
    let t = use_state(move || t0);
    let t_ref = use_mut_ref(move || t0);
    let playing = use_state(|| false);
    let speed = use_state(|| DEFAULT_SPEED);
    // The pace reached while playing, when the simulator cannot keep up with `speed`.
    let pace = use_state_eq(|| None::<u32>);
    let observer = use_state(|| 0u32);
    let handle = RunHandle {
        run: run.clone(),
        version: *version,
    };

    let link_pending = {
        let init = init.clone();
        use_memo((), move |_| Rc::new(Cell::new(init.borrow().5.is_some())))
    };
    let link_pending: Rc<Cell<bool>> = (*link_pending).clone();

    // The share link follows the reader whenever the player stands still (not while a
    // link's own run is still being built: the address keeps what it asked for).
    {
        let on_link = props.on_link.clone();
        let run = run.clone();
        let link_pending = link_pending.clone();
        use_effect_with(
            (*playing, *t, *version, (*slug).clone(), (*free).clone()),
            move |(playing, t, _, slug, free)| {
                if !*playing && !link_pending.get() {
                    let _ = free;
                    let b = run.borrow();
                    on_link.emit(link_of(slug, &b, *t));
                }
            },
        );
    }

    // Playing: one state update per animation frame, the clock advanced by the frame's wall
    // time × speed; the recording grows ahead of the clock.
    {
        let run = run.clone();
        let t_state = t.setter();
        let t_ref = t_ref.clone();
        let playing_set = playing.setter();
        let pace_set = pace.setter();
        use_effect_with((*playing, *speed, *version), move |&(on, speed, _)| {
            pace_set.set(None);
            let (settle_run, settle_t, settle_state) =
                (run.clone(), t_ref.clone(), t_state.clone());
            let alive = Rc::new(Cell::new(on));
            let frame: FrameSlot = Rc::new(RefCell::new(None));
            if on {
                let (alive2, frame2) = (alive.clone(), frame.clone());
                let last = Rc::new(Cell::new(now_ms()));
                // Wall ms the simulator took while playing, and the simulated ms it covered.
                let cost = Rc::new(Cell::new((0.0f64, 0.0f64)));
                // The pace over the last second: (wall ms, simulated ms) at its start.
                let since = Rc::new(Cell::new(None::<(f64, u64)>));
                *frame.borrow_mut() = Some(Closure::new(move |ts: f64| {
                    if !alive2.get() {
                        return;
                    }
                    let dt = (ts - last.get()).clamp(0.0, 100.0);
                    last.set(ts);
                    let rate = SPEEDS.get(speed).copied().unwrap_or(1.0);
                    let cur = *t_ref.borrow();
                    let next = cur.saturating_add((dt * rate).round() as u64).max(cur + 1);
                    let (t_new, stop) = {
                        let mut r = run.borrow_mut();
                        let cap = r.start.saturating_add(model::MAX_RUN_MS);
                        // The simulator gets a share of the frame: where it cannot keep up
                        // with the speed (100 nodes at NT 2000 simulate about 7× real time
                        // in Chromium), the clock goes as far as it computed in that share
                        // and the frames keep coming. Every instant shown is still the
                        // simulation's own state at the clock.
                        let began = now_ms();
                        let nodes = r.cursor().nodes.len();
                        let share = sim_share_ms(nodes, dt);
                        let steps = play_steps(nodes);
                        let mut t_new = cur;
                        loop {
                            // As many simulated ms as the share has room for, at the cost
                            // per simulated ms seen so far while playing (all of them while
                            // that is unknown). An average over the whole play: the simulator's
                            // work comes in bursts (every node's cron each 100 ms).
                            let left = (share - (now_ms() - began)).max(0.5);
                            let (wall, sim) = cost.get();
                            let room = if wall > 0.0 && sim > 0.0 {
                                (left * sim / wall).floor().max(1.0) as u64
                            } else {
                                next - t_new
                            };
                            let to = t_new.saturating_add(room).min(next);
                            let t_chunk = now_ms();
                            // Recorded in pieces of events and the messages they send,
                            // stopping even inside a millisecond, so that a burst cannot hold
                            // the frame past its share.
                            while r.end < to && !r.extend_bounded(to, steps) {
                                if now_ms() - began >= share {
                                    break;
                                }
                            }
                            let to = to.min(r.end);
                            r.seek(to);
                            let moved = to.saturating_sub(t_new);
                            // A chunk that ended inside a burst's millisecond moved nothing
                            // yet cost its time: it counts too.
                            let (wall, sim) = cost.get();
                            cost.set((wall + (now_ms() - t_chunk), sim + moved as f64));
                            t_new = to;
                            if moved == 0 || t_new >= next || now_ms() - began >= share {
                                break;
                            }
                        }
                        // The end of what is recorded only stops the player where the
                        // recording cannot grow (it stopped one frame after each Play there).
                        (t_new, t_new >= r.end && r.end >= cap)
                    };
                    *t_ref.borrow_mut() = t_new;
                    t_state.set(t_new);
                    // Say so when the clock runs slower than the speed shown.
                    match since.get() {
                        None => since.set(Some((ts, t_new))),
                        Some((w0, s0)) if ts - w0 >= 1000.0 => {
                            let reached = t_new.saturating_sub(s0) as f64 / (ts - w0);
                            pace_set.set(
                                (reached < 0.9 * rate).then(|| (reached * 10.0).round() as u32),
                            );
                            since.set(Some((ts, t_new)));
                        }
                        Some(_) => {}
                    }
                    if stop {
                        alive2.set(false);
                        playing_set.set(false);
                        return;
                    }
                    if let (Some(win), Some(f)) = (web_sys::window(), frame2.borrow().as_ref()) {
                        let _ = win.request_animation_frame(f.as_ref().unchecked_ref());
                    }
                }));
                if let (Some(win), Some(f)) = (web_sys::window(), frame.borrow().as_ref()) {
                    let _ = win.request_animation_frame(f.as_ref().unchecked_ref());
                }
            }
            move || {
                alive.set(false);
                // A burst's millisecond left in part is finished before the clock stops.
                if let Ok(mut r) = settle_run.try_borrow_mut()
                    && let Some(t) = r.settle()
                {
                    *settle_t.borrow_mut() = t;
                    settle_state.set(t);
                }
                // The closure is kept until the frame that may still hold it has run.
                let keep = frame.borrow_mut().take();
                if let Some(k) = keep {
                    gloo_timers::callback::Timeout::new(200, move || drop(k)).forget();
                }
            }
        });
    }

    // What the callback reads of the section's state: kept current here, so the callback
    // itself is made once and every part's props compare equal from frame to frame (a new
    // callback each frame made every part render every frame).
    let latest = use_mut_ref(|| Latest {
        version: 0,
        speed: DEFAULT_SPEED,
        slug: String::new(),
        free: Knobs::default(),
        builds: 0,
    });
    let pending = use_mut_ref(|| None::<Pending>);
    let progress = use_state_eq(|| None::<Progress>);
    {
        let mut l = latest.borrow_mut();
        l.version = *version;
        l.speed = *speed;
        if l.slug != *slug {
            l.slug = (*slug).clone();
        }
        if l.free != *free {
            l.free = (*free).clone();
        }
    }
    let on_msg = {
        let ctx = Ctx {
            run: run.clone(),
            version: version.clone(),
            t: t.clone(),
            t_ref: t_ref.clone(),
            playing: playing.clone(),
            observer: observer.clone(),
            slug: slug.clone(),
            free: free.clone(),
            trouble: trouble.clone(),
            latest: latest.clone(),
            pending: pending.clone(),
            progress: progress.clone(),
            link_pending: link_pending.clone(),
        };
        // A link's big run is built once the page has opened.
        {
            let (ctx, init) = (ctx.clone(), init.clone());
            use_effect_with((), move |_| {
                let link = init.borrow_mut().5.take();
                if let Some(l) = link {
                    let b = Building::new(&l.spec, l.len);
                    ctx.build(
                        b,
                        Then::Link {
                            slug: l.slug,
                            at_ms: l.at_ms,
                        },
                    );
                }
            });
        }
        let speed = speed.clone();
        use_memo((), move |_| {
            Callback::from(move |m: BusMsg| {
                let ctx = &ctx;
                let (run, playing, latest) = (&ctx.run, &ctx.playing, &ctx.latest);
                let cur = *ctx.t_ref.borrow();
                match m {
                    BusMsg::Play => {
                        let at_end = {
                            let r = run.borrow();
                            cur >= r.start.saturating_add(model::MAX_RUN_MS)
                        };
                        if at_end {
                            let s = run.borrow().start;
                            ctx.goto_then(s, true);
                        } else {
                            playing.set(true)
                        }
                    }
                    BusMsg::Pause => playing.set(false),
                    BusMsg::Seek(to) => {
                        playing.set(false);
                        ctx.goto(to)
                    }
                    BusMsg::Next => {
                        playing.set(false);
                        let to = run.borrow().next_event_time(cur);
                        ctx.goto(to)
                    }
                    BusMsg::Prev => {
                        playing.set(false);
                        let to = run.borrow().prev_event_time(cur);
                        ctx.goto(to)
                    }
                    BusMsg::NextNotable => {
                        playing.set(false);
                        let to = run.borrow().next_notable(cur);
                        if let Some(to) = to {
                            ctx.goto(to)
                        }
                    }
                    BusMsg::Speed(d) => {
                        let s = {
                            let mut l = latest.borrow_mut();
                            l.speed =
                                (l.speed as i32 + d).clamp(0, SPEEDS.len() as i32 - 1) as usize;
                            l.speed
                        };
                        speed.set(s)
                    }
                    BusMsg::Observe(n) => ctx.observer.set(n),
                    BusMsg::Act(act) => {
                        playing.set(false);
                        let b = {
                            let r = run.borrow();
                            let len = scenarios::length(&r.spec()).min(30_000);
                            Building::acting(&r, act, len)
                        };
                        let from_scenario = {
                            let l = latest.borrow();
                            l.slug != scenarios::FREE && !l.slug.is_empty()
                        };
                        ctx.build(b, Then::Act { from_scenario });
                    }
                    BusMsg::Scenario(s) => {
                        let spec = {
                            let l = latest.borrow();
                            scenarios::spec_of(&s, &l.free)
                        };
                        let Some(spec) = spec else {
                            return;
                        };
                        playing.set(false);
                        ctx.build(scenarios::building(&spec), Then::Scenario(s));
                    }
                    BusMsg::Open(spec) => {
                        playing.set(false);
                        ctx.build(scenarios::building(&spec), Then::Open(spec.knobs.clone()));
                    }
                    BusMsg::Knobs(k) => {
                        playing.set(false);
                        let spec = ScenarioSpec::new(k.clone(), 0);
                        // The form shows what was asked for while it builds (and after Stop).
                        ctx.set_free(k.clone());
                        ctx.build(scenarios::building(&spec), Then::Knobs(k));
                    }
                    BusMsg::StopBuilding => ctx.stop_building(),
                }
            })
        })
    };
    let on_msg: Callback<BusMsg> = (*on_msg).clone();

    let r = run.borrow();
    let n_nodes = r.cursor().nodes.len() as u32;
    let obs = (*observer).min(n_nodes.saturating_sub(1));
    let step = r.step_at(*t);
    let log_upto = r
        .full()
        .logs
        .get(r.log0..)
        .map_or(0, |l| l.partition_point(|x| x.t <= *t));
    // While playing, the inspector (`CLUSTER NODES` and `CLUSTER INFO`, up to 1000 lines)
    // follows the clock in strides of about 50 ms of wall time (500 above 30 nodes): at 20×
    // it re-rendered and laid out its texts every frame, faster than anyone reads them.
    // Standing still, it answers at the instant itself.
    let t_view = if *playing {
        let rate = SPEEDS.get(*speed).copied().unwrap_or(1.0).max(1.0);
        let wall = if n_nodes > 30 { 500.0 } else { 50.0 };
        let stride = ((wall * rate) as u64).max(1);
        *t / stride * stride
    } else {
        *t
    };
    // The parts that change only with an event get the instant as far as it matters to them
    // (the narration its notable event, the story its last moment), so their props compare
    // equal between events and yew skips them.
    let notable = r.last_notable(*t);
    let t_story = story::snap(&r, *t);
    let start = r.start;
    drop(r);
    let trouble_text = (*trouble).as_ref().map(|tr| match tr {
        LinkTrouble::Unknown(s) => fill(w.link_unknown, &[s]),
        LinkTrouble::PastEnd => w.link_past_end.to_string(),
        LinkTrouble::BadSpec => w.link_bad_spec.to_string(),
    });
    html! {
        <section id="bus" class="card bus" tabindex="-1" aria-labelledby="bus-title" {lang}>
            <h2 id="bus-title" class="section-title">{ w.title }</h2>
            <p class="section-help">{ w.help }</p>
            if let Some(text) = trouble_text {
                <p class="lab__error" role="alert" data-testid="bus-link-error">{ text }</p>
            }
            <knobs::BusKnobs slug={(*slug).clone()} free={(*free).clone()} on_msg={on_msg.clone()} />
            if let Some(p) = *progress {
                <p class="bus__building" role="status" data-testid="bus-building" data-replay={p.going_to.is_some().to_string()}
                   data-done={p.done.to_string()} data-total={p.total.to_string()}>
                    <span>{ match p.going_to {
                        None => fill(w.building, &[&p.nodes, &seconds(p.done), &seconds(p.total)]),
                        Some(to) => fill(w.replaying, &[&seconds(to.saturating_sub(start)), &p.nodes,
                                                        &seconds(p.done), &seconds(p.total)]),
                    } }</span>
                    <progress max={p.total.to_string()} value={p.done.to_string()} aria-hidden="true"></progress>
                    <button type="button" class="button button--quiet" data-testid="bus-building-stop"
                            onclick={on_msg.reform(|_| BusMsg::StopBuilding)}>{ w.building_stop }</button>
                </p>
            }
            <player::BusPlayer run={handle.clone()} t={*t} step={step} playing={*playing}
                               speed={*speed} pace={*pace} notable={notable} on_msg={on_msg.clone()} />
            <story::BusStory run={handle.clone()} t={t_story} />
            <div class="bus__body">
                <circle::BusCircle run={handle.clone()} t={*t} speed={*speed} observer={obs}
                                   on_msg={on_msg.clone()} />
                <matrix::BusMatrix run={handle.clone()} step={step} t={*t} observer={obs} />
            </div>
            <div class="bus__grid">
                <inspector::BusInspector run={handle.clone()} t={t_view} observer={obs}
                                         on_msg={on_msg.clone()} on_action={props.on_action.clone()} />
                <log_pane::BusLogs run={handle.clone()} upto={log_upto} />
            </div>
            <numbers::BusNumbers on_msg={on_msg.clone()} />
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_big_cluster_gives_the_simulator_most_of_each_frame() {
        // Up to 100 nodes: the fixed share that keeps 60 fps, at any frame interval.
        for dt in [0.0, 16.7, 33.3, 100.0] {
            assert_eq!(sim_share_ms(6, dt), SIM_SHARE_MS);
            assert_eq!(sim_share_ms(BIG_SHARE_FROM, dt), SIM_SHARE_MS);
        }
        // Above: most of the interval, so more at 30 fps than at 60, within bounds.
        let at60 = sim_share_ms(1000, 1000.0 / 60.0);
        assert!(at60 > 12.0 && at60 < 1000.0 / 60.0, "{at60}");
        assert!(sim_share_ms(1000, 1000.0 / 30.0) > at60);
        assert_eq!(sim_share_ms(1000, 0.0), SIM_SHARE_MS);
        assert_eq!(sim_share_ms(1000, 1000.0), MAX_SHARE_MS);
        assert_eq!(sim_share_ms(101, 20.0), 16.0);
    }

    #[test]
    fn a_big_cluster_looks_at_the_clock_more_often() {
        assert_eq!(play_steps(6), PLAY_STEPS);
        assert_eq!(play_steps(100), PLAY_STEPS);
        assert_eq!(play_steps(1000), PLAY_STEPS / 10);
        assert!(play_steps(100_000) >= 20);
    }
}
