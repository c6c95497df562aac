//! The planner's copied per-slot plan (`core::workload::batch::slot_commands`), piped through
//! the shell line the page gives under it (`grep -v '^#' … | redis-cli -c`, a real redis-cli)
//! into a real Redis 7.0.15 cluster: every style runs there without an
//! error, each key lands in the slot and on the master its `# slot … on …` line names, and a
//! `#` line itself is what the page says it is to redis-cli (a command, refused).
//!
//! `scripts/test.sh` runs it after the differential test, on the same cluster:
//! `SLOTSCOPE_REDIS=127.0.0.1:7000 cargo test --test copied_plan -- --ignored`. It flushes
//! every master before it starts and when it is done.
#![cfg(not(target_arch = "wasm32"))]

use slotscope::core::cluster::import::import;
use slotscope::core::cluster::topology::SlotMap;
use slotscope::core::workload::batch::{slot_commands, CommandStyle, KEY_COMMANDS};
use slotscope::core::workload::{plan, KeySample};
use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `cmd` with `input` on stdin (the way a reader pipes a file in); its stdout.
fn piped(cmd: &mut Command, input: &[u8]) -> Vec<u8> {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!("{cmd:?} runs (scripts/redis-cluster.sh installs redis-cli): {e}")
        });
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .unwrap_or_else(|e| panic!("write to {cmd:?}: {e}"));
    let out = child.wait_with_output().expect("it finishes");
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// `redis-cli [-c] -h host -p port` with `input` on stdin; its stdout, raw (redis-cli prints
/// replies without type prefixes when stdout is not a tty).
fn redis_cli(addr: &str, cluster: bool, input: &[u8]) -> Vec<u8> {
    let (host, port) = addr.rsplit_once(':').expect("host:port");
    let mut cmd = Command::new("redis-cli");
    if cluster {
        cmd.arg("-c");
    }
    piped(cmd.args(["-h", host, "-p", port]), input)
}

/// One command's reply lines through redis-cli.
fn ask(addr: &str, command: &str) -> Vec<String> {
    let out = redis_cli(addr, false, format!("{command}\n").as_bytes());
    String::from_utf8_lossy(&out)
        .lines()
        .map(str::to_owned)
        .collect()
}

/// The shell line the page gives under the copied plan, with the plan on stdin instead of
/// `plan.txt`, connected to `seed`.
const PIPELINE: &str = "grep -v '^#' | redis-cli -c";

/// Pipes the plan through [`PIPELINE`], as the page tells the reader to; the output's lines,
/// without the `-> Redirected to slot [s] located at addr` lines redis-cli prints when it follows a MOVED
/// (it then stays on that node: the plan, in slot order, moves once per master).
fn run(seed: &str, masters: usize, lines: &[String]) -> Vec<Vec<u8>> {
    let (host, port) = seed.rsplit_once(':').expect("host:port");
    let mut input = lines.join("\n");
    input.push('\n');
    let out = piped(
        Command::new("sh").args(["-c", &format!("{PIPELINE} -h {host} -p {port}")]),
        input.as_bytes(),
    );
    let (last, lines) = out
        .split(|&b| b == b'\n')
        .collect::<Vec<_>>()
        .split_last()
        .map(|(l, r)| (l.to_vec(), r.to_vec()))
        .expect("output");
    assert!(last.is_empty(), "output ends with a newline");
    let redirected = |l: &[u8]| l.starts_with(b"-> Redirected to slot [");
    assert!(
        lines.iter().filter(|l| redirected(l)).count() < masters,
        "as many redirections as masters, or more: the plan is not in slot order"
    );
    lines
        .into_iter()
        .filter(|l| !redirected(l))
        .map(<[u8]>::to_vec)
        .collect()
}

fn flush_masters(map: &SlotMap) {
    for m in map.masters() {
        assert_eq!(ask(&m.addr, "FLUSHALL"), ["OK"], "{}", m.addr);
    }
}

/// The sum of integer replies, each on its own line.
fn sum(out: &[Vec<u8>]) -> i64 {
    out.iter()
        .map(|l| {
            std::str::from_utf8(l)
                .ok()
                .and_then(|s| s.parse::<i64>().ok())
                .unwrap_or_else(|| panic!("not an integer: {:?}", String::from_utf8_lossy(l)))
        })
        .sum()
}

#[test]
#[ignore = "needs a real cluster: SLOTSCOPE_REDIS=host:port (scripts/test.sh starts one)"]
fn a_copied_plan_runs_on_a_real_cluster_through_redis_cli() {
    let seed = std::env::var("SLOTSCOPE_REDIS")
        .expect("SLOTSCOPE_REDIS=host:port names a node of a real cluster");
    let nodes = ask(&seed, "CLUSTER NODES").join("\n");
    let map = import(&nodes)
        .unwrap_or_else(|e| panic!("the page cannot import {seed}'s CLUSTER NODES: {e:?}"))
        .map;
    assert!(map.masters().len() >= 3, "{nodes}");

    // Keys in many slots, and keys redis-cli can only read back if the page quoted them right:
    // a quote, a space, a backslash, a newline, bytes that are not UTF-8, a NUL, hash tags.
    let mut keys = KeySample::new();
    for i in 0..300 {
        keys.push(format!("user:{i}").as_bytes());
    }
    for k in [
        &b"a\"b"[..],
        b"sp ace",
        b"back\\slash",
        b"nl\nkey",
        b"\xff\x00bin",
        b"{tag}x",
        b"{tag}y",
        b"'single'",
    ] {
        keys.push(k);
    }
    let n = keys.len() as i64;
    let masters = map.masters().len();
    let p = plan(&keys, &map);
    assert!(p.slots.len() > 100, "{} slots", p.slots.len());
    let copy = |style| slot_commands(&p, &keys, None, &map, style, usize::MAX);
    let key_style = |name: &str| {
        let name = KEY_COMMANDS.iter().find(|c| **c == name).expect(name);
        CommandStyle::Keys(name)
    };

    flush_masters(&map);
    // MSET per slot: one OK per slot.
    let out = run(&seed, masters, &copy(key_style("MSET")));
    assert_eq!(out.len(), p.slots.len());
    assert!(out.iter().all(|l| l == b"OK"), "{out:?}");
    // Each key is in the slot, on the master, that its command's `#` line names.
    for c in copy(key_style("MGET")) {
        let (comment, _) = c.split_once('\n').expect("a # line, then the command");
        let words: Vec<&str> = comment.split(' ').collect();
        let (slot, addr) = (words[2], words[4]);
        let here: usize = ask(addr, &format!("CLUSTER COUNTKEYSINSLOT {slot}"))[0]
            .parse()
            .expect("an integer");
        let group = p.slots.iter().find(|g| g.slot.to_string() == slot).unwrap();
        assert_eq!(here, p.keys_in(group).len(), "{comment}");
    }
    // MGET per slot reads back MSET's values, slot by slot, in the same order.
    let out = run(&seed, masters, &copy(key_style("MGET")));
    let want: Vec<Vec<u8>> = p
        .slots
        .iter()
        .flat_map(|g| (1..=p.keys_in(g).len()).map(|i| format!("v{i}").into_bytes()))
        .collect();
    assert_eq!(out, want);
    // EXISTS and TOUCH count every key; UNLINK removes them all, then EXISTS finds none.
    assert_eq!(sum(&run(&seed, masters, &copy(key_style("EXISTS")))), n);
    assert_eq!(sum(&run(&seed, masters, &copy(key_style("TOUCH")))), n);
    assert_eq!(sum(&run(&seed, masters, &copy(key_style("UNLINK")))), n);
    assert_eq!(sum(&run(&seed, masters, &copy(key_style("EXISTS")))), 0);
    // EVAL SET … EX per slot: the script returns nothing (an empty line each); every key is
    // back with its value and an expiry.
    let ttl = 3600;
    let out = run(&seed, masters, &copy(CommandStyle::EvalSetEx { ttl }));
    assert_eq!(out.len(), p.slots.len());
    assert!(out.iter().all(Vec::is_empty), "{out:?}");
    let out = run(&seed, masters, &copy(key_style("MGET")));
    assert_eq!(out, want);
    let ttls = run(
        &seed,
        masters,
        &["TTL \"user:7\"".into(), "TTL \"\\xff\\x00bin\"".into()],
    );
    for t in &ttls {
        let t: i64 = String::from_utf8_lossy(t).parse().expect("an integer");
        assert!((1..=ttl as i64).contains(&t), "TTL {t}");
    }
    // DEL per slot removes them all.
    assert_eq!(sum(&run(&seed, masters, &copy(key_style("DEL")))), n);
    let dbsize: i64 = map
        .masters()
        .iter()
        .map(|m| ask(&m.addr, "DBSIZE")[0].parse::<i64>().unwrap())
        .sum();
    assert_eq!(dbsize, 0);

    // The values pasted SET / MSET lines wrote (`written_values`): MSET per slot writes each
    // key's own, and so does EVAL SET … EX; MGET per slot reads them back.
    let mut values = KeySample::new();
    for i in 0..keys.len() {
        values.push(format!("val {i} \"q\" \\ é").as_bytes());
    }
    let with_values = |style| slot_commands(&p, &keys, Some(&values), &map, style, usize::MAX);
    let want: Vec<Vec<u8>> = p
        .slots
        .iter()
        .flat_map(|g| {
            p.keys_in(g)
                .iter()
                .map(|&i| values.get(i as usize).unwrap().to_vec())
        })
        .collect();
    let out = run(&seed, masters, &with_values(key_style("MSET")));
    assert!(out.iter().all(|l| l == b"OK"), "{out:?}");
    assert_eq!(run(&seed, masters, &copy(key_style("MGET"))), want);
    assert_eq!(sum(&run(&seed, masters, &copy(key_style("DEL")))), n);
    run(
        &seed,
        masters,
        &with_values(CommandStyle::EvalSetEx { ttl }),
    );
    assert_eq!(run(&seed, masters, &copy(key_style("MGET"))), want);

    // What the page says of the `#` lines: redis-cli sends one as a command, and it is refused.
    let comment = copy(key_style("MGET"))[0]
        .lines()
        .next()
        .unwrap()
        .to_owned();
    let out = String::from_utf8(redis_cli(&seed, true, format!("{comment}\n").as_bytes())).unwrap();
    assert!(
        out.starts_with("ERR unknown command '#', with args beginning with: 'slot' "),
        "{comment:?} → {out:?}"
    );
    flush_masters(&map);
}
