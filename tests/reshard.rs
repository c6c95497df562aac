//! Reshard, rebalance, del-node and failover against the runs recorded from real Redis 7.0.15 /
//! redis-cli 7.0.15 (`../shared/fixtures/transcripts` and `../shared/fixtures/reshard_cases`).
//! Long because every recorded case is spelled out beside its fixture.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{fixtures_dir, read_tsv};
use proptest::prelude::*;
use slotscope::core::cluster::cli_commands::redis_cli_commands;
use slotscope::core::cluster::failover::{failover, FailoverOutcome};
use slotscope::core::cluster::rebalance::{rebalance_plan, Rebalance, RebalanceOptions};
use slotscope::core::cluster::reshard::{
    apply, del_node_check, reshard_plan, CheckProblem, OpenState, Operation, ReshardError,
    SlotMove, Sources,
};
use slotscope::core::{Master, Replica, SlotMap, SlotRange};
use std::collections::BTreeMap;

// ---------------------------------------------------------------------------------------------
// Reading the fixtures
// ---------------------------------------------------------------------------------------------

fn read(rel: &str) -> String {
    let path = fixtures_dir().join(rel);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read fixture {}: {e}", path.display()))
}

/// `0-32,5461-5494` or `0-332 5461-5794` or `300` into ranges (open-slot tokens `[…]` skipped).
fn parse_ranges(s: &str) -> Vec<SlotRange> {
    s.split([',', ' '])
        .filter(|t| !t.is_empty() && !t.starts_with('['))
        .map(|t| match t.split_once('-') {
            Some((a, b)) => SlotRange::new(a.parse().unwrap(), b.parse().unwrap()),
            None => {
                let s = t.parse().unwrap();
                SlotRange::new(s, s)
            }
        })
        .collect()
}

fn fmt_ranges(r: &[SlotRange]) -> String {
    r.iter()
        .map(|r| r.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// The masters of a `CLUSTER NODES` file: address -> (node id, ranges).
fn nodes_file(rel: &str) -> BTreeMap<String, (String, String)> {
    let mut out = BTreeMap::new();
    for line in read(rel).lines() {
        if line.starts_with('#') || line.starts_with('$') || line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split(' ').collect();
        if !f[2].split(',').any(|x| x == "master") {
            continue;
        }
        let addr = f[1].split('@').next().unwrap().to_owned();
        let ranges = fmt_ranges(&parse_ranges(&f[8..].join(" ")));
        out.insert(addr, (f[0].to_owned(), ranges));
    }
    out
}

/// The node order of the `M:` lines of a `--cluster check` file, as master indices of `map`.
fn check_order(rel: &str, map: &SlotMap) -> Vec<usize> {
    read(rel)
        .lines()
        .filter_map(|l| l.strip_prefix("M: "))
        .map(|l| {
            let addr = l.split(' ').nth(1).unwrap();
            index_of_addr(map, addr)
        })
        .collect()
}

fn index_of_addr(map: &SlotMap, addr: &str) -> usize {
    map.masters()
        .iter()
        .position(|m| m.addr == addr)
        .unwrap_or_else(|| panic!("no master {addr} in {map:?}"))
}

fn index_of_id(map: &SlotMap, id: &str) -> usize {
    map.master_by_id(id)
        .unwrap_or_else(|| panic!("no master with id {id}"))
}

/// What redis-cli printed about a rebalance's decision, without the `#` progress bars.
fn rebalance_lines(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| {
            l.starts_with("*** No rebalancing")
                || l.starts_with(">>> Rebalancing across")
                || (l.starts_with("Moving ") && !l.starts_with("Moving slot"))
        })
        .map(str::to_owned)
        .collect()
}

/// A run of moved slots: (source addr, target addr, first, last, count).
type MoveRun = (String, String, u16, u16, usize);

/// Moves grouped into runs of consecutive slots with the same giver and receiver, as moves.tsv
/// groups redis-cli's execution lines: (source addr, target addr, first, last, count).
fn runs_of(map: &SlotMap, moves: &[SlotMove]) -> Vec<MoveRun> {
    let mut out: Vec<MoveRun> = Vec::new();
    for mv in moves {
        let (src, dst) = (
            map.masters()[mv.from].addr.clone(),
            map.masters()[mv.to].addr.clone(),
        );
        match out.last_mut() {
            Some(last) if last.0 == src && last.1 == dst && last.3 + 1 == mv.slot => {
                last.3 = mv.slot;
                last.4 += 1;
            }
            _ => out.push((src, dst, mv.slot, mv.slot, 1)),
        }
    }
    out
}

struct SummaryRow {
    state_file: String,
    node: String,
    node_id: String,
    slots: usize,
    ranges: String,
}

fn summary(case: &str) -> Vec<SummaryRow> {
    read_tsv("reshard_cases/summary.tsv", common::SUMMARY_COLUMNS)
        .into_iter()
        .filter(|r| r[0] == case)
        .map(|r| SummaryRow {
            state_file: r[1].clone(),
            node: r[2].clone(),
            node_id: r[3].clone(),
            slots: r[5].parse().unwrap(),
            ranges: r[7].clone(),
        })
        .collect()
}

/// moves.tsv rows of one case, by file: (source, target, first, last, slots).
fn recorded_moves(case: &str) -> BTreeMap<String, Vec<MoveRun>> {
    let mut out: BTreeMap<String, Vec<MoveRun>> = BTreeMap::new();
    let rows = read_tsv(
        "reshard_cases/moves.tsv",
        &[
            "case", "file", "source", "target", "first", "last", "slots", "keys",
        ],
    );
    for r in rows.into_iter().filter(|r| r[0] == case) {
        out.entry(r[1].clone()).or_default().push((
            r[2].clone(),
            r[3].clone(),
            r[4].parse().unwrap(),
            r[5].parse().unwrap(),
            r[6].parse().unwrap(),
        ));
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Replaying a reshard case from its commands.txt
// ---------------------------------------------------------------------------------------------

#[derive(Default)]
struct Replay {
    states_checked: usize,
    reshards_checked: usize,
    rebalances_checked: usize,
    del_nodes_checked: usize,
    rebalance_plans: Vec<(String, Vec<String>)>,
    failures: Vec<String>,
}

fn arg<'a>(args: &[&'a str], name: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| *a == name)
        .and_then(|i| args.get(i + 1).copied())
}

/// Runs every command of `reshard_cases/<case>/commands.txt` on our model and compares each
/// recorded output (summary.tsv, moves.tsv, the rebalance and del-node outputs) with it.
fn replay(case: &str) -> Replay {
    let rows = summary(case);
    let moves_rec = recorded_moves(case);
    let id_of = |addr: &str| -> String {
        rows.iter()
            .find(|r| r.node == addr)
            .map(|r| r.node_id.clone())
            .unwrap_or_else(|| panic!("{case}: no id for {addr} in summary.tsv"))
    };
    let dir = format!("reshard_cases/{case}");
    let commands = read(&format!("{dir}/commands.txt"));
    let mut map: Option<SlotMap> = None;
    let mut order: Vec<usize> = Vec::new();
    let mut out = Replay::default();

    for line in commands.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (cmd, file) = match line.split_once("# -> ") {
            Some((c, f)) => (c.trim(), f.trim().to_owned()),
            None => (line, String::new()),
        };
        let args: Vec<&str> = cmd.split_whitespace().collect();
        assert_eq!(args[0], "redis-cli", "{case}: {line}");
        let output = if file.is_empty() {
            String::new()
        } else {
            read(&format!("{dir}/{file}"))
        };
        let state = file.trim_end_matches(".txt").to_owned();

        if args[1] == "-p" {
            assert_eq!(&args[3..], ["CLUSTER", "NODES"], "{case}: {line}");
            let want: Vec<&SummaryRow> = rows.iter().filter(|r| r.state_file == state).collect();
            if want.is_empty() {
                // The deleted node's own view (h): it is no longer part of our cluster.
                let addr = format!("127.0.0.1:{}", args[2]);
                if let Some(m) = &map {
                    assert!(
                        m.masters().iter().all(|x| x.addr != addr),
                        "{case}: {addr} should be gone"
                    );
                }
                continue;
            }
            let m = map.get_or_insert_with(|| {
                // Case g starts from case e's cluster: build it from the recorded facts.
                let masters = want
                    .iter()
                    .map(|r| Master::new(r.node.clone(), r.node_id.clone()))
                    .collect();
                let ranges: Vec<(usize, SlotRange)> = want
                    .iter()
                    .enumerate()
                    .flat_map(|(i, r)| parse_ranges(&r.ranges).into_iter().map(move |x| (i, x)))
                    .collect();
                SlotMap::from_ranges(masters, &ranges).unwrap()
            });
            for r in &want {
                let Some(idx) = m.masters().iter().position(|x| x.addr == r.node) else {
                    out.failures
                        .push(format!("{case}/{state}: {} missing from our map", r.node));
                    continue;
                };
                let got = fmt_ranges(&m.ranges_of(idx));
                let count = m.slot_counts()[idx];
                if got != r.ranges || count != r.slots {
                    out.failures.push(format!(
                        "{case}/{state}: {} owns {count} slots {got:?}, redis says {} {:?}",
                        r.node, r.slots, r.ranges
                    ));
                }
            }
            for x in m.masters() {
                if !want.iter().any(|r| r.node == x.addr) {
                    out.failures
                        .push(format!("{case}/{state}: {} is not in the cluster", x.addr));
                }
            }
            out.states_checked += 1;
            continue;
        }

        assert_eq!(args[1], "--cluster", "{case}: {line}");
        match args[2] {
            "create" => {
                let addrs: Vec<&str> = args[3..]
                    .iter()
                    .take_while(|a| !a.starts_with("--"))
                    .copied()
                    .collect();
                let first_port: u16 = addrs[0].rsplit_once(':').unwrap().1.parse().unwrap();
                let mut m = SlotMap::created(addrs.len(), "127.0.0.1", first_port).unwrap();
                for (i, a) in addrs.iter().enumerate() {
                    assert_eq!(m.masters()[i].addr, *a);
                    m.master_mut(i).unwrap().id = id_of(a);
                }
                map = Some(m);
            }
            "add-node" => {
                let m = map.as_mut().unwrap();
                m.add_master(Master::new(args[3], id_of(args[3]))).unwrap();
            }
            "info" => {}
            "check" => {
                order = check_order(&format!("{dir}/{file}"), map.as_ref().unwrap());
            }
            "reshard" => {
                let m = map.as_mut().unwrap();
                let to = index_of_id(m, arg(&args, "--cluster-to").unwrap());
                let n: usize = arg(&args, "--cluster-slots").unwrap().parse().unwrap();
                let sources = match arg(&args, "--cluster-from").unwrap() {
                    "all" => Sources::All,
                    ids => Sources::Masters(ids.split(',').map(|id| index_of_id(m, id)).collect()),
                };
                let plan = reshard_plan(m, &sources, to, n).unwrap();
                let got = runs_of(m, &plan);
                let want = moves_rec.get(&file).cloned().unwrap_or_default();
                if got != want {
                    out.failures.push(format!(
                        "{case}/{file}: moves {got:?}\n   redis-cli moved {want:?}"
                    ));
                }
                apply(m, &plan);
                out.reshards_checked += 1;
            }
            "rebalance" => {
                let m = map.as_mut().unwrap();
                let mut opts = RebalanceOptions {
                    use_empty_masters: args.contains(&"--cluster-use-empty-masters"),
                    ..RebalanceOptions::default()
                };
                if let Some(t) = arg(&args, "--cluster-threshold") {
                    opts.threshold = t.parse().unwrap();
                }
                if let Some(w) = arg(&args, "--cluster-weight") {
                    let (id, w) = w.split_once('=').unwrap();
                    opts.weights.push((index_of_id(m, id), w.parse().unwrap()));
                }
                let plan = rebalance_plan(m, &order, &opts).unwrap();
                let got = plan.redis_cli_lines(m);
                let want = rebalance_lines(&output);
                if got != want {
                    out.failures.push(format!(
                        "{case}/{file}: we print {got:#?}\n   redis-cli printed {want:#?}"
                    ));
                }
                out.rebalance_plans.push((file.clone(), got));
                if !args.contains(&"--cluster-simulate") {
                    apply(m, plan.moves());
                }
                out.rebalances_checked += 1;
            }
            "del-node" => {
                let m = map.as_mut().unwrap();
                let idx = index_of_id(m, args[4]);
                let refused = output.lines().find(|l| l.starts_with("[ERR]"));
                match (del_node_check(m, idx), refused) {
                    (Err(e), Some(text)) => {
                        if e.redis_cli_text().as_deref() != Some(text) {
                            out.failures
                                .push(format!("{case}/{file}: we say {e:?}, redis-cli {text:?}"));
                        }
                    }
                    (Ok(()), None) => {
                        assert!(output.contains(">>> Sending CLUSTER FORGET messages"));
                        m.remove_master(idx).unwrap();
                    }
                    (ours, theirs) => out.failures.push(format!(
                        "{case}/{file}: we say {ours:?}, redis-cli {theirs:?}"
                    )),
                }
                out.del_nodes_checked += 1;
            }
            other => panic!("{case}: unexpected command {other}"),
        }
    }
    // Every state of summary.tsv and every reshard of moves.tsv was compared.
    let mut states: Vec<&str> = rows.iter().map(|r| r.state_file.as_str()).collect();
    states.dedup();
    assert_eq!(out.states_checked, states.len(), "{case}: states compared");
    assert_eq!(
        out.reshards_checked,
        moves_rec.len(),
        "{case}: reshards compared"
    );
    out
}

fn assert_replay(r: &Replay) {
    assert!(r.failures.is_empty(), "\n{}", r.failures.join("\n"));
}

#[test]
fn case_a_reshard_100_from_all() {
    let r = replay("a_from_all_100");
    assert_replay(&r);
    assert_eq!((r.states_checked, r.reshards_checked), (3, 1));
}

#[test]
fn case_b_reshard_5000_from_all_moves_4999() {
    let r = replay("b_from_all_5000");
    assert_replay(&r);
    assert_eq!(r.reshards_checked, 1);
}

#[test]
fn case_c_reshard_2000_from_one_master() {
    assert_replay(&replay("c_from_owner_of_slot0_2000"));
}

#[test]
fn case_d_two_sources_go_by_slot_count_not_by_given_order() {
    assert_replay(&replay("d_from_two_sources_1500"));
}

#[test]
fn case_e_rebalance_onto_empty_masters() {
    let r = replay("e_rebalance_use_empty_masters");
    assert_replay(&r);
    assert_eq!(r.rebalances_checked, 2);
    assert_eq!(
        r.rebalance_plans[0].1,
        ["*** No rebalancing needed! All nodes are within the 2.00% threshold."]
    );
}

#[test]
fn case_f_weights_thresholds_and_a_no_op() {
    let r = replay("f_rebalance_weight_threshold");
    assert_replay(&r);
    assert_eq!((r.rebalances_checked, r.reshards_checked), (4, 2));
    assert_eq!(r.states_checked, 7);
}

#[test]
fn case_g_simulate_prints_the_plan_of_case_e_and_moves_nothing() {
    let g = replay("g_rebalance_simulate");
    assert_replay(&g);
    let e = replay("e_rebalance_use_empty_masters");
    assert_eq!(g.rebalance_plans.len(), 1);
    assert_eq!(g.rebalance_plans[0].1, e.rebalance_plans[1].1);
}

#[test]
fn case_h_del_node_refused_then_done() {
    let r = replay("h_del_node");
    assert_replay(&r);
    assert_eq!(r.del_nodes_checked, 2);
}

// ---------------------------------------------------------------------------------------------
// The transcripts of the default cluster: add 7006, reshard 1000 from all, rebalance
// ---------------------------------------------------------------------------------------------

fn transcript_cluster() -> (SlotMap, usize) {
    let mut map = SlotMap::fixture_cluster();
    let after_add = nodes_file("transcripts/12_after_add_node_before_reshard_cluster_nodes.txt");
    let id = after_add["127.0.0.1:7006"].0.clone();
    let new = map.add_master(Master::new("127.0.0.1:7006", id)).unwrap();
    for (addr, (id, ranges)) in &after_add {
        let i = index_of_addr(&map, addr);
        assert_eq!(&map.masters()[i].id, id);
        assert_eq!(&fmt_ranges(&map.ranges_of(i)), ranges, "{addr}");
    }
    (map, new)
}

fn assert_matches_nodes_file(map: &SlotMap, rel: &str) {
    let want = nodes_file(rel);
    assert_eq!(want.len(), map.n_masters());
    for (addr, (_, ranges)) in &want {
        let i = index_of_addr(map, addr);
        assert_eq!(&fmt_ranges(&map.ranges_of(i)), ranges, "{rel}: {addr}");
    }
}

#[test]
fn transcript_reshard_1000_from_all_to_7006() {
    let (mut map, new) = transcript_cluster();
    let moves = reshard_plan(&map, &Sources::All, new, 1000).unwrap();

    // The plan redis-cli printed, slot by slot, in its order.
    let text = read("transcripts/13_reshard_1000_slots.txt");
    let planned: Vec<(u16, String)> = text
        .lines()
        .filter_map(|l| l.strip_prefix("    Moving slot "))
        .map(|l| {
            let (slot, id) = l.split_once(" from ").unwrap();
            (slot.parse().unwrap(), id.to_owned())
        })
        .collect();
    let ours: Vec<(u16, String)> = moves
        .iter()
        .map(|m| (m.slot, map.masters()[m.from].id.clone()))
        .collect();
    assert_eq!(ours, planned);
    // And the slots it then moved, in the same order.
    let executed: Vec<u16> = text
        .lines()
        .filter_map(|l| l.strip_prefix("Moving slot "))
        .map(|l| l.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(moves.iter().map(|m| m.slot).collect::<Vec<_>>(), executed);

    let runs = runs_of(&map, &moves);
    let to = "127.0.0.1:7006".to_owned();
    assert_eq!(
        runs,
        [
            ("127.0.0.1:7001".to_owned(), to.clone(), 5461, 5794, 334),
            ("127.0.0.1:7000".to_owned(), to.clone(), 0, 332, 333),
            ("127.0.0.1:7002".to_owned(), to, 10923, 11255, 333),
        ]
    );
    apply(&mut map, &moves);
    assert_matches_nodes_file(&map, "transcripts/14_after_reshard_cluster_nodes.txt");

    // Then `--cluster rebalance 127.0.0.1:7000`, nodes in the order of the check just before.
    let order = check_order("transcripts/14_after_reshard_cluster_check.txt", &map);
    let plan = rebalance_plan(&map, &order, &RebalanceOptions::default()).unwrap();
    assert_eq!(
        plan.redis_cli_lines(&map),
        rebalance_lines(&read("transcripts/15_rebalance.txt"))
    );
    apply(&mut map, plan.moves());
    assert_matches_nodes_file(&map, "transcripts/16_after_rebalance_cluster_nodes.txt");
    assert_eq!(map.slot_counts(), [4096, 4096, 4096, 4096]);
}

#[test]
fn rebalance_reports_its_arithmetic() {
    let (mut map, new) = transcript_cluster();
    let moves = reshard_plan(&map, &Sources::All, new, 1000).unwrap();
    apply(&mut map, &moves);
    let order = check_order("transcripts/14_after_reshard_cluster_check.txt", &map);
    let Rebalance::Plan {
        nodes,
        total_weight,
        batches,
        moves,
    } = rebalance_plan(&map, &order, &RebalanceOptions::default()).unwrap()
    else {
        panic!("a plan was expected");
    };
    assert_eq!(total_weight, 4.0);
    assert!(nodes.iter().all(|n| n.expected == 4096));
    assert_eq!(
        nodes.iter().map(|n| n.balance).collect::<Vec<_>>(),
        [1032, -3096, 1032, 1032] // 7000, 7006, 7002, 7001
    );
    assert_eq!(batches.iter().map(|b| b.slots).sum::<usize>(), moves.len());
}

// ---------------------------------------------------------------------------------------------
// Commands to paste
// ---------------------------------------------------------------------------------------------

#[test]
fn a_plan_becomes_one_reshard_line_per_source_and_replays_exactly() {
    let (map, new) = transcript_cluster();
    let moves = reshard_plan(&map, &Sources::All, new, 1000).unwrap();
    let cmds = redis_cli_commands(&map, &moves);
    let to = "2d5df5ae37ad6494038d3c6164be00382e79eb5a";
    assert_eq!(
        cmds,
        [
            format!("redis-cli --cluster reshard 127.0.0.1:7000 --cluster-from f7c6b5d608aefdd517b33641eb638ce56252d0b4 --cluster-to {to} --cluster-slots 334 --cluster-yes"),
            format!("redis-cli --cluster reshard 127.0.0.1:7000 --cluster-from d3bede0cd4ba07708f552c2e44e8211e0d571a39 --cluster-to {to} --cluster-slots 333 --cluster-yes"),
            format!("redis-cli --cluster reshard 127.0.0.1:7000 --cluster-from 44084a172411812451c56a0a3330ec6daa733083 --cluster-to {to} --cluster-slots 333 --cluster-yes"),
        ]
    );
    // Running those three commands gives the same cluster as the single reshard.
    let mut by_hand = map.clone();
    for c in &cmds {
        let args: Vec<&str> = c.split(' ').collect();
        let from = index_of_id(&by_hand, arg(&args, "--cluster-from").unwrap());
        let n = arg(&args, "--cluster-slots").unwrap().parse().unwrap();
        let step = reshard_plan(&by_hand, &Sources::Masters(vec![from]), new, n).unwrap();
        apply(&mut by_hand, &step);
    }
    let mut at_once = map.clone();
    apply(&mut at_once, &moves);
    assert_eq!(by_hand, at_once);
}

#[test]
fn a_single_slot_is_moved_as_in_the_recorded_manual_migration() {
    // transcripts/07: slot 5712 from 7001 to 7002 by hand.
    let map = SlotMap::fixture_cluster();
    let cmds = redis_cli_commands(
        &map,
        &[SlotMove {
            slot: 5712,
            from: 1,
            to: 2,
        }],
    );
    assert_eq!(cmds.len(), 1);
    let ours: Vec<String> = cmds[0]
        .lines()
        .map(|l| l.replace("redis-cli -h 127.0.0.1 -p ", "redis-cli -p "))
        .filter(|l| l.contains("SETSLOT"))
        .collect();
    let recorded: Vec<String> = read("transcripts/07_slot_migration_ask_tryagain.txt")
        .lines()
        .filter_map(|l| l.strip_prefix("$ "))
        .filter(|l| l.contains("SETSLOT"))
        .map(str::to_owned)
        .collect();
    assert_eq!(ours, recorded);
    assert!(cmds[0].contains("redis-cli -h 127.0.0.1 -p 7001 CLUSTER GETKEYSINSLOT 5712 10"));
    assert!(cmds[0].contains("MIGRATE 127.0.0.1 7002 \"\" 0 60000 KEYS $keys"));
}

#[test]
fn slots_that_are_not_the_lowest_become_a_loop_per_run() {
    let map = SlotMap::fixture_cluster();
    let moves: Vec<SlotMove> = [100u16, 101, 102, 200]
        .iter()
        .map(|&slot| SlotMove {
            slot,
            from: 0,
            to: 1,
        })
        .collect();
    let cmds = redis_cli_commands(&map, &moves);
    assert_eq!(cmds.len(), 2);
    assert!(cmds[0].starts_with("for slot in $(seq 100 102); do\n"));
    assert!(cmds[0]
        .contains("CLUSTER SETSLOT $slot IMPORTING d3bede0cd4ba07708f552c2e44e8211e0d571a39"));
    assert!(cmds[0].ends_with("\ndone"));
    assert!(cmds[1].starts_with("redis-cli -h 127.0.0.1 -p 7001 CLUSTER SETSLOT 200 IMPORTING "));
    assert!(redis_cli_commands(&map, &[]).is_empty());
}

// ---------------------------------------------------------------------------------------------
// Refusals
// ---------------------------------------------------------------------------------------------

#[test]
fn reshard_refuses_what_redis_cli_refuses() {
    let (map, new) = transcript_cluster();
    let e = reshard_plan(&map, &Sources::Masters(vec![0, new]), new, 10).unwrap_err();
    assert_eq!(
        e.redis_cli_text().unwrap(),
        "*** It is not possible to use the target node as source node."
    );
    assert!(matches!(
        reshard_plan(&map, &Sources::All, 9, 10),
        Err(ReshardError::NoSuchMaster { master_idx: 9 })
    ));
    assert!(matches!(
        reshard_plan(&map, &Sources::Masters(vec![7]), new, 10),
        Err(ReshardError::NoSuchMaster { master_idx: 7 })
    ));
    for n in [0, 16385, usize::MAX] {
        assert!(matches!(
            reshard_plan(&map, &Sources::All, new, n),
            Err(ReshardError::BadSlotCount { .. })
        ));
    }
    assert_eq!(
        reshard_plan(&map, &Sources::Masters(vec![new]), 0, 10),
        Err(ReshardError::SourcesOwnNothing)
    );
    assert_eq!(
        reshard_plan(&map, &Sources::Masters(vec![]), 0, 10),
        Err(ReshardError::NoSources)
    );
    assert!(matches!(
        reshard_plan(&map, &Sources::Masters(vec![1, 1]), 0, 10),
        Err(ReshardError::DuplicateMaster { master_idx: 1 })
    ));
    // All 16384 slots can be asked for; only what the sources own moves.
    let all = reshard_plan(&map, &Sources::All, new, 16384).unwrap();
    assert_eq!(all.len(), 16384);
}

#[test]
fn rebalance_refuses_bad_weights_and_orders() {
    let map = SlotMap::created(3, "127.0.0.1", 7100).unwrap();
    let bad = |weights: Vec<(usize, f64)>| {
        rebalance_plan(
            &map,
            &[0, 1, 2],
            &RebalanceOptions {
                weights,
                ..RebalanceOptions::default()
            },
        )
    };
    assert!(matches!(
        bad(vec![(0, -1.0)]),
        Err(ReshardError::BadWeight { .. })
    ));
    assert!(matches!(
        bad(vec![(0, f64::NAN)]),
        Err(ReshardError::BadWeight { .. })
    ));
    assert!(matches!(
        bad(vec![(0, 1e300)]),
        Err(ReshardError::BadWeight { .. })
    ));
    assert!(matches!(
        bad(vec![(5, 1.0)]),
        Err(ReshardError::NoSuchMaster { .. })
    ));
    assert_eq!(
        bad(vec![(0, 0.0), (1, 0.0), (2, 0.0)]),
        Err(ReshardError::ZeroTotalWeight)
    );
    assert!(matches!(
        rebalance_plan(&map, &[0, 0], &RebalanceOptions::default()),
        Err(ReshardError::DuplicateMaster { master_idx: 0 })
    ));
    // A threshold of 0 never rebalances, as in redis-cli (`if (threshold > 0)`).
    let plan = rebalance_plan(
        &map,
        &[],
        &RebalanceOptions {
            threshold: 0.0,
            weights: vec![(0, 3.0)],
            ..RebalanceOptions::default()
        },
    )
    .unwrap();
    assert!(matches!(plan, Rebalance::NotNeeded { .. }));
    assert!(plan.moves().is_empty());
    // Weight 0 empties a master.
    let plan = bad(vec![(2, 0.0)]).unwrap();
    let mut after = map.clone();
    apply(&mut after, plan.moves());
    assert_eq!(after.slot_counts(), [8192, 8192, 0]);
}

#[test]
fn del_node_message_is_redis_clis() {
    let map = SlotMap::created(5, "127.0.0.1", 7100).unwrap();
    assert_eq!(
        del_node_check(&map, 4)
            .unwrap_err()
            .redis_cli_text()
            .unwrap(),
        "[ERR] Node 127.0.0.1:7104 is not empty! Reshard data away and try again."
    );
    assert!(matches!(
        del_node_check(&map, 5),
        Err(ReshardError::NoSuchMaster { .. })
    ));
}

// ---------------------------------------------------------------------------------------------
// Failover
// ---------------------------------------------------------------------------------------------

#[test]
fn failover_promotes_the_first_replica_then_the_cluster_is_down() {
    let mut map = SlotMap::fixture_cluster();
    let out = failover(&mut map, 0).unwrap();
    // The fixtures' current epoch is 8 (transcript 10's CLUSTER INFO): the winner takes 9, as
    // the recorded failovers' winners take currentEpoch + 1 (`fixtures/failover/summary.tsv`:
    // 6 → 7 in the 6-node cases, 9 → 10 in the 9-node ones).
    assert_eq!(
        out,
        FailoverOutcome::Promoted {
            master: 0,
            promoted: "127.0.0.1:7004".into(),
            failed: "127.0.0.1:7000".into(),
            epoch: 9,
        }
    );
    let m = &map.masters()[0];
    assert_eq!(m.addr, "127.0.0.1:7004");
    assert_eq!(m.id, "71fd5a01708f5b5aeee008680022eaad63c28eec");
    assert_eq!(m.epoch, 9);
    assert!(!m.is_failed());
    assert!(m.replicas.is_empty());
    // The old master stays a master of its own, failed, with no slots and its old epoch.
    let old = &map.masters()[3];
    assert_eq!(old.addr, "127.0.0.1:7000");
    assert_eq!(old.flags, ["fail"]);
    assert_eq!(old.epoch, 1);
    assert_eq!(map.slot_counts(), [5461, 5462, 5461, 0]);
    assert_eq!(map.ranges_of(0), [SlotRange::new(0, 5460)]);
    assert_eq!(map.n_unowned(), 0);
    assert_eq!(map.current_epoch(), 9);

    // No replica is left to take over now: the failed master keeps its slots, and the cluster
    // is down.
    assert_eq!(
        failover(&mut map, 0).unwrap(),
        FailoverOutcome::ClusterDown {
            master: 0,
            slots: 5461
        }
    );
    assert!(map.masters()[0].is_failed());
    assert_eq!(map.n_unowned(), 0);
    assert_eq!(map.owner(0), Some(0));
    assert!(matches!(
        failover(&mut map, 0),
        Err(ReshardError::AlreadyFailed { .. })
    ));
    // redis-cli refuses to reshard or rebalance a cluster with uncovered slots.
    let e = reshard_plan(&map, &Sources::Masters(vec![1]), 2, 10).unwrap_err();
    assert_eq!(
        e,
        ReshardError::ClusterNotOk {
            problem: CheckProblem::Uncovered,
            operation: Operation::Reshard
        }
    );
    assert_eq!(
        e.redis_cli_text().unwrap(),
        "[ERR] Not all 16384 slots are covered by nodes.\n*** Please fix your cluster problems before resharding"
    );
    assert!(matches!(
        rebalance_plan(&map, &[], &RebalanceOptions::default()),
        Err(ReshardError::ClusterNotOk { .. })
    ));
}

#[test]
fn failover_skips_failed_replicas_and_moves_the_others_along() {
    let mut map = SlotMap::created(3, "127.0.0.1", 7100).unwrap();
    let m = map.master_mut(1).unwrap();
    let mut dead = Replica::new("127.0.0.1:7200", "dead");
    dead.flags.push("fail".into());
    m.replicas = vec![
        dead,
        Replica::new("127.0.0.1:7201", "r1"),
        Replica::new("127.0.0.1:7202", "r2"),
    ];
    m.migrating.push((6000, "x".into()));
    failover(&mut map, 1).unwrap();
    let m = &map.masters()[1];
    assert_eq!(m.addr, "127.0.0.1:7201");
    assert!(m.migrating.is_empty());
    let replicas: Vec<&str> = m.replicas.iter().map(|r| r.addr.as_str()).collect();
    assert_eq!(replicas, ["127.0.0.1:7200", "127.0.0.1:7202"]);
    // Created with epochs 1-3: the winner takes 4; the old master is listed last, failed.
    assert_eq!(m.epoch, 4);
    assert_eq!(map.masters()[3].addr, "127.0.0.1:7101");
    assert!(map.masters()[3].is_failed());
    assert_eq!(map.slot_counts(), [5461, 5462, 5461, 0]);

    // A master without replicas: it keeps its slots, failed.
    assert_eq!(
        failover(&mut map, 2).unwrap(),
        FailoverOutcome::ClusterDown {
            master: 2,
            slots: 5461
        }
    );
    assert_eq!(map.slot_counts(), [5461, 5462, 5461, 0]);
    // A master without slots is only flagged.
    let empty = map.add_master(Master::new("127.0.0.1:7103", "e")).unwrap();
    assert_eq!(
        failover(&mut map, empty).unwrap(),
        FailoverOutcome::NoSlots { master: empty }
    );
    assert!(map.masters()[empty].is_failed());
    assert_eq!(
        del_node_check(&map, empty)
            .unwrap_err()
            .redis_cli_text()
            .unwrap(),
        "[ERR] No such node ID e"
    );
}

#[test]
fn open_slots_stop_a_reshard_as_in_redis_cli() {
    let mut map = SlotMap::created(3, "127.0.0.1", 7100).unwrap();
    map.master_mut(0)
        .unwrap()
        .migrating
        .push((5, "0000000000000000000000000000000000000002".into()));
    let e = reshard_plan(&map, &Sources::All, 1, 1).unwrap_err();
    assert_eq!(
        e,
        ReshardError::ClusterNotOk {
            problem: CheckProblem::OpenSlots {
                master: "127.0.0.1:7100".into(),
                state: OpenState::Migrating,
                slots: vec![5]
            },
            operation: Operation::Reshard
        }
    );
    assert_eq!(
        e.redis_cli_text().unwrap(),
        "[WARNING] Node 127.0.0.1:7100 has slots in migrating state 5.\n*** Please fix your cluster problems before resharding"
    );
    // Moving the slot closes it.
    apply(
        &mut map,
        &[SlotMove {
            slot: 5,
            from: 0,
            to: 1,
        }],
    );
    assert!(map.masters()[0].migrating.is_empty());
    assert!(reshard_plan(&map, &Sources::All, 1, 1).is_ok());
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
enum Op {
    Reshard {
        sources: Option<Vec<usize>>,
        target: usize,
        n: usize,
    },
    Rebalance {
        use_empty: bool,
        threshold: f64,
        weight: Option<(usize, f64)>,
        rotate: usize,
    },
    Failover(usize),
    AddMaster,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (prop::option::of(prop::collection::vec(0usize..8, 0..3)), 0usize..8, 0usize..17000)
            .prop_map(|(sources, target, n)| Op::Reshard { sources, target, n }),
        3 => (any::<bool>(), 0.0f64..5.0, prop::option::of((0usize..8, 0.0f64..4.0)), 0usize..10)
            .prop_map(|(use_empty, threshold, weight, rotate)| Op::Rebalance { use_empty, threshold, weight, rotate }),
        1 => (0usize..8).prop_map(Op::Failover),
        1 => Just(Op::AddMaster),
    ]
}

fn check_map(map: &SlotMap) -> Result<(), TestCaseError> {
    let counts = map.slot_counts();
    prop_assert_eq!(counts.iter().sum::<usize>() + map.n_unowned(), 16384);
    for s in 0..16384u16 {
        if let Some(m) = map.owner(s) {
            prop_assert!(m < map.n_masters());
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn operations_keep_one_owner_per_slot(
        n in 3usize..8,
        replicas in prop::collection::vec(0usize..3, 8),
        ops in prop::collection::vec(op(), 1..10),
    ) {
        let mut map = SlotMap::created(n, "127.0.0.1", 7000).unwrap();
        for (i, &k) in replicas.iter().enumerate().take(n) {
            let m = map.master_mut(i).unwrap();
            for r in 0..k {
                m.replicas.push(Replica::new(format!("127.0.0.1:{}", 8000 + 10 * i + r), format!("r{i}-{r}")));
            }
        }
        let mut next_port = 7000 + n;
        for op in ops {
            let before = map.clone();
            match op {
                Op::Reshard { sources, target, n } => {
                    let src = match &sources {
                        None => Sources::All,
                        Some(v) => Sources::Masters(v.clone()),
                    };
                    if let Ok(moves) = reshard_plan(&map, &src, target, n) {
                        let counts = map.slot_counts();
                        let allowed: Vec<usize> = match &sources {
                            None => (0..map.n_masters()).filter(|&i| i != target).collect(),
                            Some(v) => v.clone(),
                        };
                        let mut seen = std::collections::HashSet::new();
                        for mv in &moves {
                            prop_assert!(allowed.contains(&mv.from));
                            prop_assert_eq!(map.owner(mv.slot), Some(mv.from));
                            prop_assert_eq!(mv.to, target);
                            prop_assert!(seen.insert(mv.slot));
                        }
                        let owned: usize = allowed.iter().map(|&s| counts[s]).sum();
                        prop_assert!(moves.len() <= n);
                        // Only the floors lose slots: less than one per source after the first.
                        prop_assert!(moves.len() + allowed.len() > n.min(owned));
                        apply(&mut map, &moves);
                        prop_assert_eq!(map.slot_counts()[target], counts[target] + moves.len());
                    }
                }
                Op::Rebalance { use_empty, threshold, weight, rotate } => {
                    let k = map.n_masters();
                    let order: Vec<usize> = (0..k).map(|i| (i + rotate) % k).collect();
                    let opts = RebalanceOptions {
                        weights: weight.into_iter().collect(),
                        threshold,
                        use_empty_masters: use_empty,
                    };
                    if let Ok(plan) = rebalance_plan(&map, &order, &opts) {
                        let mut work = map.clone();
                        for mv in plan.moves() {
                            prop_assert_eq!(work.owner(mv.slot), Some(mv.from));
                            apply(&mut work, std::slice::from_ref(mv));
                        }
                        if let Rebalance::Plan { nodes, .. } = &plan {
                            let counts = work.slot_counts();
                            if nodes.iter().map(|x| x.balance).sum::<i64>() == 0 {
                                for x in nodes {
                                    prop_assert_eq!(counts[x.master] as i64, x.slots as i64 - x.balance);
                                }
                            }
                        }
                        map = work;
                    }
                }
                Op::Failover(m) => {
                    let owned = if m < map.n_masters() { map.ranges_of(m) } else { Vec::new() };
                    match failover(&mut map, m) {
                        Ok(FailoverOutcome::Promoted { .. }) => prop_assert_eq!(map.ranges_of(m), owned),
                        Ok(FailoverOutcome::ClusterDown { slots, .. }) => {
                            prop_assert_eq!(map.n_unowned(), before.n_unowned());
                            prop_assert_eq!(map.slot_counts()[m], slots);
                            prop_assert!(map.masters()[m].is_failed());
                        }
                        Ok(_) => prop_assert_eq!(map.slot_counts(), before.slot_counts()),
                        Err(e) => {
                            prop_assert!(
                                matches!(e, ReshardError::AlreadyFailed { .. } | ReshardError::NoSuchMaster { .. }),
                                "{:?}",
                                e
                            );
                            prop_assert_eq!(&map, &before);
                        }
                    }
                }
                Op::AddMaster => {
                    map.add_master(Master::new(format!("127.0.0.1:{next_port}"), format!("new{next_port}"))).unwrap();
                    next_port += 1;
                }
            }
            check_map(&map)?;
            // Whatever happened, the commands for it can be written out without a panic.
            let _ = redis_cli_commands(&map, &[]);
        }
    }

    #[test]
    fn commands_describe_any_moves(moves in prop::collection::vec((0u16..16384, 0usize..5, 0usize..5), 0..40)) {
        let map = SlotMap::created(4, "127.0.0.1", 7000).unwrap();
        let moves: Vec<SlotMove> = moves.into_iter().map(|(slot, from, to)| SlotMove { slot, from, to }).collect();
        let cmds = redis_cli_commands(&map, &moves);
        let valid = moves.iter().filter(|m| m.from < 4 && m.to < 4 && m.from != m.to).count();
        prop_assert!(cmds.len() <= valid);
        prop_assert_eq!(cmds.is_empty(), valid == 0);
    }
}
