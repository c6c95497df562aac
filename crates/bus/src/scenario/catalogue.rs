//! The ready-made scenarios: each a `ScenarioSpec` with the recordings' configuration
//! (`fixtures/failover/`: `cluster-node-timeout 2000`, ports 7200.., the layouts their
//! `redis-cli --cluster create` chose) where a recording exists, so the scenario replays it.

use super::{Action, Knobs, ScenarioSpec};
use crate::FailoverMode;

/// A ready-made story. `slug()` is stable (links and the `bus-scenario-select` values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScenarioId {
    /// 3 masters + 3 replicas, nothing happens: heartbeats only.
    Steady,
    /// Master 7200 is killed at 0 and restarted at 10050 (`logs_crash.txt`): its replica
    /// 7205 is promoted, the old master returns as its replica.
    MasterCrash,
    /// Master 7200 is stopped (SIGSTOP) at 0 and resumed at 10050 (`logs_hang.txt`): it
    /// comes back, is told of the newer epoch and is demoted.
    MasterHang,
    /// 3 masters + 6 replicas (`logs_two_replicas_lag.txt`): 7205 is stopped while master
    /// 7200 takes writes its other replica 7203 receives; 7200 is killed at 1030, 7205
    /// resumed at 1230. The replica with the larger offset has rank 0 and wins.
    TwoReplicas,
    /// Master 7200 has no replica: it is killed at 0 and restarted at 8000. The cluster is
    /// down from FAIL until the FAIL flag clears when it answers again.
    NoReplica,
    /// 5 masters + 5 replicas; masters 7200 and 7201 are killed at once. Both replicas run
    /// elections; if they ask in the same epoch the votes may split and the loser retries
    /// after 2 × the auth timeout. Both are promoted, with distinct epochs.
    TwoMastersDie,
    /// Masters 7201 and 7202 are stopped at 0 and resumed at 12007
    /// (`logs_majority_loss.txt`): no FAIL, no promotion, the cluster down until they return.
    MajorityLoss,
    /// Master 7200 takes a write every 500 ms (250, 750, …, 7750); it is cut off alone at 1000
    /// and the network heals at 9000. It takes writes until it sees itself in the minority
    /// (about NT after the cut); its replica 7205 is promoted; when it rejoins it is demoted and
    /// the writes it took after the cut are lost (`Timeline::lost_writes`).
    Partition,
    /// `CLUSTER FAILOVER` to replica 7203 of 7200 at 0 (`logs_manual_failover_default.txt`).
    ManualFailover,
    /// `CLUSTER FAILOVER FORCE` to replica 7204 of 7201 at 0
    /// (`logs_manual_failover_force.txt`, whose cluster had one failover before: epochs + 1).
    ManualForce,
    /// `CLUSTER FAILOVER TAKEOVER` to replica 7203 of 7200 at 0: it bumps its config epoch
    /// without a vote and takes the slots (`logs_manual_failover_takeover.txt`, where 7205 of
    /// 7202 did it after two failovers: epochs + 2). Not 7205 here: on a fresh cluster its
    /// config epoch 6 (`SET-CONFIG-EPOCH`) is already the greatest, so
    /// `clusterBumpConfigEpochWithoutConsensus` would not bump it.
    ManualTakeover,
    /// Replica 7203 has `cluster-replica-no-failover yes`; its master 7200 is killed at 0. At
    /// 5000 a plain `CLUSTER FAILOVER` is refused (`ERR Master is down or failed, please use
    /// CLUSTER FAILOVER FORCE`); at 6000 `CLUSTER FAILOVER FORCE` promotes it.
    ManualRefused,
    /// Replica 7205 has `cluster-replica-no-failover yes`; its master 7200 is killed at 0 and
    /// restarted at 15000: no election, the cluster down until the master is back.
    Nofailover,
    /// 3 masters, 7200 with two replicas (7205, 7206). Master 7201 is killed at 0: its replica
    /// 7203 is promoted with no replica of its own, and after 5 s one of 7200's replicas
    /// migrates to it.
    ReplicaMigration,
    /// A new empty node (7206) is sent `CLUSTER MEET` about 7200 at 0; gossip spreads it
    /// (`Timeline::meet`: how long and how many hops until every node knows it).
    Meet,
}

impl ScenarioId {
    /// Every scenario, in the order a picker lists them.
    pub const ALL: [ScenarioId; 15] = [
        ScenarioId::Steady,
        ScenarioId::MasterCrash,
        ScenarioId::MasterHang,
        ScenarioId::TwoReplicas,
        ScenarioId::NoReplica,
        ScenarioId::TwoMastersDie,
        ScenarioId::MajorityLoss,
        ScenarioId::Partition,
        ScenarioId::ManualFailover,
        ScenarioId::ManualForce,
        ScenarioId::ManualTakeover,
        ScenarioId::ManualRefused,
        ScenarioId::Nofailover,
        ScenarioId::ReplicaMigration,
        ScenarioId::Meet,
    ];

    /// The seed the page opens this scenario with. Most scenarios tell their story with any
    /// seed; two masters dying at once does not: their replicas ask for votes in the same epoch
    /// only when both elections start within a message's flight of each other (9 seeds of the
    /// first 3000 with `Knobs::uniform`'s 1 ms links). Seed 974 is the first: both ask in
    /// epoch 11, each master votes once per epoch, so one of them is refused by every master
    /// and retries after twice the auth timeout (`tests/bus_scenarios.rs` checks this).
    pub fn page_seed(self) -> u64 {
        match self {
            ScenarioId::TwoMastersDie => 974,
            _ => 1,
        }
    }

    /// The stable slug (`master-crash`, …).
    pub fn slug(self) -> &'static str {
        match self {
            ScenarioId::Steady => "steady",
            ScenarioId::MasterCrash => "master-crash",
            ScenarioId::MasterHang => "master-hang",
            ScenarioId::TwoReplicas => "two-replicas",
            ScenarioId::NoReplica => "no-replica",
            ScenarioId::TwoMastersDie => "two-masters-die",
            ScenarioId::MajorityLoss => "majority-loss",
            ScenarioId::Partition => "partition",
            ScenarioId::ManualFailover => "manual-failover",
            ScenarioId::ManualForce => "manual-force",
            ScenarioId::ManualTakeover => "manual-takeover",
            ScenarioId::ManualRefused => "manual-refused",
            ScenarioId::Nofailover => "nofailover",
            ScenarioId::ReplicaMigration => "replica-migration",
            ScenarioId::Meet => "meet",
        }
    }

    /// The scenario with this slug (exact, lower case).
    pub fn from_slug(slug: &str) -> Option<ScenarioId> {
        ScenarioId::ALL.into_iter().find(|s| s.slug() == slug)
    }

    /// The recording this scenario replays, a file of `fixtures/failover/`, if any.
    pub fn recording(self) -> Option<&'static str> {
        match self {
            ScenarioId::MasterCrash => Some("logs_crash.txt"),
            ScenarioId::MasterHang => Some("logs_hang.txt"),
            ScenarioId::TwoReplicas => Some("logs_two_replicas_lag.txt"),
            ScenarioId::MajorityLoss => Some("logs_majority_loss.txt"),
            ScenarioId::ManualFailover => Some("logs_manual_failover_default.txt"),
            ScenarioId::ManualForce => Some("logs_manual_failover_force.txt"),
            ScenarioId::ManualTakeover => Some("logs_manual_failover_takeover.txt"),
            _ => None,
        }
    }

    /// The scenario's spec with this seed.
    pub fn spec(self, seed: u64) -> ScenarioSpec {
        use Action::*;
        // The recordings' 6-node layout (crash, hang, majority loss): 7203→7201, 7204→7202,
        // 7205→7200; the manual failovers' one: 7203→7200, 7204→7201, 7205→7202.
        let six = Knobs::uniform(3, 1, 2000, seed);
        let manual = Knobs {
            replica_of: vec![0, 1, 2],
            ..six.clone()
        };
        let (knobs, script, until): (Knobs, Vec<(u64, Action)>, u64) = match self {
            ScenarioId::Steady => (six, vec![], 10_000),
            ScenarioId::MasterCrash => (six, vec![(0, Crash(0)), (10_050, Restart(0))], 20_000),
            ScenarioId::MasterHang => (six, vec![(0, Hang(0)), (10_050, Resume(0))], 20_000),
            ScenarioId::TwoReplicas => (
                // raw/two_replicas_lag_create.txt: 7203, 7205 → 7200; 7204, 7206 → 7201;
                // 7207, 7208 → 7202. Offsets as recorded: 3149322, then 100670393.
                Knobs {
                    replica_of: vec![0, 1, 0, 1, 2, 2],
                    ..six
                },
                vec![
                    (
                        0,
                        Write {
                            node: 0,
                            bytes: 3_149_322,
                        },
                    ),
                    (0, Hang(5)),
                    (
                        0,
                        Write {
                            node: 0,
                            bytes: 100_670_393 - 3_149_322,
                        },
                    ),
                    (1030, Crash(0)),
                    (1230, Resume(5)),
                ],
                20_000,
            ),
            ScenarioId::NoReplica => (
                Knobs {
                    replica_of: vec![1, 2],
                    ..six
                },
                vec![(0, Crash(0)), (8000, Restart(0))],
                20_000,
            ),
            ScenarioId::TwoMastersDie => (
                Knobs::uniform(5, 1, 2000, seed),
                vec![(0, Crash(0)), (0, Crash(1))],
                40_000,
            ),
            ScenarioId::MajorityLoss => (
                six,
                vec![
                    (0, Hang(1)),
                    (0, Hang(2)),
                    (12_007, Resume(1)),
                    (12_007, Resume(2)),
                ],
                20_000,
            ),
            ScenarioId::Partition => {
                let mut s: Vec<(u64, Action)> = (0..16)
                    .map(|i| {
                        (
                            250 + 500 * i,
                            Write {
                                node: 0,
                                bytes: 100,
                            },
                        )
                    })
                    .collect();
                s.push((1000, Isolate(0)));
                s.push((9000, Heal));
                s.sort_by_key(|(t, _)| *t);
                (six, s, 20_000)
            }
            ScenarioId::ManualFailover => (
                manual,
                vec![(0, Failover(3, FailoverMode::Default))],
                10_000,
            ),
            ScenarioId::ManualForce => {
                (manual, vec![(0, Failover(4, FailoverMode::Force))], 10_000)
            }
            ScenarioId::ManualTakeover => (
                manual,
                vec![(0, Failover(3, FailoverMode::Takeover))],
                10_000,
            ),
            ScenarioId::ManualRefused => (
                manual,
                vec![
                    (0, NoFailover(3, true)),
                    (0, Crash(0)),
                    (5000, Failover(3, FailoverMode::Default)),
                    (6000, Failover(3, FailoverMode::Force)),
                ],
                15_000,
            ),
            ScenarioId::Nofailover => (
                six,
                vec![
                    (0, NoFailover(5, true)),
                    (0, Crash(0)),
                    (15_000, Restart(0)),
                ],
                25_000,
            ),
            ScenarioId::ReplicaMigration => (
                Knobs {
                    replica_of: vec![1, 2, 0, 0],
                    ..six
                },
                vec![(0, Crash(1))],
                20_000,
            ),
            ScenarioId::Meet => (six, vec![(0, Join { member: 0 })], 10_000),
        };
        ScenarioSpec {
            knobs,
            script,
            until_ms: until,
        }
    }
}
