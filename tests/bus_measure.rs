//! The measured numbers (`core::bus::measure`) against BUS.md's rules and the recordings in
//! `fixtures/failover/`: message sizes from cluster.h, heartbeat rates from `clusterCron`'s
//! ping rules, failover times inside the windows the rules allow and around the recorded
//! crash (NT 2000), and a 2-master cluster that can never fail over.

mod bus_support;

use slotscope::core::bus::measure::{
    failover_times, heartbeat_traffic, minimum_masters, Spread, TrafficRun, SLOT_BITMAP_BYTES,
    SLOT_BITMAP_BYTES_65536,
};
use slotscope::core::bus::{GOSSIP_BYTES, HEADER_BYTES};

/// cluster.h: `myslots[CLUSTER_SLOTS/8]` is 2048 bytes of the 2256-byte header; 65536 slots
/// would make it 8192.
#[test]
fn bitmap_sizes_are_cluster_h() {
    assert_eq!(SLOT_BITMAP_BYTES, 2048);
    assert_eq!(SLOT_BITMAP_BYTES_65536, 8192);
    assert_eq!(HEADER_BYTES, 2256);
}

/// BUS.md: PING/PONG = header + 104 × max(3, nodes/10) entries (capped at nodes − 2; none in
/// PFAIL in a steady cluster): 2568 bytes at 6 nodes, 3296 at 100. Every node pings at least
/// one node a second (answered by a PONG), and no peer more often than the once-a-second
/// pick plus the NT/2 rule allow.
#[test]
fn heartbeat_traffic_follows_the_ping_rules() {
    for (masters, nodes, entries) in [(3usize, 6usize, 3u32), (50, 100, 10)] {
        let t = heartbeat_traffic(masters, 1, 15000, 3, 30_000);
        assert_eq!(t.nodes, nodes);
        let full = f64::from(HEADER_BYTES + GOSSIP_BYTES * entries);
        // A gossip pick may repeat until maxiter runs out: a message can carry fewer.
        assert!(
            t.bytes_per_msg <= full && t.bytes_per_msg > full - 20.0,
            "{t:?}"
        );
        let per_node = t.msgs_per_s_per_node();
        let nt_s = 15.0;
        let most = 2.0 * (1.0 + (nodes as f64 - 1.0) / (nt_s / 2.0)) + 0.2;
        assert!(
            (1.8..=most).contains(&per_node),
            "{per_node} msgs/s per node: {t:?}"
        );
        // Same messages, each header 6144 bytes bigger (no UPDATE in a steady cluster).
        let grown = t.bytes_per_s + 6144.0 * t.msgs_per_s;
        assert!((t.bytes_per_s_65536 - grown).abs() < 1e-6 * grown, "{t:?}");
        assert!((t.bytes_per_s_per_node() * nodes as f64 - t.bytes_per_s).abs() < 1e-6);
    }
}

/// The recorded crash (`summary.tsv`, case `crash`, NT 2000): the first `fail?`, the first
/// `fail` and the replica seeing itself master, in ms after SIGKILL (polled every 50 ms).
fn recorded_crash() -> (u64, u64, u64) {
    let text = bus_support::read("summary.tsv");
    let (mut pfail, mut fail, mut promoted) = (u64::MAX, u64::MAX, u64::MAX);
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 3 || f[0] != "crash" {
            continue;
        }
        let Ok(t) = f[2].parse::<u64>() else { continue };
        match f[1] {
            "first_pfail_seen_by" => pfail = pfail.min(t),
            "first_fail_seen_by" => fail = fail.min(t),
            "replica_sees_itself_master" => promoted = promoted.min(t),
            _ => {}
        }
    }
    assert!(promoted < u64::MAX, "summary.tsv has the crash case");
    (pfail, fail, promoted)
}

/// A recorded instant (read up to one 50 ms poll round late) inside the simulated spread.
fn covers(s: &Spread, recorded: u64, what: &str) {
    assert!(
        s.min <= recorded && s.max + 60 >= recorded,
        "{what}: recorded {recorded} ms outside simulated {s:?}"
    );
}

#[test]
fn failover_times_sit_in_the_rule_windows_and_cover_the_recording() {
    let (rec_pfail, rec_fail, rec_promoted) = recorded_crash();
    for (nt, runs) in [(2000u64, 24usize), (1000, 8), (5000, 8)] {
        let f = failover_times(nt, runs, 11);
        assert_eq!(f.promoted_runs, runs, "every run fails over: {f:?}");
        for r in &f.samples {
            let (p, fl, pr) = (
                r.pfail_ms.unwrap(),
                r.fail_ms.unwrap(),
                r.promoted_ms.unwrap(),
            );
            // PFAIL: a ping in flight for more than NT; the ping goes out at the latest NT/2
            // after the last sign of life, and PFAIL is checked every 100 ms cron.
            assert!(p > nt && p <= nt + nt / 2 + 110, "PFAIL {p} at NT {nt}");
            // FAIL needs our PFAIL and a quorum of reports, which expire after 2 × NT.
            assert!(
                fl >= p && fl <= p + 2 * nt,
                "FAIL {fl} after PFAIL {p} at NT {nt}"
            );
            // Rank 0: the election starts 500 + random() % 500 ms after the replica learns
            // FAIL (on its next cron), then one vote round trip.
            assert!(
                pr >= fl + 500 && pr < fl + 1000 + 200,
                "promotion {pr} after FAIL {fl} at NT {nt}"
            );
        }
        if nt == 2000 {
            covers(&f.pfail.unwrap(), rec_pfail, "PFAIL");
            covers(&f.fail.unwrap(), rec_fail, "FAIL");
            covers(&f.promoted.unwrap(), rec_promoted, "promotion");
        }
        let s = f.promoted.unwrap();
        assert!(s.min <= s.p50 && s.p50 <= s.p90 && s.p90 <= s.max);
    }
}

/// BUS.md: FAIL needs `size/2 + 1` masters; with 2 masters the survivor alone is 1 < 2, so
/// the dead master is never FAIL, its replica never runs an election, and the survivors see
/// fewer than a majority of masters reachable: state fail. With 3 masters it fails over.
#[test]
fn two_masters_never_fail_over_three_do() {
    for seed in 1..=4 {
        let two = minimum_masters(2, 2000, seed, 30_000);
        assert!(two.pfail_ms.is_some(), "{two:?}");
        assert_eq!(two.fail_ms, None, "{two:?}");
        assert_eq!(two.promoted_ms, None, "{two:?}");
        assert_eq!(two.cluster_down_ms, two.pfail_ms, "{two:?}");
        let three = minimum_masters(3, 2000, seed, 30_000);
        assert!(three.promoted_ms.is_some(), "{three:?}");
    }
}

#[test]
fn spread_is_nearest_rank() {
    assert_eq!(Spread::of(&[]), None);
    let s = Spread::of(&[5, 1, 4, 2, 3, 6, 7, 8, 9, 10]).unwrap();
    assert_eq!((s.min, s.p50, s.p90, s.max), (1, 5, 9, 10));
}

/// Measured in slices (as the page does between frames), the traffic is the same figure.
#[test]
fn traffic_in_slices_is_the_same_measurement() {
    let whole = heartbeat_traffic(10, 0, 15000, 1, 10_000);
    let mut run = TrafficRun::new(10, 0, 15000, 1, 10_000);
    let mut slices = 0;
    let sliced = loop {
        slices += 1;
        if let Some(t) = run.advance(777) {
            break t;
        }
    };
    assert!(slices > 40);
    assert_eq!(sliced, whole);
    // And cut by events, as the page does for big clusters: the same figure to the byte.
    let mut run = TrafficRun::new(10, 0, 15000, 1, 10_000);
    let mut pieces = 0;
    let by_events = loop {
        pieces += 1;
        if let Some(t) = run.advance_steps(97) {
            break t;
        }
    };
    assert!(pieces > 40, "{pieces}");
    assert_eq!(by_events, whole);
}
