//! The bus view's model (no yew): a run of the simulator — knobs, seed and a script of actions
//! at instants — recorded to a horizon that grows while it plays, and a second simulator (the
//! cursor) standing at the instant shown, which answers `CLUSTER NODES`, flags and epochs.
//!
//! Both simulators replay the same calls in the same order, so the cursor at instant `t` is
//! exactly the recorded run at `t` (the simulator is deterministic per seed and calls).

use crate::core::bus::{
    flag, Config, EventKind, FailoverMode, FailoverRefusal, Opinion, Process, Sim,
};
use std::rc::Rc;

/// Builds a run's cluster, the same every time it is called (a scenario's own set-up, or
/// [`Knobs::create`]).
pub type Maker = Rc<dyn Fn() -> Sim>;

/// The first node's port (`127.0.0.1:30001`…).
pub const BASE_PORT: u16 = 30001;
/// Simulated time before the timeline starts: pings and cron phases reach their steady state.
pub const WARMUP_MS: u64 = 3000;
/// The most nodes the knobs allow (Redis's recommended ceiling).
pub const MAX_NODES: usize = 1000;
/// Up to this many nodes every message is recorded and drawn.
pub const DRAW_MESSAGES_UP_TO: usize = 30;
/// The longest run kept, in simulated ms from the start of the timeline.
pub const MAX_RUN_MS: u64 = 600_000;

/// The settings a reader can change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Knobs {
    /// `cluster-node-timeout`, ms.
    pub node_timeout: u64,
    /// Masters.
    pub masters: usize,
    /// Replicas per master.
    pub replicas: usize,
    /// `cluster-require-full-coverage`.
    pub full_coverage: bool,
    /// `cluster-allow-replica-migration`.
    pub replica_migration: bool,
    /// The simulation's seed.
    pub seed: u64,
}

impl Default for Knobs {
    fn default() -> Self {
        Knobs {
            node_timeout: 2000,
            masters: 3,
            replicas: 1,
            full_coverage: true,
            replica_migration: true,
            seed: 1,
        }
    }
}

impl Knobs {
    /// The knobs brought into the ranges the simulator takes (never more than [`MAX_NODES`]).
    pub fn clamped(mut self) -> Knobs {
        self.node_timeout = self.node_timeout.clamp(100, 120_000);
        self.masters = self.masters.clamp(1, MAX_NODES);
        let room = MAX_NODES / self.masters - 1;
        self.replicas = self.replicas.min(room);
        self
    }

    /// Nodes in all.
    pub fn total(&self) -> usize {
        self.masters.saturating_mul(self.replicas.saturating_add(1))
    }

    /// The simulator's configuration.
    pub fn config(&self) -> Config {
        Config {
            node_timeout: self.node_timeout,
            require_full_coverage: self.full_coverage,
            allow_replica_migration: self.replica_migration,
            record_messages: self.total() <= DRAW_MESSAGES_UP_TO,
            ..Config::default()
        }
    }

    /// The master of each replica, in port order (replica `r` of every master, then `r + 1`).
    pub fn replica_of(&self) -> Vec<usize> {
        (0..self.replicas)
            .flat_map(|_| 0..self.masters)
            .collect::<Vec<_>>()
    }

    /// A fresh cluster as `redis-cli --cluster create` leaves it, warmed up.
    pub fn create(&self) -> Sim {
        Sim::create(
            self.config(),
            self.seed,
            self.masters,
            &self.replica_of(),
            BASE_PORT,
            WARMUP_MS,
        )
    }
}

/// Something done to the cluster at an instant (free play, or a scenario's script).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    /// SIGKILL.
    Crash(u32),
    /// SIGSTOP.
    Hang(u32),
    /// SIGCONT.
    Resume(u32),
    /// Start a killed node again from its `nodes.conf`.
    Restart(u32),
    /// Cut every link of a node.
    Isolate(u32),
    /// Give a cut-off node its links back.
    Reconnect(u32),
    /// `CLUSTER FAILOVER [FORCE|TAKEOVER]` sent to a node.
    Failover(u32, FailoverMode),
}

impl Act {
    /// The node acted on.
    pub fn node(self) -> u32 {
        match self {
            Act::Crash(n)
            | Act::Hang(n)
            | Act::Resume(n)
            | Act::Restart(n)
            | Act::Isolate(n)
            | Act::Reconnect(n)
            | Act::Failover(n, _) => n,
        }
    }
}

/// An action at an instant (ms since the start of the timeline).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scripted {
    /// When, ms after the timeline's start.
    pub at: u64,
    /// What.
    pub act: Act,
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
    pub result: Result<(), FailoverRefusal>,
}

/// Applies `act` to `sim` now; a failover's reply.
fn apply(sim: &mut Sim, act: Act) -> Option<Result<(), FailoverRefusal>> {
    let n = act.node();
    if !sim.has(n) {
        return None;
    }
    let count = sim.nodes.len() as u32;
    match act {
        Act::Crash(n) => sim.crash(n),
        Act::Hang(n) => sim.hang(n),
        Act::Resume(n) => sim.resume(n),
        Act::Restart(n) => sim.restart(n),
        Act::Isolate(n) => (0..count).filter(|j| *j != n).for_each(|j| sim.cut(n, j)),
        Act::Reconnect(n) => (0..count).filter(|j| *j != n).for_each(|j| sim.uncut(n, j)),
        Act::Failover(n, mode) => return Some(sim.cluster_failover(n, mode)),
    }
    None
}

/// One simulator and how far through the script it is.
struct Player {
    sim: Sim,
    next: usize,
}

impl Player {
    /// Runs to absolute time `t`, applying the script's actions on the way.
    fn advance(
        &mut self,
        start: u64,
        script: &[Scripted],
        t: u64,
        mut replies: Option<&mut Vec<Reply>>,
    ) {
        while let Some(s) = script.get(self.next) {
            let at = start.saturating_add(s.at);
            if at > t {
                break;
            }
            self.sim.run_until(at);
            if let Some(result) = apply(&mut self.sim, s.act) {
                if let (Some(r), Act::Failover(node, mode)) = (replies.as_deref_mut(), s.act) {
                    r.push(Reply {
                        t: at,
                        node,
                        mode,
                        result,
                    });
                }
            }
            self.next += 1;
        }
        self.sim.run_until(t);
    }
}

/// A run: the recorded future and the instant shown.
pub struct Run {
    /// The knobs it was created with.
    pub knobs: Knobs,
    make: Maker,
    /// The actions, in time order.
    pub script: Vec<Scripted>,
    /// Absolute simulated time of the timeline's start.
    pub start: u64,
    /// Recorded up to this absolute time.
    pub end: u64,
    full: Player,
    cursor: Player,
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
}

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

impl Run {
    /// A run of `knobs` with `script`, recorded `length` ms past its start.
    pub fn new(knobs: Knobs, script: Vec<Scripted>, length: u64) -> Run {
        let k = knobs.clone();
        Run::with_maker(knobs, Rc::new(move || k.create()), script, length)
    }

    /// A run over clusters built by `make` (a scenario builds them its own way).
    pub fn with_maker(knobs: Knobs, make: Maker, mut script: Vec<Scripted>, length: u64) -> Run {
        let (full, mut cursor) = (make(), make());
        script.sort_by_key(|s| s.at);
        cursor.cfg.record_messages = false;
        cursor.events.clear();
        cursor.logs.clear();
        let start = full.now;
        let (ev0, log0) = (full.events.len(), full.logs.len());
        let mut run = Run {
            knobs,
            make,
            script,
            start,
            end: start,
            full: Player { sim: full, next: 0 },
            cursor: Player {
                sim: cursor,
                next: 0,
            },
            ev0,
            log0,
            replies: Vec::new(),
            notable: Vec::new(),
            at: start,
            live: false,
        };
        run.extend_to(start.saturating_add(length.min(MAX_RUN_MS)));
        run
    }

    /// Records up to absolute time `t` (never past [`MAX_RUN_MS`]).
    pub fn extend_to(&mut self, t: u64) {
        let t = t.min(self.start.saturating_add(MAX_RUN_MS));
        if t <= self.end {
            return;
        }
        let from = self.full.sim.events.len();
        self.full
            .advance(self.start, &self.script, t, Some(&mut self.replies));
        let events = &self.full.sim.events;
        self.notable
            .extend((from..events.len()).filter(|i| is_notable(&events[*i].kind)));
        self.end = t;
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
        self.live = t >= self.end && self.full.sim.now == t;
        if self.live {
            return;
        }
        if t < self.cursor.sim.now {
            let mut sim = (self.make)();
            sim.cfg.record_messages = false;
            self.cursor = Player { sim, next: 0 };
        }
        self.cursor.advance(self.start, &self.script, t, None);
        self.cursor.sim.events.clear();
        self.cursor.sim.logs.clear();
    }

    /// Does `act` at the cursor's instant: the recorded future after it is dropped (with the
    /// script's later actions) and recorded again.
    pub fn act(&mut self, act: Act, length: u64) {
        let t = self.at;
        let at = t.saturating_sub(self.start);
        self.script.retain(|s| s.at <= at);
        self.script.push(Scripted { at, act });
        let end = t.saturating_add(length).max(self.end);
        let fresh = Run::with_maker(
            self.knobs.clone(),
            self.make.clone(),
            std::mem::take(&mut self.script),
            0,
        );
        *self = fresh;
        self.extend_to(end);
        self.seek(t);
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
    if !peer.known {
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
/// master (so a promoted replica keeps its shard's colour).
pub fn shard_of(knobs: &Knobs, n: u32) -> usize {
    let n = n as usize;
    if n < knobs.masters || knobs.masters == 0 {
        n
    } else {
        (n - knobs.masters) % knobs.masters
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crashed_master_is_replaced_and_the_cursor_matches_the_record() {
        let knobs = Knobs::default();
        let script = vec![Scripted {
            at: 1000,
            act: Act::Crash(0),
        }];
        let mut run = Run::new(knobs, script, 15_000);
        run.seek(run.end);
        // The replica of 30001 (index 3) is a master at the end.
        assert!(run.cursor().nodes[3].is_master());
        assert_eq!(run.cursor().cluster_nodes(1), {
            let mut again = Run::new(Knobs::default(), run.script.clone(), 15_000);
            again.seek(again.end);
            again.cursor().cluster_nodes(1)
        });
        // Seeking back replays: the old master is a running master again.
        run.seek(run.start);
        assert_eq!(run.cursor().nodes[0].process, Process::Running);
        assert!(run.cursor().nodes[3].is_slave());
        assert!(run.next_notable(run.start).is_some());
    }

    #[test]
    fn knobs_stay_in_range() {
        let k = Knobs {
            masters: 5000,
            replicas: 9,
            node_timeout: 0,
            ..Knobs::default()
        }
        .clamped();
        assert!(k.total() <= MAX_NODES);
        assert_eq!(k.node_timeout, 100);
    }
}
