//! The bus simulator against the recorded automatic failovers (`fixtures/failover/`): a master
//! hung and resumed, crashed and restarted, two replicas with different and equal offsets.
//! For each case, over many seeds (`BUS_SEEDS`, default 12): the same bus events per node in
//! the same order (ids and times aside), times in the windows the rules allow and the
//! recording shows, the same epochs (they are part of the events), the same final
//! `CLUSTER NODES` on every node (roles, flags, masters, epochs, slots).

mod bus_support;

use bus_support::*;
use slotscope::core::bus::{EventKind, Opinion, Sim};
use std::collections::BTreeMap;

const WARMUP: u64 = 5000;
const NT: i64 = 2000;

/// Runs of `two_replicas_equal` where both replicas asked for votes.
static SPLIT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

fn ix(sim: &Sim, port: u16) -> u32 {
    sim.by_port(port).expect("port")
}

/// `hang`: SIGSTOP master 7200 at t=0, SIGCONT at t=10050 (as the recording).
fn run_hang(seed: u64, until: i64) -> (Sim, u64) {
    let mut sim = simulate(&layout(&read("raw/hang_create.txt")), seed, WARMUP);
    let t0 = sim.now;
    let m = ix(&sim, 7200);
    sim.hang(m);
    sim.run_until(t0 + 10050);
    sim.resume(m);
    sim.run_until(t0 + until as u64);
    (sim, t0)
}

/// `crash`: SIGKILL master 7200 at t=0, restarted from its nodes.conf at t=10050.
fn run_crash(seed: u64, until: i64) -> (Sim, u64) {
    let mut sim = simulate(&layout(&read("raw/crash_create.txt")), seed, WARMUP);
    let t0 = sim.now;
    let m = ix(&sim, 7200);
    sim.crash(m);
    sim.run_until(t0 + 10050);
    sim.restart(m);
    sim.run_until(t0 + until as u64);
    (sim, t0)
}

/// `two_replicas_lag`: replica 7205 stopped at t=-1030, then the master takes writes its
/// other replica 7203 receives (offsets as recorded: 3149322 before, 100670393 after);
/// SIGKILL 7200 at t=0, SIGCONT 7205 at t=200.
fn run_lag(seed: u64, until: i64) -> (Sim, u64) {
    let mut sim = simulate(
        &layout(&read("raw/two_replicas_lag_create.txt")),
        seed,
        WARMUP - 1030,
    );
    let m = ix(&sim, 7200);
    let lagging = ix(&sim, 7205);
    sim.write(m, 3_149_322);
    sim.hang(lagging);
    sim.write(m, 100_670_393 - 3_149_322);
    sim.run_for(1030);
    let t0 = sim.now;
    sim.crash(m);
    sim.run_until(t0 + 200);
    sim.resume(lagging);
    sim.run_until(t0 + until as u64);
    (sim, t0)
}

/// `two_replicas_equal`: both replicas at offset 3500; SIGKILL 7200 at t=0.
fn run_equal(seed: u64, until: i64) -> (Sim, u64) {
    let mut sim = simulate(
        &layout(&read("raw/two_replicas_equal_create.txt")),
        seed,
        WARMUP,
    );
    let m = ix(&sim, 7200);
    sim.write(m, 3500);
    sim.run_for(200);
    let t0 = sim.now;
    sim.crash(m);
    sim.run_until(t0 + until as u64);
    (sim, t0)
}

/// First time each observer flagged `subject` with `opinion`, relative to t0.
fn first_opinion(sim: &Sim, t0: u64, subject: u32, want: Opinion) -> BTreeMap<u16, i64> {
    let mut out = BTreeMap::new();
    for e in &sim.events {
        if let EventKind::Opinion {
            observer,
            subject: s,
            opinion,
        } = e.kind
            && s == subject
            && opinion == want
            && e.t >= t0
        {
            out.entry(sim.nodes[observer as usize].port)
                .or_insert(e.t as i64 - t0 as i64);
        }
    }
    out
}

/// The raw `Start of election delayed for <ms> milliseconds (rank #<r>, …)` figures.
fn election_delays(sim: &Sim, t0: u64) -> Vec<(u16, i64, u64, u64)> {
    sim.logs
        .iter()
        .filter(|l| l.t >= t0 && l.text.starts_with("Start of election delayed for "))
        .map(|l| {
            let ms: u64 = l.text[30..].split(' ').next().unwrap().parse().unwrap();
            let rank: u64 = l
                .text
                .split("(rank #")
                .nth(1)
                .unwrap()
                .split(',')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            (
                sim.nodes[l.node as usize].port,
                l.t as i64 - t0 as i64,
                ms,
                rank,
            )
        })
        .collect()
}

/// The recorded delays of one case's log.
fn recorded_delays(log: &str) -> Vec<(u16, i64, u64, u64)> {
    read(log)
        .lines()
        .filter(|l| l.contains("Start of election delayed for "))
        .map(|l| {
            let f: Vec<&str> = l.splitn(3, '\t').collect();
            let text = f[2].split("Start of election delayed for ").nth(1).unwrap();
            let ms: u64 = text.split(' ').next().unwrap().parse().unwrap();
            let rank: u64 = text
                .split("(rank #")
                .nth(1)
                .unwrap()
                .split(',')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            (f[1].parse().unwrap(), f[0].parse().unwrap(), ms, rank)
        })
        .collect()
}

/// The windows of the rules (NT = 2000): checked on the recording and on every run.
fn check_windows(
    what: &str,
    ev: &BTreeMap<u16, Vec<(i64, String)>>,
    delays: &[(u16, i64, u64, u64)],
    failed: u16,
) {
    let fail =
        first_any(ev, &format!("FAIL {failed}")).unwrap_or_else(|| panic!("{what}: no FAIL"));
    // A PFAIL needs a ping unanswered for NT, and that ping went out at most NT/2 + one cron
    // after the last PONG: PFAIL by 1.5 NT + a cron. FAIL then needs a report from another
    // master, whose pings to each node come at least every NT/2 + a cron: by 2 NT + 3 crons.
    assert!(
        (NT..=NT * 2 + 300).contains(&fail),
        "{what}: FAIL at {fail}"
    );
    for (port, t, ms, rank) in delays {
        let r = *rank;
        assert!(
            (500 + 1000 * r..1000 + 1000 * r).contains(ms),
            "{what}: {port} delay {ms} rank {r}"
        );
        // Scheduled at the replica's first cron after it learned the FAIL (or at once).
        let learned = first(ev, *port, &format!("FAIL {failed}")).unwrap();
        assert!(
            (learned..=learned + 110).contains(t),
            "{what}: {port} scheduled at {t}, FAIL at {learned}"
        );
    }
    let start = first_any(ev, "Starting a failover election")
        .unwrap_or_else(|| panic!("{what}: no election"));
    // Each replica that started one did so at its first cron after its delay ran out.
    for (port, sched, ms, _) in delays {
        if let Some(t) = first(ev, *port, "Starting a failover election") {
            let due = sched + *ms as i64;
            assert!(
                (due..=due + 110).contains(&t),
                "{what}: {port} started at {t}, due {due}"
            );
        }
    }
    let winner = *ev
        .iter()
        .find(|(_, v)| {
            v.iter()
                .any(|(t, e)| *t == start && e.starts_with("Starting a failover"))
        })
        .unwrap()
        .0;
    let won =
        first(ev, winner, "Failover election won").unwrap_or_else(|| panic!("{what}: not won"));
    assert!(
        (start..=start + 10).contains(&won),
        "{what}: won at {won} after start {start}"
    );
}

/// Relabel two ports in a simulation's events (two replicas the rules treat alike).
fn swap_ports(
    m: &BTreeMap<u16, Vec<(i64, String)>>,
    a: u16,
    b: u16,
) -> BTreeMap<u16, Vec<(i64, String)>> {
    let sw = |p: u16| {
        if p == a {
            b
        } else if p == b {
            a
        } else {
            p
        }
    };
    m.iter()
        .map(|(p, v)| {
            let v = v
                .iter()
                .map(|(t, e)| {
                    let e = e
                        .replace(&a.to_string(), "\u{1}")
                        .replace(&b.to_string(), &a.to_string())
                        .replace('\u{1}', &b.to_string());
                    (*t, e)
                })
                .collect();
            (sw(*p), v)
        })
        .collect()
}

/// Whether the election's FAILOVER_AUTH_REQUEST went from `from` to `to`: a node sends it
/// only on a live outbound link, and links to a stopped process are freed and remade every
/// NT + 100 ms, so about one election in twenty finds the link down.
fn auth_request_sent(sim: &Sim, from: u16, to: u16) -> bool {
    let (f, t) = (ix(sim, from), ix(sim, to));
    sim.events.iter().any(|e| {
        matches!(e.kind, EventKind::Sent { msg: slotscope::core::bus::MsgType::FailoverAuthRequest, from: a, to: b, .. } if a == f && b == t)
    })
}

type Events = BTreeMap<u16, Vec<(i64, String)>>;
type Adjust = fn(&Sim, Events, &mut Events) -> (Events, Option<(u16, u16)>);

fn no_adjust(_: &Sim, got: Events, _: &mut Events) -> (Events, Option<(u16, u16)>) {
    (got, None)
}

/// A `nodes_shape` with two ports exchanged.
fn swap_shape(shape: Vec<String>, swap: Option<(u16, u16)>) -> Vec<String> {
    let Some((a, b)) = swap else { return shape };
    let (a, b) = (a.to_string(), b.to_string());
    let mut v: Vec<String> = shape
        .iter()
        .map(|l| {
            l.split(' ')
                .map(|w| {
                    if w == a {
                        b.as_str()
                    } else if w == b {
                        a.as_str()
                    } else {
                        w
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    v.sort();
    v
}

fn check_case(case: &str, log: &str, create: &str, failed: u16, run: fn(u64, i64) -> (Sim, u64)) {
    check_case_with(case, log, create, failed, run, no_adjust)
}

fn check_case_with(
    case: &str,
    log: &str,
    create: &str,
    failed: u16,
    run: fn(u64, i64) -> (Sim, u64),
    adjust: Adjust,
) {
    let lay = layout(&read(create));
    let rec = recorded(log, &lay.ids);
    check_windows(
        &format!("{case} (recorded)"),
        &rec,
        &recorded_delays(log),
        failed,
    );
    let finals = last_nodes(&format!("raw/{case}_cluster_nodes.txt"), case);
    let until = finals.values().map(|(t, _)| *t).max().unwrap() + 1;
    for seed in 0..seeds(5) {
        let (sim, t0) = run(seed, until);
        let mut want = rec.clone();
        let raw = simulated(&sim, t0);
        check_windows(
            &format!("{case} seed {seed}"),
            &raw,
            &election_delays(&sim, t0),
            failed,
        );
        let (got, swap) = adjust(&sim, raw, &mut want);
        assert_eq!(
            events_only(&got),
            events_only(&want),
            "{case} seed {seed}: events per node"
        );
        let pfail = first_opinion(&sim, t0, ix(&sim, failed), Opinion::Pfail);
        for (p, t) in &pfail {
            assert!(
                (NT..=NT * 3 / 2 + 200).contains(t),
                "{case} seed {seed}: {p} PFAIL at {t}"
            );
        }
        for (port, (_, text)) in &finals {
            let observer = match swap {
                Some((a, b)) if *port == a => b,
                Some((a, b)) if *port == b => a,
                _ => *port,
            };
            assert_eq!(
                swap_shape(nodes_shape(&sim.cluster_nodes(ix(&sim, observer))), swap),
                nodes_shape(text),
                "{case} seed {seed}: CLUSTER NODES of {port} at the end"
            );
        }
    }
}

#[test]
fn master_hang_fails_over_and_returns_as_replica() {
    check_case_with(
        "hang",
        "logs_hang.txt",
        "raw/hang_create.txt",
        7200,
        run_hang,
        |sim, got, want| {
            // The resumed master reads the vote request buffered while it was stopped, and
            // refuses it ("its master is up"), when the request could be sent (see above).
            if !auth_request_sent(sim, 7205, 7200)
                && let Some(v) = want.get_mut(&7200)
            {
                v.retain(|(_, e)| !e.starts_with("Failover auth denied"));
            }
            (got, None)
        },
    );
    let sent = (100..120)
        .filter(|s| auth_request_sent(&run_hang(*s, 4500).0, 7205, 7200))
        .count();
    assert!(
        sent >= 15,
        "the request reached the stopped master in only {sent} of 20 runs"
    );
}

#[test]
fn master_crash_fails_over_and_restarts_as_replica() {
    check_case(
        "crash",
        "logs_crash.txt",
        "raw/crash_create.txt",
        7200,
        run_crash,
    );
}

#[test]
fn two_replicas_lagging_one_ranks_second() {
    check_case(
        "two_replicas_lag",
        "logs_two_replicas_lag.txt",
        "raw/two_replicas_lag_create.txt",
        7200,
        run_lag,
    );
}

#[test]
fn two_replicas_equal_offsets_share_rank_zero() {
    // Equal offsets, equal rank: either replica may win (the recording's 7206 did); a run
    // that 7205 wins is compared with the two relabelled.
    check_case_with(
        "two_replicas_equal",
        "logs_two_replicas_equal.txt",
        "raw/two_replicas_equal_create.txt",
        7200,
        run_equal,
        |sim, got, _| {
            let won = |p: u16| sim.nodes[ix(sim, p) as usize].is_master();
            let (mut got, swap) = if won(7205) && !won(7206) {
                (swap_ports(&got, 7205, 7206), Some((7205, 7206)))
            } else {
                (got, None)
            };
            // When both delays run out within a few ms, the loser also asks for votes (one
            // epoch later) and the masters refuse it ("can't vote about this master before
            // … milliseconds", check 5; or, once the winner owns the slots, "slot 0 epoch
            // (10) > reqEpoch (1)", check 6). The recording did not hit that race: drop
            // those lines, and count the runs that did.
            let loser_started = got
                .get(&7205)
                .is_some_and(|v| v.iter().any(|(_, e)| e.starts_with("Starting a failover")));
            if loser_started {
                SPLIT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                for (_, v) in got.iter_mut() {
                    v.retain(|(_, e)| !e.starts_with("Failover auth denied to 7205: "));
                }
                if let Some(v) = got.get_mut(&7205) {
                    v.retain(|(_, e)| !e.starts_with("Starting a failover"));
                }
            }
            (got, swap)
        },
    );
    let split = SPLIT.load(std::sync::atomic::Ordering::Relaxed) as u64;
    assert!(
        split * 4 <= seeds(5).max(4),
        "{split} runs had both replicas ask for votes"
    );
}

/// The recorded PFAIL polls fall in the window the rule allows (polls lag ≤ 60 ms).
#[test]
fn recorded_first_pfail_polls_are_in_the_window() {
    let rows = read("summary.tsv");
    let mut n = 0;
    for l in rows.lines() {
        let f: Vec<&str> = l.split('\t').collect();
        if f.len() == 5
            && (f[1] == "first_pfail_seen_by" || f[1] == "first_pfail")
            && !f[2].is_empty()
        {
            let t: i64 = f[2].parse().unwrap();
            assert!((NT..=NT * 3 / 2 + 260).contains(&t), "{l}");
            n += 1;
        }
    }
    assert!(n >= 12, "{n} PFAIL rows");
}
