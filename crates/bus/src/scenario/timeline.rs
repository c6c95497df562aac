//! A spec played into a scrub-able timeline: every step (bus event, notice/warning log line,
//! scripted action with its outcome), the notable ones with the numbers that explain them
//! (`Note`), the writes with which were acknowledged and then lost, the spread of a MEET,
//! and the simulated state at any instant (deterministic replay from the seed; a cursor that
//! moves forward cheaply and replays from the start to go back).
//!
//! Times in this API are ms from the script's t = 0 (`Timeline::origin` in the simulator's
//! clock), except `LogLine::t` and the times inside `EventKind`, which are the simulator's.

use super::steps::{
    ElectionDelay, LostWrite, MeetSpread, Notable, Note, Outcome, StateWhy, Step, StepKind,
    WriteRecord, WriteRefusal,
};
use super::{Action, ScenarioSpec, MAX_UNTIL_MS};
use crate::{flag, EventKind, LogLine, MsgType, Opinion, Process, Sim, NO_NODE};

/// Drives a simulation through a spec's script.
struct Runner {
    sim: Sim,
    origin: u64,
    next: usize,
    sides: Vec<u32>,
}

impl Runner {
    fn new(spec: &ScenarioSpec) -> Runner {
        let sim = spec.knobs.create();
        let origin = sim.now;
        let sides = vec![0; sim.nodes.len()];
        Runner {
            sim,
            origin,
            next: 0,
            sides,
        }
    }

    /// Run to `t` (ms from 0), applying the script's actions at their times.
    fn advance(&mut self, spec: &ScenarioSpec, t: u64) {
        while let Some((at, a)) = spec.script.get(self.next) {
            if *at > t {
                break;
            }
            self.sim.run_until(self.origin + at);
            self.apply(*a);
            self.next += 1;
        }
        self.sim.run_until(self.origin + t);
    }

    fn apply(&mut self, a: Action) -> Outcome {
        apply_action(&mut self.sim, &mut self.sides, a)
    }
}

/// A played spec. Build with `Timeline::build`; read `steps`, `notable`, `writes`, `lost`,
/// `meet`; ask `state_at(t)` for the cluster at any instant.
pub struct Timeline {
    /// The spec played.
    pub spec: ScenarioSpec,
    /// The simulator's clock at the script's t = 0 (the created cluster's warm-up before).
    pub origin: u64,
    /// How far it was simulated (ms from 0): `spec.until_ms`, clamped.
    pub until_ms: u64,
    /// When the story is over (ms from 0): 2 s after the last notable step or action (the
    /// whole run when nothing notable happens).
    pub end_ms: u64,
    /// Every step, in order.
    pub steps: Vec<Step>,
    /// The notable steps, in order.
    pub notable: Vec<Notable>,
    /// The script's writes, in order.
    pub writes: Vec<WriteRecord>,
    /// The acknowledged writes that were lost (by number).
    pub lost: Vec<LostWrite>,
    /// The first `Join`'s spread.
    pub meet: Option<MeetSpread>,
    full: Sim,
    cursor: Option<Runner>,
}

/// Log lines that make a notable stop of their own (the others are covered by an event).
const NOTABLE_LOGS: [&str; 9] = [
    "Manual failover user request accepted.",
    "Forced failover user request accepted.",
    "Taking over the master (user request).",
    "Manual failover requested by replica",
    "Received replication offset for paused master manual failover",
    "All master replication stream processed",
    "Manual failover timed out.",
    "Migrating to orphaned master",
    "Failover attempt expired.",
];

impl Timeline {
    /// Play `spec` to its horizon. Deterministic: the same spec gives the same timeline.
    pub fn build(spec: ScenarioSpec) -> Timeline {
        let until = spec.until_ms.min(MAX_UNTIL_MS);
        let mut b = Builder::new(&spec);
        for ms in 0..=until {
            b.r.sim.run_until(b.r.origin + ms);
            b.capture(ms, None);
            while let Some((at, a)) = spec.script.get(b.r.next) {
                if *at != ms {
                    break;
                }
                let cue = b.r.next;
                let outcome = b.r.apply(*a);
                b.r.next += 1;
                b.capture(ms, Some((cue, *a, outcome)));
            }
            b.track_meet(ms);
        }
        b.finish(spec, until)
    }

    /// The ready-made scenario `id` with `seed`, played.
    pub fn scenario(id: super::ScenarioId, seed: u64) -> Timeline {
        Timeline::build(id.spec(seed))
    }

    /// The cluster at `t` ms from 0 (every step at or before `t` done). Moving forward
    /// continues the last replay; moving back replays from the seed (a few ms at 6 nodes).
    pub fn state_at(&mut self, t: u64) -> &Sim {
        if t >= self.until_ms {
            return &self.full;
        }
        let want = self.origin + t;
        let stale = match &self.cursor {
            Some(c) => c.sim.now > want,
            None => true,
        };
        if stale {
            self.cursor = Some(Runner::new(&self.spec));
        }
        match &mut self.cursor {
            Some(c) => {
                c.advance(&self.spec, t);
                &c.sim
            }
            None => &self.full,
        }
    }

    /// The whole run, at `until_ms` (its `logs` and `events` cover everything).
    pub fn full(&self) -> &Sim {
        &self.full
    }

    /// Every log line of the run (simulator times; `line.t - origin` is ms from 0).
    pub fn logs(&self) -> &[LogLine] {
        &self.full.logs
    }

    /// The log lines written at or before `t` ms from 0.
    pub fn logs_until(&self, t: u64) -> &[LogLine] {
        let want = self.origin.saturating_add(t);
        let n = self.full.logs.partition_point(|l| l.t <= want);
        &self.full.logs[..n]
    }

    /// How many steps are done at `t` (the index of the next step).
    pub fn steps_done(&self, t: u64) -> usize {
        self.steps.partition_point(|s| s.t <= t)
    }

    /// The time of the first step after `t`.
    pub fn next_step(&self, t: u64) -> Option<u64> {
        self.steps.get(self.steps_done(t)).map(|s| s.t)
    }

    /// The time of the last step before `t`.
    pub fn prev_step(&self, t: u64) -> Option<u64> {
        let i = self.steps.partition_point(|s| s.t < t);
        i.checked_sub(1)
            .and_then(|i| self.steps.get(i))
            .map(|s| s.t)
    }

    /// The first notable step after `t`.
    pub fn next_notable(&self, t: u64) -> Option<&Notable> {
        let i = self.notable.partition_point(|n| n.t <= t);
        self.notable.get(i)
    }

    /// The last notable step before `t`.
    pub fn prev_notable(&self, t: u64) -> Option<&Notable> {
        let i = self.notable.partition_point(|n| n.t < t);
        i.checked_sub(1).and_then(|i| self.notable.get(i))
    }

    /// The simulator time of `t` ms from 0.
    pub fn sim_time(&self, t: u64) -> u64 {
        self.origin.saturating_add(t)
    }
}

/// Collects steps and notes while the run goes.
struct Builder {
    r: Runner,
    seen_events: usize,
    seen_logs: usize,
    steps: Vec<Step>,
    notable: Vec<Notable>,
    writes: Vec<WriteRecord>,
    /// Each node's master as last seen (`None`: a master).
    masters: Vec<Option<u32>>,
    /// Promotions: (old master, promoted replica, its offset, ms).
    promotions: Vec<(u32, u32, u64, u64)>,
    /// Demotions: (node, ms).
    demotions: Vec<(u32, u64)>,
    /// Votes per (candidate, epoch).
    votes: Vec<(u32, u64, u32)>,
    meet: Option<MeetSpread>,
    hops: Vec<Option<u32>>,
}

impl Builder {
    fn new(spec: &ScenarioSpec) -> Builder {
        let r = Runner::new(spec);
        let masters = r.sim.nodes.iter().map(|n| n.my_master()).collect();
        let seen_events = r.sim.events.len();
        let seen_logs = r.sim.logs.len();
        Builder {
            r,
            seen_events,
            seen_logs,
            steps: Vec::new(),
            notable: Vec::new(),
            writes: Vec::new(),
            masters,
            promotions: Vec::new(),
            demotions: Vec::new(),
            votes: Vec::new(),
            meet: None,
            hops: Vec::new(),
        }
    }

    fn note(&mut self, t: u64, note: Note) {
        self.notable.push(Notable {
            step: self.steps.len().saturating_sub(1),
            t,
            note,
        });
    }

    /// Take the log lines and events of this ms (and the action that caused them).
    fn capture(&mut self, ms: u64, action: Option<(usize, Action, Outcome)>) {
        let (logs_end, events_end) = (self.r.sim.logs.len(), self.r.sim.events.len());
        if logs_end == self.seen_logs && events_end == self.seen_events && action.is_none() {
            return;
        }
        let first_note = self.notable.len();
        if let Some((cue, a, outcome)) = action {
            self.steps.push(Step {
                t: ms,
                kind: StepKind::Action {
                    cue,
                    action: a,
                    outcome,
                },
            });
            self.note(
                ms,
                Note::Action {
                    cue,
                    action: a,
                    outcome,
                },
            );
            if let (Action::Write { node, .. }, Outcome::Write(r)) = (a, outcome) {
                self.writes.push(WriteRecord {
                    number: self.writes.len() as u32 + 1,
                    cue,
                    t: ms,
                    node,
                    outcome: r,
                });
            }
            if let Outcome::Joined(new) = outcome {
                self.masters.push(None);
                if self.meet.is_none() {
                    let met = a.node().unwrap_or(0);
                    self.hops = vec![None; self.r.sim.nodes.len()];
                    if let Some(h) = self.hops.get_mut(new as usize) {
                        *h = Some(0);
                    }
                    self.meet = Some(MeetSpread {
                        node: new,
                        met,
                        joined_at: ms,
                        learned: Vec::new(),
                        everyone_at: None,
                        rounds: 0,
                    });
                }
            }
        }
        for li in self.seen_logs..logs_end {
            let line = &self.r.sim.logs[li];
            if line.level != '*' && line.level != '#' {
                continue;
            }
            let node = line.node;
            let vote_denied = line.text.starts_with("Failover auth denied to");
            let stop = NOTABLE_LOGS.iter().any(|p| line.text.starts_with(p));
            self.steps.push(Step {
                t: ms,
                kind: StepKind::Log(li),
            });
            if vote_denied {
                self.note(
                    ms,
                    Note::VoteDenied {
                        voter: node,
                        log: li,
                    },
                );
            } else if stop {
                self.note(ms, Note::Log { node, log: li });
            }
        }
        let mut fail_sent: Vec<(u32, u32, u32, usize)> = Vec::new();
        for ei in self.seen_events..events_end {
            let kind = self.r.sim.events[ei].kind.clone();
            let quiet = matches!(
                kind,
                EventKind::Delivered { .. }
                    | EventKind::LinkFreed { .. }
                    | EventKind::Sent {
                        msg: MsgType::Ping | MsgType::Pong | MsgType::Meet,
                        ..
                    }
            );
            if quiet {
                self.steps.push(Step {
                    t: ms,
                    kind: StepKind::Bus(kind),
                });
                continue;
            }
            self.steps.push(Step {
                t: ms,
                kind: StepKind::Bus(kind.clone()),
            });
            let note = self.explain(ms, &kind, logs_end, &mut fail_sent);
            if let Some(note) = note {
                self.note(ms, note);
            }
        }
        for (from, about, receivers, step) in fail_sent {
            self.notable.push(Notable {
                step,
                t: ms,
                note: Note::FailBroadcast {
                    from,
                    about,
                    receivers,
                },
            });
        }
        if let Some(new) = self.notable.get_mut(first_note..) {
            new.sort_by_key(|n| n.step);
        }
        self.seen_logs = logs_end;
        self.seen_events = events_end;
    }

    /// The note of one event, read from the state right after this ms.
    fn explain(
        &mut self,
        ms: u64,
        kind: &EventKind,
        logs_end: usize,
        fail_sent: &mut Vec<(u32, u32, u32, usize)>,
    ) -> Option<Note> {
        let sim = &self.r.sim;
        let nt = sim.cfg.node_timeout;
        match *kind {
            EventKind::Sent {
                msg: MsgType::Fail,
                from,
                to,
                ..
            } => {
                let about = (0..sim.nodes.len() as u32)
                    .find(|x| {
                        sim.nodes[from as usize].peers[*x as usize].failed()
                            && self.r.sim.logs[self.seen_logs..logs_end].iter().any(|l| {
                                l.node == from
                                    && l.text.starts_with("Marking node ")
                                    && l.text.contains(sim.nodes[*x as usize].name.as_str())
                            })
                    })
                    .unwrap_or(NO_NODE);
                let _ = to;
                let step = self.steps.len() - 1;
                match fail_sent.iter_mut().find(|f| f.0 == from) {
                    Some(f) => f.2 += 1,
                    None => fail_sent.push((from, about, 1, step)),
                }
                None
            }
            EventKind::Sent {
                msg: MsgType::Update,
                from,
                to,
                ..
            } => {
                // The update is about the new owner of the receiver's stale slots: its master
                // once it took the update, else the sender's owner of a slot it still claims.
                let receiver = &sim.nodes[to as usize];
                let about = receiver.my_master().unwrap_or_else(|| {
                    receiver
                        .slot_owner
                        .iter()
                        .position(|o| *o == to)
                        .map(|s| sim.nodes[from as usize].slot_owner[s])
                        .unwrap_or(NO_NODE)
                });
                let told = self.notable.iter().rev().take_while(|n| n.t == ms).any(
                    |n| matches!(n.note, Note::Update { from: f, to: r, .. } if f == from && r == to),
                );
                (!told).then_some(Note::Update { from, to, about })
            }
            EventKind::Sent { .. } | EventKind::Delivered { .. } | EventKind::LinkFreed { .. } => {
                None
            }
            EventKind::Opinion {
                observer,
                subject,
                opinion,
            } => {
                let view = &sim.nodes[observer as usize];
                let peer = &view.peers[subject as usize];
                match opinion {
                    Opinion::Pfail => Some(Note::Pfail {
                        observer,
                        subject,
                        silent_ms: sim.now.saturating_sub(peer.ping_sent()),
                        node_timeout: nt,
                    }),
                    Opinion::Fail => {
                        let name = sim.nodes[subject as usize].name.as_str();
                        let from = sim.logs[self.seen_logs..logs_end].iter().find_map(|l| {
                            let rest = l.text.strip_prefix("FAIL message received from ")?;
                            (l.node == observer && rest.ends_with(name))
                                .then(|| sim.by_name(rest.get(..40)?))
                                .flatten()
                        });
                        match from {
                            Some(from) => Some(Note::FailReceived {
                                observer,
                                subject,
                                from,
                            }),
                            None => Some(Note::Fail {
                                observer,
                                subject,
                                reports: peer.reports.len() as u32 + u32::from(view.is_master()),
                                needed: view.size / 2 + 1,
                            }),
                        }
                    }
                    Opinion::Ok => {
                        let name = sim.nodes[subject as usize].name.as_str();
                        let log = (self.seen_logs..logs_end).find(|i| {
                            let l = &sim.logs[*i];
                            l.node == observer
                                && l.text
                                    .strip_prefix("Clear FAIL state for node ")
                                    .is_some_and(|r| r.starts_with(name))
                        });
                        let was = if log.is_some() {
                            Opinion::Fail
                        } else {
                            Opinion::Pfail
                        };
                        Some(Note::Cleared {
                            observer,
                            subject,
                            was,
                            log,
                        })
                    }
                }
            }
            EventKind::State { node, ok } => Some(Note::State {
                node,
                ok,
                why: state_why(sim, node),
            }),
            EventKind::Role { node, master } => {
                let was = self.masters.get(node as usize).copied().flatten();
                let n = &sim.nodes[node as usize];
                let config_epoch = match master {
                    Some(m) => n.peers[m as usize].config_epoch,
                    None => n.me().config_epoch,
                };
                if let Some(slot) = self.masters.get_mut(node as usize) {
                    *slot = master;
                }
                match (was, master) {
                    (Some(old), None) => self.promotions.push((old, node, n.repl_offset, ms)),
                    (None, Some(_)) => self.demotions.push((node, ms)),
                    _ => {}
                }
                Some(Note::Role {
                    node,
                    master,
                    was,
                    config_epoch,
                })
            }
            EventKind::Process { node, process } => Some(Note::Process { node, process }),
            EventKind::ElectionScheduled { node, at, rank } => {
                let total = at.saturating_sub(sim.now);
                let rank_ms = u64::from(rank) * 1000;
                let delay = if total == 0 {
                    ElectionDelay {
                        fixed_ms: 0,
                        random_ms: 0,
                        rank_ms: 0,
                    }
                } else {
                    ElectionDelay {
                        fixed_ms: 500,
                        random_ms: total.saturating_sub(500 + rank_ms),
                        rank_ms,
                    }
                };
                Some(Note::ElectionScheduled {
                    node,
                    rank,
                    offset: sim.nodes[node as usize].repl_offset,
                    delay,
                    at: at.saturating_sub(self.r.origin),
                })
            }
            EventKind::ElectionStarted { node, epoch } => Some(Note::ElectionStarted {
                node,
                epoch,
                needed: sim.nodes[node as usize].size / 2 + 1,
            }),
            EventKind::Vote {
                voter,
                candidate,
                epoch,
            } => {
                let needed = sim.nodes[candidate as usize].size / 2 + 1;
                let votes = match self
                    .votes
                    .iter_mut()
                    .find(|v| v.0 == candidate && v.1 == epoch)
                {
                    Some(v) => {
                        v.2 += 1;
                        v.2
                    }
                    None => {
                        self.votes.push((candidate, epoch, 1));
                        1
                    }
                };
                Some(Note::Vote {
                    voter,
                    candidate,
                    epoch,
                    votes,
                    needed,
                })
            }
            EventKind::Partition { ref sides } => Some(Note::Partition {
                sides: sides.clone(),
            }),
        }
    }

    /// After each ms of a `Join`: who knows the new node now.
    fn track_meet(&mut self, ms: u64) {
        let Some(m) = &mut self.meet else {
            return;
        };
        if m.everyone_at.is_some() {
            return;
        }
        let sim = &self.r.sim;
        let new = m.node as usize;
        self.hops.resize(sim.nodes.len(), None);
        for (i, n) in sim.nodes.iter().enumerate() {
            if i == new || m.learned.iter().any(|l| l.0 as usize == i) {
                continue;
            }
            let p = &n.peers[new];
            if p.known() && p.flags & flag::HANDSHAKE == 0 {
                // The message that taught it: the last delivered to i this ms.
                let from = sim
                    .events
                    .iter()
                    .rev()
                    .take_while(|e| e.t == sim.now)
                    .find_map(|e| match e.kind {
                        EventKind::Delivered { to, from, .. } if to as usize == i => Some(from),
                        _ => None,
                    });
                let hop = from
                    .and_then(|f| self.hops.get(f as usize).copied().flatten())
                    .map(|h| h + 1);
                self.hops[i] = hop;
                m.rounds = m.rounds.max(hop.unwrap_or(0));
                m.learned.push((i as u32, ms, hop));
            }
        }
        let others = sim.nodes.len() - 1;
        if m.learned.len() >= others {
            m.everyone_at = Some(ms);
        }
    }

    fn finish(self, spec: ScenarioSpec, until: u64) -> Timeline {
        let mut lost = Vec::new();
        for w in &self.writes {
            let Ok(offset) = w.outcome else { continue };
            let Some(&(_, promoted, promoted_offset, promoted_at)) = self
                .promotions
                .iter()
                .find(|p| p.0 == w.node && p.2 < offset)
            else {
                continue;
            };
            let lost_at = self
                .demotions
                .iter()
                .find(|d| d.0 == w.node && d.1 >= w.t)
                .map(|d| d.1)
                .unwrap_or(promoted_at);
            lost.push(LostWrite {
                number: w.number,
                promoted,
                promoted_offset,
                lost_at,
            });
        }
        let last_action = spec.script.last().map(|a| a.0);
        let last_note = self
            .notable
            .iter()
            .filter(|n| !matches!(n.note, Note::Action { .. }))
            .map(|n| n.t)
            .max();
        let end_ms = match last_note.max(last_action) {
            None => until,
            Some(t) => t.saturating_add(2000).min(until),
        };
        let origin = self.r.origin;
        Timeline {
            spec,
            origin,
            until_ms: until,
            end_ms,
            steps: self.steps,
            notable: self.notable,
            writes: self.writes,
            lost,
            meet: self.meet,
            full: self.r.sim,
            cursor: None,
        }
    }
}

/// `clusterUpdateState`'s inputs, from `n`'s view.
fn state_why(sim: &Sim, n: u32) -> StateWhy {
    let v = &sim.nodes[n as usize];
    let (mut size, mut reachable) = (0u32, 0u32);
    for p in &v.known_list {
        let q = &v.peers[*p as usize];
        if q.is_master() && q.numslots > 0 {
            size += 1;
            if q.flags & (flag::FAIL | flag::PFAIL) == 0 {
                reachable += 1;
            }
        }
    }
    let uncovered_slot = v
        .slot_owner
        .iter()
        .position(|o| *o == NO_NODE || v.peers.get(*o as usize).is_none_or(|q| q.failed()))
        .map(|s| s as u32);
    StateWhy {
        reachable,
        needed: size / 2 + 1,
        uncovered_slot,
    }
}

/// Does `a` on `sim` (`sides`: each node's partition side), as a script applies it; the one
/// place actions are carried out, for this timeline and for a view's own runs.
pub fn apply_action(sim: &mut Sim, sides: &mut Vec<u32>, a: Action) -> Outcome {
    let process = |sim: &Sim, n: u32| sim.nodes.get(n as usize).map(|x| x.process);
    match a {
        Action::Crash(n) => match process(sim, n) {
            Some(Process::Running | Process::Hung) => {
                sim.crash(n);
                Outcome::Done
            }
            _ => Outcome::Ignored,
        },
        Action::Hang(n) => match process(sim, n) {
            Some(Process::Running) => {
                sim.hang(n);
                Outcome::Done
            }
            _ => Outcome::Ignored,
        },
        Action::Resume(n) => match process(sim, n) {
            Some(Process::Hung) => {
                sim.resume(n);
                Outcome::Done
            }
            _ => Outcome::Ignored,
        },
        Action::Restart(n) => match process(sim, n) {
            Some(Process::Crashed) => {
                sim.restart(n);
                Outcome::Done
            }
            _ => Outcome::Ignored,
        },
        Action::Isolate(n) => {
            if !sim.has(n) {
                return Outcome::Ignored;
            }
            let side = sides.iter().copied().max().unwrap_or(0) + 1;
            if let Some(s) = sides.get_mut(n as usize) {
                *s = side;
            }
            sim.partition(sides);
            Outcome::Done
        }
        Action::Heal => {
            sides.iter_mut().for_each(|s| *s = 0);
            sim.heal();
            Outcome::Done
        }
        Action::Failover(n, mode) => Outcome::Failover(sim.cluster_failover(n, mode)),
        Action::Write { node, bytes } => {
            let Some(x) = sim.nodes.get(node as usize) else {
                return Outcome::Write(Err(WriteRefusal::NoAnswer));
            };
            let r = if x.process != Process::Running {
                Err(WriteRefusal::NoAnswer)
            } else if !x.is_master() || x.me().numslots == 0 {
                Err(WriteRefusal::NotMaster)
            } else if !x.state_ok {
                Err(WriteRefusal::ClusterDown)
            } else if x.paused_until > sim.now {
                Err(WriteRefusal::Paused)
            } else if sim.write(node, u64::from(bytes)) {
                Ok(sim.nodes[node as usize].repl_offset)
            } else {
                Err(WriteRefusal::NoAnswer)
            };
            Outcome::Write(r)
        }
        Action::NoFailover(n, on) => {
            if !sim.has(n) {
                return Outcome::Ignored;
            }
            sim.set_nofailover(n, on);
            Outcome::Done
        }
        Action::Join { member } => {
            if !sim.has(member) {
                return Outcome::Ignored;
            }
            let port = sim
                .nodes
                .iter()
                .map(|x| x.port)
                .max()
                .unwrap_or(0)
                .saturating_add(1);
            match sim.add_node(port) {
                Some(new) => {
                    sides.push(0);
                    sim.meet(new, member);
                    Outcome::Joined(new)
                }
                None => Outcome::Ignored,
            }
        }
    }
}
