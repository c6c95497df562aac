//! Emptying a master by resharding, against the recording (`fixtures/failover/del_node/`):
//! the importing master bumps its config epoch, the emptied master and its replica both
//! reconfigure as replicas of the master that took the last slots
//! (`clusterUpdateSlotsConfigWith` with `cluster-allow-replica-migration yes`).

mod bus_support;

use bus_support::*;
use slotscope::core::bus::Sim;

fn ix(sim: &Sim, port: u16) -> u32 {
    sim.by_port(port).expect("port")
}

fn output(rel: &str) -> String {
    read(rel)
        .lines()
        .skip_while(|l| !l.starts_with("$ "))
        .skip(1)
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn emptied_master_and_its_replica_follow_the_slots() {
    let lay = layout(&read("del_node/00_create.txt"));
    let rec = recorded("logs_del_node.txt", &lay.ids);
    // The recording's reshard: from 7176 ms (the epoch bump) to 12512 ms (the replica moved).
    let window = |m: &std::collections::BTreeMap<u16, Vec<(i64, String)>>, from: i64, to: i64| {
        let mut out = std::collections::BTreeMap::new();
        for (p, v) in m {
            let v: Vec<String> = v
                .iter()
                .filter(|(t, _)| (from..=to).contains(t))
                .map(|(_, e)| e.clone())
                .collect();
            if !v.is_empty() {
                out.insert(*p, v);
            }
        }
        out
    };
    let want = window(&rec, 7000, 13000);
    for seed in 0..seeds(6) {
        let mut sim = simulate(&lay, seed, 5000);
        assert_eq!(
            nodes_shape(&sim.cluster_nodes(ix(&sim, 7201))),
            nodes_shape(&output("del_node/03_nodes_before.txt")),
            "seed {seed}: before"
        );
        let t0 = sim.now;
        // `redis-cli --cluster reshard` moved the 5461 slots one by one over about 5.3 s;
        // here 100 slots every 100 ms (the last batch holds slot 5460 alone).
        let (from, to) = (ix(&sim, 7200), ix(&sim, 7201));
        let mut start = 0;
        while start < 5460 {
            let end = (start + 100).min(5460);
            sim.move_slots(from, to, start..end).unwrap();
            sim.run_for(100);
            start = end;
        }
        sim.move_slots(from, to, 5460..5461).unwrap();
        sim.run_for(3000);
        let got = window(&simulated(&sim, t0), 0, 9000);
        assert_eq!(got, want, "seed {seed}: events");
        for (port, file) in [
            (7201, "del_node/05_nodes_after_reshard_from_7201.txt"),
            (7200, "del_node/06_nodes_after_reshard_from_7200.txt"),
            (7203, "del_node/07_nodes_after_reshard_from_7203.txt"),
        ] {
            assert_eq!(
                nodes_shape(&sim.cluster_nodes(ix(&sim, port))),
                nodes_shape(&output(file)),
                "seed {seed}: CLUSTER NODES of {port} after the reshard"
            );
        }
    }
}
