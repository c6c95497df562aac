//! The cases Redis 7.0.15's own cluster test suite checks (`tests/cluster/tests/`, listed in
//! BUS.md's last section), replayed on the simulator. Each asserts what the suite asserts;
//! log texts are Redis's (cluster.c 7.0.15), roles and states as CLUSTER NODES shows them.

mod bus_support;

use bus_support::seeds;
use slotscope::core::bus::{Config, FailoverMode, Sim};

fn cfg() -> Config {
    Config {
        node_timeout: 2000,
        ..Config::default()
    }
}

/// 3 masters with one replica each (replica i follows master i).
fn three_by_one(seed: u64) -> Sim {
    Sim::create(cfg(), seed, 3, &[0, 1, 2], 30001, 5000)
}

fn logged(sim: &Sim, n: u32, text: &str) -> bool {
    sim.logs
        .iter()
        .any(|l| l.node == n && l.text.starts_with(text))
}

fn all_ok(sim: &Sim) -> bool {
    sim.nodes
        .iter()
        .filter(|n| n.process == slotscope::core::bus::Process::Running)
        .all(|n| n.state_ok)
}

/// 01-faildet: killing replicas does not change the cluster state; each is marked FAIL.
#[test]
fn replicas_down_state_stays_ok() {
    for seed in 0..seeds(4) {
        let mut sim = three_by_one(seed);
        sim.crash(3);
        sim.crash(4);
        sim.run_for(6000);
        assert!(all_ok(&sim), "seed {seed}");
        for n in [0u32, 1, 2, 5] {
            let nodes = sim.cluster_nodes(n);
            for port in [30004, 30005] {
                let line = nodes
                    .lines()
                    .find(|l| l.contains(&format!(":{port}@")))
                    .unwrap();
                assert!(line.contains("slave,fail "), "seed {seed}: {n} sees {line}");
            }
        }
    }
}

/// 01-faildet: a master without a replica dies: FAIL, and the cluster goes down.
#[test]
fn master_without_replica_down_cluster_fails() {
    for seed in 0..seeds(4) {
        let mut sim = Sim::create(cfg(), seed, 3, &[1, 2], 30001, 5000);
        sim.crash(0);
        sim.run_for(6000);
        for n in 1..sim.nodes.len() as u32 {
            assert!(
                !sim.nodes[n as usize].state_ok,
                "seed {seed}: node {n} still ok"
            );
            assert!(sim.cluster_info(n).starts_with("cluster_state:fail\r\n"));
        }
        assert!(!sim
            .logs
            .iter()
            .any(|l| l.text.starts_with("Starting a failover election")));
    }
}

/// 02-failover: the promoted replica gets a config epoch greater than every other's, and the
/// old master comes back as its replica (an UPDATE about its slots).
#[test]
fn promoted_replica_takes_the_greatest_epoch_and_old_master_rejoins_as_replica() {
    for seed in 0..seeds(4) {
        let mut sim = three_by_one(seed);
        sim.crash(0);
        sim.run_for(8000);
        let new = sim.nodes[3].me().config_epoch;
        assert!(sim.nodes[3].is_master(), "seed {seed}");
        assert!((0..sim.nodes.len())
            .filter(|i| *i != 3)
            .all(|i| sim.nodes[i].me().config_epoch < new));
        sim.restart(0);
        sim.run_for(3000);
        assert!(
            sim.nodes[0].is_slave() && sim.nodes[0].my_master() == Some(3),
            "seed {seed}"
        );
        assert!(logged(
            &sim,
            0,
            "Configuration change detected. Reconfiguring myself as a replica of"
        ));
        assert!(all_ok(&sim));
    }
}

/// 03-failover-loop analogue: the master dies over and over; each time a replica wins and
/// every epoch is new.
#[test]
fn repeated_failovers_bump_the_epoch_each_time() {
    let mut sim = three_by_one(9);
    let mut last = sim.nodes[0].current_epoch;
    for round in 0..4 {
        let master = sim
            .nodes
            .iter()
            .find(|n| n.is_master() && n.slot_owner[0] == n.ix)
            .unwrap()
            .ix;
        sim.crash(master);
        sim.run_for(8000);
        let now_master = sim.nodes.iter().find(|n| {
            n.is_master()
                && n.slot_owner[0] == n.ix
                && n.process == slotscope::core::bus::Process::Running
        });
        let nm = now_master.unwrap_or_else(|| panic!("round {round}: no new master"));
        assert!(nm.me().config_epoch > last, "round {round}");
        last = nm.me().config_epoch;
        sim.restart(master);
        sim.run_for(4000);
        assert!(sim.nodes[master as usize].is_slave(), "round {round}");
    }
}

/// A replica whose link to its master was down too long does not fail over (validity
/// factor), and says so once the master has been FAIL for NT + 5 s.
#[test]
fn replica_with_too_old_data_does_not_fail_over() {
    for seed in 0..seeds(3) {
        let c = Config {
            replica_validity_factor: 1,
            ..cfg()
        };
        let mut sim = Sim::create(c, seed, 3, &[0, 1, 2], 30001, 5000);
        sim.cut(0, 3);
        sim.run_for(20_000);
        sim.crash(0);
        sim.run_for(15_000);
        assert!(
            sim.nodes[3].is_slave(),
            "seed {seed}: promoted with old data"
        );
        assert!(logged(
            &sim,
            3,
            "Currently unable to failover: Disconnected from master for longer than allowed. Please check the 'cluster-replica-validity-factor' configuration option."
        ));
    }
}

/// 05/06-slave-migration (barrier 1): a master left without working replicas gets one from
/// the master with the most, after 5 s; the replica that moves has the smallest name.
#[test]
fn replica_migrates_to_an_orphaned_master() {
    for seed in 0..seeds(4) {
        // Master 0 has replicas 3 and 4; masters 1 and 2 one each (5, 6).
        let mut sim = Sim::create(cfg(), seed, 3, &[0, 0, 1, 2], 30001, 5000);
        sim.crash(5);
        sim.run_for(12_000);
        let moved: Vec<u32> = [3u32, 4]
            .into_iter()
            .filter(|r| sim.nodes[*r as usize].my_master() == Some(1))
            .collect();
        assert_eq!(moved.len(), 1, "seed {seed}: one replica moves");
        let other = if moved[0] == 3 { 4 } else { 3 };
        assert!(
            sim.nodes[moved[0] as usize].name < sim.nodes[other as usize].name,
            "seed {seed}"
        );
        let name = sim.nodes[1].name.clone();
        assert!(logged(
            &sim,
            moved[0],
            &format!("Migrating to orphaned master {name}")
        ));
    }
}

/// 07-replica-migration: with `cluster-migration-barrier 2`, a master with two replicas keeps
/// both.
#[test]
fn migration_barrier_keeps_replicas_home() {
    for seed in 0..seeds(4) {
        let c = Config {
            migration_barrier: 2,
            ..cfg()
        };
        let mut sim = Sim::create(c, seed, 3, &[0, 0, 1, 2], 30001, 5000);
        sim.crash(5);
        sim.run_for(12_000);
        assert_eq!(sim.nodes[3].my_master(), Some(0), "seed {seed}");
        assert_eq!(sim.nodes[4].my_master(), Some(0), "seed {seed}");
    }
}

/// 10-manual-failover: no acknowledged write is lost; writes are refused while the master
/// is paused.
#[test]
fn manual_failover_loses_no_writes() {
    for seed in 0..seeds(4) {
        let mut sim = three_by_one(seed);
        assert!(sim.write(0, 1000));
        sim.cluster_failover(3, FailoverMode::Default).unwrap();
        sim.run_for(2);
        let before = sim.nodes[0].repl_offset;
        assert!(
            !sim.write(0, 10) || sim.nodes[0].is_slave(),
            "seed {seed}: a paused master took a write"
        );
        sim.run_for(1000);
        assert!(sim.nodes[3].is_master(), "seed {seed}");
        assert!(
            sim.nodes[3].repl_offset >= before,
            "seed {seed}: writes lost"
        );
        assert!(sim.nodes[0].is_slave());
    }
}

/// 10-manual-failover: FORCE while the master sleeps (before anyone marks it FAIL).
#[test]
fn force_failover_with_the_master_asleep() {
    for seed in 0..seeds(4) {
        let mut sim = three_by_one(seed);
        sim.hang(0);
        sim.run_for(500);
        sim.cluster_failover(3, FailoverMode::Force).unwrap();
        sim.run_for(600);
        assert!(sim.nodes[3].is_master(), "seed {seed}");
        assert!(logged(&sim, 3, "Forced failover user request accepted."));
    }
}

/// 12-replica-no-failover: a `nofailover` replica never starts an election.
#[test]
fn nofailover_replica_never_runs_an_election() {
    for seed in 0..seeds(4) {
        let mut sim = three_by_one(seed);
        sim.set_nofailover(3, true);
        sim.run_for(1000);
        sim.crash(0);
        sim.run_for(10_000);
        assert!(sim.nodes[3].is_slave(), "seed {seed}");
        assert!(!logged(&sim, 3, "Start of election delayed"));
        assert!(sim
            .cluster_nodes(1)
            .lines()
            .any(|l| l.contains(":30004@") && l.contains("nofailover")));
    }
}

/// Two masters of five die at once: both replicas win (the votes may split and be retried
/// after 2 × the auth timeout), each with its own epoch.
#[test]
fn two_masters_of_five_die_at_once() {
    for seed in 0..seeds(4) {
        let mut sim = Sim::create(cfg(), seed, 5, &[0, 1, 2, 3, 4], 30001, 5000);
        sim.crash(0);
        sim.crash(1);
        sim.run_for(25_000);
        assert!(
            sim.nodes[5].is_master() && sim.nodes[6].is_master(),
            "seed {seed}"
        );
        assert_ne!(
            sim.nodes[5].me().config_epoch,
            sim.nodes[6].me().config_epoch
        );
        assert!(all_ok(&sim), "seed {seed}");
    }
}

/// A new node MEETs one member; gossip spreads it until every node knows every other
/// (`clusterProcessGossipSection` adds nodes a known sender mentions).
#[test]
fn a_met_node_spreads_by_gossip() {
    for seed in 0..seeds(4) {
        let mut sim = three_by_one(seed);
        let new = sim.add_node(30007).unwrap();
        sim.meet(new, 0);
        sim.run_for(10_000);
        for n in 0..sim.nodes.len() as u32 {
            assert_eq!(
                sim.cluster_nodes(n).lines().count(),
                7,
                "seed {seed}: node {n}"
            );
        }
        assert!(sim
            .cluster_nodes(new)
            .lines()
            .any(|l| l.starts_with(&sim.nodes[new as usize].name) && l.contains("myself,master")));
        assert!(sim.cluster_info(new).contains("cluster_known_nodes:7\r\n"));
    }
}

/// Nothing a caller passes makes the simulator panic: unknown nodes, huge times and sizes.
#[test]
fn bad_input_is_refused_not_panicked_on() {
    let mut sim = three_by_one(1);
    for n in [6u32, 999, u32::MAX] {
        sim.hang(n);
        sim.resume(n);
        sim.crash(n);
        sim.restart(n);
        sim.set_nofailover(n, true);
        assert!(!sim.write(n, u64::MAX));
        assert_eq!(sim.cluster_nodes(n), "");
        assert_eq!(sim.cluster_info(n), "");
        assert!(sim.cluster_failover(n, FailoverMode::Takeover).is_err());
        assert!(sim.setslot_node(n, 0, 0).is_err());
        assert!(sim.move_slots(0, n, 0..10).is_err());
        sim.meet(n, 0);
    }
    assert!(sim.setslot_node(0, 16384, 0).is_err());
    assert!(sim.write(0, u64::MAX) && sim.write(0, u64::MAX));
    sim.set_latency(0, 1, u64::MAX);
    sim.partition(&[0, 1, 0, 1, 0, 1, 7, 7, 7]);
    sim.run_for(3000);
    sim.heal();
    sim.run_for(1000);
    let big = Sim::create(cfg(), 1, 5000, &[0; 10], 1, 0);
    assert_eq!(big.nodes.len(), slotscope::core::bus::MAX_NODES);
}

/// Deterministic: the same seed and calls give the same logs and events; another seed
/// another run (election delays differ).
#[test]
fn same_seed_same_run() {
    let run = |seed| {
        let mut sim = three_by_one(seed);
        sim.crash(0);
        sim.run_for(6000);
        let logs: Vec<String> = (0..6).flat_map(|n| sim.log_text(n)).collect();
        (logs, sim.events.len())
    };
    assert_eq!(run(11), run(11));
    assert_ne!(run(11).0, run(12).0);
}

/// Log lines in redis-server's format: `pid:R dd Mon yyyy hh:mm:ss.mmm L text`, the
/// simulated clock as the time (dates checked against Python's `strftime`, UTC).
#[test]
fn log_lines_have_redis_servers_format() {
    use slotscope::core::bus::timestamp;
    assert_eq!(timestamp(1796109623214), "01 Dec 2026 07:20:23.214");
    assert_eq!(timestamp(0), "01 Jan 1970 00:00:00.000");
    assert_eq!(timestamp(951782400123), "29 Feb 2000 00:00:00.123");
    assert_eq!(timestamp(4102444799999), "31 Dec 2099 23:59:59.999");
    let mut sim = three_by_one(2);
    sim.crash(0);
    sim.run_for(6000);
    // The shape of a recorded line (logs_hang.txt): pid, role, date, level, text.
    let recorded = "18696:S 01 Dec 2026 07:20:23.214 * Marking node 88474555fa931071389964010ea23cf9d83880a6 as failing (quorum reached).";
    let shape = |l: &str| -> String {
        l.chars()
            .take(28)
            .map(|c| {
                if c.is_ascii_digit() {
                    '9'
                } else if c.is_ascii_alphabetic() {
                    'a'
                } else {
                    c
                }
            })
            .collect()
    };
    let lines: Vec<String> = (0..6).flat_map(|n| sim.log_text(n)).collect();
    assert!(!lines.is_empty());
    for l in &lines {
        let pid_len = l.find(':').unwrap();
        let recorded_pid = recorded.find(':').unwrap();
        // Same layout once the pid is set aside (pids differ in length).
        assert_eq!(
            shape(&l[pid_len..]),
            shape(&recorded[recorded_pid..]),
            "{l}"
        );
        let level = l.as_bytes()[pid_len + 28];
        assert!(b"MS".contains(&l.as_bytes()[pid_len + 1]), "{l}");
        assert!(b".-*#".contains(&level), "{l}");
    }
    assert!(lines
        .iter()
        .any(|l| l.contains(" * Marking node ") || l.contains(" * FAIL message received from ")));
}
