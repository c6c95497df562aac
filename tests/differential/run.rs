//! The harness: the real cluster's connections and the engine's sessions side by side, two
//! clients per node (the second one changes keys another client WATCHes).
//! Every command goes to one node on both sides; the replies are compared (`compare.rs`) and
//! counted by family; a reply that is the page's own `NotRun` note is counted as "not
//! simulated", never as a pass.

use super::compare::{self, Rule};
use super::generate::{self, Ctx, Family, KeyPool, MakeFn, Rng, Target};
use super::resp::{self, parse, Conn, Value};
use super::table::Table;
use slotscope::core::key::escape::format_key;
use slotscope::core::server::command::key_positions;
use slotscope::core::server::{Cluster, Reply, Session};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// The totals of one family (or of the harness's own housekeeping).
#[derive(Clone, Copy, Debug, Default)]
pub struct Totals {
    /// Commands sent.
    pub sent: usize,
    /// Replies that matched.
    pub matched: usize,
    /// Replies that did not.
    pub mismatched: usize,
    /// Replies that were the page's own note.
    pub not_simulated: usize,
}

/// One mismatch, as printed.
pub struct Mismatch {
    /// The step (command number in the run).
    pub step: usize,
    /// The node's address.
    pub node: String,
    /// The command, redis-cli escaped.
    pub command: String,
    /// The engine's reply (RESP).
    pub engine: Vec<u8>,
    /// The real node's reply (RESP).
    pub real: Vec<u8>,
}

/// Where the counts go: a family, or the harness's resets between sequences.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Bucket {
    /// A generated command of this family.
    Family(Family),
    /// DISCARD / READWRITE / FLUSHALL the harness sends between sequences.
    Harness,
}

/// Both sides and what was seen.
pub struct Harness {
    /// Redis's command table (names and tips).
    pub table: Table,
    /// The engine.
    pub cluster: Cluster,
    addrs: Vec<String>,
    /// Per client and node (index `client * nodes + node`): the engine's session.
    sessions: Vec<Session>,
    /// Per client and node: the real node's connection.
    conns: Vec<Conn>,
    /// Connections for the harness's own questions (replica offsets, cluster views).
    control: Vec<Conn>,
    /// Per client and node: the commands the real node answered `+QUEUED` since MULTI.
    queued: Vec<Vec<Vec<Vec<u8>>>>,
    /// Every master's slot fields in `CLUSTER NODES` at the start, by id.
    layout: BTreeMap<String, String>,
    /// Counts by family.
    pub totals: BTreeMap<Bucket, Totals>,
    /// Not-simulated replies by command name: how many, and the first one sent.
    pub not_simulated: BTreeMap<String, (usize, String)>,
    /// Every mismatch.
    pub mismatches: Vec<Mismatch>,
    /// Commands sent so far.
    pub step: usize,
}

/// Clients per node: the one generated commands use, and another that changes watched keys.
pub const CLIENTS: usize = 2;

/// The wall clock in milliseconds.
fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// Sets the engine's clock to the wall clock just before a command goes to the real node, so
/// expiries and TTLs are measured against the same instant (`compare::Rule::Clock` allows the
/// millisecond of skew that leaves).
fn set_engine_clock(cluster: &mut Cluster, ms: u64) {
    cluster.set_clock(i64::try_from(ms).unwrap_or(i64::MAX));
}

/// The master/replica slot fields of every master line of a `CLUSTER NODES` text, by id.
fn master_slots(nodes: &str) -> BTreeMap<String, String> {
    nodes
        .lines()
        .filter_map(|line| {
            let f: Vec<&str> = line.split(' ').collect();
            let flags = f.get(2)?;
            flags
                .split(',')
                .any(|x| x == "master")
                .then(|| (f[0].to_owned(), f.get(8..).unwrap_or(&[]).join(" ")))
        })
        .collect()
}

/// Whether `reply` is, or (EXEC) holds, the page's own note.
fn is_not_run(reply: &Reply) -> bool {
    match reply {
        Reply::Error(e) => e.note().is_some(),
        Reply::Array(items) => items.iter().any(is_not_run),
        _ => false,
    }
}

/// A command as redis-cli would echo it: words, quoted and escaped when needed, 8 KB values cut.
pub fn cli_command(args: &[Vec<u8>]) -> String {
    args.iter()
        .map(|a| {
            let shown = if a.len() > 64 { &a[..64] } else { a.as_slice() };
            let text = format_key(shown);
            let plain = !shown.is_empty()
                && text.as_bytes() == shown
                && !shown.iter().any(|b| b" \"'".contains(b));
            let mut word = if plain { text } else { format!("\"{text}\"") };
            if a.len() > 64 {
                word.push_str(&format!("…({} bytes)", a.len()));
            }
            word
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A reply's bytes shown on one line (`\r\n` escaped), cut at 400 characters.
pub fn show_reply(raw: &[u8]) -> String {
    let s = raw.escape_ascii().to_string();
    if s.len() > 400 {
        format!("{}…({} bytes)", &s[..400], raw.len())
    } else {
        s
    }
}

impl Harness {
    /// Connects to every node of the cluster `seed` belongs to, and builds the engine from
    /// that node's own `CLUSTER NODES`, imported as the page imports a paste.
    pub fn connect(seed: &str, table: Table) -> Harness {
        let mut first = Conn::open(seed).unwrap_or_else(|e| panic!("{e}"));
        let nodes_text = resp::text(&first.call_str(&["CLUSTER", "NODES"]));
        let imported = slotscope::core::cluster::import::import(&nodes_text).unwrap_or_else(|e| {
            panic!("the page cannot import {seed}'s CLUSTER NODES: {e:?}\n{nodes_text}")
        });
        assert!(
            imported.warnings.is_empty(),
            "import warnings: {:?}",
            imported.warnings
        );
        let cluster = Cluster::new(imported.map);
        let addrs: Vec<String> = cluster.node_addrs().map(str::to_owned).collect();
        assert_eq!(
            addrs.len(),
            6,
            "expected 3 masters and 3 replicas, got {addrs:?}"
        );
        let conns: Vec<Conn> = (0..CLIENTS)
            .flat_map(|_| addrs.iter())
            .map(|a| Conn::open(a).unwrap_or_else(|e| panic!("{e}")))
            .collect();
        let control = addrs
            .iter()
            .map(|a| Conn::open(a).unwrap_or_else(|e| panic!("{e}")))
            .collect();
        let mut control: Vec<Conn> = control;
        // The real nodes keep scripts from earlier runs; the engine starts with none.
        for c in &mut control {
            assert_eq!(resp::text(&c.call_str(&["SCRIPT", "FLUSH"])), "OK");
        }
        let n = addrs.len();
        Harness {
            table,
            cluster,
            addrs,
            sessions: vec![Session::new(); n * CLIENTS],
            conns,
            control,
            queued: vec![Vec::new(); n * CLIENTS],
            layout: master_slots(&nodes_text),
            totals: BTreeMap::new(),
            not_simulated: BTreeMap::new(),
            mismatches: Vec::new(),
            step: 0,
        }
    }

    /// The address of node `i`.
    pub fn addr(&self, i: usize) -> &str {
        &self.addrs[i]
    }

    /// The index of the node at `addr`.
    pub fn index_of(&self, addr: &str) -> usize {
        self.addrs
            .iter()
            .position(|a| a == addr)
            .unwrap_or_else(|| panic!("no node {addr}"))
    }

    /// The masters' node indexes.
    pub fn masters(&self) -> Vec<usize> {
        let map = self.cluster.map();
        map.masters()
            .iter()
            .map(|m| self.index_of(&m.addr))
            .collect()
    }

    /// The replicas' node indexes, each with its master's.
    fn replicas(&self) -> Vec<(usize, usize)> {
        let map = self.cluster.map();
        map.masters()
            .iter()
            .flat_map(|m| {
                let master = self.index_of(&m.addr);
                m.replicas.iter().map(move |r| (r.addr.clone(), master))
            })
            .map(|(addr, master)| (self.index_of(&addr), master))
            .collect()
    }

    /// The node (index) a generated command goes to: for a key, its slot's master 70 % of the
    /// time, another master 15 %, a replica 15 % (half of those the owner's).
    pub fn choose(&self, rng: &mut Rng, target: &Target) -> usize {
        let masters = self.masters();
        match target {
            Target::Any => rng.below(self.addrs.len()),
            Target::Master => *rng.pick(&masters),
            Target::Key(key) => {
                let slot = slotscope::core::key_slot(key);
                let owner = self
                    .cluster
                    .map()
                    .owner_master(slot)
                    .map(|m| self.index_of(&m.addr))
                    .unwrap_or(masters[0]);
                let roll = rng.below(100);
                let replicas = self.replicas();
                if roll < 70 {
                    owner
                } else if roll < 85 {
                    *rng.pick(&masters)
                } else if roll < 93 {
                    replicas
                        .iter()
                        .find(|(_, m)| *m == owner)
                        .map_or(owner, |(r, _)| *r)
                } else {
                    rng.pick(&replicas).0
                }
            }
        }
    }

    /// Waits until the replica `node` has applied everything its master sent (real side: the
    /// engine's replicas are written at once).
    fn sync_replica(&mut self, node: usize) {
        let Some(&(_, master)) = self.replicas().iter().find(|(r, _)| *r == node) else {
            return;
        };
        let offset = |c: &mut Conn, field: &str| -> i64 {
            let info = resp::text(&c.call_str(&["INFO", "replication"]));
            info.lines()
                .find_map(|l| l.strip_prefix(field).and_then(|v| v.trim().parse().ok()))
                .unwrap_or(-1)
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let want = offset(&mut self.control[master], "master_repl_offset:");
            let have = offset(&mut self.control[node], "slave_repl_offset:");
            if have >= want {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "replica {} stays behind its master",
                self.addrs[node]
            );
            std::thread::sleep(Duration::from_micros(300));
        }
    }

    /// Sends `args` to node `node` on both sides, compares, counts under `bucket`, and returns
    /// the real node's reply.
    pub fn send(&mut self, bucket: Bucket, node: usize, args: &[Vec<u8>]) -> Value {
        self.send_as(bucket, node, 0, args)
    }

    /// [`Harness::send`] from client `client` (0 or 1) of that node.
    pub fn send_as(
        &mut self,
        bucket: Bucket,
        node: usize,
        client: usize,
        args: &[Vec<u8>],
    ) -> Value {
        let at = client * self.addrs.len() + node;
        if self.replicas().iter().any(|(r, _)| *r == node) {
            self.sync_replica(node);
        }
        self.step += 1;
        set_engine_clock(&mut self.cluster, now_ms());
        let real = self.conns[at].call(args);
        let reply = self
            .cluster
            .exec(&self.addrs[node], args, &mut self.sessions[at]);
        let engine = reply.to_resp();
        let name = self.table.name_of(args);
        let not_run = is_not_run(&reply);
        let matched = !not_run && self.reply_matches(at, name.as_deref(), &engine, &real);
        let totals = self.totals.entry(bucket).or_default();
        totals.sent += 1;
        if not_run {
            totals.not_simulated += 1;
            let entry = self
                .not_simulated
                .entry(name.clone().unwrap_or_else(|| cli_command(&args[..1])))
                .or_insert_with(|| (0, cli_command(args)));
            entry.0 += 1;
        } else if matched {
            totals.matched += 1;
        } else {
            totals.mismatched += 1;
            self.mismatches.push(Mismatch {
                step: self.step,
                node: if client == 0 {
                    self.addrs[node].clone()
                } else {
                    format!("{} (its other client)", self.addrs[node])
                },
                command: if name.as_deref() == Some("exec") && !self.queued[at].is_empty() {
                    let queued: Vec<String> =
                        self.queued[at].iter().map(|q| cli_command(q)).collect();
                    format!("{} (queued: {})", cli_command(args), queued.join(" / "))
                } else {
                    cli_command(args)
                },
                engine,
                real: real.clone(),
            });
        }
        // What the real node queued, so EXEC's replies are each compared by their own rule.
        match name.as_deref() {
            Some("multi") if real == b"+OK\r\n" => self.queued[at].clear(),
            Some("exec" | "discard") => self.queued[at].clear(),
            _ if real == b"+QUEUED\r\n" => self.queued[at].push(args.to_vec()),
            _ => {}
        }
        // A write whose effect is random (SPOP removes a random member; XADD `*` makes an id
        // from the clock) leaves the two sides holding different values: the key is deleted on
        // both, so what follows compares behaviour, not luck.
        let random_write = match name.as_deref() {
            Some("spop") => true,
            Some("xadd") => args.iter().any(|a| a.as_slice() == b"*"),
            _ => false,
        };
        if random_write
            && !real.starts_with(b"-")
            && let Some(key) = args.get(1)
        {
            let del = [b"DEL".to_vec(), key.clone()];
            self.send_as(Bucket::Harness, node, client, &del);
        }
        // A command the engine does not simulate may have written its keys on the real node
        // (RESTORE, a script beyond the page's Lua subset): they are deleted on both sides, one
        // by one on the node that served the command, so that later commands compare behaviour
        // on the same data instead of reporting that one difference again and again.
        if not_run
            && !real.starts_with(b"-")
            && !self.sessions[at].in_multi()
            && let Ok(spec) = key_positions(args)
        {
            // Any command with keys, not only those flagged `write`: EVAL is not, yet its
            // script may write the keys it declares.
            let keys: Vec<Vec<u8>> = spec
                .positions
                .iter()
                .filter_map(|&i| args.get(i).cloned())
                .collect();
            // Not compared: the real node may hold what the engine never wrote.
            for key in keys {
                let del = [b"DEL".to_vec(), key];
                self.conns[at].call(&del);
                self.cluster
                    .exec(&self.addrs[node], &del, &mut self.sessions[at]);
            }
        }
        parse(&real).unwrap_or(Value::Error(b"unparsable".to_vec()))
    }

    fn reply_matches(&self, at: usize, name: Option<&str>, engine: &[u8], real: &[u8]) -> bool {
        if name == Some("exec") && !self.queued[at].is_empty() {
            // EXEC: element by element, each by its queued command's rule.
            if let (Some(Value::Array(Some(e))), Some(Value::Array(Some(r)))) =
                (parse(engine), parse(real))
                && e.len() == r.len()
                && r.len() == self.queued[at].len()
            {
                return self.queued[at]
                    .iter()
                    .zip(e.iter().zip(&r))
                    .all(|(q, (e, r))| {
                        let rule = self
                            .table
                            .name_of(q)
                            .map_or(Rule::Exact, |n| compare::rule_for(&self.table, &n));
                        compare::values_match(rule, e, r)
                    });
            }
        }
        let rule = name.map_or(Rule::Exact, |n| compare::rule_for(&self.table, n));
        compare::matches(rule, engine, real)
    }

    /// Runs one generated sequence of `len` commands over `gens`, then resets both sides.
    pub fn sequence(
        &mut self,
        rng: &mut Rng,
        keys: &KeyPool,
        gens: &[(Family, MakeFn)],
        families: &[Family],
        len: usize,
    ) {
        let routable: Vec<Family> = families
            .iter()
            .copied()
            .filter(|f| *f != Family::Migration)
            .collect();
        if routable.is_empty() {
            return;
        }
        for _ in 0..len {
            let family = *rng.pick(&routable);
            let mine: Vec<MakeFn> = gens
                .iter()
                .filter(|(f, _)| *f == family)
                .map(|(_, g)| *g)
                .collect();
            let make = *rng.pick(&mine);
            let mut ctx = Ctx { rng, keys };
            let mut cmd = make(&mut ctx);
            generate::mutate(&mut cmd, &mut ctx);
            if family != Family::Routing {
                assert!(
                    self.table.name_of(&cmd.args).is_some(),
                    "not in Redis's table: {}",
                    cli_command(&cmd.args)
                );
            }
            let node = self.choose(rng, &cmd.target);
            if family != Family::Routing
                && self.replicas().iter().any(|(r, _)| *r == node)
                && rng.chance(0.3)
            {
                self.send_as(
                    Bucket::Family(family),
                    node,
                    cmd.client,
                    &[b"READONLY".to_vec()],
                );
            }
            self.send_as(Bucket::Family(family), node, cmd.client, &cmd.args);
        }
        self.reset(families.contains(&Family::Watch));
    }

    /// Between sequences: ends transactions, READWRITE where READONLY was sent (and UNWATCH
    /// when the watch family runs), FLUSHALL on every master.
    pub fn reset(&mut self, unwatch: bool) {
        let n = self.addrs.len();
        for client in 0..CLIENTS {
            for node in 0..n {
                if self.sessions[client * n + node].in_multi() {
                    self.send_as(Bucket::Harness, node, client, &[b"DISCARD".to_vec()]);
                }
                // READONLY was sent on this connection (both sides agree while replies match).
                if self.sessions[client * n + node].is_readonly() {
                    self.send_as(Bucket::Harness, node, client, &[b"READWRITE".to_vec()]);
                }
                if unwatch {
                    self.send_as(Bucket::Harness, node, client, &[b"UNWATCH".to_vec()]);
                }
            }
        }
        for node in self.masters() {
            self.send(Bucket::Harness, node, &[b"FLUSHALL".to_vec()]);
        }
    }

    /// Waits until every real node has heard the same current epoch. A slot moved twice in a
    /// row needs it: `SETSLOT … NODE` on the importing node bumps its config epoch only if it
    /// is not already the greatest it knows (`clusterBumpConfigEpochWithoutConsensus`), so a
    /// node that has not yet heard of the first move's bump keeps its old epoch, and nodes that
    /// had heard of it never accept the second move.
    pub fn wait_epochs(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let epochs: Vec<String> = (0..self.addrs.len())
                .map(|node| {
                    let info = resp::text(&self.control[node].call_str(&["CLUSTER", "INFO"]));
                    info.lines()
                        .find_map(|l| l.strip_prefix("cluster_current_epoch:"))
                        .unwrap_or("")
                        .trim()
                        .to_owned()
                })
                .collect();
            if epochs.windows(2).all(|w| w[0] == w[1]) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "the nodes' current epochs never agree: {epochs:?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until every real node sees every master with the slots it had at the start (after
    /// a migration is set back: replicas learn it by gossip).
    pub fn wait_layout(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        for node in 0..self.addrs.len() {
            loop {
                let text = resp::text(&self.control[node].call_str(&["CLUSTER", "NODES"]));
                if master_slots(&text) == self.layout {
                    break;
                }
                assert!(
                    Instant::now() < deadline,
                    "{} does not see the starting layout again:\n{text}",
                    self.addrs[node]
                );
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }
}
