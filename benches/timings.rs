//! The wall-clock figures the test suite used to assert (hot spot, import refusals, slots vs
//! ring vs mod N), measured here instead: a debug build on a loaded machine made them flaky as
//! tests, and cost seconds of every test run; and the planner's 2,000 commands answered at 1000
//! masters (issue 17). Run with `cargo bench --bench timings`.
//! Native only: on wasm32 this is an empty `main`, so every target still builds there.

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use criterion::{black_box, Criterion};
    use slotscope::core::cluster::import::import;
    use slotscope::core::cluster::topology::{Master, SlotMap, SlotRange};
    use slotscope::core::schemes::{mod_n_outcome, ring_outcome, slots_outcome};
    use slotscope::core::workload::batch::run_lines;
    use slotscope::core::workload::KeySample;
    use slotscope::core::workload::{hot_spot, Tagging};
    use std::time::Duration;

    /// The page's hot-spot experiment: 100,000 keys over 64 sub-tags (was `hot_spot_is_fast`,
    /// which asserted under 500 ms a run in the test profile).
    fn hot_spots(c: &mut Criterion) {
        let map = SlotMap::fixture_cluster();
        c.bench_function("hot_spot_k64_100k_keys", |b| {
            b.iter(|| hot_spot(Tagging::SubTags(64), black_box(100_000), &map).unwrap())
        });
    }

    /// Pastes over the import's limits are refused before any work (were asserted under 50 ms
    /// and 2 s in `tests/import.rs`).
    fn import_refusals(c: &mut Criterion) {
        let line = "d3bede0cd4ba07708f552c2e44e8211e0d571a39 127.0.0.1:7000@17000 myself,master - 0 0 1 connected 0-5460\n";
        let huge = line.repeat(10 * 1024 * 1024 / line.len() + 1);
        let claims = format!(
            "d3bede0cd4ba07708f552c2e44e8211e0d571a39 127.0.0.1:7000@17000 master - 0 0 1 connected {}\n",
            "0-16383 ".repeat(200_000)
        );
        let mut g = c.benchmark_group("import_refusal");
        g.bench_function("10MB_paste", |b| {
            b.iter(|| import(black_box(&huge)).unwrap_err())
        });
        g.bench_function("2MB_of_slot_claims", |b| {
            b.iter(|| import(black_box(&claims)).unwrap_err())
        });
        g.finish();
    }

    /// Adding a fourth master under hash slots, a ring of V = 200 and `mod N`, on 100,000 keys;
    /// and a ring of 100 masters × 1000 points (was `three_methods_on_100k_keys_timing`, a test
    /// that only printed).
    fn schemes(c: &mut Criterion) {
        let keys = KeySample::numbered(b"key:", 100_000);
        let before = SlotMap::fixture_cluster();
        let mut after = before.clone();
        let new = after
            .add_master(Master::new("127.0.0.1:7006", format!("{:040x}", 0xabc)))
            .unwrap();
        for r in [
            SlotRange::new(0, 1364),
            SlotRange::new(5461, 6826),
            SlotRange::new(10923, 12288),
        ] {
            for s in r.first..=r.last {
                after.assign(s, Some(new));
            }
        }
        let addrs = |n: usize| -> Vec<String> {
            (0..n).map(|i| format!("127.0.0.1:{}", 7000 + i)).collect()
        };
        let (three, hundred) = (addrs(3), addrs(100));
        let mut g = c.benchmark_group("schemes_100k_keys");
        g.bench_function("build_sample", |b| {
            b.iter(|| KeySample::numbered(b"key:", black_box(100_000)))
        });
        g.bench_function("slots", |b| {
            b.iter(|| slots_outcome(&keys, &before, &after))
        });
        g.bench_function("ring_v200", |b| {
            b.iter(|| ring_outcome(&keys, &three, "127.0.0.1:7006", 200).unwrap())
        });
        g.bench_function("mod_n", |b| b.iter(|| mod_n_outcome(&keys, 3).unwrap()));
        g.bench_function("ring_n100_v1000", |b| {
            b.iter(|| ring_outcome(&keys, &hundred, "x:1", 1000).unwrap())
        });
        g.finish();
    }

    /// The planner's 2,000 commands (its line limit) answered by one node of a created cluster
    /// of 1000 masters, as the page answers them a task after the frame that shows their text.
    fn planner_commands(c: &mut Criterion) {
        let map = SlotMap::created(1000, "127.0.0.1", 7000).unwrap();
        let text: String = (0..2000)
            .map(|i| format!("GET user:{i}:{{t{}}}\n", i % 97))
            .collect();
        c.bench_function("planner_2000_commands_1000_masters", |b| {
            b.iter(|| run_lines(&map, "127.0.0.1:7000", black_box(&text)).unwrap())
        });
    }

    pub fn main() {
        let mut c = Criterion::default()
            .warm_up_time(Duration::from_secs(1))
            .configure_from_args();
        hot_spots(&mut c);
        import_refusals(&mut c);
        schemes(&mut c);
        planner_commands(&mut c);
        c.final_summary();
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    native::main();
}

#[cfg(target_arch = "wasm32")]
fn main() {}
