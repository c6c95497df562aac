//! The bus view's model (no yew): a run of the simulator — knobs, seed and a script of actions
//! at instants — recorded to a horizon that grows while it plays, and a second simulator (the
//! cursor) standing at the instant shown, which answers `CLUSTER NODES`, flags and epochs.
//!
//! Both simulators replay the same calls in the same order, so the cursor at instant `t` is
//! exactly the recorded run at `t` (the simulator is deterministic per seed and calls).

use crate::core::bus::scenario::{
    Action, Knobs, LostWrite, MeetSpread, Note, Outcome, ScenarioSpec, StepKind, Timeline,
    WriteRecord, WARMUP_MS,
};
use crate::core::bus::{
    flag, Creating, EventKind, FailoverMode, LogLine, MsgType, Opinion, Process, Sim,
};

/// The most nodes the knobs allow (Redis's recommended ceiling).
pub const MAX_NODES: usize = crate::core::bus::MAX_NODES;
/// Up to this many nodes every message is recorded and drawn.
pub const DRAW_MESSAGES_UP_TO: usize = 30;
/// The longest run kept, in simulated ms from the start of the timeline.
pub const MAX_RUN_MS: u64 = 600_000;

/// Free play's knobs as the settings form shows them: `masters` masters with `replicas` each.
pub fn uniform(
    masters: u64,
    replicas: u64,
    node_timeout: u64,
    seed: u64,
    full_coverage: bool,
    replica_migration: bool,
) -> Knobs {
    let masters = masters.clamp(1, MAX_NODES as u64) as u16;
    let room = (MAX_NODES as u64 / u64::from(masters)).saturating_sub(1);
    let replicas = replicas.min(room) as u16;
    let node_timeout = node_timeout.clamp(100, 120_000) as u32;
    Knobs {
        require_full_coverage: full_coverage,
        allow_replica_migration: replica_migration,
        ..Knobs::uniform(masters, replicas, node_timeout, seed)
    }
}

/// The replicas per master a knobs' layout has (rounded down), for the settings form.
pub fn replicas_per_master(k: &Knobs) -> usize {
    k.replica_of.len() / usize::from(k.masters.max(1))
}

/// The knobs' cluster as `Knobs::create` builds it (the same calls), except that messages
/// are recorded only on a small cluster (a 1000-node warm-up would record millions).
fn create(k: &Knobs) -> Sim {
    let mut sim = create_cold(k);
    sim.run_for(WARMUP_MS);
    sim
}

/// [`create`] before its warm-up: the same cluster, its clock at the start of the
/// `WARMUP_MS` that [`create`] runs (`building.rs` runs them a slice at a time).
fn create_cold(k: &Knobs) -> Sim {
    let mut c = creating(k);
    while !c.step(usize::MAX) {}
    cold(c)
}

/// [`create_cold`] a few nodes at a time (`Sim::create`'s own steps): done by [`cold`].
pub(super) fn creating(k: &Knobs) -> Creating {
    let mut cfg = k.config();
    cfg.record_messages = k.nodes() <= DRAW_MESSAGES_UP_TO;
    let masters = usize::from(k.masters.clamp(1, MAX_NODES as u16));
    let replica_of: Vec<usize> = k.replica_of.iter().map(|x| usize::from(*x)).collect();
    Creating::new(cfg, k.seed, masters, &replica_of, k.base_port)
}

/// The cluster [`creating`] made, as `Sim::create` leaves it with no warm-up (its clock run
/// for 0 ms, as `Sim::create` does).
pub(super) fn cold(c: Creating) -> Sim {
    let mut sim = c.into_sim();
    sim.run_for(0);
    sim
}

/// A copy of `sim` that goes on as it would, without its records (events and logs) and
/// recording no messages: what a cursor needs.
fn quiet_clone(sim: &mut Sim) -> Sim {
    let events = std::mem::take(&mut sim.events);
    let logs = std::mem::take(&mut sim.logs);
    let mut copy = sim.clone();
    sim.events = events;
    sim.logs = logs;
    copy.cfg.record_messages = false;
    copy
}

/// Simulated ms between two of the recording's copies kept for seeking back, at first (the
/// gap doubles each time the copies reach [`MARKS_MAX`]).
const MARK_EVERY_MS: u64 = 1000;
/// The most copies kept.
const MARKS_MAX: usize = 32;
/// The memory all copies may take, estimated at [`PAIR_BYTES`] per node per peer it knows.
const MARKS_BUDGET: usize = 48 << 20;
/// A generous estimate of one node's record of one peer, in bytes.
const PAIR_BYTES: usize = 160;

/// How many copies of a cluster of `nodes` fit [`MARKS_BUDGET`] (none for a 1000-node one).
fn marks_for(nodes: usize) -> usize {
    (MARKS_BUDGET / (nodes * nodes * PAIR_BYTES).max(1)).min(MARKS_MAX)
}

/// A `CLUSTER FAILOVER` and what the node answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// When (absolute simulated ms).
    pub t: u64,
    /// The node asked.
    pub node: u32,
    /// The mode.
    pub mode: FailoverMode,
    /// `Ok` is `+OK`.
    pub result: Result<(), crate::core::bus::FailoverRefusal>,
}

/// Keeps what a `CLUSTER FAILOVER` done at `at` answered (other actions answer nothing here).
fn note_reply(replies: Option<&mut Vec<Reply>>, at: u64, a: Action, outcome: Outcome) {
    if let (Some(r), Action::Failover(node, mode), Outcome::Failover(result)) =
        (replies, a, outcome)
    {
        r.push(Reply {
            t: at,
            node,
            mode,
            result,
        });
    }
}

/// One simulator, how far through the script it is, and its partition sides.
#[derive(Clone)]
struct Player {
    sim: Sim,
    next: usize,
    sides: Vec<u32>,
}

impl Player {
    fn new(sim: Sim) -> Player {
        let sides = vec![0; sim.nodes.len()];
        Player {
            sim,
            next: 0,
            sides,
        }
    }

    /// An action, as `core::bus::scenario`'s timeline applies it (the same calls in the same
    /// order, so a run here and its `Timeline` agree).
    fn apply(&mut self, a: Action) -> Outcome {
        crate::core::bus::scenario::apply_action(&mut self.sim, &mut self.sides, a)
    }

    /// Runs to absolute time `t`, applying the script's actions (ms after `start`) on the way.
    fn advance(
        &mut self,
        start: u64,
        script: &[(u64, Action)],
        t: u64,
        mut replies: Option<&mut Vec<Reply>>,
    ) {
        while let Some((at, a)) = script.get(self.next) {
            let at = start.saturating_add(*at);
            if at > t {
                break;
            }
            self.sim.run_until(at);
            let outcome = self.apply(*a);
            note_reply(replies.as_deref_mut(), at, *a, outcome);
            self.next += 1;
        }
        self.sim.run_until(t);
    }

    /// [`Player::advance`] to `t`, but stopping after about `work` steps
    /// ([`Sim::run_until_work`]: events and the messages they send), possibly between two
    /// events of the same millisecond: the time it is complete to (`t` once there; while it
    /// stands inside a millisecond, the one before). The same calls in the same order as
    /// `advance`, cut where a page must give the frame back.
    fn advance_bounded(
        &mut self,
        start: u64,
        script: &[(u64, Action)],
        t: u64,
        mut replies: Option<&mut Vec<Reply>>,
        work: usize,
    ) -> u64 {
        loop {
            let action = script
                .get(self.next)
                .map(|(at, a)| (start.saturating_add(*at), *a))
                .filter(|(at, _)| *at <= t);
            let target = action.map_or(t, |(at, _)| at);
            if !self.sim.run_until_work(target, work as u64) {
                // Events of its millisecond may be left: complete to the one before.
                return self.sim.now.saturating_sub(1);
            }
            let Some((at, a)) = action else {
                return t;
            };
            let outcome = self.apply(a);
            note_reply(replies.as_deref_mut(), at, a, outcome);
            self.next += 1;
        }
    }
}

/// Seeking back where no copy of the recording is kept (a big cluster): the cursor replayed
/// from the cluster's creation a slice at a time, so that the page keeps answering and says
/// how far it is ([`Run::seek`] does the same calls in one piece: `create`'s nodes and
/// warm-up, then `Player::advance`).
pub struct Replay {
    stage: ReplayStage,
    start: u64,
    script: Vec<(u64, Action)>,
    /// The instant it goes to (absolute).
    pub t: u64,
    nodes: usize,
}

enum ReplayStage {
    /// The nodes are created.
    Create(Box<Creating>),
    /// The warm-up runs to `until`.
    Warm { sim: Sim, until: u64 },
    /// The timeline runs to [`Replay::t`].
    Advance(Player),
    /// Taken (only while moving from one stage to the next).
    Gone,
}

impl Replay {
    /// Nodes of the cluster.
    pub fn nodes(&self) -> usize {
        self.nodes
    }

    /// Replays until at [`Replay::t`] or until `now()` (wall ms) is `budget` ms past its first
    /// reading: `true` once there.
    pub fn work(&mut self, now: &dyn Fn() -> f64, budget: f64) -> bool {
        let began = now();
        let out_of_time = || now() - began >= budget;
        loop {
            self.stage = match std::mem::replace(&mut self.stage, ReplayStage::Gone) {
                ReplayStage::Create(mut c) => {
                    if !super::building::create(&mut c, &out_of_time) {
                        self.stage = ReplayStage::Create(c);
                        return false;
                    }
                    let sim = cold(*c);
                    let until = sim.now.saturating_add(WARMUP_MS);
                    ReplayStage::Warm { sim, until }
                }
                ReplayStage::Warm { mut sim, until } => {
                    if !super::building::warm(&mut sim, until, &out_of_time) {
                        self.stage = ReplayStage::Warm { sim, until };
                        return false;
                    }
                    sim.cfg.record_messages = false;
                    ReplayStage::Advance(Player::new(sim))
                }
                ReplayStage::Advance(mut p) => {
                    let done = loop {
                        let at = p.advance_bounded(
                            self.start,
                            &self.script,
                            self.t,
                            None,
                            super::building::STEPS,
                        );
                        if at >= self.t {
                            break true;
                        }
                        if out_of_time() {
                            break false;
                        }
                    };
                    p.sim.events.clear();
                    p.sim.logs.clear();
                    self.stage = ReplayStage::Advance(p);
                    return done;
                }
                ReplayStage::Gone => return true,
            };
        }
    }

    /// Goes to `t` instead, if it has not passed it: `true` if so.
    pub fn retarget(&mut self, t: u64) -> bool {
        let ok = match &self.stage {
            ReplayStage::Advance(p) => p.sim.now <= t,
            _ => true,
        };
        if ok && t >= self.start {
            self.t = t;
        }
        ok && t >= self.start
    }

    /// Simulated ms done and to do: the warm-up, then the timeline up to the instant.
    pub fn progress(&self) -> (u64, u64) {
        let ahead = self.t.saturating_sub(self.start);
        let total = WARMUP_MS + ahead;
        let done = match &self.stage {
            ReplayStage::Create(_) | ReplayStage::Gone => 0,
            ReplayStage::Warm { sim, until } => {
                WARMUP_MS - until.saturating_sub(sim.now).min(WARMUP_MS)
            }
            ReplayStage::Advance(p) => WARMUP_MS + p.sim.now.saturating_sub(self.start).min(ahead),
        };
        (done, total)
    }
}

/// A run: the recorded future and the instant shown.
pub struct Run {
    /// The knobs it was created with.
    pub knobs: Knobs,
    /// The actions (ms after the start), in time order.
    pub script: Vec<(u64, Action)>,
    /// Absolute simulated time of the timeline's start.
    pub start: u64,
    /// Recorded up to this absolute time.
    pub end: u64,
    full: Player,
    cursor: Player,
    /// Copies of the recording at instants (in time order, the first at the start), so that
    /// seeking back replays from the nearest instead of from the cluster's creation.
    marks: Vec<Player>,
    /// Simulated ms between two marks now.
    mark_every: u64,
    /// The first event of the timeline (events before it are the warm-up's).
    pub ev0: usize,
    /// The first log line of the timeline.
    pub log0: usize,
    /// Every `CLUSTER FAILOVER` answered.
    pub replies: Vec<Reply>,
    /// Indexes (into the recorded events) of the events the narration words.
    pub notable: Vec<usize>,
    /// The instant shown (absolute).
    pub at: u64,
    /// The instant shown is the end of the recording: the recorded simulator stands there, so
    /// it answers for the cursor (playing at the live edge simulates once, not twice).
    live: bool,
    /// The recording stopped inside the millisecond after [`Run::end`] (a piece of a burst):
    /// the recorded simulator stands there, some of that millisecond's events done.
    inside: bool,
    /// What the core's timeline of the first recording says (up to 30 nodes).
    pub story: Option<Story>,
}

/// What `core::bus::scenario::Timeline` says about a run's first recording (branch
/// `numbers`): the numbers behind each notable event, the writes and which were lost, the
/// spread of a MEET. The timeline replays the same knobs and script, so its i-th bus event is
/// the run's i-th event.
pub struct Story {
    /// The notes covers events up to this absolute time.
    pub until: u64,
    /// (index into [`Run::events`], the note with its numbers), by index.
    pub notes: Vec<(usize, u64, Note)>,
    /// The script's writes (times from the start).
    pub writes: Vec<WriteRecord>,
    /// The acknowledged writes that were lost.
    pub lost: Vec<LostWrite>,
    /// The first new node's spread.
    pub meet: Option<MeetSpread>,
    /// Redis's text of the log lines the notes point at, by the timeline's log index.
    pub log_text: Vec<(usize, String)>,
}

impl Story {
    /// Plays `spec` to `horizon` ms with the core's timeline and keeps what the view words.
    pub fn tell(
        spec: &ScenarioSpec,
        start: u64,
        horizon: u64,
        events: &[crate::core::bus::BusEvent],
    ) -> Story {
        let mut spec = spec.clone();
        spec.until_ms = horizon;
        let tl = Timeline::build(spec);
        let mut ordinal = Vec::with_capacity(tl.steps.len());
        let mut k = 0usize;
        for s in &tl.steps {
            ordinal.push(k);
            if matches!(s.kind, StepKind::Bus(_)) {
                k += 1;
            }
        }
        let mut notes = Vec::new();
        let mut log_text = Vec::new();
        for n in &tl.notable {
            let Some(step) = tl.steps.get(n.step) else {
                continue;
            };
            let StepKind::Bus(kind) = &step.kind else {
                continue;
            };
            let Some(&i) = ordinal.get(n.step) else {
                continue;
            };
            // Defensive: the run and the timeline must agree on the event.
            if events.get(i).map(|e| &e.kind) != Some(kind) {
                continue;
            }
            let cleared = if let Note::Cleared { log: Some(l), .. } = n.note {
                Some(l)
            } else {
                None
            };
            if let Some((l, line)) = cleared.and_then(|l| tl.logs().get(l).map(|x| (l, x))) {
                log_text.push((l, line.text.clone()));
            }
            notes.push((i, n.t, n.note.clone()));
        }
        notes.sort_by_key(|n| n.0);
        Story {
            until: start.saturating_add(tl.until_ms),
            notes,
            writes: tl.writes.clone(),
            lost: tl.lost.clone(),
            meet: tl.meet.clone(),
            log_text,
        }
    }

    /// The note of event `i` (an index into [`Run::events`]), FAIL broadcasts aside.
    pub fn note(&self, i: usize) -> Option<&Note> {
        let k = self.notes.partition_point(|n| n.0 < i);
        self.notes[k..]
            .iter()
            .take_while(|n| n.0 == i)
            .map(|n| &n.2)
            .find(|n| !matches!(n, Note::FailBroadcast { .. }))
    }

    /// How many FAIL messages `from` broadcast at `t` (ms from the start), if it did.
    pub fn fail_broadcast(&self, from_node: u32, t: u64) -> Option<u32> {
        self.notes.iter().find_map(|n| match n.2 {
            Note::FailBroadcast {
                from, receivers, ..
            } if from == from_node && n.1 == t => Some(receivers),
            _ => None,
        })
    }

    /// Redis's text of the timeline's log line `l`.
    pub fn log(&self, l: usize) -> Option<&str> {
        self.log_text
            .iter()
            .find(|x| x.0 == l)
            .map(|x| x.1.as_str())
    }
}

/// Nodes up to which a run's story (notes, writes, MEET) is told.
pub const STORY_UP_TO: usize = DRAW_MESSAGES_UP_TO;

/// Whether an event is worth narrating and jumping to.
pub fn is_notable(kind: &EventKind) -> bool {
    match kind {
        EventKind::Sent { .. } | EventKind::Delivered { .. } | EventKind::LinkFreed { .. } => false,
        EventKind::Opinion { .. }
        | EventKind::State { .. }
        | EventKind::Role { .. }
        | EventKind::Process { .. }
        | EventKind::ElectionScheduled { .. }
        | EventKind::ElectionStarted { .. }
        | EventKind::Vote { .. }
        | EventKind::Partition { .. } => true,
    }
}

/// The refusal a vote request's delivery (event `i` of `sim`) led to: the voter's warning
/// `Failover auth denied to <candidate>: <why>` logged as it read the request
/// (`clusterSendFailoverAuthIfNeeded` refuses with a log line only, no message).
fn refusal(sim: &Sim, i: usize) -> Option<&LogLine> {
    let ev = sim.events.get(i)?;
    let EventKind::Delivered {
        msg: MsgType::FailoverAuthRequest,
        from,
        to,
    } = ev.kind
    else {
        return None;
    };
    let candidate = &sim.nodes.get(from as usize)?.name;
    let head = format!("Failover auth denied to {candidate}:");
    let first = sim.logs.partition_point(|l| l.t < ev.t);
    sim.logs[first..]
        .iter()
        .take_while(|l| l.t == ev.t)
        .find(|l| l.node == to && l.level == '#' && l.text.starts_with(&head))
}

impl Run {
    /// A run of `spec`, recorded `length` ms past its start (it grows while it plays).
    pub fn new(spec: &ScenarioSpec, length: u64) -> Run {
        let mut run = Run::from_sim(spec, create(&spec.knobs));
        run.extend_to(run.start.saturating_add(length.min(MAX_RUN_MS)));
        run.tell();
        run
    }

    /// A run of `spec` at its start, from the simulator [`create`] made of its knobs (the
    /// recording; the cursor is a [`quiet_clone`] of it), nothing recorded yet.
    pub(super) fn from_sim(spec: &ScenarioSpec, mut full: Sim) -> Run {
        let knobs = spec.knobs.clone();
        let mut script = spec.script.clone();
        script.sort_by_key(|s| s.0);
        let cursor = quiet_clone(&mut full);
        let start = full.now;
        let (ev0, log0) = (full.events.len(), full.logs.len());
        let mut run = Run {
            knobs,
            script,
            start,
            end: start,
            full: Player::new(full),
            cursor: Player::new(cursor),
            marks: Vec::new(),
            mark_every: MARK_EVERY_MS,
            ev0,
            log0,
            replies: Vec::new(),
            notable: Vec::new(),
            at: start,
            live: false,
            inside: false,
            story: None,
        };
        run.mark();
        run
    }

    /// Keeps a copy of the recording where it stands, if the last is `mark_every` ago and
    /// the cluster is small enough for copies; when they are too many, every other one goes
    /// (the first stays) and the gap doubles.
    fn mark(&mut self) {
        let keep = marks_for(self.full.sim.nodes.len());
        let due = self
            .marks
            .last()
            .is_none_or(|m| self.full.sim.now >= m.sim.now.saturating_add(self.mark_every));
        if keep == 0 || !due {
            return;
        }
        if self.marks.len() >= keep {
            let mut i = 0;
            self.marks.retain(|_| {
                i += 1;
                i % 2 == 1
            });
            self.mark_every = self.mark_every.saturating_mul(2);
        }
        let copy = Player {
            sim: quiet_clone(&mut self.full.sim),
            next: self.full.next,
            sides: self.full.sides.clone(),
        };
        self.marks.push(copy);
    }

    /// Tells the story of what is recorded so far (small clusters only).
    pub(super) fn tell(&mut self) {
        self.story = (self.knobs.nodes() <= STORY_UP_TO && self.end > self.start).then(|| {
            let horizon = self.end - self.start;
            Story::tell(&self.spec(), self.start, horizon, self.events())
        });
    }

    /// The spec this run plays (its knobs and script; the horizon as recorded).
    pub fn spec(&self) -> ScenarioSpec {
        ScenarioSpec {
            knobs: self.knobs.clone(),
            script: self.script.clone(),
            until_ms: self.end.saturating_sub(self.start),
        }
    }

    /// Records up to absolute time `t` (never past [`MAX_RUN_MS`]).
    pub fn extend_to(&mut self, t: u64) {
        let t = t.min(self.start.saturating_add(MAX_RUN_MS));
        if t <= self.end {
            return;
        }
        let from = self.full.sim.events.len();
        // In steps of the marks' gap, so copies stand along the way (at least one step: a
        // millisecond recorded in part is finished by the step to it, `settle`).
        loop {
            let step = t.min(self.full.sim.now.saturating_add(self.mark_every));
            self.full
                .advance(self.start, &self.script, step, Some(&mut self.replies));
            self.mark();
            if self.full.sim.now >= t {
                break;
            }
        }
        self.note_from(from);
        self.end = t;
        self.inside = false;
    }

    /// [`Run::extend_to`] `t`, but stopping after about `work` steps (events and the
    /// messages they send), even inside a millisecond (a burst — every node pinging all the
    /// others at NT/2 in a 1000-node cluster — is thousands of events in the same few
    /// milliseconds): `true` once recorded to `t`. Stopped inside a millisecond, it is
    /// recorded to the one before, and the next call goes on from the event it stopped at.
    pub fn extend_bounded(&mut self, t: u64, work: usize) -> bool {
        let t = t.min(self.start.saturating_add(MAX_RUN_MS));
        if t <= self.end {
            return true;
        }
        let from = self.full.sim.events.len();
        let done =
            self.full
                .advance_bounded(self.start, &self.script, t, Some(&mut self.replies), work);
        self.note_from(from);
        self.end = self.end.max(done);
        self.inside = done < t;
        // Copies are taken at whole milliseconds only.
        if !self.inside {
            self.mark();
        }
        done >= t
    }

    /// If the recording stopped inside a millisecond, records the rest of it; the clock, if
    /// it stood at the end, moves to that millisecond: its new instant (`None` if nothing
    /// moved). Playing stops with this, so a paused view never reads a millisecond in part.
    pub fn settle(&mut self) -> Option<u64> {
        if !self.inside {
            return None;
        }
        let t = self.full.sim.now;
        let shown_at_end = self.at >= self.end;
        self.extend_to(t);
        if !shown_at_end {
            return None;
        }
        self.seek(t);
        Some(t)
    }

    /// Notes the notable events recorded from index `from` on.
    fn note_from(&mut self, from: usize) {
        let sim = &self.full.sim;
        self.notable.extend(
            (from..sim.events.len())
                .filter(|i| is_notable(&sim.events[*i].kind) || refusal(sim, *i).is_some()),
        );
    }

    /// The vote refusal recorded event `i` (into [`Run::events`]) led to, if it did.
    pub fn refusal(&self, i: usize) -> Option<&LogLine> {
        refusal(&self.full.sim, self.ev0.checked_add(i)?)
    }

    /// Is event `i` (into [`Run::events`]) one the narration words?
    pub fn is_notable_event(&self, i: usize) -> bool {
        self.ev0
            .checked_add(i)
            .is_some_and(|i| self.notable.binary_search(&i).is_ok())
    }

    /// The recorded simulator (events and logs up to [`Run::end`]).
    pub fn full(&self) -> &Sim {
        &self.full.sim
    }

    /// The simulator at the instant shown.
    pub fn cursor(&self) -> &Sim {
        if self.live {
            &self.full.sim
        } else {
            &self.cursor.sim
        }
    }

    /// Moves the cursor to absolute time `t` (back in time means replaying from the start).
    pub fn seek(&mut self, t: u64) {
        let t = t.clamp(self.start, self.end);
        self.at = t;
        // Inside the next millisecond the recorded simulator still answers for the instant
        // shown: the view keeps that instant until the millisecond is whole, and the events
        // and log lines of the millisecond (times past `t`) are not shown.
        self.live = self.live_at(t);
        if self.live {
            return;
        }
        // The latest copy at or before `t`: taken when it is nearer than the cursor (or the
        // cursor is past `t`); with no copy, back in time replays from the creation.
        let k = self.marks.partition_point(|m| m.sim.now <= t);
        let now = self.cursor.sim.now;
        match k.checked_sub(1).map(|i| &self.marks[i]) {
            Some(m) if t < now || m.sim.now > now => self.cursor = m.clone(),
            None if t < now => {
                let mut sim = create(&self.knobs);
                sim.cfg.record_messages = false;
                self.cursor = Player::new(sim);
            }
            _ => {}
        }
        self.cursor.advance(self.start, &self.script, t, None);
        self.cursor.sim.events.clear();
        self.cursor.sim.logs.clear();
    }

    /// Whether [`Run::seek`] to `t` replays the cursor from the cluster's creation: `t` is
    /// before the cursor and before every copy kept (a big cluster keeps none).
    pub fn replays_to(&self, t: u64) -> bool {
        let t = t.clamp(self.start, self.end);
        let before_marks = self.marks.first().is_none_or(|m| m.sim.now > t);
        !self.live_at(t) && before_marks && t < self.cursor.sim.now
    }

    /// Whether the recording's own simulator answers for instant `t` (clamped): it stands
    /// there, or inside the millisecond after it ([`Run::seek`]).
    fn live_at(&self, t: u64) -> bool {
        let now = self.full.sim.now;
        t >= self.end && (now == t || (self.inside && now == t.saturating_add(1)))
    }

    /// The replay [`Run::seek`] to `t` would do in one piece ([`Run::replays_to`]), to be done
    /// a slice at a time ([`Replay::work`]) and then shown ([`Run::seek_replayed`]).
    pub fn replay(&self, t: u64) -> Replay {
        Replay {
            stage: ReplayStage::Create(Box::new(creating(&self.knobs))),
            start: self.start,
            script: self.script.clone(),
            t: t.clamp(self.start, self.end),
            nodes: self.knobs.nodes(),
        }
    }

    /// Shows the instant `replay` went to, with its cursor (as [`Run::seek`] would have):
    /// `false` if the replay was not done, and the instant is sought in one piece instead.
    pub fn seek_replayed(&mut self, replay: Replay) -> bool {
        let t = replay.t;
        match replay.stage {
            ReplayStage::Advance(cursor) if t <= self.end && cursor.sim.now == t => {
                // Its records were cleared after each slice (`Replay::work`).
                self.at = t;
                self.live = false;
                self.cursor = cursor;
                true
            }
            _ => {
                self.seek(t);
                false
            }
        }
    }

    /// Does `act` at the instant shown: the recorded future after it is dropped (with the
    /// script's later actions) and recorded again.
    pub fn act(&mut self, act: Action, length: u64) {
        let (spec, end, t) = self.acted(act, length);
        *self = Run::new(&spec, 0);
        self.extend_to(end);
        self.tell();
        self.seek(t);
    }

    /// What [`Run::act`] records again: the spec with `act` at the instant shown (the
    /// script's later actions dropped), the absolute end to record to, and that instant.
    pub(super) fn acted(&self, act: Action, length: u64) -> (ScenarioSpec, u64, u64) {
        let t = self.at;
        let at = t.saturating_sub(self.start);
        let mut spec = self.spec();
        spec.script.retain(|s| s.0 <= at);
        spec.script.push((at, act));
        (spec, t.saturating_add(length).max(self.end), t)
    }

    /// Events of the timeline recorded so far (warm-up excluded).
    pub fn events(&self) -> &[crate::core::bus::BusEvent] {
        self.full.sim.events.get(self.ev0..).unwrap_or(&[])
    }

    /// Number of timeline events at or before absolute time `t`.
    pub fn step_at(&self, t: u64) -> usize {
        self.events().partition_point(|e| e.t <= t)
    }

    /// The last notable event at or before `t` (an index into [`Run::events`]).
    pub fn last_notable(&self, t: u64) -> Option<usize> {
        let k = self
            .notable
            .partition_point(|i| self.full.sim.events.get(*i).is_some_and(|e| e.t <= t));
        k.checked_sub(1)
            .and_then(|k| self.notable.get(k))
            .map(|i| i - self.ev0)
    }

    /// The time of the first notable event after `t`.
    pub fn next_notable(&self, t: u64) -> Option<u64> {
        let k = self
            .notable
            .partition_point(|i| self.full.sim.events.get(*i).is_some_and(|e| e.t <= t));
        self.notable
            .get(k)
            .and_then(|i| self.full.sim.events.get(*i))
            .map(|e| e.t)
    }

    /// The time of the first event after `t` (or `t` at the end).
    pub fn next_event_time(&self, t: u64) -> u64 {
        let ev = self.events();
        ev.get(ev.partition_point(|e| e.t <= t))
            .map_or(self.end, |e| e.t)
    }

    /// The time of the last event before `t` (or the start).
    pub fn prev_event_time(&self, t: u64) -> u64 {
        let ev = self.events();
        let k = ev.partition_point(|e| e.t < t);
        k.checked_sub(1)
            .and_then(|k| ev.get(k))
            .map_or(self.start, |e| e.t)
    }
}

/// What an observer thinks of a subject now, with the failure reports it holds about it.
pub fn opinion(sim: &Sim, observer: u32, subject: u32) -> Option<(Opinion, usize)> {
    let node = sim.nodes.get(observer as usize)?;
    let peer = node.peers.get(subject as usize)?;
    if !peer.known() {
        return None;
    }
    let op = if peer.flags & flag::FAIL != 0 {
        Opinion::Fail
    } else if peer.flags & flag::PFAIL != 0 {
        Opinion::Pfail
    } else {
        Opinion::Ok
    };
    Some((op, peer.reports.len()))
}

/// `running`, `hung` or `crashed` (the test hooks' words).
pub fn process_code(p: Process) -> &'static str {
    match p {
        Process::Running => "running",
        Process::Hung => "hung",
        Process::Crashed => "crashed",
    }
}

/// `ok`, `pfail` or `fail` (the test hooks' words).
pub fn opinion_code(o: Opinion) -> &'static str {
    match o {
        Opinion::Ok => "ok",
        Opinion::Pfail => "pfail",
        Opinion::Fail => "fail",
    }
}

/// `default`, `force` or `takeover`.
pub fn mode_code(m: FailoverMode) -> &'static str {
    match m {
        FailoverMode::Default => "default",
        FailoverMode::Force => "force",
        FailoverMode::Takeover => "takeover",
    }
}

/// A node's config epoch as `CLUSTER NODES` prints it (its master's, for a replica).
pub fn config_epoch(sim: &Sim, n: u32) -> u64 {
    let Some(node) = sim.nodes.get(n as usize) else {
        return 0;
    };
    match node.my_master() {
        Some(m) if node.is_slave() => node.peers.get(m as usize).map_or(0, |p| p.config_epoch),
        _ => node.me().config_epoch,
    }
}

/// The shard a node belongs to for its colour: masters by index, replicas by their first
/// master (so a promoted replica keeps its shard's colour); a joined node its own.
pub fn shard_of(knobs: &Knobs, n: u32) -> usize {
    let m = usize::from(knobs.masters);
    let n = n as usize;
    if n < m {
        n
    } else {
        knobs.replica_of.get(n - m).map_or(n, |x| usize::from(*x))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::bus::scenario::{ScenarioId, Timeline};

    #[test]
    fn a_run_agrees_with_the_scenarios_timeline_and_seeks_back() {
        let spec = ScenarioId::MasterCrash.spec(1);
        let mut run = Run::new(&spec, spec.until_ms);
        let mut timeline = Timeline::build(spec.clone());
        for t in [0, 3000, 5000, 9000] {
            run.seek(run.start + t);
            let here = run.cursor().cluster_nodes(1);
            assert_eq!(here, timeline.state_at(t).cluster_nodes(1), "t = {t}");
        }
        // Back in time replays: at the script's t = 0 the kill of 7200 (the scenario's first
        // action, at 0) has just happened, as in the timeline, and 7205 is still a replica.
        run.seek(run.start);
        assert_eq!(run.cursor().nodes[0].process, Process::Crashed);
        assert_eq!(timeline.state_at(0).nodes[0].process, Process::Crashed);
        assert_eq!(
            run.cursor().cluster_nodes(1),
            timeline.state_at(0).cluster_nodes(1)
        );
        assert!(run.cursor().nodes[5].is_slave());
        assert!(run.next_notable(run.start).is_some());
    }

    /// Seeking back starts from the nearest copy of the recording, and the cluster there is
    /// the one the core's timeline replays from the creation, as every node answers; a long
    /// run keeps at most `MARKS_MAX` copies, spaced wider.
    #[test]
    fn a_replay_in_slices_is_the_seek_done_at_once() {
        use std::cell::Cell;
        let spec = ScenarioId::MasterCrash.spec(1);
        let mut a = Run::new(&spec, 20_000);
        let mut b = Run::new(&spec, 20_000);
        let n = a.cursor().nodes.len() as u32;
        // A clock that moves 1 ms at each reading and a 1 ms budget: many slices.
        let clock = Cell::new(0.0);
        let now = || {
            clock.set(clock.get() + 1.0);
            clock.get()
        };
        let finish = |r: &mut Replay| {
            let mut slices = 0;
            let mut last = r.progress();
            while !r.work(&now, 1.0) {
                let p = r.progress();
                assert!(p.0 >= last.0 && p.0 <= p.1, "progress {p:?} after {last:?}");
                last = p;
                slices += 1;
            }
            assert_eq!(r.progress().0, r.progress().1);
            slices
        };
        for (t, then) in [(12_000, None), (3_000, Some(9_000)), (9_000, Some(9_000))] {
            let t = a.start + t;
            let mut r = b.replay(t);
            let mut slices = 0;
            while slices < 40 && !r.work(&now, 1.0) {
                slices += 1;
            }
            let to = match then {
                // Retargeted on the way: it goes on to the later instant.
                Some(later) => {
                    let later = a.start + later;
                    assert!(r.retarget(later));
                    later
                }
                None => t,
            };
            let slices = slices + finish(&mut r);
            assert!(slices > 5, "{slices} slices");
            assert!(!r.retarget(a.start + 1), "it has passed the start");
            a.seek(to);
            assert!(b.seek_replayed(r));
            assert_eq!((a.at, a.cursor().now), (b.at, b.cursor().now));
            for node in 0..n {
                assert_eq!(
                    a.cursor().cluster_nodes(node),
                    b.cursor().cluster_nodes(node)
                );
                assert_eq!(a.cursor().cluster_info(node), b.cursor().cluster_info(node));
            }
        }
    }

    #[test]
    fn seeking_back_from_the_copies_is_the_timeline() {
        let spec = ScenarioId::MasterCrash.spec(1);
        let mut run = Run::new(&spec, spec.until_ms);
        assert!(run.marks.len() >= 4, "{} copies", run.marks.len());
        assert_eq!(run.marks[0].sim.now, run.start);
        let mut timeline = Timeline::build(spec.clone());
        run.seek(run.end);
        let span = run.end - run.start;
        for k in [9, 7, 5, 4, 2, 1, 0] {
            let t = span * k / 10 + k;
            run.seek(run.start + t);
            let there = timeline.state_at(t);
            for node in 0..6 {
                assert_eq!(
                    run.cursor().cluster_nodes(node),
                    there.cluster_nodes(node),
                    "t = {t}, node {node}"
                );
            }
        }
        let long = ScenarioSpec::new(Knobs::uniform(3, 1, 2000, 5), 0);
        let mut run = Run::new(&long, 120_000);
        assert!(run.marks.len() <= MARKS_MAX && run.mark_every > MARK_EVERY_MS);
        assert!(run.marks.windows(2).all(|w| w[0].sim.now < w[1].sim.now));
        let mut timeline = Timeline::build(ScenarioSpec {
            until_ms: 120_000,
            ..long
        });
        for t in [100_000, 61_234, 3] {
            run.seek(run.start + t);
            assert_eq!(
                run.cursor().cluster_nodes(2),
                timeline.state_at(t).cluster_nodes(2)
            );
        }
        // No copies of a cluster too big for them.
        assert_eq!(marks_for(1000), 0);
    }

    /// The story's notes sit on the run's own events (the timeline replays the same run), and
    /// carry BUS.md's numbers: PFAIL after more than NT, FAIL at a quorum of 2 of 3 masters, the
    /// vote count up to 2 needed, the promoted replica's epoch 7 (the recorded crash's).
    #[test]
    fn the_story_numbers_the_runs_own_events() {
        let spec = ScenarioId::MasterCrash.spec(1);
        let run = Run::new(&spec, spec.until_ms);
        let story = run.story.as_ref().expect("6 nodes get a story");
        assert!(story.notes.len() > 10);
        let (mut pfail, mut fail, mut votes, mut epoch) = (0, 0, 0, 0);
        for (i, _, note) in &story.notes {
            let ev = &run.events()[*i];
            match *note {
                Note::Pfail {
                    silent_ms,
                    node_timeout,
                    ..
                } => {
                    assert!(matches!(
                        ev.kind,
                        EventKind::Opinion {
                            opinion: Opinion::Pfail,
                            ..
                        }
                    ));
                    assert!(silent_ms > node_timeout && node_timeout == 2000);
                    pfail += 1;
                }
                Note::Fail {
                    reports, needed, ..
                } => {
                    assert_eq!(needed, 2);
                    assert!(reports >= needed);
                    fail += 1;
                }
                Note::Vote {
                    votes: v, needed, ..
                } => {
                    assert_eq!(needed, 2);
                    votes = votes.max(v);
                }
                Note::Role {
                    master: None,
                    config_epoch,
                    ..
                } => epoch = config_epoch,
                _ => {}
            }
        }
        assert!(pfail >= 1 && fail >= 1, "{pfail} {fail}");
        assert!(votes >= 2);
        assert_eq!(epoch, 7);
    }

    /// Two masters of five die (the page's seed): both replicas ask in the same epoch, and
    /// each master that voted for the first refuses the second with a warning. Each refusal is
    /// a stop of the narration, on the request's delivery to the voter, and is worded with
    /// the reason Redis logged.
    #[test]
    fn vote_refusals_are_stops_on_the_requests_delivery() {
        let id = ScenarioId::TwoMastersDie;
        let spec = id.spec(id.page_seed());
        let run = Run::new(&spec, spec.until_ms);
        let denied: Vec<_> = run.full().logs[run.log0..]
            .iter()
            .filter(|l| l.level == '#' && l.text.starts_with("Failover auth denied to "))
            .collect();
        assert!(denied.len() >= 2, "{denied:?}");
        let stops: Vec<usize> = (0..run.events().len())
            .filter(|i| run.refusal(*i).is_some())
            .collect();
        assert_eq!(stops.len(), denied.len());
        for i in stops {
            assert!(run.is_notable_event(i));
            let line = run.refusal(i).expect("a refusal");
            let EventKind::Delivered { from, to, msg } = run.events()[i].kind else {
                panic!("a refusal sits on a delivery");
            };
            assert_eq!(msg, MsgType::FailoverAuthRequest);
            assert_eq!(line.node, to);
            assert!(line.text.contains(&run.full().nodes[from as usize].name));
            let en = crate::ui::bus_words::narrate_refusal(
                &crate::ui::bus_words::EN,
                "V",
                "C",
                &line.text,
            );
            assert!(en.starts_with("V refuses C its vote: "), "{en}");
            assert!(
                !en.contains('“'),
                "a known reason is worded, not quoted: {en}"
            );
        }
    }

    /// A burst's millisecond in pieces: the recording stops inside it (some of its events
    /// done), the clock stands at the millisecond before with the recorded simulator
    /// answering, and finishing it (`settle`) is the run recorded at once.
    #[test]
    fn a_millisecond_recorded_in_pieces_is_the_millisecond() {
        let spec = ScenarioId::MasterCrash.spec(1);
        let mut pieces = Run::new(&spec, 0);
        let to = pieces.start + 3000;
        let mut stops_inside = 0;
        while !pieces.extend_bounded(to, 1) {
            let end = pieces.end;
            pieces.seek(end);
            assert!(pieces.live, "the recorded simulator answers at {end}");
            assert!(std::ptr::eq(pieces.cursor(), pieces.full()));
            if pieces.inside && pieces.full().events.last().is_some_and(|e| e.t > end) {
                stops_inside += 1;
                assert!(pieces.step_at(end) < pieces.events().len());
            }
        }
        assert!(
            stops_inside > 10,
            "{stops_inside} stops inside a millisecond"
        );
        let mut at_once = Run::new(&spec, 0);
        at_once.extend_to(to);
        pieces.seek(to);
        at_once.seek(to);
        assert_eq!(pieces.events(), at_once.events());
        assert_eq!(pieces.full().logs, at_once.full().logs);
        assert_eq!(
            pieces.cursor().cluster_nodes(0),
            at_once.cursor().cluster_nodes(0)
        );
        // Stopped inside once more, then settled: the clock moves to the millisecond, whole.
        let mut part = Run::new(&spec, 0);
        while !part.inside || part.full().events.last().is_none_or(|e| e.t <= part.end) {
            assert!(!part.extend_bounded(to, 1));
            let end = part.end;
            part.seek(end);
        }
        let t = part.settle().expect("the clock stood at the end");
        assert!(!part.inside && part.end == t && part.at == t);
        let mut whole = Run::new(&spec, 0);
        whole.extend_to(t);
        assert_eq!(part.events(), whole.events());
        assert_eq!(
            part.cursor().cluster_nodes(0),
            whole.cursor().cluster_nodes(0)
        );
    }

    #[test]
    fn knobs_stay_in_range() {
        let k = uniform(5000, 9, 0, 1, true, true);
        assert!(k.nodes() <= MAX_NODES);
        assert_eq!(k.node_timeout, 100);
        assert_eq!(replicas_per_master(&uniform(3, 2, 2000, 1, true, true)), 2);
    }
}
