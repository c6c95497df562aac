//! The data a timeline is made of: steps (bus events, log lines, actions with their
//! outcomes), notable steps with the numbers that explain them (`Note`), writes and lost
//! writes, and the spread of a MEET. Times are ms from the script's t = 0 unless a field
//! says otherwise.

use super::Action;
use crate::{EventKind, FailoverRefusal, Opinion, Process};
/// What an action did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// It took effect.
    Done,
    /// It changed nothing: no such node, or the process was not in a state it applies to
    /// (resume of a running node, restart of a live one, …).
    Ignored,
    /// `CLUSTER FAILOVER`'s reply: `Ok` is `+OK`; a refusal's `Display` is Redis's text.
    Failover(Result<(), FailoverRefusal>),
    /// A write: acknowledged with the master's replication offset after it, or refused.
    /// Writes are numbered 1.. in script order (`Timeline::writes`).
    Write(Result<u64, WriteRefusal>),
    /// A node joined: its number.
    Joined(u32),
}

/// Why a write was not acknowledged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteRefusal {
    /// The process is stopped or dead (the client times out or is refused).
    NoAnswer,
    /// The node is a replica now (a client gets `MOVED` to the slot's master).
    NotMaster,
    /// The node is in `cluster_state:fail` (`CLUSTERDOWN The cluster is down`).
    ClusterDown,
    /// Writes are paused for a manual failover (the client blocks).
    Paused,
}

impl std::fmt::Display for WriteRefusal {
    /// Redis's reply where Redis sends one (the CLUSTERDOWN error); empty otherwise.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteRefusal::ClusterDown => f.write_str("CLUSTERDOWN The cluster is down"),
            _ => Ok(()),
        }
    }
}

/// One step of the timeline, at `t` ms from the script's 0.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// Ms from the script's t = 0.
    pub t: u64,
    /// What happened.
    pub kind: StepKind,
}

/// A step: the simulator's event, a log line of level notice (`*`) or warning (`#`), or an
/// action of the script. Within one ms: that ms's log lines, then its events, then the
/// actions scripted at it (with the lines and events they caused).
#[derive(Clone, Debug, PartialEq)]
pub enum StepKind {
    /// An event of the simulator (messages sent and delivered included).
    Bus(EventKind),
    /// A log line: index into `Timeline::logs()`.
    Log(usize),
    /// The script's action number `cue` (index into `spec.script`) and what it did.
    Action {
        /// Index into `spec.script`.
        cue: usize,
        /// The action.
        action: Action,
        /// What it did.
        outcome: Outcome,
    },
}

/// A step worth stopping at, with the numbers that say why it happened.
#[derive(Clone, Debug, PartialEq)]
pub struct Notable {
    /// Index into `Timeline::steps`.
    pub step: usize,
    /// Ms from the script's t = 0.
    pub t: u64,
    /// Why.
    pub note: Note,
}

/// The three parts of an election delay (`clusterHandleSlaveFailover`: `500 + random() %
/// 500 + rank × 1000`); all zero for a manual failover (no delay).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ElectionDelay {
    /// The fixed 500 ms (lets the FAIL reach every master).
    pub fixed_ms: u64,
    /// The random 0..500 ms (desynchronises the replicas).
    pub random_ms: u64,
    /// 1000 ms per rank.
    pub rank_ms: u64,
}

impl ElectionDelay {
    /// The whole delay.
    pub fn total_ms(&self) -> u64 {
        self.fixed_ms + self.random_ms + self.rank_ms
    }
}

/// Why a node's `cluster_state` is what it is (`clusterUpdateState`), from its own view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateWhy {
    /// Slot-owning masters it sees neither PFAIL nor FAIL (itself included).
    pub reachable: u32,
    /// `size / 2 + 1`: how many it needs.
    pub needed: u32,
    /// The first slot whose owner is unknown or FAIL (matters with full coverage).
    pub uncovered_slot: Option<u32>,
}

/// The data a narration needs, per notable step (the UI words it).
#[derive(Clone, Debug, PartialEq)]
pub enum Note {
    /// `observer` flagged `subject` `fail?`: its ping unanswered for `silent_ms` > NT.
    Pfail {
        /// Whose view.
        observer: u32,
        /// About whom.
        subject: u32,
        /// Ms since the unanswered PING went out.
        silent_ms: u64,
        /// NT.
        node_timeout: u64,
    },
    /// `observer` marked `subject` FAIL itself: `reports` (its own counted if it is a master)
    /// reached `needed` (`Marking node … as failing (quorum reached).`).
    Fail {
        /// Whose view.
        observer: u32,
        /// About whom.
        subject: u32,
        /// Failure reports counted (itself included when a master).
        reports: u32,
        /// The quorum, `size / 2 + 1`.
        needed: u32,
    },
    /// `observer` took `subject`'s FAIL from `from`'s FAIL message.
    FailReceived {
        /// Whose view.
        observer: u32,
        /// About whom.
        subject: u32,
        /// The broadcaster.
        from: u32,
    },
    /// `observer` thinks `subject` ok again (it was `was`).
    Cleared {
        /// Whose view.
        observer: u32,
        /// About whom.
        subject: u32,
        /// The opinion before.
        was: Opinion,
        /// For a FAIL cleared, Redis's line saying why (`Clear FAIL state for node …: replica
        /// is reachable again.`, `master without slots …`, or `… nobody is serving its slots
        /// after some time.`, 2 × NT after FAIL): index into `Timeline::logs()`.
        log: Option<usize>,
    },
    /// `from` broadcast FAIL about `about` to `receivers` nodes.
    FailBroadcast {
        /// The broadcaster.
        from: u32,
        /// The failed node.
        about: u32,
        /// How many FAIL messages it sent.
        receivers: u32,
    },
    /// `node`'s `cluster_state` changed.
    State {
        /// The node.
        node: u32,
        /// `cluster_state:ok`.
        ok: bool,
        /// Its view when it changed.
        why: StateWhy,
    },
    /// A replica scheduled its election.
    ElectionScheduled {
        /// The replica.
        node: u32,
        /// Its rank among its master's replicas (by offset).
        rank: u32,
        /// Its replication offset.
        offset: u64,
        /// The delay's parts.
        delay: ElectionDelay,
        /// When it starts (ms from t = 0).
        at: u64,
    },
    /// A replica asked for votes in `epoch`; it needs `needed` of the slot-owning masters.
    ElectionStarted {
        /// The replica.
        node: u32,
        /// The election's epoch.
        epoch: u64,
        /// Votes it needs.
        needed: u32,
    },
    /// A master voted; the candidate has `votes` of `needed` in this epoch.
    Vote {
        /// The master.
        voter: u32,
        /// The replica.
        candidate: u32,
        /// The epoch.
        epoch: u64,
        /// Votes so far (this one included).
        votes: u32,
        /// Votes needed.
        needed: u32,
    },
    /// A master refused its vote: the log line (Redis's reason) is `log`.
    VoteDenied {
        /// The master.
        voter: u32,
        /// Index into `Timeline::logs()`.
        log: usize,
    },
    /// `node`'s role changed: master (`master: None`) or replica of `master`; `was` its master
    /// before (`None`: it was a master); `config_epoch` its own (a master's) config epoch.
    Role {
        /// The node.
        node: u32,
        /// Its master now.
        master: Option<u32>,
        /// Its master before.
        was: Option<u32>,
        /// Its config epoch (its master's, for a replica).
        config_epoch: u64,
    },
    /// A process started, stopped, resumed or died.
    Process {
        /// The node.
        node: u32,
        /// Its state now.
        process: Process,
    },
    /// `from` sent UPDATE to `to` about `about` (its slots belong to a newer epoch). One
    /// note per sender and receiver per ms (a stale node may be told on every packet).
    Update {
        /// The sender.
        from: u32,
        /// The receiver (a node with a stale view, e.g. a returning master).
        to: u32,
        /// The node whose slots the update is about.
        about: u32,
    },
    /// The network was split (`sides[i]` is node i's side) or healed (all equal).
    Partition {
        /// Side of each node.
        sides: Vec<u32>,
    },
    /// Another notice/warning line worth a stop (manual failover steps, migration, an expired
    /// election): index into `Timeline::logs()`.
    Log {
        /// The node.
        node: u32,
        /// Index into `Timeline::logs()`.
        log: usize,
    },
    /// The script's action `cue` and what it did.
    Action {
        /// Index into `spec.script`.
        cue: usize,
        /// The action.
        action: Action,
        /// What it did.
        outcome: Outcome,
    },
}

/// One write of the script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteRecord {
    /// 1, 2, … in script order.
    pub number: u32,
    /// Index into `spec.script`.
    pub cue: usize,
    /// Ms from t = 0.
    pub t: u64,
    /// The master written to.
    pub node: u32,
    /// The master's replication offset after it, or why it was refused.
    pub outcome: Result<u64, WriteRefusal>,
}

/// A write that was acknowledged and then lost: its master was replaced by a replica that
/// never received it (promoted at `promoted_offset` < the write's offset).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LostWrite {
    /// The write's number (`WriteRecord::number`).
    pub number: u32,
    /// The replica promoted in its master's place.
    pub promoted: u32,
    /// That replica's offset when it was promoted.
    pub promoted_offset: u64,
    /// When the loss happened: the old master's demotion (it then resyncs from the new
    /// master and drops the write), or the promotion if it never comes back as a replica.
    pub lost_at: u64,
}

/// How a `Join` spread: when each node first knew the new node, and from whom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeetSpread {
    /// The new node.
    pub node: u32,
    /// The member it met.
    pub met: u32,
    /// When it joined (ms from t = 0).
    pub joined_at: u64,
    /// Each other node's first knowledge of it: (node, ms from t = 0, hops: 1 for the met
    /// member, then 1 + the hops of the node whose message taught it; `None` if no message
    /// arrived in that ms).
    pub learned: Vec<(u32, u64, Option<u32>)>,
    /// When every other node knew it.
    pub everyone_at: Option<u64>,
    /// The most hops any node needed (gossip rounds of the spread).
    pub rounds: u32,
}
