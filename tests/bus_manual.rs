//! Manual failover against the recording (`fixtures/failover/manual_failover/`): the replies
//! byte-equal, the bus events per node, the CLUSTER NODES before and after each step, and the
//! refusal of a plain CLUSTER FAILOVER while the master is FAIL (cluster.c, `clusterCommand`).

mod bus_support;

use bus_support::*;
use slotscope::core::bus::{FailoverMode, Sim};

/// What redis-cli prints for a reply of `cluster_failover`.
fn cli(r: Result<(), slotscope::core::bus::FailoverRefusal>) -> String {
    match r {
        Ok(()) => "OK".into(),
        Err(e) => format!("(error) {e}"),
    }
}

/// The output part of a `NN_*.txt` transcript (after the `$ command` line).
fn output(rel: &str) -> String {
    let text = read(rel);
    text.lines()
        .skip_while(|l| !l.starts_with("$ "))
        .skip(1)
        .map(|l| format!("{l}\n"))
        .collect()
}

fn ix(sim: &Sim, port: u16) -> u32 {
    sim.by_port(port).expect("port")
}

/// One manual failover step: run the command at t0, watch `ms`, compare events.
fn step(
    sim: &mut Sim,
    lay: &Layout,
    port: u16,
    mode: FailoverMode,
    reply_file: &str,
    log: &str,
    seed: u64,
) {
    let t0 = sim.now;
    let r = sim.cluster_failover(ix(sim, port), mode);
    assert_eq!(
        format!("{}\n", cli(r)),
        output(reply_file),
        "seed {seed}: reply of {reply_file}"
    );
    sim.run_for(2000);
    let got = events_only(&simulated(sim, t0));
    let want = events_only(&recorded(log, &lay.ids));
    assert_eq!(got, want, "seed {seed}: events of {log}");
}

#[test]
fn manual_failovers_default_force_takeover_follow_the_recording() {
    let lay = layout(&read("manual_failover/00_create.txt"));
    for seed in 0..seeds(8) {
        let mut sim = simulate(&lay, seed, 5000);
        let to_master = sim.cluster_failover(ix(&sim, 7200), FailoverMode::Default);
        assert_eq!(
            format!("{}\n", cli(to_master)),
            output("manual_failover/01_failover_sent_to_a_master.txt")
        );
        assert_eq!(
            nodes_shape(&sim.cluster_nodes(ix(&sim, 7203))),
            nodes_shape(&output("manual_failover/02_default_nodes_before.txt")),
            "seed {seed}"
        );
        step(
            &mut sim,
            &lay,
            7203,
            FailoverMode::Default,
            "manual_failover/03_default_cluster_failover.txt",
            "logs_manual_failover_default.txt",
            seed,
        );
        assert_eq!(
            nodes_shape(&sim.cluster_nodes(ix(&sim, 7203))),
            nodes_shape(&output("manual_failover/04_default_nodes_after.txt")),
            "seed {seed}"
        );
        assert_eq!(
            nodes_shape(&sim.cluster_nodes(ix(&sim, 7204))),
            nodes_shape(&output("manual_failover/05_force_nodes_before.txt")),
            "seed {seed}"
        );
        step(
            &mut sim,
            &lay,
            7204,
            FailoverMode::Force,
            "manual_failover/06_force_cluster_failover.txt",
            "logs_manual_failover_force.txt",
            seed,
        );
        assert_eq!(
            nodes_shape(&sim.cluster_nodes(ix(&sim, 7204))),
            nodes_shape(&output("manual_failover/07_force_nodes_after.txt")),
            "seed {seed}"
        );
        assert_eq!(
            nodes_shape(&sim.cluster_nodes(ix(&sim, 7205))),
            nodes_shape(&output("manual_failover/08_takeover_nodes_before.txt")),
            "seed {seed}"
        );
        step(
            &mut sim,
            &lay,
            7205,
            FailoverMode::Takeover,
            "manual_failover/09_takeover_cluster_failover.txt",
            "logs_manual_failover_takeover.txt",
            seed,
        );
        assert_eq!(
            nodes_shape(&sim.cluster_nodes(ix(&sim, 7205))),
            nodes_shape(&output("manual_failover/10_takeover_nodes_after.txt")),
            "seed {seed}"
        );
        assert_eq!(
            nodes_shape(&sim.cluster_nodes(ix(&sim, 7200))),
            nodes_shape(&output("manual_failover/11_cluster_nodes_end.txt")),
            "seed {seed}"
        );
    }
}

/// The recording's timing: every node shows the new master within ~100 ms of the command
/// (10-102 ms recorded); the simulated roles flip within the same bound.
#[test]
fn manual_failover_completes_within_a_tenth_of_a_second() {
    let lay = layout(&read("manual_failover/00_create.txt"));
    for seed in 0..seeds(8) {
        let mut sim = simulate(&lay, seed, 5000);
        let r = ix(&sim, 7203);
        sim.cluster_failover(r, FailoverMode::Default).unwrap();
        sim.run_for(150);
        for n in 0..sim.nodes.len() as u32 {
            assert!(
                sim.cluster_nodes(n)
                    .lines()
                    .any(|l| l.contains(":7203@") && l.contains("master") && l.contains("0-5460")),
                "seed {seed}: node {n} does not yet see 7203 as master"
            );
        }
    }
}

/// `CLUSTER FAILOVER` without FORCE while the master is FAIL: refused with Redis's text
/// (cluster.c 7.0.15, `clusterCommand`: "Master is down or failed, please use CLUSTER
/// FAILOVER FORCE"); FORCE is accepted and still needs the majority's votes.
#[test]
fn plain_manual_failover_is_refused_while_the_master_is_failed() {
    let lay = layout(&read("raw/crash_create.txt"));
    let mut fresh = simulate(&lay, 3, 5000);
    let m = ix(&fresh, 7200);
    fresh.crash(m);
    let replica = ix(&fresh, 7205);
    // Stop the replica's own election from interfering: it may not fail over on its own.
    fresh.set_nofailover(replica, true);
    fresh.run_for(6000);
    assert!(fresh.nodes[replica as usize].is_slave());
    let refusal = fresh.cluster_failover(replica, FailoverMode::Default);
    assert_eq!(
        cli(refusal),
        "(error) ERR Master is down or failed, please use CLUSTER FAILOVER FORCE"
    );
    assert_eq!(
        cli(fresh.cluster_failover(replica, FailoverMode::Force)),
        "OK"
    );
    fresh.run_for(1000);
    assert!(
        fresh.nodes[replica as usize].is_master(),
        "FORCE wins with the majority's votes"
    );
}

/// TAKEOVER with the majority of masters down: no vote at all, the replica takes the slots
/// (Redis's test suite, `tests/cluster/tests/10-manual-failover.tcl`, TAKEOVER case).
#[test]
fn takeover_works_without_a_majority() {
    let lay = layout(&read("raw/majority_loss_create.txt"));
    let mut sim = simulate(&lay, 5, 5000);
    let (a, b) = (ix(&sim, 7201), ix(&sim, 7202));
    sim.hang(a);
    sim.hang(b);
    sim.run_for(4000);
    let replica_of_a = sim
        .nodes
        .iter()
        .find(|n| n.my_master() == Some(a))
        .unwrap()
        .ix;
    assert_eq!(
        cli(sim.cluster_failover(replica_of_a, FailoverMode::Force)),
        "OK"
    );
    sim.run_for(6000);
    assert!(
        sim.nodes[replica_of_a as usize].is_slave(),
        "FORCE needs votes the minority cannot give"
    );
    assert_eq!(
        cli(sim.cluster_failover(replica_of_a, FailoverMode::Takeover)),
        "OK"
    );
    sim.run_for(500);
    assert!(sim.nodes[replica_of_a as usize].is_master());
    assert!(sim
        .logs
        .iter()
        .any(|l| l.node == replica_of_a && l.text == "Taking over the master (user request)."));
}
