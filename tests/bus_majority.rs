//! Majority loss against the recording (`fixtures/failover/majority_loss/`): two masters of
//! three stopped; nobody is marked FAIL, no replica is promoted, every live node goes to
//! `cluster_state:fail` (so clients get CLUSTERDOWN) and back to ok after SIGCONT, the live
//! master only after the rejoin delay; CLUSTER INFO during the outage as recorded.

mod bus_support;

use bus_support::*;
use slotscope::core::bus::{EventKind, Opinion, Sim};

const NT: i64 = 2000;

fn ix(sim: &Sim, port: u16) -> u32 {
    sim.by_port(port).expect("port")
}

/// SIGSTOP 7201 and 7202 at t=0, CLUSTER INFO at t=8000, SIGCONT at t=12007, watch to 15158.
fn run(seed: u64) -> (Sim, u64, Vec<(u16, String)>) {
    let lay = layout(&read("raw/majority_loss_create.txt"));
    let mut sim = simulate(&lay, seed, 5000);
    let t0 = sim.now;
    let (a, b) = (ix(&sim, 7201), ix(&sim, 7202));
    sim.hang(a);
    sim.hang(b);
    sim.run_until(t0 + 8000);
    let during = [7200, 7203, 7204, 7205]
        .iter()
        .map(|p| (*p, sim.cluster_info(ix(&sim, *p))))
        .collect();
    sim.run_until(t0 + 12007);
    sim.resume(a);
    sim.resume(b);
    sim.run_until(t0 + 15158);
    (sim, t0, during)
}

/// The CLUSTER INFO fields that must agree (the message counters aside).
fn info_shape(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| l.starts_with("cluster_") && !l.starts_with("cluster_stats_"))
        .map(str::to_string)
        .collect()
}

#[test]
fn majority_loss_no_fail_no_promotion_cluster_down_then_ok() {
    let lay = layout(&read("raw/majority_loss_create.txt"));
    let rec = recorded("logs_majority_loss.txt", &lay.ids);
    for seed in 0..seeds(6) {
        let (sim, t0, during) = run(seed);
        let got = simulated(&sim, t0);
        assert_eq!(
            events_only(&got),
            events_only(&rec),
            "seed {seed}: events per node"
        );
        for (port, v) in &got {
            for (t, e) in v {
                match e.as_str() {
                    // The second stopped master's PFAIL: between NT and 1.5 NT + a cron.
                    "Cluster state changed: fail" => {
                        assert!(
                            (NT..=NT * 3 / 2 + 200).contains(t),
                            "seed {seed}: {port} fail at {t}"
                        )
                    }
                    // Replicas right after SIGCONT; the master only after the rejoin delay
                    // (min(max(NT, 500), 5000) = 2000 ms after it last saw the minority).
                    "Cluster state changed: ok" if *port == 7200 => {
                        assert!(
                            (12007 + 1900..=12007 + 2200).contains(t),
                            "seed {seed}: master ok at {t}"
                        )
                    }
                    "Cluster state changed: ok" => {
                        assert!(
                            (12007..=12007 + 120).contains(t),
                            "seed {seed}: {port} ok at {t}"
                        )
                    }
                    _ => {}
                }
            }
        }
        for (port, info) in &during {
            let file = match port {
                7200 => "majority_loss/16_during_cluster_info_7200.txt",
                7203 => "majority_loss/17_during_cluster_info_7203.txt",
                7204 => "majority_loss/18_during_cluster_info_7204.txt",
                _ => "majority_loss/19_during_cluster_info_7205.txt",
            };
            assert_eq!(
                info_shape(info),
                info_shape(&read(file)),
                "seed {seed}: CLUSTER INFO of {port}"
            );
        }
        assert!(
            !sim.events.iter().any(|e| matches!(
                e.kind,
                EventKind::Opinion {
                    opinion: Opinion::Fail,
                    ..
                }
            )),
            "seed {seed}: no node may be marked FAIL without a majority"
        );
        assert!(
            !sim.logs
                .iter()
                .any(|l| l.text.starts_with("Starting a failover election")),
            "seed {seed}: no election"
        );
        let end = sim.cluster_nodes(ix(&sim, 7203));
        assert_eq!(
            nodes_shape(&end),
            nodes_shape(&read_block(
                "raw/majority_loss_cluster_nodes.txt",
                "majority_loss",
                7203
            )),
            "seed {seed}"
        );
    }
}

/// The last kept CLUSTER NODES reply of `observer`.
fn read_block(raw: &str, case: &str, observer: u16) -> String {
    last_nodes(raw, case).remove(&observer).expect("observer").1
}
