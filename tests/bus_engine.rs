//! The command engine following the cluster bus (`Sim::follow_into`, `Cluster::follow`):
//! each node answers from its own view, checked against replies RECORDED on a real Redis
//! 7.0.15 cluster (127.0.0.1:7200-7205, the config of `fixtures/failover/config.txt`:
//! `cluster-node-timeout 2000`, `save ""`, `appendonly no`, `--cluster-replicas 1`), probed
//! every ~50 ms over fresh connections while a master was killed (then restarted) or stopped
//! with SIGSTOP (then resumed). The recorded replies are quoted in each test, in redis-cli's
//! words (`(error) …`; a bulk string without quotes; `(nil)`), with the time they were first
//! seen (ms after the signal).
//!
//! Also the failover timing (`failover_times`) against the windows the rules allow (as
//! tests/bus_failover.rs checks the recordings against them), and "a client during a failover"
//! (the redirections player's scenario) against the recorded replies.

use slotscope::core::bus::{failover_times, ClusterView, Config, Sim};
use slotscope::core::server::{Cluster, NodeProcess, NotRun, Reply, Session};

const NT: u64 = 2000;

fn args(line: &str) -> Vec<Vec<u8>> {
    line.split(' ').map(|w| w.as_bytes().to_vec()).collect()
}

/// A reply in the words the recording used.
fn words(reply: &Reply) -> String {
    match reply {
        Reply::Ok => "OK".into(),
        Reply::Status(s) => s.clone(),
        Reply::Bulk(Some(b)) => String::from_utf8_lossy(b).into_owned(),
        Reply::Bulk(None) => "(nil)".into(),
        Reply::Error(e) => format!("(error) {e}"),
        other => format!("{other:?}"),
    }
}

/// One command on a fresh connection (as the recorder sent them).
fn ask(cluster: &mut Cluster, port: u16, line: &str) -> String {
    let mut session = Session::new();
    words(&cluster.exec(&format!("127.0.0.1:{port}"), &args(line), &mut session))
}

/// `READONLY` then `line` on one connection.
fn ask_readonly(cluster: &mut Cluster, port: u16, line: &str) -> String {
    let mut session = Session::new();
    let addr = format!("127.0.0.1:{port}");
    let _ = cluster.exec(&addr, &args("READONLY"), &mut session);
    words(&cluster.exec(&addr, &args(line), &mut session))
}

fn down(cluster: &mut Cluster, port: u16) -> Option<NotRun> {
    let mut session = Session::new();
    match cluster.exec(
        &format!("127.0.0.1:{port}"),
        &args("GET key:0"),
        &mut session,
    ) {
        Reply::Error(e) => e.note().cloned(),
        _ => None,
    }
}

/// A 3 + 3 cluster with NT 2000; `replica_of` as the recorded `--cluster create` paired them.
fn setup(seed: u64, replica_of: &[usize]) -> (Sim, Cluster, u64) {
    let cfg = Config {
        node_timeout: NT,
        ..Config::default()
    };
    let sim = Sim::create(cfg, seed, 3, replica_of, 7200, 5000);
    let mut cluster = Cluster::new(sim.slot_map(0).expect("node 0"));
    assert_eq!(ask(&mut cluster, 7200, "SET key:0 0"), "OK");
    assert!(sim.follow_into(&mut cluster, 0));
    let t0 = sim.now;
    (sim, cluster, t0)
}

/// Runs until `done` holds for the bus (checked after every event), at most `limit` ms.
fn run_while(sim: &mut Sim, limit: u64, done: impl Fn(&Sim) -> bool) {
    let end = sim.now + limit;
    while sim.now < end && !done(sim) {
        if sim.step().is_none() {
            break;
        }
    }
    assert!(done(sim), "not reached by t={}", sim.now);
}

fn running_states(sim: &Sim) -> Vec<bool> {
    sim.node_views()
        .iter()
        .filter(|v| v.process == NodeProcess::Running)
        .map(|v| v.state_ok)
        .collect()
}

fn all_fail(sim: &Sim) -> bool {
    running_states(sim).iter().all(|ok| !ok)
}

/// Every running node routes slot 0 to `port` and is in state ok.
fn all_see(sim: &Sim, port: u16) -> bool {
    sim.node_views()
        .iter()
        .filter(|v| v.process == NodeProcess::Running)
        .all(|v| {
            v.state_ok
                && v.map.owner_master(0).map(|m| m.addr.as_str())
                    == Some(format!("127.0.0.1:{port}").as_str())
        })
}

const SEEDS: std::ops::Range<u64> = 1..4;

#[test]
fn a_crashed_master_pfail_fail_promotion_and_restart_answer_as_recorded() {
    for seed in SEEDS {
        // Recorded layout: 7203 -> 7201, 7204 -> 7202, 7205 -> 7200.
        let (mut sim, mut c, t0) = setup(seed, &[1, 2, 0]);
        // Recorded before the kill (t=0..12 ms).
        assert_eq!(ask(&mut c, 7200, "GET key:0"), "0");
        assert_eq!(
            ask(&mut c, 7200, "GET somekey"),
            "(error) MOVED 11058 127.0.0.1:7202"
        );
        assert_eq!(
            ask(&mut c, 7201, "GET key:0"),
            "(error) MOVED 2592 127.0.0.1:7200"
        );
        assert_eq!(
            ask_readonly(&mut c, 7201, "GET key:0"),
            "(error) MOVED 2592 127.0.0.1:7200"
        );
        assert_eq!(ask_readonly(&mut c, 7205, "GET key:0"), "0");
        assert_eq!(
            ask(&mut c, 7205, "SET key:0 x"),
            "(error) MOVED 2592 127.0.0.1:7200"
        );

        sim.crash(0);
        // Recorded t=3: `ECONNREFUSED` from 7200.
        sim.run_until(t0 + 1000);
        assert!(sim.follow_into(&mut c, 1));
        assert_eq!(
            down(&mut c, 7200),
            Some(NotRun::NodeDown {
                addr: "127.0.0.1:7200".into(),
                hung: false
            })
        );
        // Recorded t=4..14 and until FAIL (PFAIL from 2312 ms): state ok, MOVED to the dead
        // master from every node, the replica still serves READONLY reads.
        for port in 7201..=7205 {
            assert_eq!(
                ask(&mut c, port, "GET key:0"),
                "(error) MOVED 2592 127.0.0.1:7200",
                "{port}"
            );
        }
        assert_eq!(
            ask(&mut c, 7201, "GET somekey"),
            "(error) MOVED 11058 127.0.0.1:7202"
        );
        assert_eq!(ask_readonly(&mut c, 7205, "GET key:0"), "0");

        // PFAIL: still ok (BUS.md: the state stays ok during PFAIL); recorded 2312-3238 ms.
        run_while(&mut sim, 5000, |s| {
            s.slot_map(1)
                .is_some_and(|m| m.masters()[0].flags.iter().any(|f| f == "fail?"))
        });
        assert!(sim.follow_into(&mut c, 1));
        assert_eq!(
            ask(&mut c, 7201, "GET key:0"),
            "(error) MOVED 2592 127.0.0.1:7200"
        );

        // FAIL on every running node: recorded 3239-3252 ms, CLUSTERDOWN for every keyed
        // command on every node, keys of healthy masters and READONLY reads included.
        run_while(&mut sim, 5000, all_fail);
        assert!(sim
            .slot_map(5)
            .expect("7205")
            .owner_master(0)
            .is_some_and(|m| m.addr == "127.0.0.1:7200"));
        assert!(sim.follow_into(&mut c, 1));
        for port in 7201..=7205 {
            assert_eq!(
                ask(&mut c, port, "GET key:0"),
                "(error) CLUSTERDOWN The cluster is down",
                "{port}"
            );
            assert_eq!(
                ask(&mut c, port, "GET somekey"),
                "(error) CLUSTERDOWN The cluster is down",
                "{port}"
            );
            assert_eq!(
                ask_readonly(&mut c, port, "GET key:0"),
                "(error) CLUSTERDOWN The cluster is down",
                "{port}"
            );
        }
        assert_eq!(
            ask(&mut c, 7205, "SET key:0 x"),
            "(error) CLUSTERDOWN The cluster is down"
        );
        // Keyless commands are still served.
        assert_eq!(ask(&mut c, 7201, "PING"), "PONG");

        // Promotion, seen by all: recorded 3936 ms (7205 itself) to 3996 ms.
        run_while(&mut sim, 5000, |s| all_see(s, 7205));
        assert!(sim.follow_into(&mut c, 5));
        assert_eq!(ask(&mut c, 7205, "GET key:0"), "0");
        assert_eq!(
            ask(&mut c, 7205, "GET somekey"),
            "(error) MOVED 11058 127.0.0.1:7202"
        );
        assert_eq!(ask(&mut c, 7205, "SET key:0 x"), "OK");
        assert_eq!(ask(&mut c, 7205, "GET key:0"), "x");
        for port in 7201..=7204 {
            assert_eq!(
                ask(&mut c, port, "GET key:0"),
                "(error) MOVED 2592 127.0.0.1:7205",
                "{port}"
            );
            assert_eq!(
                ask_readonly(&mut c, port, "GET key:0"),
                "(error) MOVED 2592 127.0.0.1:7205",
                "{port}"
            );
        }
        assert_eq!(ask(&mut c, 7202, "GET somekey"), "(nil)");

        // Restart from its nodes.conf (recorded at 6006 ms): before it learns of the
        // failover (it starts in state fail, still master of 0-5460) it answers CLUSTERDOWN
        // (recorded 6037 ms); a few ms later it is a replica of 7205: MOVED (6040, 6060 ms),
        // and its READONLY read finds nothing (6041: it lost its keys; the full sync comes
        // after repl-diskless-sync-delay).
        sim.run_until(t0 + 6000);
        sim.restart(0);
        assert!(sim.follow_into(&mut c, 5));
        assert_eq!(
            ask(&mut c, 7200, "GET key:0"),
            "(error) CLUSTERDOWN The cluster is down"
        );
        run_while(&mut sim, 1000, |s| {
            s.node_views()[0].state_ok
                && s.slot_map(0).is_some_and(|m| {
                    m.masters().iter().any(|m| {
                        m.addr == "127.0.0.1:7205"
                            && m.replicas.iter().any(|r| r.addr == "127.0.0.1:7200")
                    })
                })
        });
        assert!(
            sim.now - t0 < 6000 + 200,
            "seed {seed}: rejoined at {}",
            sim.now - t0
        );
        assert!(sim.follow_into(&mut c, 5));
        assert_eq!(
            ask(&mut c, 7200, "GET key:0"),
            "(error) MOVED 2592 127.0.0.1:7205"
        );
        assert_eq!(
            ask(&mut c, 7200, "GET somekey"),
            "(error) MOVED 11058 127.0.0.1:7202"
        );
        assert_eq!(ask_readonly(&mut c, 7200, "GET key:0"), "(nil)");
        assert_eq!(
            ask(&mut c, 7200, "SET key:0 y"),
            "(error) MOVED 2592 127.0.0.1:7205"
        );
        assert_eq!(
            ask(&mut c, 7201, "GET key:0"),
            "(error) MOVED 2592 127.0.0.1:7205"
        );
    }
}

#[test]
fn a_hung_master_and_its_return_as_a_replica_answer_as_recorded() {
    for seed in SEEDS {
        // Recorded layout: 7203 -> 7202, 7204 -> 7200, 7205 -> 7201.
        let (mut sim, mut c, t0) = setup(seed, &[2, 0, 1]);
        assert_eq!(ask_readonly(&mut c, 7204, "GET key:0"), "0");
        assert_eq!(
            ask_readonly(&mut c, 7205, "GET key:0"),
            "(error) MOVED 2592 127.0.0.1:7200"
        );
        sim.hang(0);
        // Recorded: a GET sent to the stopped 7200 times out (READ-TIMEOUT after 1 s).
        sim.run_until(t0 + 1000);
        assert!(sim.follow_into(&mut c, 1));
        assert_eq!(
            down(&mut c, 7200),
            Some(NotRun::NodeDown {
                addr: "127.0.0.1:7200".into(),
                hung: true
            })
        );
        assert_eq!(
            ask(&mut c, 7201, "GET key:0"),
            "(error) MOVED 2592 127.0.0.1:7200"
        );
        assert_eq!(
            ask(&mut c, 7204, "SET key:0 x"),
            "(error) MOVED 2592 127.0.0.1:7200"
        );
        // FAIL: recorded 3329-3345 ms.
        run_while(&mut sim, 5000, all_fail);
        assert!(sim.follow_into(&mut c, 1));
        assert_eq!(
            ask(&mut c, 7204, "SET key:0 x"),
            "(error) CLUSTERDOWN The cluster is down"
        );
        assert_eq!(
            ask(&mut c, 7203, "GET somekey"),
            "(error) CLUSTERDOWN The cluster is down"
        );
        // Promotion of 7204: recorded 4030-4093 ms.
        run_while(&mut sim, 5000, |s| all_see(s, 7204));
        assert!(sim.follow_into(&mut c, 4));
        assert_eq!(
            ask(&mut c, 7201, "GET key:0"),
            "(error) MOVED 2592 127.0.0.1:7204"
        );
        assert_eq!(ask(&mut c, 7204, "SET key:0 x"), "OK");
        assert_eq!(ask(&mut c, 7204, "GET key:0"), "x");
        // SIGCONT at 6253 ms: the requests that waited in its socket were answered
        // `(error) MOVED 2592 127.0.0.1:7204` and `(error) MOVED 11058 127.0.0.1:7202`
        // (recorded 6269 ms): the bus packets it had buffered demoted it first. Its READONLY
        // read gave the old `0` at 6280 ms and `x` at 6322 ms, once the replication stream
        // caught up (the page's replica catches up at once).
        sim.run_until(t0 + 6253);
        sim.resume(0);
        assert!(sim.follow_into(&mut c, 4));
        assert_eq!(
            ask(&mut c, 7200, "GET key:0"),
            "(error) MOVED 2592 127.0.0.1:7204"
        );
        assert_eq!(
            ask(&mut c, 7200, "GET somekey"),
            "(error) MOVED 11058 127.0.0.1:7202"
        );
        assert_eq!(ask_readonly(&mut c, 7200, "GET key:0"), "x");
        // A demoted master refuses writes to its old slots with MOVED, not READONLY.
        assert_eq!(
            ask(&mut c, 7200, "SET key:0 y"),
            "(error) MOVED 2592 127.0.0.1:7204"
        );
        assert_eq!(
            ask(&mut c, 7205, "GET key:0"),
            "(error) MOVED 2592 127.0.0.1:7204"
        );
    }
}

#[test]
fn without_a_bus_every_node_routes_by_the_one_map() {
    let (_, mut c, _) = setup(1, &[1, 2, 0]);
    c.unfollow();
    assert!(c.view("127.0.0.1:7200").is_none());
    assert_eq!(
        ask(&mut c, 7201, "GET key:0"),
        "(error) MOVED 2592 127.0.0.1:7200"
    );
    // A replica refuses writes to its master's slots with MOVED (recorded t=12 ms above).
    assert_eq!(
        ask(&mut c, 7205, "SET key:0 x"),
        "(error) MOVED 2592 127.0.0.1:7200"
    );
}

#[test]
fn the_slot_map_of_a_view_follows_the_failover() {
    let (mut sim, _, t0) = setup(3, &[1, 2, 0]);
    let before = sim.slot_map(1).expect("7201");
    assert_eq!(before.current_epoch(), 6);
    assert_eq!(before.masters().len(), 3);
    assert_eq!(before.masters()[0].addr, "127.0.0.1:7200");
    assert_eq!(before.masters()[0].replicas[0].addr, "127.0.0.1:7205");
    assert_eq!(before.masters()[1].flags, vec!["myself".to_string()]);
    assert_eq!(before.slot_counts(), vec![5461, 5462, 5461]);
    sim.crash(0);
    sim.run_until(t0 + 10_000);
    // Recorded (fixtures/failover/raw/crash_cluster_nodes.txt): 7205 master with epoch 7 and
    // 0-5460; 7200 `master,fail` without slots until it returns.
    let after = sim.slot_map(1).expect("7201");
    let m = after
        .masters()
        .iter()
        .position(|m| m.addr == "127.0.0.1:7205")
        .expect("promoted");
    assert_eq!(after.masters()[m].epoch, 7);
    assert_eq!(after.owner(0), Some(m));
    assert_eq!(after.owner(5460), Some(m));
    assert_eq!(after.current_epoch(), 7);
    let old = &after.masters()[0];
    assert_eq!(old.addr, "127.0.0.1:7200");
    assert_eq!(old.flags, vec!["fail".to_string()]);
    assert_eq!(after.ranges_of(0), vec![]);
}

#[test]
fn failover_times_fall_in_the_windows_the_rules_allow() {
    // fixtures/failover/README.md, NT 2000: first `fail?` polled 2102-2701 ms, `Marking node
    // … as failing` logged 2794-3230 ms, `Failover election won` 3511-3942 ms. The windows
    // the rules allow (as tests/bus_failover.rs checks them): PFAIL in [NT, 1.5 NT + 260],
    // FAIL in [NT, 2 NT + 300], the election 500-1000 ms after FAIL for rank 0 (+ the cron
    // tick that notices it), the win within a few ms of the votes.
    for seed in 1..13 {
        let t = failover_times(NT, seed);
        let pfail = t.pfail_ms.expect("pfail");
        let fail = t.fail_ms.expect("fail");
        let election = t.election_ms.expect("election");
        let promoted = t.promoted_ms.expect("promoted");
        assert!(
            (NT..=NT * 3 / 2 + 260).contains(&pfail),
            "seed {seed}: {t:?}"
        );
        assert!(
            (NT..=NT * 2 + 300).contains(&fail) && fail >= pfail,
            "seed {seed}: {t:?}"
        );
        assert!(
            (fail + 500..=fail + 1110).contains(&election),
            "seed {seed}: {t:?}"
        );
        assert!(
            (election..=election + 50).contains(&promoted),
            "seed {seed}: {t:?}"
        );
        assert!(
            t.all_ok_ms
                .is_some_and(|ok| ok >= promoted && ok < promoted + 1000),
            "{t:?}"
        );
    }
    // The default NT (15000): the same windows, scaled.
    let nt = 15000;
    let t = failover_times(nt, 1);
    let (pfail, fail) = (t.pfail_ms.expect("pfail"), t.fail_ms.expect("fail"));
    assert!((nt..=nt * 3 / 2 + 260).contains(&pfail), "{t:?}");
    assert!(
        (nt..=nt * 2 + 300).contains(&fail) && fail >= pfail,
        "{t:?}"
    );
    assert!(
        t.promoted_ms
            .is_some_and(|p| (fail + 500..=fail + 1160).contains(&p)),
        "{t:?}"
    );
}

/// "A client during a failover" (the redirections player's scenario), against the replies
/// recorded above (ports 7200-7205 there, 7000-7005 in the fixtures' cluster the player uses):
/// a refused connection from the killed master (redis-cli 7.0.15 prints `Could not connect to
/// Redis at 127.0.0.1:7200: Connection refused`), the healthy master still serving during PFAIL
/// (recorded: 7202 answered `GET somekey` with `(nil)`), CLUSTERDOWN from it during FAIL
/// (recorded 3244 ms), served again after the promotion (3993 ms), and MOVED to the new master
/// from the restarted old master (recorded 6060 ms, 54 ms after the restart), after which
/// Jedis renews its whole table and reads the key on the new master.
#[test]
fn the_failover_scenario_plays_the_recorded_replies_at_the_simulated_times() {
    use slotscope::core::client::{
        failover_scenario, EventKind, FailoverPhase, GiveUpReason, FAILOVER_NODE_TIMEOUT_MS,
    };
    let (sc, moments) = failover_scenario();
    assert_eq!(FAILOVER_NODE_TIMEOUT_MS, NT);
    assert_eq!(sc.steps.len(), 7);
    assert_eq!(moments.len(), 7);
    let replies: Vec<Vec<String>> = sc
        .steps
        .iter()
        .map(|s| {
            s.events
                .iter()
                .filter_map(|e| match &e.kind {
                    EventKind::Reply { reply } => Some(words(reply)),
                    EventKind::GiveUp {
                        reason: GiveUpReason::Unreachable { addr, hung },
                    } => Some(format!(
                        "unreachable {addr} hung={hung} {}",
                        e.cli.trim_end()
                    )),
                    EventKind::TableRefresh { .. } => Some("table refreshed".into()),
                    _ => None,
                })
                .collect()
        })
        .collect();
    let refused =
        "unreachable 127.0.0.1:7000 hung=false Could not connect to Redis at 127.0.0.1:7000: Connection refused";
    assert_eq!(replies[0], ["1"]);
    assert_eq!(replies[1], [refused]);
    assert_eq!(replies[2], ["bar"]);
    assert_eq!(replies[3], ["(error) CLUSTERDOWN The cluster is down"]);
    assert_eq!(replies[4], [refused]);
    assert_eq!(replies[5], ["bar"]);
    assert_eq!(replies[6][0], "(error) MOVED 866 127.0.0.1:7004");
    assert_eq!(replies[6].last().map(String::as_str), Some("1"));
    assert!(replies[6].iter().any(|r| r == "table refreshed"));
    // The client's table names the new master for slot 866 at the end.
    let last = sc.steps.last().unwrap();
    assert!(last.events.iter().any(|e| matches!(&e.kind,
        EventKind::TableRefresh { table } if table.iter().any(|(r, a)| r.contains(866) && a == "127.0.0.1:7004"))));
    // The instants: the windows of the rules, as the recordings show them.
    let t: Vec<u64> = moments.iter().map(|m| m.at_ms).collect();
    assert_eq!(moments[0].phase, FailoverPhase::Healthy);
    assert!(matches!(moments[1].phase, FailoverPhase::Pfail { .. }));
    assert!((NT..=NT * 3 / 2 + 260).contains(&t[1]), "{t:?}");
    assert!(matches!(moments[3].phase, FailoverPhase::Fail { .. }));
    assert!((t[1]..=NT * 2 + 300).contains(&t[3]), "{t:?}");
    assert!(matches!(moments[5].phase, FailoverPhase::Promoted { .. }));
    assert!((t[3] + 500..=t[3] + 1300).contains(&t[5]), "{t:?}");
    assert!(matches!(moments[6].phase, FailoverPhase::Rejoined { .. }));
    assert!((10_050..=10_250).contains(&t[6]), "{t:?}");
}
