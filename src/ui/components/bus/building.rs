//! A run built a slice at a time (no yew): the simulator's creation and warm-up (the cursor
//! is a copy of it) and the first recording, cut into pieces the section does between
//! frames, so that a big cluster never holds the page. 1000 nodes at a 2000 ms node timeout
//! ping every peer each second, and building them took minutes in one task; the section now
//! shows how far it is and can drop it.
//!
//! The pieces are the same calls as [`Run::new`] and [`Run::act`] make in one piece, in the
//! same order (the nodes through `Creating`, the warm-up through `Sim::run_until_steps`, the
//! recording through `Run::extend_bounded`), so the run is the one they make (tested below).

use super::model::{cold, creating, Run, MAX_RUN_MS};
use crate::core::bus::scenario::{Action, ScenarioSpec, WARMUP_MS};
use crate::core::bus::{Creating, Sim};

/// Events run between two looks at the clock during the warm-up.
pub(super) const STEPS: usize = 256;
/// Nodes created between two looks at the clock (1000 nodes: about 0.4 ms each natively).
const NODES: usize = 4;

/// Where a build is.
enum Stage {
    /// The recording simulator's nodes are created.
    CreateFull(Box<Creating>),
    /// The recording simulator warms up to `until`.
    Full { sim: Sim, until: u64 },
    /// Recording to `to` (absolute).
    Record { run: Run, to: u64 },
    /// Built.
    Done(Run),
    /// Taken (only while moving from one stage to the next).
    Gone,
}

/// A run being built.
pub struct Building {
    spec: ScenarioSpec,
    /// Record this many ms past the start (a new run), or to an absolute end (an action).
    length: u64,
    /// An action's run: recorded to this absolute end, then shown at this instant.
    reach: Option<(u64, u64)>,
    stage: Stage,
    /// Nodes of the cluster.
    nodes: usize,
}

impl Building {
    /// A new run of `spec`, recorded `length` ms past its start ([`Run::new`]).
    pub fn new(spec: &ScenarioSpec, length: u64) -> Building {
        let c = creating(&spec.knobs);
        Building {
            spec: spec.clone(),
            length: length.min(MAX_RUN_MS),
            reach: None,
            nodes: c.nodes(),
            stage: Stage::CreateFull(Box::new(c)),
        }
    }

    /// `run` with `act` done at its instant shown ([`Run::act`]): the script's later actions
    /// dropped, recorded again to `length` ms past the instant (or as far as it was).
    pub fn acting(run: &Run, act: Action, length: u64) -> Building {
        let (spec, end, t) = run.acted(act, length);
        let mut b = Building::new(&spec, 0);
        b.reach = Some((end, t));
        b
    }

    /// Nodes of the cluster being built.
    pub fn nodes(&self) -> usize {
        self.nodes
    }

    /// Simulated ms done and to do in all: the warm-up, then the recording.
    pub fn progress(&self) -> (u64, u64) {
        let record = match &self.stage {
            Stage::Record { run, to } => to.saturating_sub(run.start),
            _ => match self.reach {
                // The run starts where the warm-up ends, WARMUP_MS after the cold clock.
                Some((end, _)) => end.saturating_sub(self.start_guess()),
                None => self.length,
            },
        };
        let total = WARMUP_MS + record;
        let left = |sim: &Sim, until: u64| until.saturating_sub(sim.now).min(WARMUP_MS);
        let done = match &self.stage {
            Stage::CreateFull(_) => 0,
            Stage::Full { sim, until } => WARMUP_MS - left(sim, *until),
            Stage::Record { run, to } => {
                WARMUP_MS + record - to.saturating_sub(run.end).min(record)
            }
            Stage::Done(_) | Stage::Gone => total,
        };
        (done, total)
    }

    /// Where the run will start (the warm-up's end), before it has.
    fn start_guess(&self) -> u64 {
        match &self.stage {
            // Creating does not move the clock, and the warm-up starts from where it stands.
            Stage::CreateFull(c) => c.now().saturating_add(WARMUP_MS),
            Stage::Full { until, .. } => *until,
            Stage::Record { run, .. } | Stage::Done(run) => run.start,
            Stage::Gone => 0,
        }
    }

    /// Builds until done or until `now()` (wall ms) is `budget` ms past its first reading:
    /// `true` once the run is built. With an infinite budget, in one piece.
    pub fn work(&mut self, now: &dyn Fn() -> f64, budget: f64) -> bool {
        let began = now();
        let out_of_time = || now() - began >= budget;
        loop {
            self.stage = match std::mem::replace(&mut self.stage, Stage::Gone) {
                Stage::CreateFull(mut c) => {
                    if !create(&mut c, &out_of_time) {
                        self.stage = Stage::CreateFull(c);
                        return false;
                    }
                    let sim = cold(*c);
                    let until = sim.now.saturating_add(WARMUP_MS);
                    Stage::Full { sim, until }
                }
                Stage::Full { mut sim, until } => {
                    if !warm(&mut sim, until, &out_of_time) {
                        self.stage = Stage::Full { sim, until };
                        return false;
                    }
                    let run = Run::from_sim(&self.spec, sim);
                    let to = match self.reach {
                        // `Run::act` makes a run of length 0 (told at once, which tells
                        // nothing), then records to the end.
                        Some((end, _)) => end.min(run.start.saturating_add(MAX_RUN_MS)),
                        None => run.start.saturating_add(self.length),
                    };
                    Stage::Record { run, to }
                }
                Stage::Record { mut run, to } => {
                    // In pieces of events, as the player records (a burst of pings costs
                    // far more per simulated ms than the average).
                    while !run.extend_bounded(to, STEPS) {
                        if out_of_time() {
                            self.stage = Stage::Record { run, to };
                            return false;
                        }
                    }
                    run.tell();
                    if let Some((_, at)) = self.reach {
                        run.seek(at);
                    }
                    Stage::Done(run)
                }
                done @ Stage::Done(_) => {
                    self.stage = done;
                    return true;
                }
                Stage::Gone => return true,
            };
        }
    }

    /// The run, once [`Building::work`] has said it is built.
    pub fn take(self) -> Option<Run> {
        match self.stage {
            Stage::Done(run) => Some(run),
            _ => None,
        }
    }
}

/// Creates `c`'s nodes until `out_of_time`: `true` once all are there.
pub(super) fn create(c: &mut Creating, out_of_time: &dyn Fn() -> bool) -> bool {
    loop {
        if c.step(NODES) {
            return true;
        }
        if out_of_time() {
            return false;
        }
    }
}

/// Runs `sim`'s warm-up towards `until` until `out_of_time`: `true` once there.
pub(super) fn warm(sim: &mut Sim, until: u64, out_of_time: &dyn Fn() -> bool) -> bool {
    loop {
        if sim.run_until_steps(until, STEPS) {
            return true;
        }
        if out_of_time() {
            return false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::bus::scenario::{Knobs, ScenarioId};
    use std::cell::Cell;

    /// Builds with a clock that moves 1 ms at each reading and a 1 ms budget: a piece ends at
    /// its first look at the clock, so many pieces.
    fn in_pieces(mut b: Building) -> (Run, usize) {
        let clock = Cell::new(0.0);
        let now = || {
            clock.set(clock.get() + 1.0);
            clock.get()
        };
        let mut pieces = 1;
        let mut last = b.progress();
        while !b.work(&now, 1.0) {
            let p = b.progress();
            assert!(p.0 >= last.0 && p.0 <= p.1, "progress {p:?} after {last:?}");
            last = p;
            pieces += 1;
        }
        assert_eq!(b.progress().0, b.progress().1);
        (b.take().expect("built"), pieces)
    }

    /// The same run: its clock, records, notable events, story, and the cluster as every
    /// node answers at several instants (the cursor replays the same calls).
    fn same(mut a: Run, mut b: Run) {
        assert_eq!((a.start, a.end, a.at), (b.start, b.end, b.at));
        assert_eq!(a.full().events.len(), b.full().events.len());
        assert_eq!(a.full().logs.len(), b.full().logs.len());
        assert!(a
            .full()
            .logs
            .iter()
            .zip(&b.full().logs)
            .all(|(x, y)| x.t == y.t && x.text == y.text));
        assert_eq!(a.notable, b.notable);
        assert_eq!(a.story.is_some(), b.story.is_some());
        if let (Some(x), Some(y)) = (&a.story, &b.story) {
            assert_eq!(x.notes.len(), y.notes.len());
            assert_eq!(x.until, y.until);
        }
        let n = a.cursor().nodes.len() as u32;
        assert_eq!(a.cursor().cluster_nodes(0), b.cursor().cluster_nodes(0));
        let span = a.end - a.start;
        for k in [0, 3, 7, 10] {
            let t = a.start + span * k / 10;
            a.seek(t);
            b.seek(t);
            for node in [0, n / 2, n - 1] {
                assert_eq!(
                    a.cursor().cluster_nodes(node),
                    b.cursor().cluster_nodes(node),
                    "t {t}"
                );
            }
        }
    }

    #[test]
    fn a_run_built_in_pieces_is_the_run_built_at_once() {
        for spec in [
            ScenarioId::MasterCrash.spec(1),
            ScenarioId::Partition.spec(3),
        ] {
            let (built, pieces) = in_pieces(Building::new(&spec, spec.until_ms));
            assert!(pieces > 5, "{pieces} pieces");
            same(Run::new(&spec, spec.until_ms), built);
        }
        // A cluster past the size where messages are recorded.
        let spec = ScenarioSpec::new(Knobs::uniform(20, 1, 2000, 7), 0);
        let (built, _) = in_pieces(Building::new(&spec, 3000));
        same(Run::new(&spec, 3000), built);
    }

    #[test]
    fn recording_in_bounded_pieces_is_recording_at_once() {
        // The player's pieces (Run::extend_bounded): a few events at a time, each stop at a
        // whole millisecond, through the script's actions.
        for spec in [
            ScenarioId::MasterCrash.spec(1),
            ScenarioId::ManualForce.spec(2),
        ] {
            let end = spec.until_ms;
            let mut at_once = Run::new(&spec, 0);
            let to = at_once.start + end;
            at_once.extend_to(to);
            let mut pieces = Run::new(&spec, 0);
            let mut n = 0;
            while !pieces.extend_bounded(to, 7) {
                n += 1;
                assert!(pieces.end <= to);
            }
            assert!(n > 100, "{n} pieces");
            assert_eq!(pieces.replies, at_once.replies);
            at_once.tell();
            pieces.tell();
            same(at_once, pieces);
        }
    }

    #[test]
    fn an_action_built_in_pieces_is_the_action_done_at_once() {
        let spec = ScenarioId::MasterCrash.spec(1);
        let mut run = Run::new(&spec, spec.until_ms);
        run.seek(run.start + 4000);
        let act = Action::Crash(3);
        let (built, pieces) = in_pieces(Building::acting(&run, act, 6000));
        assert!(pieces > 10, "{pieces} pieces");
        run.act(act, 6000);
        same(run, built);
    }
}
