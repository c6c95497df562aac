//! Shared helpers of the bus tests: the recorded clusters' layouts, the recorded log lines of
//! the cluster bus per node (ids turned into ports), and the same view of a simulation.
#![allow(dead_code)]

use slotscope::core::bus::{Config, Sim};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

/// `../shared/fixtures/failover`, or `$SLOTSCOPE_FIXTURES/failover`.
pub fn failover_dir() -> PathBuf {
    let base = std::env::var_os("SLOTSCOPE_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures"));
    base.join("failover")
}

/// A fixture file's text; a missing file fails the test.
pub fn read(rel: &str) -> String {
    let p = failover_dir().join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))
}

/// How many seeds to run: `BUS_SEEDS` or the default.
pub fn seeds(default: u64) -> u64 {
    std::env::var("BUS_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// A recorded cluster's shape, from redis-cli's create output: master ports, and for each
/// replica port the port of its master.
pub struct Layout {
    pub masters: Vec<u16>,
    pub replicas: Vec<(u16, u16)>,
    pub ids: HashMap<String, u16>,
}

/// Parse `M: <id> 127.0.0.1:<port>` / `S: <id> 127.0.0.1:<port>` + `replicates <id>` lines
/// (the first block: redis-cli's plan).
pub fn layout(create: &str) -> Layout {
    let mut masters = Vec::new();
    let mut slaves: Vec<(u16, String)> = Vec::new();
    let mut ids = HashMap::new();
    let mut last_slave: Option<u16> = None;
    for line in create.lines() {
        if line.starts_with(">>> Performing Cluster Check") {
            break;
        }
        let l = line.trim();
        if let Some(rest) = l.strip_prefix("M: ").or_else(|| l.strip_prefix("S: ")) {
            let mut it = rest.split_whitespace();
            let id = it.next().unwrap().to_string();
            let port: u16 = it
                .next()
                .unwrap()
                .rsplit(':')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            ids.insert(id, port);
            if l.starts_with("M: ") {
                masters.push(port);
                last_slave = None;
            } else {
                last_slave = Some(port);
            }
        } else if let Some(id) = l.strip_prefix("replicates ") {
            slaves.push((last_slave.unwrap(), id.to_string()));
        }
    }
    let replicas = slaves.into_iter().map(|(p, id)| (p, ids[&id])).collect();
    Layout {
        masters,
        replicas,
        ids,
    }
}

/// A simulation of that cluster: node i on the i-th port (masters first, as redis-cli
/// creates them; ports in order), NT = 2000 as the recordings, run `warmup` ms.
pub fn simulate(layout: &Layout, seed: u64, warmup: u64) -> Sim {
    let cfg = Config {
        node_timeout: 2000,
        ..Config::default()
    };
    let masters = layout.masters.len();
    let base = *layout.masters.iter().min().unwrap();
    let mut replica_ports: Vec<(u16, u16)> = layout.replicas.clone();
    replica_ports.sort();
    let replica_of: Vec<usize> = replica_ports
        .iter()
        .map(|(_, m)| layout.masters.iter().position(|x| x == m).unwrap())
        .collect();
    Sim::create(cfg, seed, masters, &replica_of, base, warmup)
}

/// The bus events a log line stands for, or `None` for lines outside the cluster bus
/// (replication, start-up, connections) and for the rate-limited, racy
/// `Currently unable to failover` notes. Ids become ports; delays and offsets drop out;
/// `Marking … as failing` and `FAIL message received … about` are one event ("learned
/// that X is FAIL": which node reaches the quorum first is a race).
pub fn normalize(text: &str, ids: &HashMap<String, u16>) -> Option<String> {
    let level = text.chars().next()?;
    if level != '*' && level != '#' {
        return None;
    }
    let msg = &text[2..];
    let mut out = String::new();
    for word in msg.split(' ') {
        if !out.is_empty() {
            out.push(' ');
        }
        let head = word.get(..40).unwrap_or("");
        if head.len() == 40 && head.bytes().all(|b| b.is_ascii_hexdigit()) {
            out.push_str(
                &ids.get(head)
                    .map(|p| p.to_string())
                    .unwrap_or_else(|| "?".into()),
            );
            out.push_str(&word[40..]);
        } else {
            out.push_str(word);
        }
    }
    let keep = [
        "Cluster state changed:",
        "Starting a failover election for epoch",
        "Failover auth granted to",
        "Failover auth denied to",
        "Failover election won",
        "configEpoch set to",
        "Configuration change detected.",
        "Clear FAIL state for node",
        "Manual failover user request accepted.",
        "Forced failover user request accepted.",
        "Taking over the master (user request).",
        "New configEpoch set to",
        "Manual failover requested by replica",
        "All master replication stream processed",
        "Manual failover timed out.",
        "Migrating to orphaned master",
        "Replica rank updated",
        "configEpoch updated after importing slot",
    ];
    if let Some(rest) = out.strip_prefix("Marking node ") {
        let x = rest.split(' ').next()?;
        return Some(format!("FAIL {x}"));
    }
    if out.starts_with("FAIL message received from ") {
        let x = out.rsplit(' ').next()?;
        return Some(format!("FAIL {x}"));
    }
    if out.starts_with("Start of election delayed for ") {
        let rank = out.split("(rank #").nth(1)?.split(',').next()?;
        return Some(format!("Start of election (rank #{rank})"));
    }
    if out.starts_with("Received replication offset for paused master manual failover") {
        return Some("Received replication offset for paused master manual failover".into());
    }
    if keep.iter().any(|k| out.starts_with(k)) {
        return Some(out);
    }
    None
}

/// Per port, the normalized bus events of a recorded `logs_<case>.txt`, with their t_ms.
pub fn recorded(case_log: &str, ids: &HashMap<String, u16>) -> BTreeMap<u16, Vec<(i64, String)>> {
    let mut out: BTreeMap<u16, Vec<(i64, String)>> = BTreeMap::new();
    for line in read(case_log).lines() {
        if line.starts_with('#') {
            continue;
        }
        let mut it = line.splitn(3, '\t');
        let t: i64 = it.next().unwrap().parse().unwrap();
        let port: u16 = it.next().unwrap().parse().unwrap();
        let raw = it.next().unwrap();
        // pid:R dd Mon yyyy hh:mm:ss.mmm L text
        let parts: Vec<&str> = raw.splitn(6, ' ').collect();
        if parts.len() < 6 {
            continue;
        }
        if let Some(ev) = normalize(parts[5], ids) {
            out.entry(port).or_default().push((t, ev));
        }
    }
    out
}

/// The same for a simulation: per port, normalized events with times relative to `t0`.
pub fn simulated(sim: &Sim, t0: u64) -> BTreeMap<u16, Vec<(i64, String)>> {
    let ids: HashMap<String, u16> = sim.nodes.iter().map(|n| (n.name.clone(), n.port)).collect();
    let mut out: BTreeMap<u16, Vec<(i64, String)>> = BTreeMap::new();
    for l in &sim.logs {
        if l.t < t0 {
            continue;
        }
        let text = format!("{} {}", l.level, l.text);
        if let Some(ev) = normalize(&text, &ids) {
            out.entry(sim.nodes[l.node as usize].port)
                .or_default()
                .push((l.t as i64 - t0 as i64, ev));
        }
    }
    out
}

/// Only the events, per port.
pub fn events_only(m: &BTreeMap<u16, Vec<(i64, String)>>) -> BTreeMap<u16, Vec<String>> {
    m.iter()
        .map(|(p, v)| (*p, v.iter().map(|(_, e)| e.clone()).collect()))
        .collect()
}

/// The first time port `p` logged an event starting with `prefix`.
pub fn first(m: &BTreeMap<u16, Vec<(i64, String)>>, p: u16, prefix: &str) -> Option<i64> {
    m.get(&p)?
        .iter()
        .find(|(_, e)| e.starts_with(prefix))
        .map(|(t, _)| *t)
}

/// The first time any node logged an event starting with `prefix`.
pub fn first_any(m: &BTreeMap<u16, Vec<(i64, String)>>, prefix: &str) -> Option<i64> {
    m.values()
        .flat_map(|v| v.iter())
        .filter(|(_, e)| e.starts_with(prefix))
        .map(|(t, _)| *t)
        .min()
}

/// The lines of a `CLUSTER NODES` reply reduced to what must agree: port, flags, master
/// port, config epoch, slots (ping/pong times, link state and ids aside), sorted.
pub fn nodes_shape(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('$') && !l.starts_with('#'))
        .collect();
    let ids: HashMap<String, u16> = lines
        .iter()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let port = f[1].split('@').next().unwrap().rsplit(':').next().unwrap();
            (f[0].to_string(), port.parse().unwrap())
        })
        .collect();
    let mut v: Vec<String> = lines
        .iter()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let port = f[1].split('@').next().unwrap().rsplit(':').next().unwrap();
            let master = if f[3] == "-" {
                "-".to_string()
            } else {
                ids.get(f[3]).map(|p| p.to_string()).unwrap_or("?".into())
            };
            format!("{port} {} {master} {} {}", f[2], f[6], f[8..].join(" "))
        })
        .collect();
    v.sort();
    v
}

/// The last `CLUSTER NODES` reply of each observer in `raw/<case>_cluster_nodes.txt` for
/// `case`, with its t_ms.
pub fn last_nodes(raw: &str, case: &str) -> BTreeMap<u16, (i64, String)> {
    let mut out: BTreeMap<u16, (i64, String)> = BTreeMap::new();
    let mut cur: Option<(u16, i64)> = None;
    let mut buf = String::new();
    let text = read(raw);
    let flush =
        |cur: &Option<(u16, i64)>, buf: &mut String, out: &mut BTreeMap<u16, (i64, String)>| {
            if let Some((p, t)) = cur {
                out.insert(*p, (*t, std::mem::take(buf)));
            }
            buf.clear();
        };
    for line in text.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            flush(&cur, &mut buf, &mut out);
            let field = |k: &str| h.split(' ').find_map(|f| f.strip_prefix(k)).unwrap_or("");
            cur = if field("case=") == case {
                Some((
                    field("observer=").parse().unwrap(),
                    field("t_ms=").parse().unwrap(),
                ))
            } else {
                None
            };
        } else if cur.is_some() {
            buf.push_str(line);
            buf.push('\n');
        }
    }
    flush(&cur, &mut buf, &mut out);
    out
}
