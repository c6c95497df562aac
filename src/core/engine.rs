//! A deterministic Redis Cluster that answers commands the way Redis 7.0 does, and a redis-cli
//! that talks to it and prints what the real one prints.
//!
//! [`Cluster`] holds one string key space per node (masters and their replicas; a write on a
//! master reaches its replicas at once). [`Cluster::exec`] follows Redis's `processCommand`:
//! unknown command and arity first, then cluster routing (`getNodeByQuery`: CROSSSLOT, slot not
//! served, cluster down, ASK/TRYAGAIN for slots being migrated or imported, READONLY replicas,
//! MOVED), then the replica write check, then MULTI queueing, then the command itself. Routing
//! already reads the masters' `migrating`/`importing` slots from the [`SlotMap`], so ASK,
//! ASKING and TRYAGAIN work as soon as a slot is opened. `CLUSTER SETSLOT` (IMPORTING,
//! MIGRATING, NODE, STABLE) opens, closes and reassigns slots in that map, `MIGRATE` moves keys
//! between nodes' key spaces, and `CLUSTER NODES` prints the map as the node asked sees it
//! (with `[slot->-id]`/`[slot-<-id]` on its own line). EVAL runs a tiny subset of Lua (see
//! [`Cluster::exec`]), enough for the recorded transcripts, and names the script by its SHA-1
//! as Redis does. [`Reply::to_cli`] prints replies as redis-cli does; [`Cli`] is redis-cli
//! itself, with and without `-c`, one-shot or interactive.

use super::command::{self, ArgsError, CommandError, CommandInfo, KeyRule, CROSSSLOT};
use super::escape::push_formatted;
use super::slot::{key_slot, N_SLOTS};
use super::topology::SlotMap;
use std::collections::BTreeMap;

/// A Redis reply (RESP2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `+OK`.
    Ok,
    /// Any other status reply (`+QUEUED`, `+PONG`, `+string`).
    Status(String),
    /// An integer reply.
    Int(i64),
    /// A bulk string; `None` is the nil bulk (`$-1`).
    Bulk(Option<Vec<u8>>),
    /// An array (multi-bulk) reply.
    Array(Vec<Reply>),
    /// An error reply, without the leading `-` (`MOVED 12182 127.0.0.1:7002`).
    Error(String),
}

impl Reply {
    /// Whether this is an error reply.
    pub fn is_error(&self) -> bool {
        matches!(self, Reply::Error(_))
    }

    /// The reply as redis-cli prints it on a terminal, interactive or one-shot (both print the
    /// same): every line ends with `\n`.
    ///
    /// ```
    /// use slotscope::core::engine::Reply;
    /// let r = Reply::Array(vec![Reply::Ok, Reply::Int(2), Reply::Bulk(None)]);
    /// assert_eq!(r.to_cli(), "1) OK\n2) (integer) 2\n3) (nil)\n");
    /// assert_eq!(Reply::Bulk(Some(b"a\"b".to_vec())).to_cli(), "\"a\\\"b\"\n");
    /// ```
    pub fn to_cli(&self) -> String {
        let mut out = String::new();
        push_cli(&mut out, self, "");
        out
    }

    /// The reply in RESP2 wire form (`-MOVED 12182 127.0.0.1:7002\r\n`).
    ///
    /// ```
    /// use slotscope::core::engine::Reply;
    /// assert_eq!(Reply::Error("MOVED 12182 127.0.0.1:7002".into()).to_resp(), b"-MOVED 12182 127.0.0.1:7002\r\n");
    /// assert_eq!(Reply::Bulk(None).to_resp(), b"$-1\r\n");
    /// ```
    pub fn to_resp(&self) -> Vec<u8> {
        let mut out = Vec::new();
        push_resp(&mut out, self);
        out
    }
}

/// redis-cli's `cliFormatReplyTTY`.
fn push_cli(out: &mut String, reply: &Reply, prefix: &str) {
    match reply {
        Reply::Ok => out.push_str("OK\n"),
        Reply::Status(s) => {
            out.push_str(s);
            out.push('\n');
        }
        Reply::Int(n) => {
            out.push_str("(integer) ");
            out.push_str(&n.to_string());
            out.push('\n');
        }
        Reply::Bulk(None) => out.push_str("(nil)\n"),
        Reply::Bulk(Some(bytes)) => {
            out.push('"');
            push_formatted(out, bytes);
            out.push_str("\"\n");
        }
        Reply::Error(e) => {
            out.push_str("(error) ");
            out.push_str(e);
            out.push('\n');
        }
        Reply::Array(items) if items.is_empty() => out.push_str("(empty array)\n"),
        Reply::Array(items) => {
            let width = items.len().to_string().len();
            let inner = format!("{prefix}{}", " ".repeat(width + 2));
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(prefix);
                }
                out.push_str(&format!("{:>width$}) ", i + 1));
                push_cli(out, item, &inner);
            }
        }
    }
}

fn push_resp(out: &mut Vec<u8>, reply: &Reply) {
    match reply {
        Reply::Ok => out.extend_from_slice(b"+OK\r\n"),
        Reply::Status(s) => {
            out.push(b'+');
            out.extend_from_slice(s.as_bytes());
            out.extend_from_slice(b"\r\n");
        }
        Reply::Int(n) => out.extend_from_slice(format!(":{n}\r\n").as_bytes()),
        Reply::Bulk(None) => out.extend_from_slice(b"$-1\r\n"),
        Reply::Bulk(Some(bytes)) => {
            out.extend_from_slice(format!("${}\r\n", bytes.len()).as_bytes());
            out.extend_from_slice(bytes);
            out.extend_from_slice(b"\r\n");
        }
        Reply::Array(items) => {
            out.extend_from_slice(format!("*{}\r\n", items.len()).as_bytes());
            for item in items {
                push_resp(out, item);
            }
        }
        Reply::Error(e) => {
            out.push(b'-');
            out.extend_from_slice(e.as_bytes());
            out.extend_from_slice(b"\r\n");
        }
    }
}

/// Per-connection state: the MULTI queue and the READONLY and ASKING flags.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Session {
    readonly: bool,
    asking: bool,
    multi: Option<Vec<Vec<Vec<u8>>>>,
    dirty: bool,
}

impl Session {
    /// A fresh connection.
    pub fn new() -> Session {
        Session::default()
    }

    /// Whether MULTI was sent and not yet ended by EXEC or DISCARD.
    pub fn in_multi(&self) -> bool {
        self.multi.is_some()
    }

    /// The commands queued since MULTI.
    pub fn queued(&self) -> &[Vec<Vec<u8>>] {
        self.multi.as_deref().unwrap_or(&[])
    }

    /// Whether a command was refused while queueing (EXEC will answer EXECABORT).
    pub fn is_dirty(&self) -> bool {
        self.dirty
    }

    /// Whether READONLY was sent (a replica then serves reads of its master's slots).
    pub fn is_readonly(&self) -> bool {
        self.readonly
    }

    /// Whether ASKING was sent for the next command.
    pub fn is_asking(&self) -> bool {
        self.asking
    }

    /// Marks the transaction failed, as Redis's `flagTransaction` does (only inside MULTI).
    fn flag(&mut self) {
        if self.multi.is_some() {
            self.dirty = true;
        }
    }

    fn discard(&mut self) {
        self.multi = None;
        self.dirty = false;
    }
}

/// Where a command goes, as Redis's `getNodeByQuery` decides it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Route {
    /// This node serves it; `slot` is the slot of its keys, if it has any.
    Here {
        /// The slot of the command's keys.
        slot: Option<u16>,
    },
    /// The slot lives on another master for good: `MOVED <slot> <addr>`.
    Moved {
        /// The slot.
        slot: u16,
        /// The owner's address.
        addr: String,
    },
    /// The slot is migrating and the key is (or would be) on the target: `ASK <slot> <addr>`.
    Ask {
        /// The slot.
        slot: u16,
        /// The migration target's address.
        addr: String,
    },
    /// The keys are in different slots.
    CrossSlot,
    /// A multi-key command whose keys are split between source and target of a migration.
    TryAgain,
    /// No master serves the slot.
    SlotNotServed {
        /// The slot.
        slot: u16,
    },
    /// Some slot is not served (or its master failed): the whole cluster refuses keyed commands.
    ClusterDown,
}

impl Route {
    /// The error Redis replies with, or `None` when this node serves the command.
    pub fn error(&self) -> Option<String> {
        match self {
            Route::Here { .. } => None,
            Route::Moved { slot, addr } => Some(format!("MOVED {slot} {addr}")),
            Route::Ask { slot, addr } => Some(format!("ASK {slot} {addr}")),
            Route::CrossSlot => Some(CROSSSLOT.to_owned()),
            Route::TryAgain => {
                Some("TRYAGAIN Multiple keys request during rehashing of slot".to_owned())
            }
            Route::SlotNotServed { .. } => Some("CLUSTERDOWN Hash slot not served".to_owned()),
            Route::ClusterDown => Some("CLUSTERDOWN The cluster is down".to_owned()),
        }
    }
}

const EXECABORT: &str = "EXECABORT Transaction discarded because of previous errors.";
const READONLY_REPLICA: &str = "READONLY You can't write against a read only replica.";
const NOT_INTEGER: &str = "ERR value is not an integer or out of range";
const SYNTAX: &str = "ERR syntax error";

#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    value: Vec<u8>,
    /// Creation order: Redis lists a slot's keys newest first.
    seq: u64,
}

/// One node's key space (strings only).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Db {
    keys: BTreeMap<Vec<u8>, Entry>,
    next_seq: u64,
}

impl Db {
    fn get(&self, key: &[u8]) -> Option<&[u8]> {
        self.keys.get(key).map(|e| e.value.as_slice())
    }

    fn set(&mut self, key: &[u8], value: Vec<u8>) {
        if let Some(entry) = self.keys.get_mut(key) {
            entry.value = value;
        } else {
            let seq = self.next_seq;
            self.next_seq += 1;
            self.keys.insert(key.to_vec(), Entry { value, seq });
        }
    }

    fn del(&mut self, key: &[u8]) -> bool {
        self.keys.remove(key).is_some()
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Node {
    addr: String,
    db: Db,
    /// Scripts EVAL has seen, by SHA-1 (lower-case hex), for EVALSHA.
    scripts: BTreeMap<String, Vec<u8>>,
}

impl Node {
    fn new(addr: &str) -> Node {
        Node {
            addr: addr.to_owned(),
            db: Db::default(),
            scripts: BTreeMap::new(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Master(usize),
    Replica(usize),
}

/// A deterministic cluster: the slot map plus one key space per node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cluster {
    map: SlotMap,
    nodes: Vec<Node>,
}

/// The nodes of `map` (masters, then each one's replicas), reusing `old` ones by address.
fn nodes_of(map: &SlotMap, old: Vec<Node>) -> Vec<Node> {
    let mut old: BTreeMap<String, Node> = old.into_iter().map(|n| (n.addr.clone(), n)).collect();
    let mut nodes: Vec<Node> = Vec::new();
    for master in map.masters() {
        let addrs = std::iter::once(&master.addr).chain(master.replicas.iter().map(|r| &r.addr));
        for addr in addrs {
            if !nodes.iter().any(|n| &n.addr == addr) {
                nodes.push(old.remove(addr).unwrap_or_else(|| Node::new(addr)));
            }
        }
    }
    nodes
}

type Queued<'a> = (&'static CommandInfo, &'a [Vec<u8>]);

/// `CLUSTER SETSLOT`, which the shared command table leaves out: the engine runs it.
static CLUSTER_SETSLOT: CommandInfo = CommandInfo {
    name: "cluster|setslot",
    arity: -4,
    write: false,
    noscript: false,
    keys: KeyRule::None,
    subcommands: &[],
};

/// `MIGRATE`, which the shared command table leaves out: the engine runs it. Its keys are
/// found by [`key_indexes`] (Redis's `migrateGetKeys`), not by this rule.
static MIGRATE: CommandInfo = CommandInfo {
    name: "migrate",
    arity: -6,
    write: true,
    noscript: false,
    keys: KeyRule::Range {
        first: 3,
        last: 3,
        step: 1,
    },
    subcommands: &[],
};

/// [`command::lookup`], plus the commands only the engine knows (`CLUSTER SETSLOT`, `MIGRATE`).
fn lookup(args: &[Vec<u8>]) -> Result<&'static CommandInfo, CommandError> {
    let is = |i: usize, word: &[u8]| args.get(i).is_some_and(|a| a.eq_ignore_ascii_case(word));
    let extra = if is(0, b"migrate") {
        Some(&MIGRATE)
    } else if is(0, b"cluster") && is(1, b"setslot") {
        Some(&CLUSTER_SETSLOT)
    } else {
        None
    };
    match extra {
        Some(info) => {
            let argc = args.len() as i64;
            if argc < -i64::from(info.arity) {
                Err(CommandError::WrongArity { command: info.name })
            } else {
                Ok(info)
            }
        }
        None => command::lookup(args),
    }
}

/// [`command::key_indexes`], with Redis's `migrateGetKeys` for MIGRATE: the key at 3, or, when
/// it is empty and a `KEYS` word follows the fixed arguments, every argument after `KEYS`.
fn key_indexes(info: &CommandInfo, args: &[Vec<u8>]) -> Vec<usize> {
    if info.name != "migrate" {
        return command::key_indexes(info, args);
    }
    if args.get(3).is_some_and(|k| k.is_empty()) {
        let keys_at = args
            .iter()
            .enumerate()
            .skip(6)
            .find(|(_, a)| a.eq_ignore_ascii_case(b"keys"))
            .map(|(i, _)| i);
        if let Some(at) = keys_at {
            return (at + 1..args.len()).collect();
        }
    }
    if args.len() > 3 {
        vec![3]
    } else {
        Vec::new()
    }
}

impl Cluster {
    /// An empty cluster (every key space empty) with the masters and replicas of `map`.
    pub fn new(map: SlotMap) -> Cluster {
        let nodes = nodes_of(&map, Vec::new());
        Cluster { map, nodes }
    }

    /// The slot map the cluster routes by.
    pub fn map(&self) -> &SlotMap {
        &self.map
    }

    /// Replaces the slot map. Nodes whose address stays keep their keys; new nodes start
    /// empty; nodes no longer in the map are dropped with their keys.
    pub fn set_map(&mut self, map: SlotMap) {
        self.nodes = nodes_of(&map, std::mem::take(&mut self.nodes));
        self.map = map;
    }

    /// The addresses of every node, masters and replicas, in map order.
    pub fn node_addrs(&self) -> impl Iterator<Item = &str> {
        self.nodes.iter().map(|n| n.addr.as_str())
    }

    /// Whether a node listens at `addr`.
    pub fn has_node(&self, addr: &str) -> bool {
        self.node_index(addr).is_some()
    }

    /// The value of `key` on the node at `addr`, without routing (for views and tests).
    pub fn peek(&self, addr: &str, key: &[u8]) -> Option<&[u8]> {
        let node = self.nodes.get(self.node_index(addr)?)?;
        node.db.get(key)
    }

    /// How many keys the node at `addr` holds (its `DBSIZE`).
    pub fn dbsize(&self, addr: &str) -> Option<usize> {
        let node = self.nodes.get(self.node_index(addr)?)?;
        Some(node.db.keys.len())
    }

    fn node_index(&self, addr: &str) -> Option<usize> {
        self.nodes.iter().position(|n| n.addr == addr)
    }

    fn role(&self, node: usize) -> Option<Role> {
        let addr = &self.nodes.get(node)?.addr;
        self.map.masters().iter().enumerate().find_map(|(i, m)| {
            if &m.addr == addr {
                Some(Role::Master(i))
            } else if m.replicas.iter().any(|r| &r.addr == addr) {
                Some(Role::Replica(i))
            } else {
                None
            }
        })
    }

    fn is_replica(&self, node: usize) -> bool {
        matches!(self.role(node), Some(Role::Replica(_)))
    }

    fn node_id(&self, node: usize) -> Option<&str> {
        let addr = &self.nodes.get(node)?.addr;
        self.map.masters().iter().find_map(|m| {
            if &m.addr == addr {
                Some(m.id.as_str())
            } else {
                m.replicas
                    .iter()
                    .find(|r| &r.addr == addr)
                    .map(|r| r.id.as_str())
            }
        })
    }

    fn db(&self, node: usize) -> Option<&Db> {
        self.nodes.get(node).map(|n| &n.db)
    }

    fn get(&self, node: usize, key: &[u8]) -> Option<&[u8]> {
        self.db(node)?.get(key)
    }

    /// The node itself and, for a master, its replicas: where a write lands.
    fn write_targets(&self, node: usize) -> Vec<usize> {
        let mut out = vec![node];
        if let Some(Role::Master(m)) = self.role(node) {
            if let Some(master) = self.map.masters().get(m) {
                out.extend(
                    master
                        .replicas
                        .iter()
                        .filter_map(|r| self.node_index(&r.addr)),
                );
            }
        }
        out
    }

    fn set(&mut self, node: usize, key: &[u8], value: Vec<u8>) {
        for n in self.write_targets(node) {
            if let Some(target) = self.nodes.get_mut(n) {
                target.db.set(key, value.clone());
            }
        }
    }

    fn del(&mut self, node: usize, key: &[u8]) -> bool {
        let mut removed = false;
        for n in self.write_targets(node) {
            if let Some(target) = self.nodes.get_mut(n) {
                removed |= target.db.del(key) && n == node;
            }
        }
        removed
    }

    fn flush(&mut self, node: usize) {
        for n in self.write_targets(node) {
            if let Some(target) = self.nodes.get_mut(n) {
                target.db = Db::default();
            }
        }
    }

    /// Whether every slot is served by a master that has not failed (`cluster_state:ok`).
    fn cluster_ok(&self) -> bool {
        if self.map.n_unowned() > 0 {
            return false;
        }
        // Usually no master has failed: then there is nothing to count (this runs for every
        // routed command, and counting scans all 16384 slots).
        if !self.map.masters().iter().any(|m| m.is_failed()) {
            return true;
        }
        let counts = self.map.slot_counts();
        !self
            .map
            .masters()
            .iter()
            .zip(counts)
            .any(|(m, n)| n > 0 && m.is_failed())
    }

    /// Where the command `args` sent to the node at `node_addr` goes, without running it.
    /// For EXEC it is the whole queued transaction of `session` that is routed. An address
    /// outside the cluster serves no slot, so every keyed command is MOVED to the slot's owner.
    pub fn route(
        &self,
        node_addr: &str,
        args: &[Vec<u8>],
        session: &Session,
    ) -> Result<Route, CommandError> {
        let info = lookup(args)?;
        // An index past the end has no role and no keys.
        let node = self.node_index(node_addr).unwrap_or(usize::MAX);
        Ok(self.route_command(node, info, args, session))
    }

    fn route_command(
        &self,
        node: usize,
        info: &'static CommandInfo,
        args: &[Vec<u8>],
        session: &Session,
    ) -> Route {
        if info.name == "exec" {
            let Some(queue) = &session.multi else {
                return Route::Here { slot: None };
            };
            let cmds: Vec<Queued<'_>> = queue
                .iter()
                .filter_map(|q| lookup(q).ok().map(|i| (i, q.as_slice())))
                .collect();
            let write = cmds.iter().any(|(i, _)| i.write);
            self.route_many(node, &cmds, write, session)
        } else {
            self.route_many(node, &[(info, args)], info.write, session)
        }
    }

    /// Redis 7.0's `getNodeByQuery`, over one command or a whole transaction.
    fn route_many(
        &self,
        node: usize,
        cmds: &[Queued<'_>],
        write: bool,
        session: &Session,
    ) -> Route {
        let keys: Vec<&[u8]> = cmds
            .iter()
            .flat_map(|(info, args)| {
                key_indexes(info, args)
                    .into_iter()
                    .filter_map(|pos| args.get(pos).map(Vec::as_slice))
            })
            .collect();
        // MIGRATE works on the local node whenever the slot is open (not inside EXEC).
        let migrate = matches!(cmds, [(info, _)] if info.name == "migrate");
        self.route_keys(
            node,
            &keys,
            write,
            migrate,
            session.asking,
            session.readonly,
        )
    }

    /// `getNodeByQuery` over a list of keys: `migrate` says the command is MIGRATE, `asking`
    /// that the connection sent ASKING (or the command carries the ASKING flag, as
    /// RESTORE-ASKING does).
    fn route_keys(
        &self,
        node: usize,
        keys: &[&[u8]],
        write: bool,
        migrate: bool,
        asking: bool,
        readonly: bool,
    ) -> Route {
        let role = self.role(node);
        let mut first: Option<&[u8]> = None;
        let mut slot = 0u16;
        let mut owner = None;
        let mut migrating_to: Option<&str> = None;
        let mut importing = false;
        let mut multiple_keys = false;
        let mut missing_keys = 0u32;
        let mut existing_keys = 0u32;
        for &key in keys {
            let this_slot = key_slot(key);
            match first {
                None => {
                    first = Some(key);
                    slot = this_slot;
                    let Some(m) = self.map.owner(slot) else {
                        return Route::SlotNotServed { slot };
                    };
                    owner = Some(m);
                    let me = match role {
                        Some(Role::Master(i)) => self.map.masters().get(i),
                        _ => None,
                    };
                    if let Some(me) = me {
                        let target = me
                            .migrating
                            .iter()
                            .find(|(s, _)| *s == slot)
                            .and_then(|(_, id)| self.map.master_by_id(id))
                            .and_then(|t| self.map.masters().get(t))
                            .map(|t| t.addr.as_str());
                        if role == Some(Role::Master(m)) && target.is_some() {
                            migrating_to = target;
                        } else if me.importing.iter().any(|(s, _)| *s == slot) {
                            importing = true;
                        }
                    }
                }
                Some(f) => {
                    if f != key {
                        if this_slot != slot {
                            return Route::CrossSlot;
                        }
                        multiple_keys = true;
                    }
                }
            }
            if migrating_to.is_some() || importing {
                if self.get(node, key).is_none() {
                    missing_keys = missing_keys.saturating_add(1);
                } else {
                    existing_keys = existing_keys.saturating_add(1);
                }
            }
        }
        let Some(owner) = owner else {
            return Route::Here { slot: None };
        };
        if !self.cluster_ok() {
            return Route::ClusterDown;
        }
        if (migrating_to.is_some() || importing) && migrate {
            return Route::Here { slot: Some(slot) };
        }
        if let Some(addr) = migrating_to {
            if missing_keys > 0 {
                // Redis 7.0 (#9526): some keys here and some gone is TRYAGAIN; all gone is ASK.
                return if existing_keys > 0 {
                    Route::TryAgain
                } else {
                    Route::Ask {
                        slot,
                        addr: addr.to_owned(),
                    }
                };
            }
        }
        if importing && asking {
            return if multiple_keys && missing_keys > 0 {
                Route::TryAgain
            } else {
                Route::Here { slot: Some(slot) }
            };
        }
        if readonly && !write && role == Some(Role::Replica(owner)) {
            return Route::Here { slot: Some(slot) };
        }
        if role == Some(Role::Master(owner)) {
            return Route::Here { slot: Some(slot) };
        }
        match self.map.masters().get(owner) {
            Some(m) => Route::Moved {
                slot,
                addr: m.addr.clone(),
            },
            None => Route::SlotNotServed { slot },
        }
    }

    /// Runs `args` on the node at `node_addr` over the connection `session`, and returns what
    /// Redis 7.0 would answer.
    ///
    /// Checks come in Redis's order: unknown command and arity; then routing (CROSSSLOT, slot
    /// not served, cluster down, ASK/TRYAGAIN, MOVED; a replica serves reads of its master's
    /// slots only after READONLY); then a replica refuses writes; inside MULTI the command is
    /// queued (a refusal before queueing makes EXEC answer EXECABORT, and EXEC routes the whole
    /// transaction, so same-node keys in different slots queue fine and EXEC answers CROSSSLOT).
    ///
    /// Commands run: GET SET (NX XX GET KEEPTTL) GETSET INCR DECR INCRBY DECRBY APPEND STRLEN
    /// MGET MSET MSETNX DEL UNLINK EXISTS TOUCH TTL TYPE RENAME RENAMENX, PING ECHO QUIT MULTI
    /// EXEC DISCARD ASKING READONLY READWRITE DBSIZE FLUSHALL FLUSHDB, CLUSTER KEYSLOT SLOTS MYID
    /// NODES COUNTKEYSINSLOT GETKEYSINSLOT SETSLOT, MIGRATE, EVAL and EVALSHA. Other commands of the table are routed
    /// exactly, then answered with an `ERR slotscope …` error saying the page does not run them.
    ///
    /// EVAL runs scripts of the form `return <expr>`, where `<expr>` is `redis.call('CMD', arg,
    /// …)`, a table `{<expr>, …}`, `KEYS[n]`, `ARGV[n]`, `KEYS`, `ARGV`, a string literal or an
    /// integer; arguments of `redis.call` are any such expressions. Anything else gets an
    /// `ERR slotscope does not run this script …` error. As in Redis, only the declared KEYS
    /// are routed; a `redis.call` on a key this node does not serve fails with
    /// `ERR Script attempted to access a non local key in a cluster node script: <sha1>, on
    /// @user_script:1.`
    pub fn exec(&mut self, node_addr: &str, args: &[Vec<u8>], session: &mut Session) -> Reply {
        let Some(node) = self.node_index(node_addr) else {
            return Reply::Error(format!("ERR slotscope: no node listens at {node_addr}"));
        };
        let reply = self.process(node, args, session);
        // Redis's resetClient: ASKING lasts one command, unless inside MULTI or ASKING itself.
        let was_asking = args
            .first()
            .is_some_and(|name| name.eq_ignore_ascii_case(b"asking"));
        if !session.in_multi() && !was_asking {
            session.asking = false;
        }
        reply
    }

    fn process(&mut self, node: usize, args: &[Vec<u8>], session: &mut Session) -> Reply {
        let info = match lookup(args) {
            Ok(info) => info,
            Err(e) => {
                session.flag();
                return Reply::Error(e.to_string());
            }
        };
        if !matches!(info.keys, KeyRule::None) || info.name == "exec" {
            let route = self.route_command(node, info, args, session);
            if let Some(err) = route.error() {
                if info.name == "exec" {
                    session.discard();
                } else {
                    session.flag();
                }
                return Reply::Error(err);
            }
        }
        let write = info.write
            || (info.name == "exec"
                && session
                    .queued()
                    .iter()
                    .any(|q| lookup(q).is_ok_and(|i| i.write)));
        if write && self.is_replica(node) {
            session.flag();
            return Reply::Error(READONLY_REPLICA.to_owned());
        }
        if let Some(queue) = session.multi.as_mut() {
            if !matches!(info.name, "exec" | "discard" | "multi" | "quit") {
                queue.push(args.to_vec());
                return Reply::Status("QUEUED".to_owned());
            }
        }
        self.call(node, info, args, session)
    }

    /// Runs a command that has passed every check (Redis's `call`).
    fn call(
        &mut self,
        node: usize,
        info: &'static CommandInfo,
        args: &[Vec<u8>],
        session: &mut Session,
    ) -> Reply {
        let arg = |i: usize| args.get(i).map(Vec::as_slice).unwrap_or(&[]);
        let err = |s: &str| Reply::Error(s.to_owned());
        match info.name {
            "multi" => {
                if session.in_multi() {
                    return err("ERR MULTI calls can not be nested");
                }
                session.multi = Some(Vec::new());
                session.dirty = false;
                Reply::Ok
            }
            "exec" => {
                let Some(queue) = session.multi.take() else {
                    return err("ERR EXEC without MULTI");
                };
                if std::mem::take(&mut session.dirty) {
                    return err(EXECABORT);
                }
                let replies = queue
                    .iter()
                    .map(|q| match lookup(q) {
                        Ok(i) => self.call(node, i, q, session),
                        Err(e) => Reply::Error(e.to_string()),
                    })
                    .collect();
                Reply::Array(replies)
            }
            "discard" => {
                if !session.in_multi() {
                    return err("ERR DISCARD without MULTI");
                }
                session.discard();
                Reply::Ok
            }
            "asking" => {
                session.asking = true;
                Reply::Ok
            }
            "readonly" => {
                session.readonly = true;
                Reply::Ok
            }
            "readwrite" => {
                session.readonly = false;
                Reply::Ok
            }
            "quit" => Reply::Ok,
            "ping" => match args.len() {
                1 => Reply::Status("PONG".to_owned()),
                2 => Reply::Bulk(Some(arg(1).to_vec())),
                _ => Reply::Error(arity_error("ping")),
            },
            "echo" => Reply::Bulk(Some(arg(1).to_vec())),
            "dbsize" => Reply::Int(self.db(node).map_or(0, |db| db.keys.len()) as i64),
            "flushall" | "flushdb" => {
                let ok = args.len() == 1
                    || (args.len() == 2
                        && (arg(1).eq_ignore_ascii_case(b"sync")
                            || arg(1).eq_ignore_ascii_case(b"async")));
                if !ok {
                    return err(SYNTAX);
                }
                self.flush(node);
                Reply::Ok
            }
            "cluster|keyslot" => Reply::Int(i64::from(key_slot(arg(2)))),
            "cluster|myid" => Reply::Bulk(self.node_id(node).map(|id| id.as_bytes().to_vec())),
            "cluster|slots" => self.cluster_slots(),
            "cluster|countkeysinslot" => {
                let Some(slot) = command::parse_i64(arg(2)) else {
                    return err(NOT_INTEGER);
                };
                if !(0..N_SLOTS as i64).contains(&slot) {
                    return err("ERR Invalid slot");
                }
                let n = self.db(node).map_or(0, |db| {
                    db.keys
                        .keys()
                        .filter(|k| i64::from(key_slot(k)) == slot)
                        .count()
                });
                Reply::Int(n as i64)
            }
            "cluster|getkeysinslot" => {
                let (Some(slot), Some(max)) =
                    (command::parse_i64(arg(2)), command::parse_i64(arg(3)))
                else {
                    return err(NOT_INTEGER);
                };
                if !(0..N_SLOTS as i64).contains(&slot) || max < 0 {
                    return err("ERR Invalid slot or number of keys");
                }
                let mut keys: Vec<(&Vec<u8>, u64)> = self.db(node).map_or(Vec::new(), |db| {
                    db.keys
                        .iter()
                        .filter(|(k, _)| i64::from(key_slot(k)) == slot)
                        .map(|(k, e)| (k, e.seq))
                        .collect()
                });
                crate::core::sort::sort_by_key(&mut keys, |k| std::cmp::Reverse(k.1));
                Reply::Array(
                    keys.into_iter()
                        .take(usize::try_from(max).unwrap_or(usize::MAX))
                        .map(|(k, _)| Reply::Bulk(Some(k.clone())))
                        .collect(),
                )
            }
            "eval" => self.eval(node, args, session, false),
            "evalsha" => self.eval(node, args, session, true),
            "fcall" => err("ERR Function not found"),
            "cluster|setslot" => self.setslot(node, args),
            "cluster|nodes" => Reply::Bulk(Some(self.cluster_nodes(node).into_bytes())),
            "migrate" => self.migrate(node, args),
            "info" | "cluster|info" | "cluster|shards" => NotRun::Unsimulated {
                name: info.name.to_owned(),
            }
            .into(),
            "expire" => NotRun::NoClock {
                name: "expire".to_owned(),
            }
            .into(),
            _ => self.string_command(node, info, args),
        }
    }

    fn string_command(
        &mut self,
        node: usize,
        info: &'static CommandInfo,
        args: &[Vec<u8>],
    ) -> Reply {
        let arg = |i: usize| args.get(i).map(Vec::as_slice).unwrap_or(&[]);
        let err = |s: &str| Reply::Error(s.to_owned());
        let bulk = |v: Option<&[u8]>| Reply::Bulk(v.map(<[u8]>::to_vec));
        let key = arg(1);
        match info.name {
            "get" => bulk(self.get(node, key)),
            "set" => self.set_command(node, args),
            "getset" => {
                let old = bulk(self.get(node, key));
                self.set(node, key, arg(2).to_vec());
                old
            }
            "incr" | "decr" | "incrby" | "decrby" => {
                let by = match info.name {
                    "incr" => 1,
                    "decr" => -1,
                    _ => {
                        let Some(n) = command::parse_i64(arg(2)) else {
                            return err(NOT_INTEGER);
                        };
                        if info.name == "incrby" {
                            n
                        } else if n == i64::MIN {
                            return err("ERR decrement would overflow");
                        } else {
                            -n
                        }
                    }
                };
                let old = match self.get(node, key) {
                    None => 0,
                    Some(v) => match command::parse_i64(v) {
                        Some(n) => n,
                        None => return err(NOT_INTEGER),
                    },
                };
                let Some(new) = old.checked_add(by) else {
                    return err("ERR increment or decrement would overflow");
                };
                self.set(node, key, new.to_string().into_bytes());
                Reply::Int(new)
            }
            "append" => {
                let mut value = self.get(node, key).map(<[u8]>::to_vec).unwrap_or_default();
                value.extend_from_slice(arg(2));
                let len = value.len() as i64;
                self.set(node, key, value);
                Reply::Int(len)
            }
            "strlen" => Reply::Int(self.get(node, key).map_or(0, <[u8]>::len) as i64),
            "mget" => Reply::Array(
                args.iter()
                    .skip(1)
                    .map(|k| bulk(self.get(node, k)))
                    .collect(),
            ),
            "mset" | "msetnx" => {
                if args.len().is_multiple_of(2) {
                    return Reply::Error(arity_error(info.name));
                }
                let pairs: Vec<(&[u8], &[u8])> = args
                    .get(1..)
                    .unwrap_or(&[])
                    .chunks_exact(2)
                    .filter_map(|p| match p {
                        [k, v] => Some((k.as_slice(), v.as_slice())),
                        _ => None,
                    })
                    .collect();
                if info.name == "msetnx" && pairs.iter().any(|(k, _)| self.get(node, k).is_some()) {
                    return Reply::Int(0);
                }
                for (k, v) in pairs {
                    self.set(node, k, v.to_vec());
                }
                if info.name == "mset" {
                    Reply::Ok
                } else {
                    Reply::Int(1)
                }
            }
            "del" | "unlink" => {
                let mut n = 0;
                for k in args.iter().skip(1) {
                    if self.del(node, k) {
                        n += 1;
                    }
                }
                Reply::Int(n)
            }
            "exists" | "touch" => Reply::Int(
                args.iter()
                    .skip(1)
                    .filter(|k| self.get(node, k).is_some())
                    .count() as i64,
            ),
            "ttl" => Reply::Int(if self.get(node, key).is_some() {
                -1
            } else {
                -2
            }),
            "type" => Reply::Status(
                if self.get(node, key).is_some() {
                    "string"
                } else {
                    "none"
                }
                .to_owned(),
            ),
            "rename" | "renamenx" => {
                let nx = info.name == "renamenx";
                let Some(value) = self.get(node, key).map(<[u8]>::to_vec) else {
                    return err("ERR no such key");
                };
                let dest = arg(2);
                if key == dest {
                    return if nx { Reply::Int(0) } else { Reply::Ok };
                }
                if self.get(node, dest).is_some() {
                    if nx {
                        return Reply::Int(0);
                    }
                    self.del(node, dest);
                }
                self.set(node, dest, value);
                self.del(node, key);
                if nx {
                    Reply::Int(1)
                } else {
                    Reply::Ok
                }
            }
            name => NotRun::OnlyStrings {
                name: name.to_owned(),
            }
            .into(),
        }
    }

    /// SET key value [NX|XX] [GET] [EX s|PX ms|EXAT t|PXAT t|KEEPTTL], parsed as Redis 7.0 does.
    fn set_command(&mut self, node: usize, args: &[Vec<u8>]) -> Reply {
        let (mut nx, mut xx, mut get, mut keepttl) = (false, false, false, false);
        let mut expire: Option<&[u8]> = None;
        let mut j = 3;
        while let Some(opt) = args.get(j) {
            let next = args.get(j + 1);
            let is = |word: &[u8]| opt.eq_ignore_ascii_case(word);
            if is(b"nx") && !xx {
                nx = true;
            } else if is(b"xx") && !nx {
                xx = true;
            } else if is(b"get") {
                get = true;
            } else if is(b"keepttl") && expire.is_none() {
                keepttl = true;
            } else if (is(b"ex") || is(b"px") || is(b"exat") || is(b"pxat"))
                && !keepttl
                && expire.is_none()
                && next.is_some()
            {
                expire = next.map(Vec::as_slice);
                j += 1;
            } else {
                return Reply::Error(SYNTAX.to_owned());
            }
            j += 1;
        }
        if let Some(value) = expire {
            return match command::parse_i64(value) {
                None => Reply::Error(NOT_INTEGER.to_owned()),
                Some(n) if n <= 0 => {
                    Reply::Error("ERR invalid expire time in 'set' command".to_owned())
                }
                Some(_) => NotRun::NoClock {
                    name: "set".to_owned(),
                }
                .into(),
            };
        }
        let key = args.get(1).map(Vec::as_slice).unwrap_or(&[]);
        let old = self.get(node, key).map(<[u8]>::to_vec);
        let found = old.is_some();
        if (nx && found) || (xx && !found) {
            return Reply::Bulk(if get { old } else { None });
        }
        self.set(node, key, args.get(2).cloned().unwrap_or_default());
        if get {
            Reply::Bulk(old)
        } else {
            Reply::Ok
        }
    }

    /// The master index and node id named by `id`, or whether it is a replica's id.
    fn lookup_node(&self, id: &[u8]) -> Option<Result<usize, ()>> {
        let masters = self.map.masters();
        if let Some(m) = masters.iter().position(|m| m.id.as_bytes() == id) {
            return Some(Ok(m));
        }
        masters
            .iter()
            .any(|m| m.replicas.iter().any(|r| r.id.as_bytes() == id))
            .then_some(Err(()))
    }

    /// How many keys of `slot` the node holds.
    fn count_in_slot(&self, node: usize, slot: u16) -> usize {
        self.db(node).map_or(0, |db| {
            db.keys.keys().filter(|k| key_slot(k) == slot).count()
        })
    }

    /// `CLUSTER SETSLOT <slot> IMPORTING|MIGRATING|NODE <id>` and `STABLE`, as Redis 7.0's
    /// `clusterCommand` runs it on the node it was sent to. The node's own open slots are its
    /// master's `migrating`/`importing` lists; NODE changes the one owner table every node
    /// shares here (in Redis the new owner's bumped epoch spreads it by gossip at once).
    fn setslot(&mut self, node: usize, args: &[Vec<u8>]) -> Reply {
        let arg = |i: usize| args.get(i).map(Vec::as_slice).unwrap_or(&[]);
        let err = |s: String| Reply::Error(s);
        let me = match self.role(node) {
            Some(Role::Master(m)) => m,
            _ => return err("ERR Please use SETSLOT only with masters.".to_owned()),
        };
        let slot = match command::parse_i64(arg(2)).and_then(|n| u16::try_from(n).ok()) {
            Some(s) if usize::from(s) < N_SLOTS => s,
            _ => return err("ERR Invalid or out of range slot".to_owned()),
        };
        let action = arg(3).to_ascii_lowercase();
        let id = arg(4);
        let id_text = String::from_utf8_lossy(id).into_owned();
        let owner = self.map.owner(slot);
        match (action.as_slice(), args.len()) {
            (b"migrating" | b"importing", 5) => {
                let migrating = action == b"migrating";
                if migrating && owner != Some(me) {
                    return err(format!("ERR I'm not the owner of hash slot {slot}"));
                }
                if !migrating && owner == Some(me) {
                    return err(format!("ERR I'm already the owner of hash slot {slot}"));
                }
                let target = match self.lookup_node(id) {
                    None => return err(format!("ERR I don't know about node {id_text}")),
                    Some(Err(())) => return err("ERR Target node is not a master".to_owned()),
                    Some(Ok(t)) => t,
                };
                let target_id = self
                    .map
                    .masters()
                    .get(target)
                    .map(|t| t.id.clone())
                    .unwrap_or_default();
                if let Some(m) = self.map.master_mut(me) {
                    let list = if migrating {
                        &mut m.migrating
                    } else {
                        &mut m.importing
                    };
                    list.retain(|(s, _)| *s != slot);
                    list.push((slot, target_id));
                    crate::core::sort::sort_by_key(list, |(s, _)| *s);
                }
            }
            (b"stable", 4) => {
                if let Some(m) = self.map.master_mut(me) {
                    m.migrating.retain(|(s, _)| *s != slot);
                    m.importing.retain(|(s, _)| *s != slot);
                }
            }
            (b"node", 5) => {
                let target = match self.lookup_node(id) {
                    None => return err(format!("ERR Unknown node {id_text}")),
                    Some(Err(())) => return err("ERR Target node is not a master".to_owned()),
                    Some(Ok(t)) => t,
                };
                let keys_here = self.count_in_slot(node, slot);
                if owner == Some(me) && target != me && keys_here != 0 {
                    return err(format!(
                        "ERR Can't assign hashslot {slot} to a different node while I still hold keys for this hash slot."
                    ));
                }
                self.map.assign(slot, Some(target));
                if let Some(m) = self.map.master_mut(me) {
                    if keys_here == 0 {
                        m.migrating.retain(|(s, _)| *s != slot);
                    }
                    if target == me {
                        m.importing.retain(|(s, _)| *s != slot);
                    }
                }
            }
            _ => {
                return err(
                    "ERR Invalid CLUSTER SETSLOT action or number of arguments. Try CLUSTER HELP"
                        .to_owned(),
                )
            }
        }
        Reply::Ok
    }

    /// `MIGRATE host port key|"" destination-db timeout [COPY] [REPLACE] [AUTH pw]
    /// [AUTH2 user pw] [KEYS key…]`, as Redis 7.0's `migrateCommand`: keys the node does not
    /// hold are left out (`+NOKEY` when none is left); each key is restored on the target with
    /// RESTORE-ASKING (routed there as the target routes it) and deleted here unless COPY.
    fn migrate(&mut self, node: usize, args: &[Vec<u8>]) -> Reply {
        let arg = |i: usize| args.get(i).map(Vec::as_slice).unwrap_or(&[]);
        let (mut copy, mut replace, mut auth) = (false, false, false);
        let mut first_key = 3;
        let mut num_keys = 1;
        let mut j = 6;
        while j < args.len() {
            let more = args.len() - 1 - j;
            let is = |w: &[u8]| arg(j).eq_ignore_ascii_case(w);
            if is(b"copy") {
                copy = true;
            } else if is(b"replace") {
                replace = true;
            } else if is(b"auth") {
                if more < 1 {
                    return Reply::Error(SYNTAX.to_owned());
                }
                auth = true;
                j += 1;
            } else if is(b"auth2") {
                if more < 2 {
                    return Reply::Error(SYNTAX.to_owned());
                }
                auth = true;
                j += 2;
            } else if is(b"keys") {
                if !arg(3).is_empty() {
                    return Reply::Error(
                        "ERR When using MIGRATE KEYS option, the key argument must be set to the empty string"
                            .to_owned(),
                    );
                }
                first_key = j + 1;
                num_keys = args.len() - j - 1;
                break;
            } else {
                return Reply::Error(SYNTAX.to_owned());
            }
            j += 1;
        }
        let (Some(_timeout), Some(dbid)) = (command::parse_i64(arg(5)), command::parse_i64(arg(4)))
        else {
            return Reply::Error(NOT_INTEGER.to_owned());
        };
        let keys: Vec<Vec<u8>> = args
            .iter()
            .skip(first_key)
            .take(num_keys)
            .filter(|k| self.get(node, k).is_some())
            .cloned()
            .collect();
        if keys.is_empty() {
            return Reply::Status("NOKEY".to_owned());
        }
        let target_addr = format!(
            "{}:{}",
            String::from_utf8_lossy(arg(1)),
            String::from_utf8_lossy(arg(2))
        );
        let Some(target) = self.node_index(&target_addr) else {
            return Reply::Error("IOERR error or timeout connecting to the client".to_owned());
        };
        let prefix = "ERR Target instance replied with error: ";
        if auth {
            return Reply::Error(format!(
                "{prefix}ERR AUTH <password> called without any password configured for the default user. Are you sure your configuration is correct?"
            ));
        }
        if dbid != 0 {
            return Reply::Error(format!("{prefix}ERR SELECT is not allowed in cluster mode"));
        }
        let mut first_error: Option<String> = None;
        for key in &keys {
            let route = self.route_keys(target, &[key.as_slice()], true, false, true, false);
            let target_error = if let Some(e) = route.error() {
                Some(e)
            } else if self.is_replica(target) {
                Some(READONLY_REPLICA.to_owned())
            } else if !replace && self.get(target, key).is_some() {
                Some("BUSYKEY Target key name already exists.".to_owned())
            } else {
                None
            };
            match target_error {
                Some(e) => {
                    first_error.get_or_insert(format!("{prefix}{e}"));
                }
                None => {
                    let value = self.get(node, key).map(<[u8]>::to_vec).unwrap_or_default();
                    if target != node {
                        self.del(target, key);
                    }
                    self.set(target, key, value);
                    if !copy && target != node {
                        self.del(node, key);
                    }
                }
            }
        }
        match first_error {
            Some(e) => Reply::Error(e),
            None => Reply::Ok,
        }
    }

    /// `CLUSTER NODES` as the node at index `node` prints it: every node, `myself` on its own
    /// line, its open slots (`[slot->-id]`, `[slot-<-id]`) after its ranges. Ping and pong
    /// times are 0 and the config epoch is the master's position plus one: the real ones
    /// change from run to run, so compare the output field by field, not byte for byte.
    pub fn cluster_nodes_of(&self, node_addr: &str) -> Option<String> {
        self.node_index(node_addr).map(|n| self.cluster_nodes(n))
    }

    fn cluster_nodes(&self, node: usize) -> String {
        let my_addr = self.nodes.get(node).map(|n| n.addr.as_str()).unwrap_or("");
        let bus = |addr: &str| {
            let cport = addr
                .rsplit_once(':')
                .and_then(|(_, p)| p.parse::<u32>().ok())
                .filter(|p| *p != 0)
                .map_or(0, |p| p.saturating_add(10000));
            format!("{addr}@{cport}")
        };
        let flags = |addr: &str, extra: &[String], role: &str| {
            let mut words: Vec<&str> = Vec::new();
            if addr == my_addr {
                words.push("myself");
            }
            words.push(role);
            words.extend(
                extra
                    .iter()
                    .map(String::as_str)
                    .filter(|f| !matches!(*f, "myself" | "master" | "slave" | "replica")),
            );
            words.join(",")
        };
        let ranges = self.map.ranges_by_master();
        let mut out = String::new();
        for (i, m) in self.map.masters().iter().enumerate() {
            let epoch = i + 1;
            let addr = match &m.hostname {
                Some(h) => format!("{},{h}", bus(&m.addr)),
                None => bus(&m.addr),
            };
            out.push_str(&format!(
                "{} {addr} {} - 0 0 {epoch} connected",
                m.id,
                flags(&m.addr, &m.flags, "master")
            ));
            for r in ranges.get(i).into_iter().flatten() {
                out.push_str(&format!(" {r}"));
            }
            if m.addr == my_addr {
                let mut open: Vec<(u16, String)> = m
                    .migrating
                    .iter()
                    .map(|(s, id)| (*s, format!("[{s}->-{id}]")))
                    .collect();
                open.extend(
                    m.importing
                        .iter()
                        .filter(|(s, _)| !m.migrating.iter().any(|(ms, _)| ms == s))
                        .map(|(s, id)| (*s, format!("[{s}-<-{id}]"))),
                );
                crate::core::sort::sort(&mut open);
                for (_, text) in open {
                    out.push(' ');
                    out.push_str(&text);
                }
            }
            out.push('\n');
            for r in &m.replicas {
                out.push_str(&format!(
                    "{} {} {} {} 0 0 {epoch} connected\n",
                    r.id,
                    bus(&r.addr),
                    flags(&r.addr, &r.flags, "slave"),
                    m.id
                ));
            }
        }
        out
    }

    fn cluster_slots(&self) -> Reply {
        fn endpoint(addr: &str, id: &str, hostname: Option<&str>) -> Reply {
            let (ip, port) = addr.rsplit_once(':').unwrap_or((addr, "0"));
            let meta = match hostname {
                Some(h) => vec![
                    Reply::Bulk(Some(b"hostname".to_vec())),
                    Reply::Bulk(Some(h.as_bytes().to_vec())),
                ],
                None => Vec::new(),
            };
            Reply::Array(vec![
                Reply::Bulk(Some(ip.as_bytes().to_vec())),
                Reply::Int(port.parse().unwrap_or(0)),
                Reply::Bulk(Some(id.as_bytes().to_vec())),
                Reply::Array(meta),
            ])
        }
        let masters = self.map.masters();
        let entries = self
            .map
            .runs()
            .filter_map(|run| {
                let master = masters.get(run.owner?)?;
                let mut entry = vec![
                    Reply::Int(i64::from(run.range.first)),
                    Reply::Int(i64::from(run.range.last)),
                    endpoint(&master.addr, &master.id, master.hostname.as_deref()),
                ];
                entry.extend(
                    master
                        .replicas
                        .iter()
                        .filter(|r| !r.flags.iter().any(|f| f == "fail"))
                        .map(|r| endpoint(&r.addr, &r.id, None)),
                );
                Some(Reply::Array(entry))
            })
            .collect();
        Reply::Array(entries)
    }

    fn eval(&mut self, node: usize, args: &[Vec<u8>], session: &Session, by_sha: bool) -> Reply {
        let arg = |i: usize| args.get(i).map(Vec::as_slice).unwrap_or(&[]);
        if by_sha && arg(1).len() != 40 {
            return Reply::Error(NOSCRIPT.to_owned());
        }
        let Some(numkeys) = command::parse_i64(arg(2)) else {
            return Reply::Error(NOT_INTEGER.to_owned());
        };
        let available = args.len().saturating_sub(3);
        if numkeys > available as i64 {
            return Reply::Error("ERR Number of keys can't be greater than number of args".into());
        }
        let Ok(numkeys) = usize::try_from(numkeys) else {
            return Reply::Error("ERR Number of keys can't be negative".into());
        };
        let (sha, body) = if by_sha {
            let sha = String::from_utf8_lossy(arg(1)).to_ascii_lowercase();
            let body = self
                .nodes
                .get(node)
                .and_then(|n| n.scripts.get(&sha))
                .cloned();
            match body {
                Some(body) => (sha, body),
                None => return Reply::Error(NOSCRIPT.to_owned()),
            }
        } else {
            (sha1_hex(arg(1)), arg(1).to_vec())
        };
        let script = match parse_script(&body) {
            Ok(script) => script,
            Err(e) => {
                return Reply::Error(format!(
                    "ERR slotscope does not run this script ({e}); it runs only `return` of redis.call('CMD', KEYS[1], ARGV[1], 'text', 1), of {{…}} tables of those, of KEYS[n], ARGV[n], strings and integers"
                ))
            }
        };
        if let Some(n) = self.nodes.get_mut(node) {
            n.scripts.insert(sha.clone(), body.clone());
        }
        let rest = args.get(3..).unwrap_or(&[]);
        let (keys, argv) = rest.split_at(numkeys.min(rest.len()));
        let mut ctx = ScriptRun {
            sha: &sha,
            keys,
            argv,
            session: Session {
                readonly: session.readonly,
                asking: session.asking,
                ..Session::default()
            },
        };
        match self.eval_expr(node, &script, &mut ctx) {
            Ok(Lua::Nil) => Reply::Bulk(None),
            Ok(Lua::Value(r)) => r,
            Err(r) => r,
        }
    }

    fn eval_expr(
        &mut self,
        node: usize,
        expr: &Expr,
        ctx: &mut ScriptRun<'_>,
    ) -> Result<Lua, Reply> {
        let index = |list: &[Vec<u8>], n: i64| {
            usize::try_from(n)
                .ok()
                .and_then(|n| n.checked_sub(1))
                .and_then(|n| list.get(n))
                .map_or(Lua::Nil, |v| Lua::Value(Reply::Bulk(Some(v.clone()))))
        };
        let all = |list: &[Vec<u8>]| {
            Lua::Value(Reply::Array(
                list.iter().map(|v| Reply::Bulk(Some(v.clone()))).collect(),
            ))
        };
        Ok(match expr {
            Expr::Str(s) => Lua::Value(Reply::Bulk(Some(s.clone()))),
            Expr::Int(n) => Lua::Value(Reply::Int(*n)),
            Expr::Key(n) => index(ctx.keys, *n),
            Expr::Arg(n) => index(ctx.argv, *n),
            Expr::Keys => all(ctx.keys),
            Expr::Argv => all(ctx.argv),
            Expr::Table(items) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    match self.eval_expr(node, item, ctx)? {
                        Lua::Value(v) => out.push(v),
                        Lua::Nil => {
                            return Err(Reply::Error(format!(
                                "ERR slotscope does not run this script: element {} of a table is nil, and Lua tables stop at nil",
                                i + 1
                            )))
                        }
                    }
                }
                Lua::Value(Reply::Array(out))
            }
            Expr::Call { args, line } => {
                let mut call_args = Vec::with_capacity(args.len());
                for (i, a) in args.iter().enumerate() {
                    match self.eval_expr(node, a, ctx)? {
                        Lua::Value(Reply::Bulk(Some(b))) => call_args.push(b),
                        Lua::Value(Reply::Int(n)) => call_args.push(n.to_string().into_bytes()),
                        _ => {
                            return Err(Reply::Error(format!(
                                "ERR slotscope does not run this script: argument {} of redis.call on line {line} is not a string or an integer",
                                i + 1
                            )))
                        }
                    }
                }
                Lua::Value(self.script_call(node, &call_args, *line, ctx)?)
            }
        })
    }

    /// `redis.call` from a script (Redis 7.0's `scriptCall`); an error is raised, so it ends the
    /// script with the error and where it happened.
    fn script_call(
        &mut self,
        node: usize,
        args: &[Vec<u8>],
        line: usize,
        ctx: &mut ScriptRun<'_>,
    ) -> Result<Reply, Reply> {
        let sha = ctx.sha;
        let raise =
            |msg: &str| Reply::Error(format!("{msg} script: {sha}, on @user_script:{line}."));
        let info = match lookup(args) {
            Ok(info) => info,
            Err(CommandError::Empty) => {
                return Err(raise(
                    "ERR Please specify at least one argument for this redis lib call",
                ))
            }
            Err(CommandError::WrongArity { .. }) => {
                return Err(raise(
                    "ERR Wrong number of args calling Redis command from script",
                ))
            }
            Err(_) => return Err(raise("ERR Unknown Redis command called from script")),
        };
        if info.noscript {
            return Err(raise("ERR This Redis command is not allowed from scripts"));
        }
        if info.write && self.is_replica(node) {
            return Err(raise(READONLY_REPLICA));
        }
        if !matches!(info.keys, KeyRule::None)
            && self
                .route_command(node, info, args, &ctx.session)
                .error()
                .is_some()
        {
            return Err(raise(
                "ERR Script attempted to access a non local key in a cluster node",
            ));
        }
        match self.call(node, info, args, &mut ctx.session) {
            Reply::Error(e) => Err(raise(&e)),
            reply => Ok(reply),
        }
    }
}

const NOSCRIPT: &str = "NOSCRIPT No matching script. Please use EVAL.";

fn arity_error(name: &'static str) -> String {
    CommandError::WrongArity { command: name }.to_string()
}

struct ScriptRun<'a> {
    sha: &'a str,
    keys: &'a [Vec<u8>],
    argv: &'a [Vec<u8>],
    /// The script's own client: READONLY and ASKING copied from the caller.
    session: Session,
}

/// A Lua value as the subset sees it: nil, or a value that converts to a reply.
enum Lua {
    Nil,
    Value(Reply),
}

/// An expression of the script subset.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Expr {
    Str(Vec<u8>),
    Int(i64),
    Key(i64),
    Arg(i64),
    Keys,
    Argv,
    Table(Vec<Expr>),
    Call { args: Vec<Expr>, line: usize },
}

const MAX_DEPTH: usize = 32;

struct Parser<'a> {
    src: &'a [u8],
    pos: usize,
    /// Byte offsets of the script's line breaks, so a position's line is a binary search.
    newlines: Vec<usize>,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.src.get(self.pos).copied()
    }

    fn line(&self) -> usize {
        self.newlines.partition_point(|&p| p < self.pos) + 1
    }

    fn fail<T>(&self, why: &str) -> Result<T, String> {
        let line = self.line();
        // The line break before this line (line n follows break n - 1, counted from 1).
        let line_start = match line.checked_sub(2) {
            Some(i) => self.newlines.get(i).map_or(0, |p| p + 1),
            None => 0,
        };
        let column = self
            .src
            .get(line_start..self.pos)
            .map_or(0, |s| String::from_utf8_lossy(s).chars().count())
            + 1;
        Err(format!("line {line}, column {column}: {why}"))
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, token: &[u8]) -> bool {
        self.skip_space();
        let end = self.pos + token.len();
        if self.src.get(self.pos..end) == Some(token) {
            self.pos = end;
            true
        } else {
            false
        }
    }

    fn word(&mut self) -> &[u8] {
        self.skip_space();
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
        {
            self.pos += 1;
        }
        self.src.get(start..self.pos).unwrap_or(&[])
    }

    fn expect(&mut self, token: &[u8], what: &str) -> Result<(), String> {
        if self.eat(token) {
            Ok(())
        } else {
            self.fail(&format!("expected {what}"))
        }
    }

    fn script(&mut self) -> Result<Expr, String> {
        if self.word() != b"return" {
            return self.fail("the script must start with `return`");
        }
        let expr = self.expr(0)?;
        self.eat(b";");
        self.skip_space();
        if self.pos < self.src.len() {
            return self.fail("unexpected text after the returned expression");
        }
        Ok(expr)
    }

    fn list(&mut self, close: u8, depth: usize) -> Result<Vec<Expr>, String> {
        let mut items = Vec::new();
        if self.eat(&[close]) {
            return Ok(items);
        }
        loop {
            items.push(self.expr(depth + 1)?);
            if self.eat(&[close]) {
                return Ok(items);
            }
            self.expect(b",", "`,` between arguments")?;
            if close == b'}' && self.eat(b"}") {
                return Ok(items);
            }
        }
    }

    fn expr(&mut self, depth: usize) -> Result<Expr, String> {
        if depth > MAX_DEPTH {
            return self.fail("expressions nest too deeply");
        }
        self.skip_space();
        match self.peek() {
            Some(b'{') => {
                self.pos += 1;
                Ok(Expr::Table(self.list(b'}', depth)?))
            }
            Some(q @ (b'\'' | b'"')) => {
                self.pos += 1;
                self.string(q).map(Expr::Str)
            }
            Some(b'-' | b'0'..=b'9') => self.integer().map(Expr::Int),
            _ => {
                let start = self.pos;
                match self.word() {
                    b"redis.call" => {
                        self.skip_space();
                        let line = self.line();
                        self.expect(b"(", "`(` after redis.call")?;
                        let args = self.list(b')', depth)?;
                        Ok(Expr::Call { args, line })
                    }
                    name @ (b"KEYS" | b"ARGV") => {
                        let keys = name == b"KEYS";
                        if !self.eat(b"[") {
                            return Ok(if keys { Expr::Keys } else { Expr::Argv });
                        }
                        let n = self.integer()?;
                        self.expect(b"]", "`]`")?;
                        Ok(if keys { Expr::Key(n) } else { Expr::Arg(n) })
                    }
                    _ => {
                        self.pos = start;
                        self.fail(
                            "expected redis.call(…), {…}, KEYS[n], ARGV[n], a string or an integer",
                        )
                    }
                }
            }
        }
    }

    fn integer(&mut self) -> Result<i64, String> {
        self.skip_space();
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.pos += 1;
        }
        let text = self.src.get(start..self.pos).unwrap_or(&[]);
        match std::str::from_utf8(text).ok().and_then(|t| t.parse().ok()) {
            Some(n) => Ok(n),
            None => {
                self.pos = start;
                self.fail("expected an integer")
            }
        }
    }

    /// A Lua short string after its opening quote `q`.
    fn string(&mut self, q: u8) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        loop {
            let Some(b) = self.peek() else {
                return self.fail("unfinished string");
            };
            self.pos += 1;
            match b {
                b'\n' => return self.fail("unfinished string"),
                b'\\' => {
                    let Some(e) = self.peek() else {
                        return self.fail("unfinished string");
                    };
                    self.pos += 1;
                    match e {
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'a' => out.push(0x07),
                        b'b' => out.push(0x08),
                        b'f' => out.push(0x0c),
                        b'v' => out.push(0x0b),
                        b'\\' | b'"' | b'\'' | b'\n' => out.push(e),
                        b'0'..=b'9' => {
                            let mut value = u32::from(e - b'0');
                            for _ in 0..2 {
                                match self.peek() {
                                    Some(d @ b'0'..=b'9') => {
                                        value = value * 10 + u32::from(d - b'0');
                                        self.pos += 1;
                                    }
                                    _ => break,
                                }
                            }
                            match u8::try_from(value) {
                                Ok(v) => out.push(v),
                                Err(_) => return self.fail("escape sequence too large"),
                            }
                        }
                        _ => return self.fail("an escape Lua 5.1 does not know"),
                    }
                }
                _ if b == q => return Ok(out),
                _ => out.push(b),
            }
        }
    }
}

fn parse_script(body: &[u8]) -> Result<Expr, String> {
    let newlines = body
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b == b'\n')
        .map(|(i, _)| i)
        .collect();
    Parser {
        src: body,
        pos: 0,
        newlines,
    }
    .script()
}

/// SHA-1 of `data` (FIPS 180-4), as Redis names scripts.
///
/// ```
/// use slotscope::core::engine::sha1_hex;
/// assert_eq!(sha1_hex(b"abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
/// ```
pub fn sha1(data: &[u8]) -> [u8; 20] {
    let mut h: [u32; 5] = [
        0x6745_2301,
        0xEFCD_AB89,
        0x98BA_DCFE,
        0x1032_5476,
        0xC3D2_E1F0,
    ];
    let bit_len = (data.len() as u64).wrapping_mul(8);
    let mut msg = Vec::with_capacity(data.len() + 72);
    msg.extend_from_slice(data);
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&bit_len.to_be_bytes());
    for block in msg.chunks_exact(64) {
        let mut w = [0u32; 80];
        for (slot, word) in w.iter_mut().zip(block.chunks_exact(4)) {
            *slot = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..80 {
            w[i] = (w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]).rotate_left(1);
        }
        let [mut a, mut b, mut c, mut d, mut e] = h;
        for (i, &wi) in w.iter().enumerate() {
            let (f, k) = match i {
                0..=19 => ((b & c) | (!b & d), 0x5A82_7999),
                20..=39 => (b ^ c ^ d, 0x6ED9_EBA1),
                40..=59 => ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC),
                _ => (b ^ c ^ d, 0xCA62_C1D6),
            };
            let t = a
                .rotate_left(5)
                .wrapping_add(f)
                .wrapping_add(e)
                .wrapping_add(k)
                .wrapping_add(wi);
            e = d;
            d = c;
            c = b.rotate_left(30);
            b = a;
            a = t;
        }
        for (hv, v) in h.iter_mut().zip([a, b, c, d, e]) {
            *hv = hv.wrapping_add(v);
        }
    }
    let mut out = [0u8; 20];
    for (chunk, v) in out.chunks_exact_mut(4).zip(h) {
        chunk.copy_from_slice(&v.to_be_bytes());
    }
    out
}

/// SHA-1 of `data` in lower-case hex (what EVALSHA takes).
pub fn sha1_hex(data: &[u8]) -> String {
    super::escape::to_hex(&sha1(data))
}

/// What the page answers instead of running a command it does not simulate, as the error its
/// engine replies (`ERR slotscope …`, so the command's fate in a transaction or a script is
/// Redis's). [`NotRun::parse`] reads one back, for the page to show it as its own note, in the
/// reader's language, rather than as Redis's words.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotRun {
    /// Output that differs from run to run (INFO, CLUSTER INFO, CLUSTER SHARDS).
    Unsimulated {
        /// Redis's name of the command (`info`, `cluster|info`).
        name: String,
    },
    /// Something with a time to live: the engine has no clock.
    NoClock {
        /// Redis's name of the command: `expire`, or `set` (SET with EX, PX, EXAT or PXAT).
        name: String,
    },
    /// A command of another data type that this node would serve.
    OnlyStrings {
        /// Redis's name of the command (`hset`).
        name: String,
    },
}

const UNSIMULATED: (&str, &str) = (
    "ERR slotscope does not simulate '",
    "': its real output carries ids, timestamps and counters that change from run to run",
);
const NO_CLOCK: &str = "ERR slotscope has no clock, so it does not run ";
const SET_TTL: &str = "SET with EX, PX, EXAT or PXAT";
const ONLY_STRINGS: (&str, &str) = (
    "ERR slotscope does not run '",
    "': this node would serve it, but the page keeps only string keys",
);

impl NotRun {
    /// The note an error reply of the engine carries, if it is one.
    pub fn parse(error: &str) -> Option<NotRun> {
        let between = |(open, close): (&str, &str)| {
            error
                .strip_prefix(open)?
                .strip_suffix(close)
                .map(str::to_owned)
        };
        if let Some(name) = between(UNSIMULATED) {
            return Some(NotRun::Unsimulated { name });
        }
        if let Some(name) = between(ONLY_STRINGS) {
            return Some(NotRun::OnlyStrings { name });
        }
        let name = match error.strip_prefix(NO_CLOCK)? {
            SET_TTL => "set".to_owned(),
            quoted => quoted.strip_prefix('\'')?.strip_suffix('\'')?.to_owned(),
        };
        Some(NotRun::NoClock { name })
    }
}

/// The engine's reply: the error redis-cli would print for it.
impl From<NotRun> for Reply {
    fn from(note: NotRun) -> Reply {
        Reply::Error(note.to_string())
    }
}

impl std::fmt::Display for NotRun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotRun::Unsimulated { name } => write!(f, "{}{name}{}", UNSIMULATED.0, UNSIMULATED.1),
            NotRun::NoClock { name } if name == "set" => write!(f, "{NO_CLOCK}{SET_TTL}"),
            NotRun::NoClock { name } => write!(f, "{NO_CLOCK}'{name}'"),
            NotRun::OnlyStrings { name } => {
                write!(f, "{}{name}{}", ONLY_STRINGS.0, ONLY_STRINGS.1)
            }
        }
    }
}

/// What redis-cli prints for `reply` to `args`: `CLUSTER NODES` (like INFO and CLUSTER INFO) is
/// printed raw, as the text it is; everything else as [`Reply::to_cli`] prints it.
pub fn cli_text(args: &[Vec<u8>], reply: &Reply) -> String {
    let is = |i: usize, word: &[u8]| args.get(i).is_some_and(|a| a.eq_ignore_ascii_case(word));
    let raw = is(0, b"info") || (is(0, b"cluster") && (is(1, b"nodes") || is(1, b"info")));
    match reply {
        Reply::Bulk(Some(bytes)) if raw => {
            let mut text = String::from_utf8_lossy(bytes).into_owned();
            if !text.ends_with('\n') {
                text.push('\n');
            }
            text
        }
        _ => reply.to_cli(),
    }
}

/// A redirection redis-cli followed in cluster mode (`-c`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Redirect {
    /// The slot named in the MOVED or ASK error.
    pub slot: u16,
    /// Where redis-cli went next.
    pub addr: String,
    /// Whether it was ASK (redis-cli sends ASKING first) rather than MOVED.
    pub ask: bool,
}

impl Redirect {
    /// Reads a `MOVED <slot> <addr>` or `ASK <slot> <addr>` error.
    pub fn parse(reply: &Reply) -> Option<Redirect> {
        let Reply::Error(e) = reply else {
            return None;
        };
        let (ask, rest) = if let Some(rest) = e.strip_prefix("MOVED ") {
            (false, rest)
        } else {
            (true, e.strip_prefix("ASK ")?)
        };
        let (slot, addr) = rest.split_once(' ')?;
        Some(Redirect {
            slot: slot.parse().ok()?,
            addr: addr.to_owned(),
            ask,
        })
    }
}

/// What redis-cli did with one command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CliOutput {
    /// The redirections it followed, in order (only with `-c`).
    pub redirects: Vec<Redirect>,
    /// The reply it printed, or `None` if it could not reach the node.
    pub reply: Option<Reply>,
    /// Exactly what it printed.
    pub text: String,
}

/// What redis-cli's interactive mode did with a typed line.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Typed {
    /// A blank line: nothing is sent.
    Blank,
    /// `quit` or `exit`: redis-cli ends.
    Quit,
    /// The line could not be split (redis-cli prints `Invalid argument(s)`).
    Invalid(ArgsError),
    /// The command was sent.
    Sent(CliOutput),
}

impl Typed {
    /// What redis-cli printed for the line.
    pub fn text(&self) -> String {
        match self {
            Typed::Blank | Typed::Quit => String::new(),
            Typed::Invalid(_) => "Invalid argument(s)\n".to_owned(),
            Typed::Sent(out) => out.text.clone(),
        }
    }
}

/// How many redirections redis-cli follows for one command before the page gives up
/// (the real one loops for ever).
const MAX_REDIRECTS: usize = 16;

/// redis-cli connected to one node of a [`Cluster`]: `-c` or not, interactive or one-shot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cli {
    addr: String,
    cluster_mode: bool,
    interactive: bool,
    in_multi: bool,
    session: Session,
}

impl Cli {
    /// `redis-cli [-c] -h host -p port`, connected to `addr` (`127.0.0.1:7000`).
    pub fn new(addr: impl Into<String>, cluster_mode: bool, interactive: bool) -> Cli {
        Cli {
            addr: addr.into(),
            cluster_mode,
            interactive,
            in_multi: false,
            session: Session::new(),
        }
    }

    /// The node it is connected to (it changes when `-c` follows a redirection).
    pub fn addr(&self) -> &str {
        &self.addr
    }

    /// The connection's state on the server side.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The interactive prompt, as redis-cli shows it: `127.0.0.1:7000> `, or
    /// `127.0.0.1:7000(TX)> ` inside MULTI.
    pub fn prompt(&self) -> String {
        let tx = if self.in_multi { "(TX)" } else { "" };
        format!("{}{tx}> ", self.addr)
    }

    /// Sends one command and follows MOVED/ASK with `-c` (printing `-> Redirected to slot [N]
    /// located at ADDR` in interactive mode only, as redis-cli does).
    pub fn send(&mut self, cluster: &mut Cluster, args: &[Vec<u8>]) -> CliOutput {
        let mut redirects: Vec<Redirect> = Vec::new();
        let mut text = String::new();
        let mut send_asking = false;
        loop {
            if !cluster.has_node(&self.addr) {
                text.push_str(&format!(
                    "Could not connect to Redis at {}: Connection refused\n",
                    self.addr
                ));
                return CliOutput {
                    redirects,
                    reply: None,
                    text,
                };
            }
            if send_asking {
                cluster.exec(&self.addr, &[b"ASKING".to_vec()], &mut self.session);
            }
            let reply = cluster.exec(&self.addr, args, &mut self.session);
            if self.cluster_mode && redirects.len() < MAX_REDIRECTS {
                if let Some(redirect) = Redirect::parse(&reply) {
                    if self.interactive {
                        text.push_str(&format!(
                            "-> Redirected to slot [{}] located at {}\n",
                            redirect.slot, redirect.addr
                        ));
                    }
                    // A new connection: the old one's MULTI and flags are gone.
                    self.addr = redirect.addr.clone();
                    self.session = Session::new();
                    self.in_multi = false;
                    send_asking = redirect.ask;
                    redirects.push(redirect);
                    continue;
                }
            }
            let name = |word: &[u8]| {
                args.len() == 1 && args.first().is_some_and(|a| a.eq_ignore_ascii_case(word))
            };
            if name(b"multi") && !reply.is_error() {
                self.in_multi = true;
            } else if (name(b"exec") && self.in_multi) || (name(b"discard") && !reply.is_error()) {
                self.in_multi = false;
            }
            text.push_str(&cli_text(args, &reply));
            return CliOutput {
                redirects,
                reply: Some(reply),
                text,
            };
        }
    }

    /// A line typed at the interactive prompt: split as redis-cli splits it, then sent.
    pub fn type_line(&mut self, cluster: &mut Cluster, line: &str) -> Typed {
        let args = match command::split_args(line) {
            Ok(args) => args,
            Err(e) => return Typed::Invalid(e),
        };
        match args.first() {
            None => Typed::Blank,
            Some(first)
                if first.eq_ignore_ascii_case(b"quit") || first.eq_ignore_ascii_case(b"exit") =>
            {
                Typed::Quit
            }
            Some(_) => Typed::Sent(self.send(cluster, &args)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha1_vectors() {
        assert_eq!(sha1_hex(b""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
        assert_eq!(sha1_hex(b"abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
        assert_eq!(
            sha1_hex(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1"
        );
        assert_eq!(
            sha1_hex(&vec![b'a'; 1_000_000]),
            "34aa973cd4c4daa4f61eeb2bdbad27316534016f"
        );
    }

    #[test]
    fn nested_arrays_indent_like_redis_cli() {
        let r = Reply::Array(vec![
            Reply::Array(vec![Reply::Int(0), Reply::Array(vec![])]),
            Reply::Bulk(Some(b"x".to_vec())),
        ]);
        assert_eq!(
            r.to_cli(),
            "1) 1) (integer) 0\n   2) (empty array)\n2) \"x\"\n"
        );
        let ten = Reply::Array((1..=10).map(Reply::Int).collect());
        assert!(ten.to_cli().starts_with(" 1) (integer) 1\n"));
        assert!(ten.to_cli().ends_with("10) (integer) 10\n"));
    }

    #[test]
    fn script_subset_parses() {
        let e = parse_script(b"return {redis.call('GET', KEYS[1]), redis.call(\"GET\", 'bar')}")
            .unwrap();
        assert!(matches!(e, Expr::Table(ref items) if items.len() == 2));
        assert!(parse_script(b"local x = 1 return x").is_err());
        assert!(parse_script(b"return redis.call('GET', 'a') .. 'b'").is_err());
        let err = parse_script(b"return {\n  KEYS[1],\n  nope}").unwrap_err();
        assert!(err.starts_with("line 3, column 3:"), "{err}");
        let deep = format!("return {}{}", "{".repeat(1000), "}".repeat(1000));
        assert!(parse_script(deep.as_bytes()).is_err());
    }
}
