//! The cluster-bus simulator's speed: simulated seconds per wall second for N = 6, 100 and
//! 1000 nodes (half masters, half replicas; `cluster-node-timeout` 15000, the default), in
//! steady state and through a master's failover, plus the bus traffic per node. Run with
//! `cargo bench --bench bus`; it prints its figures (no criterion: one 1000-node run takes
//! seconds). Native only: on wasm32 this is an empty `main`.

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    use slotscope::core::bus::{Config, Sim};
    use std::time::Instant;

    for (n, sim_secs) in [(6usize, 600u64), (100, 60), (1000, 10)] {
        let masters = n / 2;
        let replica_of: Vec<usize> = (0..n - masters).map(|i| i % masters).collect();
        let cfg = Config {
            record_messages: false,
            ..Config::default()
        };
        let built = Instant::now();
        let mut sim = Sim::create(cfg, 7, masters, &replica_of, 7000, 0);
        let build = built.elapsed().as_secs_f64();
        // Warm up into steady state (every link pinged at least once).
        sim.run_for(16_000);
        let (bytes0, msgs0) = (sim.bytes_sent, sim.messages_sent);
        let start = Instant::now();
        sim.run_for(sim_secs * 1000);
        let wall = start.elapsed().as_secs_f64();
        let bytes = (sim.bytes_sent - bytes0) as f64 / sim_secs as f64;
        let msgs = (sim.messages_sent - msgs0) as f64 / sim_secs as f64;
        println!(
            "bus N={n:4}: {:9.1} simulated s per wall s (steady, {sim_secs} s simulated in {wall:.2} s; built in {build:.2} s); {:.0} msgs/s, {:.1} KB/s per node",
            sim_secs as f64 / wall,
            msgs,
            bytes / n as f64 / 1024.0
        );
        // A master crashes: the failover's seconds cost more (FAIL broadcasts, elections).
        let start = Instant::now();
        sim.crash(0);
        sim.run_for(sim_secs * 1000);
        let wall = start.elapsed().as_secs_f64();
        let promoted = sim
            .nodes
            .iter()
            .any(|x| x.is_master() && x.slot_owner[0] == x.ix && x.ix != 0);
        println!(
            "bus N={n:4}: {:9.1} simulated s per wall s (master crash, promoted: {promoted})",
            sim_secs as f64 / wall
        );
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}
