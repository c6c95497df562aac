//! Ready-made bus scenarios and free play as data: the knobs of a cluster, a script of timed
//! actions (`ScenarioSpec`), the catalogue of stories (`ScenarioId`, with stable slugs), and
//! a compact byte form for share links (`codec.rs`). `timeline.rs` plays a spec into a
//! scrub-able timeline (steps, notable events with their "why" as numbers, lost writes,
//! gossip spread). No prose: the UI words everything; the only text is Redis's.
//!
//! Node numbers in actions are simulation indexes: masters are `0..masters` (ports
//! `base_port..`), then the replicas in `Knobs::replica_of` order, then nodes that joined
//! (`Action::Join`), each on the next port.

mod catalogue;
mod codec;
mod steps;
mod timeline;

pub use catalogue::ScenarioId;
pub use codec::{DecodeError, MAX_ACTIONS};
pub use steps::{
    ElectionDelay, LostWrite, MeetSpread, Notable, Note, Outcome, StateWhy, Step, StepKind,
    WriteRecord, WriteRefusal,
};
pub use timeline::{apply_action, Timeline};

use super::{Config, FailoverMode, Sim, MAX_NODES};

/// The settings a user can turn before a run (free play), and those a scenario fixes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Knobs {
    /// `cluster-node-timeout`, ms (clamped to 100..=600000 when run).
    pub node_timeout: u32,
    /// Masters, each given its `redis-cli --cluster create` slot range (clamped to 1..=1000).
    pub masters: u16,
    /// One entry per replica: the index of its master (entries naming no master are dropped).
    /// Replica `i` is node `masters + i`, on port `base_port + masters + i`.
    pub replica_of: Vec<u16>,
    /// `cluster-require-full-coverage`.
    pub require_full_coverage: bool,
    /// `cluster-allow-replica-migration`.
    pub allow_replica_migration: bool,
    /// The simulation's seed (election delays, ping targets, node ids, pids).
    pub seed: u64,
    /// The first node's port (the fixtures use 7200).
    pub base_port: u16,
}

impl Default for Knobs {
    /// 3 masters with one replica each, laid out as the recordings' `redis-cli --cluster
    /// create` did (7203→7201, 7204→7202, 7205→7200), NT 2000 as the recordings.
    fn default() -> Self {
        Knobs::uniform(3, 1, 2000, 1)
    }
}

impl Knobs {
    /// `masters` masters with `replicas` replicas each: replica `i` follows master
    /// `(i + 1) % masters` (the rotation the recorded 6-node clusters show).
    pub fn uniform(masters: u16, replicas: u16, node_timeout: u32, seed: u64) -> Knobs {
        let masters = masters.clamp(1, MAX_NODES as u16);
        let total = (usize::from(masters) * usize::from(replicas)).min(MAX_NODES);
        let replica_of = (0..total)
            .map(|i| ((i + 1) % usize::from(masters)) as u16)
            .collect();
        Knobs {
            node_timeout,
            masters,
            replica_of,
            require_full_coverage: true,
            allow_replica_migration: true,
            seed,
            base_port: 7200,
        }
    }

    /// The simulator's configuration for these knobs (everything else at Redis's defaults).
    pub fn config(&self) -> Config {
        Config {
            node_timeout: u64::from(self.node_timeout.clamp(100, 600_000)),
            require_full_coverage: self.require_full_coverage,
            allow_replica_migration: self.allow_replica_migration,
            ..Config::default()
        }
    }

    /// How many nodes the cluster starts with (masters + replicas, at most `MAX_NODES`).
    pub fn nodes(&self) -> usize {
        let m = usize::from(self.masters.clamp(1, MAX_NODES as u16));
        let r = self
            .replica_of
            .iter()
            .filter(|x| usize::from(**x) < m)
            .count();
        (m + r).min(MAX_NODES)
    }

    /// The cluster as created, after `WARMUP_MS` of steady heartbeats.
    pub fn create(&self) -> Sim {
        let masters = usize::from(self.masters.clamp(1, MAX_NODES as u16));
        let replica_of: Vec<usize> = self.replica_of.iter().map(|x| usize::from(*x)).collect();
        Sim::create(
            self.config(),
            self.seed,
            masters,
            &replica_of,
            self.base_port,
            WARMUP_MS,
        )
    }
}

/// How long a created cluster runs before the script's t = 0 (pings and cron phases in their
/// steady state, as the recordings waited for a settled cluster).
pub const WARMUP_MS: u64 = 5000;

/// Something done to the cluster at an instant of the script. Node numbers: see the module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// SIGKILL the process.
    Crash(u32),
    /// SIGSTOP the process.
    Hang(u32),
    /// SIGCONT a stopped process.
    Resume(u32),
    /// Start a killed node again from its own `nodes.conf`.
    Restart(u32),
    /// Cut the node off from every other node (it alone on its side of a partition).
    Isolate(u32),
    /// Heal every partition.
    Heal,
    /// `CLUSTER FAILOVER [FORCE|TAKEOVER]` sent to the node (its reply: `Outcome::Failover`).
    Failover(u32, FailoverMode),
    /// A client write of `bytes` bytes to the node, a master, into its own slots (numbered in
    /// script order: `Outcome::Write`).
    Write {
        /// The node written to.
        node: u32,
        /// The bytes the replication offset advances by.
        bytes: u32,
    },
    /// `CONFIG SET cluster-replica-no-failover yes|no` on the node.
    NoFailover(u32, bool),
    /// A new empty node starts on the next port and is sent `CLUSTER MEET` about `member`
    /// (as `redis-cli --cluster add-node` does): gossip spreads it.
    Join {
        /// The member it meets.
        member: u32,
    },
}

impl Action {
    /// The node the action is about (`None` for `Heal`; the met member for `Join`).
    pub fn node(&self) -> Option<u32> {
        match *self {
            Action::Crash(n)
            | Action::Hang(n)
            | Action::Resume(n)
            | Action::Restart(n)
            | Action::Isolate(n)
            | Action::Failover(n, _)
            | Action::NoFailover(n, _) => Some(n),
            Action::Write { node, .. } => Some(node),
            Action::Join { member } => Some(member),
            Action::Heal => None,
        }
    }
}

/// A run: the knobs, a script of `(t_ms, action)` (t from the script's 0, in order; actions
/// at the same ms run in list order), and how long to simulate. A ready-made scenario is one
/// of these; free play appends the user's actions to `script` (`push`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioSpec {
    /// The cluster.
    pub knobs: Knobs,
    /// The actions, sorted by time.
    pub script: Vec<(u64, Action)>,
    /// Simulated ms after t = 0 the timeline covers (clamped to `MAX_UNTIL_MS`).
    pub until_ms: u64,
}

/// The longest timeline a spec asks for: one simulated hour.
pub const MAX_UNTIL_MS: u64 = 3_600_000;

impl ScenarioSpec {
    /// A spec with no actions.
    pub fn new(knobs: Knobs, until_ms: u64) -> Self {
        ScenarioSpec {
            knobs,
            script: Vec::new(),
            until_ms,
        }
    }

    /// Add an action at `t` (kept in time order, after any action already at `t`); the
    /// horizon grows to cover it plus `settle_ms()`.
    pub fn push(&mut self, t: u64, action: Action) {
        let t = t.min(MAX_UNTIL_MS);
        let at = self.script.partition_point(|(u, _)| *u <= t);
        self.script.insert(at, (t, action));
        self.until_ms = self.until_ms.max(t.saturating_add(self.settle_ms()));
    }

    /// How long a story may take to settle after its last action: 10 × NT, at least 20 s
    /// (an election retry after 2 × auth timeout = 4 × NT, then the next one).
    pub fn settle_ms(&self) -> u64 {
        (u64::from(self.knobs.node_timeout.clamp(100, 600_000)) * 10).max(20_000)
    }

    /// The share-link bytes (see `codec.rs`).
    pub fn encode(&self) -> Vec<u8> {
        codec::encode(self)
    }

    /// A spec from share-link bytes; never panics, whatever the bytes.
    pub fn decode(bytes: &[u8]) -> Result<ScenarioSpec, DecodeError> {
        codec::decode(bytes)
    }

    /// `encode` as URL-safe base64 without padding (RFC 4648 §5).
    pub fn to_link(&self) -> String {
        codec::base64url(&self.encode())
    }

    /// `decode` from URL-safe base64 (padding and whitespace tolerated).
    pub fn from_link(text: &str) -> Result<ScenarioSpec, DecodeError> {
        codec::decode(&codec::unbase64url(text)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The figure for the report: `cargo test --release -p slotscope-bus sixty_seconds --
    /// --nocapture`.
    #[test]
    fn sixty_seconds_of_six_nodes() {
        let spec = ScenarioSpec::new(Knobs::default(), 60_000);
        for _ in 0..2 {
            let start = std::time::Instant::now();
            let mut sim = spec.knobs.create();
            let created = start.elapsed();
            let t = sim.now;
            sim.run_until(t + 60_000);
            eprintln!(
                "simulator alone: create (5 s warm-up) {created:?}, then 60 s {:?}",
                start.elapsed() - created
            );
        }
        let start = std::time::Instant::now();
        let tl = Timeline::build(spec.clone());
        let built = start.elapsed();
        let mut tl2 = Timeline::build(spec);
        let start = std::time::Instant::now();
        let _ = tl2.state_at(30_000);
        let back = start.elapsed();
        let start = std::time::Instant::now();
        let _ = tl2.state_at(31_000);
        let forward = start.elapsed();
        eprintln!(
            "60 s of 6 nodes: {} steps, {} notable, built in {built:?}; state_at(30 s) from \
             scratch {back:?}, then +1 s {forward:?}",
            tl.steps.len(),
            tl.notable.len()
        );
        assert!(tl.steps.len() > 5000);
    }
}
