//! Numbers the reader asks about, measured by running the simulator (data only; the page
//! words and draws them): heartbeat traffic per node and per cluster for N masters with
//! 16384 slots and with a hypothetical 65536, time to failover against `cluster-node-timeout`
//! over repeated seeded runs (PFAIL, FAIL, promotion: min / p50 / p90 / max), and what a
//! master's death does to a cluster of 2 masters versus 3 ("why at least 3 masters").
//!
//! Sizes: every bus message starts with `clusterMsg`'s header (cluster.h), 2256 bytes of
//! which `myslots[CLUSTER_SLOTS/8]` is 2048; with 65536 slots that bitmap would be 8192 bytes,
//! so every message would grow by 6144 bytes (an UPDATE, which carries a second bitmap, by
//! twice that). This is antirez's reasoning for 16384 (redis/redis issue #2576, 2015): the
//! heartbeat carries the node's slots as a raw bitmap, 2k with 16k slots but "a prohibitive
//! 8k" with 65k, while more than 1000 masters was unlikely anyway, so 16k slots per at most
//! 1000 masters was enough.

use super::output::{EventKind, Opinion};
use super::sim::Sim;
use super::types::{Config, MsgType, SLOTS};

/// The slot bitmap's bytes in every header with 16384 slots (`CLUSTER_SLOTS / 8`).
pub const SLOT_BITMAP_BYTES: u32 = (SLOTS / 8) as u32;
/// The slot bitmap's bytes a 65536-slot header would carry.
pub const SLOT_BITMAP_BYTES_65536: u32 = 65536 / 8;

/// Heartbeat traffic of a steady cluster, counted from the simulation's messages.
#[derive(Clone, Debug, PartialEq)]
pub struct Traffic {
    /// Masters.
    pub masters: usize,
    /// Replicas per master.
    pub replicas_per_master: usize,
    /// Nodes in all.
    pub nodes: usize,
    /// `cluster-node-timeout`, ms.
    pub node_timeout: u64,
    /// Simulated ms measured (after the warm-up).
    pub measured_ms: u64,
    /// Messages the whole cluster sent per second (PING, PONG and the rest).
    pub msgs_per_s: f64,
    /// Bytes the whole cluster sent per second with 16384 slots.
    pub bytes_per_s: f64,
    /// Bytes per second if the header carried a 65536-slot bitmap (same messages).
    pub bytes_per_s_65536: f64,
    /// Average bytes per message (16384 slots).
    pub bytes_per_msg: f64,
}

impl Traffic {
    /// Messages one node sends per second, on average.
    pub fn msgs_per_s_per_node(&self) -> f64 {
        self.msgs_per_s / self.nodes.max(1) as f64
    }
    /// Bytes one node sends per second (16384 slots).
    pub fn bytes_per_s_per_node(&self) -> f64 {
        self.bytes_per_s / self.nodes.max(1) as f64
    }
    /// Bytes one node would send per second with 65536 slots.
    pub fn bytes_per_s_per_node_65536(&self) -> f64 {
        self.bytes_per_s_65536 / self.nodes.max(1) as f64
    }
}

/// Measure a steady cluster of `masters` masters with `replicas_per_master` replicas each:
/// run `2 × NT` to reach the steady state, then count `measure_ms`.
pub fn heartbeat_traffic(
    masters: usize,
    replicas_per_master: usize,
    node_timeout: u64,
    seed: u64,
    measure_ms: u64,
) -> Traffic {
    let mut run = TrafficRun::new(masters, replicas_per_master, node_timeout, seed, measure_ms);
    loop {
        if let Some(t) = run.advance(u64::MAX) {
            return t;
        }
    }
}

/// [`heartbeat_traffic`] a slice at a time (a page measures a big cluster between frames):
/// the same simulation, stopped wherever the caller likes (the simulator is deterministic
/// whatever the slices).
pub struct TrafficRun {
    sim: Sim,
    masters: usize,
    replicas_per_master: usize,
    node_timeout: u64,
    measure_ms: u64,
    warm_end: u64,
    end: u64,
    /// Bytes, messages and UPDATEs sent when the warm-up ended.
    at_warm_end: Option<(u64, u64, u64)>,
    result: Option<Traffic>,
}

/// The cluster a measurement runs on: `masters` (1 to the node limit) with
/// `replicas_per_master` each as far as the limit allows, messages not recorded, created and
/// warmed up for `warmup` ms. Also returns the master count used and each replica's master
/// (replica `i` is node `masters + i`).
fn measured_cluster(
    masters: usize,
    replicas_per_master: usize,
    node_timeout: u64,
    seed: u64,
    warmup: u64,
) -> (Sim, usize, Vec<usize>) {
    let masters = masters.clamp(1, super::MAX_NODES);
    let replica_of: Vec<usize> = (0..replicas_per_master)
        .flat_map(|_| 0..masters)
        .take(super::MAX_NODES - masters)
        .collect();
    let cfg = Config {
        node_timeout: node_timeout.max(1),
        record_messages: false,
        ..Config::default()
    };
    let sim = Sim::create(cfg, seed, masters, &replica_of, 7000, warmup);
    (sim, masters, replica_of)
}

impl TrafficRun {
    /// The cluster created; nothing simulated yet.
    pub fn new(
        masters: usize,
        replicas_per_master: usize,
        node_timeout: u64,
        seed: u64,
        measure_ms: u64,
    ) -> TrafficRun {
        let (sim, masters, _) =
            measured_cluster(masters, replicas_per_master, node_timeout, seed, 0);
        let warm_end = sim.now.saturating_add(node_timeout.saturating_mul(2));
        let measure_ms = measure_ms.max(1);
        TrafficRun {
            sim,
            masters,
            replicas_per_master,
            node_timeout,
            measure_ms,
            warm_end,
            end: warm_end.saturating_add(measure_ms),
            at_warm_end: None,
            result: None,
        }
    }

    /// Simulates up to `ms` more milliseconds; the traffic once the measurement is over.
    pub fn advance(&mut self, ms: u64) -> Option<Traffic> {
        if self.result.is_some() {
            return self.result.clone();
        }
        let to = self.sim.now.saturating_add(ms);
        if self.at_warm_end.is_none() {
            self.sim.run_until(to.min(self.warm_end));
            if self.sim.now < self.warm_end {
                return None;
            }
            let sim = &self.sim;
            self.at_warm_end = Some((sim.bytes_sent, sim.messages_sent, updates_sent(sim)));
        }
        self.sim.run_until(to.min(self.end));
        if self.sim.now < self.end {
            return None;
        }
        self.finish()
    }

    /// Simulates at most `steps` more events (a cron tick or a message each); the traffic once
    /// the measurement is over. At a few hundred nodes one simulated instant (the NT/2 burst,
    /// every node pinging every peer) holds more work than a frame, so a page slices by events.
    pub fn advance_steps(&mut self, steps: usize) -> Option<Traffic> {
        if self.result.is_some() {
            return self.result.clone();
        }
        if self.at_warm_end.is_none() {
            if !self.sim.run_until_steps(self.warm_end, steps) {
                return None;
            }
            let sim = &self.sim;
            self.at_warm_end = Some((sim.bytes_sent, sim.messages_sent, updates_sent(sim)));
            return None;
        }
        if !self.sim.run_until_steps(self.end, steps) {
            return None;
        }
        self.finish()
    }

    /// The measurement, from the counts at the warm-up's end and now (the run's end).
    fn finish(&mut self) -> Option<Traffic> {
        let (bytes0, msgs0, updates0) = self.at_warm_end.unwrap_or_default();
        let sim = &self.sim;
        let bytes = (sim.bytes_sent - bytes0) as f64;
        let msgs = (sim.messages_sent - msgs0) as f64;
        let updates = updates_sent(sim).saturating_sub(updates0) as f64;
        let grow = f64::from(SLOT_BITMAP_BYTES_65536 - SLOT_BITMAP_BYTES);
        let bytes_65536 = bytes + grow * msgs + grow * updates;
        let secs = self.measure_ms as f64 / 1000.0;
        self.result = Some(Traffic {
            masters: self.masters,
            replicas_per_master: self.replicas_per_master,
            nodes: sim.nodes.len(),
            node_timeout: self.node_timeout,
            measured_ms: self.measure_ms,
            msgs_per_s: msgs / secs,
            bytes_per_s: bytes / secs,
            bytes_per_s_65536: bytes_65536 / secs,
            bytes_per_msg: if msgs > 0.0 { bytes / msgs } else { 0.0 },
        });
        self.result.clone()
    }
}

fn updates_sent(sim: &Sim) -> u64 {
    let i = MsgType::Update.stat_index();
    sim.nodes.iter().map(|n| n.stats_sent[i]).sum()
}

/// One seeded run of "a master crashes": ms from the crash until the first node flagged it
/// `fail?`, until the first node flagged it `fail`, and until its replica became master.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FailoverRun {
    /// First PFAIL about the dead master, ms after the crash.
    pub pfail_ms: Option<u64>,
    /// First FAIL about it (quorum reached), ms after the crash.
    pub fail_ms: Option<u64>,
    /// A replica of it became master, ms after the crash.
    pub promoted_ms: Option<u64>,
    /// When the first node's cluster state turned `fail`, ms after the crash.
    pub cluster_down_ms: Option<u64>,
}

/// Crash master 0 of a `masters` × (1 + `replicas_per_master`) cluster after a seeded
/// warm-up and follow it for up to `watch_ms`.
pub fn failover_run(
    masters: usize,
    replicas_per_master: usize,
    node_timeout: u64,
    seed: u64,
    watch_ms: u64,
) -> FailoverRun {
    // The crash lands anywhere within a second of the clock (cron phases are per seed too).
    let warmup = node_timeout.saturating_mul(2).saturating_add(seed % 1000);
    let (mut sim, masters, replica_of) =
        measured_cluster(masters, replicas_per_master, node_timeout, seed, warmup);
    let t0 = sim.now;
    let from = sim.events.len();
    sim.crash(0);
    let mut run = FailoverRun {
        pfail_ms: None,
        fail_ms: None,
        promoted_ms: None,
        cluster_down_ms: None,
    };
    let end = t0.saturating_add(watch_ms);
    let mut seen = from;
    while sim.now < end && run.promoted_ms.is_none() {
        match sim.step() {
            Some(t) if t <= end => {}
            _ => break,
        }
        for e in sim.events.get(seen..).unwrap_or(&[]) {
            let at = e.t.saturating_sub(t0);
            match &e.kind {
                EventKind::Opinion {
                    subject: 0,
                    opinion,
                    ..
                } => {
                    if *opinion == Opinion::Pfail && run.pfail_ms.is_none() {
                        run.pfail_ms = Some(at);
                    }
                    if *opinion == Opinion::Fail && run.fail_ms.is_none() {
                        run.fail_ms = Some(at);
                    }
                }
                EventKind::Role { node, master: None } => {
                    let n = *node as usize;
                    if n >= masters && replica_of.get(n - masters) == Some(&0) {
                        run.promoted_ms = run.promoted_ms.or(Some(at));
                    }
                }
                EventKind::State { ok: false, .. } => {
                    run.cluster_down_ms = run.cluster_down_ms.or(Some(at));
                }
                _ => {}
            }
        }
        seen = sim.events.len();
    }
    run
}

/// Min, median, 90th percentile and max of some ms figures (nearest rank).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spread {
    /// Smallest.
    pub min: u64,
    /// Median (nearest rank).
    pub p50: u64,
    /// 90th percentile (nearest rank).
    pub p90: u64,
    /// Largest.
    pub max: u64,
}

impl Spread {
    /// The spread of `values`, `None` when there are none.
    pub fn of(values: &[u64]) -> Option<Spread> {
        let mut v = values.to_vec();
        v.sort_unstable();
        let last = v.len().checked_sub(1)?;
        let rank = |p: usize| v[((v.len() * p).div_ceil(100)).saturating_sub(1).min(last)];
        Some(Spread {
            min: v[0],
            p50: rank(50),
            p90: rank(90),
            max: v[last],
        })
    }
}

/// Time to failover for one node timeout over `runs` seeds.
#[derive(Clone, Debug, PartialEq)]
pub struct FailoverTimes {
    /// `cluster-node-timeout`, ms.
    pub node_timeout: u64,
    /// Seeded runs.
    pub runs: usize,
    /// The runs themselves, seed `first_seed + i`.
    pub samples: Vec<FailoverRun>,
    /// First PFAIL after the crash.
    pub pfail: Option<Spread>,
    /// First FAIL after the crash.
    pub fail: Option<Spread>,
    /// Promotion of the replica after the crash.
    pub promoted: Option<Spread>,
    /// How many runs ended with the replica promoted.
    pub promoted_runs: usize,
}

/// `runs` seeded runs of a 3-master, 1-replica-each cluster losing a master, at
/// `node_timeout`.
pub fn failover_times(node_timeout: u64, runs: usize, first_seed: u64) -> FailoverTimes {
    let watch = node_timeout.saturating_mul(4).saturating_add(10_000);
    let samples: Vec<FailoverRun> = (0..runs as u64)
        .map(|i| failover_run(3, 1, node_timeout, first_seed.wrapping_add(i), watch))
        .collect();
    let pick = |f: fn(&FailoverRun) -> Option<u64>| {
        Spread::of(&samples.iter().filter_map(f).collect::<Vec<_>>())
    };
    FailoverTimes {
        node_timeout,
        runs,
        pfail: pick(|r| r.pfail_ms),
        fail: pick(|r| r.fail_ms),
        promoted: pick(|r| r.promoted_ms),
        promoted_runs: samples.iter().filter(|r| r.promoted_ms.is_some()).count(),
        samples,
    }
}

/// A master of a `masters`-master cluster (one replica each) dies: what the survivors do
/// within `watch_ms`. With 2 masters the one survivor is no majority of 2 (quorum
/// `size/2 + 1` = 2): the dead master is never marked FAIL, its replica never runs an
/// election, and the cluster stays down; with 3 it fails over.
pub fn minimum_masters(masters: usize, node_timeout: u64, seed: u64, watch_ms: u64) -> FailoverRun {
    failover_run(masters, 1, node_timeout, seed, watch_ms)
}
