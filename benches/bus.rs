//! The cluster-bus simulator's speed: simulated seconds per wall second for N = 6, 100 and
//! 1000 nodes (half masters, half replicas; `cluster-node-timeout` 15000, the default), in
//! steady state and through a master's failover, plus the bus traffic per node. Run with
//! `cargo bench --no-default-features --bench bus` (add `-- 1000` to run only some N); it
//! prints its figures and the process's peak resident memory (Linux `VmHWM`, cumulative
//! over the sizes run so far; no criterion: one 1000-node run takes seconds). Native only:
//! on wasm32 this is an empty `main`.

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    use slotscope::core::bus::{Config, Sim};
    use std::time::Instant;

    let only: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    for (n, sim_secs) in [(6usize, 600u64), (100, 60), (1000, 10)] {
        if !only.is_empty() && !only.contains(&n) {
            continue;
        }
        let masters = n / 2;
        let replica_of: Vec<usize> = (0..n - masters).map(|i| i % masters).collect();
        let cfg = Config {
            record_messages: false,
            ..Config::default()
        };
        let built = Instant::now();
        let mut sim = Sim::create(cfg, 7, masters, &replica_of, 7000, 0);
        let build = built.elapsed().as_secs_f64();
        let rss_built = peak_rss();
        // Warm up into steady state (every link pinged at least once: at NT/2 = 7.5 s every
        // node pings every peer at once, the heaviest burst of messages in flight).
        sim.run_for(7_000);
        let rss_before_burst = peak_rss();
        sim.run_for(9_000);
        if n >= 1000 {
            println!(
                "bus N={n:4}: peak RSS {rss_built} once built, {rss_before_burst} before the NT/2 burst"
            );
        }
        let (bytes0, msgs0) = (sim.bytes_sent, sim.messages_sent);
        let start = Instant::now();
        let cpu0 = cpu_secs();
        sim.run_for(sim_secs * 1000);
        let wall = start.elapsed().as_secs_f64();
        let cpu = cpu_secs() - cpu0;
        let bytes = (sim.bytes_sent - bytes0) as f64 / sim_secs as f64;
        let msgs = (sim.messages_sent - msgs0) as f64 / sim_secs as f64;
        println!(
            "bus N={n:4}: {:9.1} simulated s per wall s, {:9.1} per CPU s (steady, {sim_secs} s simulated in {wall:.2} s, {cpu:.2} CPU s; built in {build:.2} s); {:.0} msgs/s, {:.1} KB/s per node; peak RSS so far {}",
            sim_secs as f64 / wall,
            sim_secs as f64 / cpu.max(0.01),
            msgs,
            bytes / n as f64 / 1024.0,
            peak_rss()
        );
        // A master crashes: the failover's seconds cost more (FAIL broadcasts, elections).
        let start = Instant::now();
        let cpu0 = cpu_secs();
        sim.crash(0);
        sim.run_for(sim_secs * 1000);
        let wall = start.elapsed().as_secs_f64();
        let cpu = cpu_secs() - cpu0;
        let promoted = sim
            .nodes
            .iter()
            .any(|x| x.is_master() && x.slot_owner[0] == x.ix && x.ix != 0);
        println!(
            "bus N={n:4}: {:9.1} simulated s per wall s, {:9.1} per CPU s (master crash, promoted: {promoted}); peak RSS so far {}",
            sim_secs as f64 / wall,
            sim_secs as f64 / cpu.max(0.01),
            peak_rss()
        );
    }
}

/// This thread's user + system CPU time in seconds (/proc/thread-self/stat, 100 Hz ticks):
/// on a shared machine the wall figure also counts other processes' turns.
#[cfg(not(target_arch = "wasm32"))]
fn cpu_secs() -> f64 {
    std::fs::read_to_string("/proc/thread-self/stat")
        .ok()
        .and_then(|s| {
            let rest = s.rsplit_once(')')?.1;
            let f: Vec<&str> = rest.split_whitespace().collect();
            let u: f64 = f.get(11)?.parse().ok()?;
            let k: f64 = f.get(12)?.parse().ok()?;
            Some((u + k) / 100.0)
        })
        .unwrap_or(0.0)
}

/// The process's peak resident set (`VmHWM` in /proc/self/status), or "?" elsewhere.
#[cfg(not(target_arch = "wasm32"))]
fn peak_rss() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .map(|l| l.trim_start_matches("VmHWM:").trim().to_string())
        })
        .unwrap_or_else(|| "?".into())
}

#[cfg(target_arch = "wasm32")]
fn main() {}
