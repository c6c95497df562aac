//! The server: a deterministic Redis Cluster that answers commands the way Redis 7.0 does, and
//! a redis-cli that talks to it and prints what the real one prints.
//!
//! [`Cluster`] holds one typed key space per node (masters and their replicas; a write on a
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
//!
//! Its parts: [`reply`] (replies and their errors as data), [`command`] and `table` (the
//! command table), [`route`] (sessions and `getNodeByQuery`), [`data`] (a node's typed key
//! space and the data commands), `cluster_cmds` (SETSLOT, MIGRATE, NODES, SLOTS), `script`
//! (the Lua subset), [`sha1`] and [`cli`] (redis-cli). This module holds the cluster's key
//! spaces, `processCommand` and WATCH.

mod admin;
pub mod cli;
mod cluster_cmds;
pub mod command;
mod config_table;
pub mod data;
mod flag_names;
mod follow;
mod help_table;
mod introspect;
mod keys;
pub mod reply;
pub mod route;
mod script;
pub mod sha1;
mod table;

use crate::core::cluster::topology::SlotMap;
use crate::core::key::slot::key_slot;
use command::{engine_lookup, flag, parse_i64, CommandError, CommandId, CommandInfo};
use data::{Db, Entry, Value};
use std::collections::{BTreeMap, BTreeSet};

pub use cli::{Cli, CliOutput, Redirect, Typed};
pub use follow::{NodeProcess, NodeView};
pub use reply::{cli_text, ErrorReply, NotRun, Reply};
pub use route::{Route, Session};
pub use sha1::sha1_hex;

#[derive(Clone, Debug, PartialEq)]
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

/// Where the simulated clock starts: 2026-01-01T00:00:00Z, in unix milliseconds.
pub const CLOCK_START_MS: i64 = 1_767_225_600_000;

/// A deterministic cluster: the slot map plus one key space per node, and a simulated clock.
#[derive(Clone, Debug, PartialEq)]
pub struct Cluster {
    map: SlotMap,
    nodes: Vec<Node>,
    /// The simulated clock, unix milliseconds: expiry is measured against it.
    now: i64,
    /// Set while EXEC or a script runs commands: blocking commands then answer at once.
    deny_blocking: bool,
    /// While following a cluster bus (`follow.rs`): each node's own view, by address.
    views: BTreeMap<String, NodeView>,
    /// Nodes killed while following a bus: their keys are gone until a full sync, which the
    /// page does not model (writes from their master still reach them).
    lost_keys: std::collections::BTreeSet<String>,
}

/// The nodes of `map` (masters, then each one's replicas), reusing `old` ones by address.
fn nodes_of(map: &SlotMap, old: Vec<Node>) -> Vec<Node> {
    let mut old: BTreeMap<String, Node> = old.into_iter().map(|n| (n.addr.clone(), n)).collect();
    let mut nodes: Vec<Node> = Vec::new();
    // Addresses already placed, so a cluster of 1000 masters is not 500,000 comparisons
    // (issue 17: the page builds one for its free mode whenever the cluster changes).
    let mut placed: BTreeSet<&str> = BTreeSet::new();
    for master in map.masters() {
        let addrs = std::iter::once(&master.addr).chain(master.replicas.iter().map(|r| &r.addr));
        for addr in addrs {
            if placed.insert(addr.as_str()) {
                nodes.push(old.remove(addr).unwrap_or_else(|| Node::new(addr)));
            }
        }
    }
    nodes
}

impl Cluster {
    /// An empty cluster (every key space empty) with the masters and replicas of `map`.
    pub fn new(map: SlotMap) -> Cluster {
        let nodes = nodes_of(&map, Vec::new());
        Cluster {
            map,
            nodes,
            now: CLOCK_START_MS,
            deny_blocking: false,
            views: BTreeMap::new(),
            lost_keys: Default::default(),
        }
    }

    /// The simulated clock, in unix milliseconds.
    pub fn clock(&self) -> i64 {
        self.now
    }

    /// Sets the simulated clock (unix milliseconds); keys whose expiry has passed disappear.
    pub fn set_clock(&mut self, ms: i64) {
        self.now = ms;
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
        match node.db.value(key, self.now)? {
            Value::Str(v) => Some(v),
            _ => None,
        }
    }

    /// The live keys of the node at `addr`, in byte order, at most `max` of them (for views
    /// that draw what each node holds).
    pub fn keys_of(&self, addr: &str, max: usize) -> Vec<Vec<u8>> {
        let Some(node) = self.node_index(addr).and_then(|i| self.nodes.get(i)) else {
            return Vec::new();
        };
        let mut keys: Vec<Vec<u8>> = node
            .db
            .iter()
            .filter(|(_, e)| !e.is_expired(self.now))
            .map(|(k, _)| k.clone())
            .collect();
        crate::core::sort::sort(&mut keys);
        keys.truncate(max);
        keys
    }

    /// How many keys the node at `addr` holds (its `DBSIZE`).
    pub fn dbsize(&self, addr: &str) -> Option<usize> {
        let node = self.nodes.get(self.node_index(addr)?)?;
        Some(node.db.len(self.now))
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

    /// Whether the node believes it is a replica (its own view, while following a bus).
    fn is_replica(&self, node: usize) -> bool {
        matches!(self.role_in_view(node), Some(Role::Replica(_)))
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

    /// The node itself and, for a master, its replicas: where a write lands.
    fn write_targets(&self, node: usize) -> Vec<usize> {
        let mut out = vec![node];
        if let Some(Role::Master(m)) = self.role(node)
            && let Some(master) = self.map.masters().get(m)
        {
            out.extend(
                master
                    .replicas
                    .iter()
                    .filter_map(|r| self.node_index(&r.addr)),
            );
        }
        out
    }

    /// The live entry (any type) at `key` on `node`.
    fn live_entry(&self, node: usize, key: &[u8]) -> Option<&Entry> {
        self.db(node)?.entry(key, self.now)
    }

    /// Puts a whole entry (value and expiry) at `key` on `node` and its replicas.
    fn put_entry(&mut self, node: usize, key: &[u8], entry: Entry) {
        for n in self.write_targets(node) {
            if let Some(target) = self.nodes.get_mut(n) {
                target.db.put_entry(key, entry.clone());
                target.db.take_touched();
            }
        }
    }

    fn del(&mut self, node: usize, key: &[u8]) -> bool {
        let mut removed = false;
        for n in self.write_targets(node) {
            if let Some(target) = self.nodes.get_mut(n) {
                removed |= target.db.remove(key, self.now).is_some() && n == node;
            }
        }
        removed
    }

    fn flush(&mut self, node: usize) {
        for n in self.write_targets(node) {
            if let Some(target) = self.nodes.get_mut(n) {
                target.db.clear();
            }
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
    /// Commands run: the data commands of the node's typed key space ([`data::Db::exec`]:
    /// strings, keyspace, expiry on the simulated clock, hashes, lists, bitmaps, …), WATCH
    /// UNWATCH, PING ECHO QUIT MULTI EXEC DISCARD ASKING READONLY READWRITE DBSIZE FLUSHALL
    /// FLUSHDB, CLUSTER KEYSLOT SLOTS MYID NODES COUNTKEYSINSLOT GETKEYSINSLOT SETSLOT, MIGRATE,
    /// EVAL and EVALSHA. Other commands of the table are routed exactly, then answered with the
    /// page's [`NotRun`] note.
    ///
    /// EVAL runs scripts of the form `return <expr>`, where `<expr>` is `redis.call('CMD', arg,
    /// …)`, a table `{<expr>, …}`, `KEYS[n]`, `ARGV[n]`, `KEYS`, `ARGV`, a string literal or an
    /// integer; arguments of `redis.call` are any such expressions. Anything else gets a
    /// [`NotRun::Script`] note. As in Redis, only the declared KEYS
    /// are routed; a `redis.call` on a key this node does not serve fails with
    /// `ERR Script attempted to access a non local key in a cluster node script: <sha1>, on
    /// @user_script:1.`
    pub fn exec(&mut self, node_addr: &str, args: &[Vec<u8>], session: &mut Session) -> Reply {
        let Some(node) = self.node_index(node_addr) else {
            return NotRun::NoSuchNode {
                addr: node_addr.to_owned(),
            }
            .into();
        };
        if let Some(note) = self.down_note(node) {
            return note.into();
        }
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
        use CommandId as C;
        let info = match engine_lookup(args) {
            Ok(info) => info,
            Err(e) => {
                session.flag();
                return ErrorReply::Command(e).into();
            }
        };
        // Protected commands: `enable-debug-command` and `enable-module-command` are `no` by
        // default, so DEBUG and MODULE are refused before anything else.
        if matches!(
            info.id,
            C::Debug | C::ModuleLoad | C::ModuleLoadex | C::ModuleUnload
        ) {
            session.flag();
            return ErrorReply::Command(CommandError::Protected {
                module: info.id != C::Debug,
            })
            .into();
        }
        if session.in_multi() && info.is(flag::NO_MULTI) {
            session.flag();
            return ErrorReply::Command(CommandError::NotInMulti).into();
        }
        let exec = info.id == C::Exec;
        if info.is_routed() {
            let route = self.route_command(node, info, args, session);
            if let Some(err) = route.error() {
                if exec {
                    session.discard();
                } else {
                    session.flag();
                }
                return err.into();
            }
        }
        let write = info.write
            || (exec
                && session
                    .queued()
                    .iter()
                    .any(|q| engine_lookup(q).is_ok_and(|i| i.write)));
        if write && self.is_replica(node) {
            session.flag();
            return ErrorReply::ReadonlyReplica.into();
        }
        if session.in_multi()
            && !matches!(
                info.id,
                C::Exec | C::Discard | C::Multi | C::Watch | C::Quit | C::Reset
            )
        {
            // Redis's queueMultiCommand: once the transaction is aborted (a refused command:
            // CLIENT_DIRTY_EXEC) or a watched key was touched (CLIENT_DIRTY_CAS), commands are
            // answered QUEUED but no longer kept, so EXEC's routing never sees them.
            let keep = !session.dirty && !self.watched_changed(session);
            if keep && let Some(queue) = session.multi.as_mut() {
                queue.push(args.to_vec());
            }
            return Reply::Status("QUEUED".to_owned());
        }
        self.call(node, info, args, session)
    }

    /// Runs a command that has passed every check (Redis's `call`): the server, cluster,
    /// connection, transaction, pub/sub and scripting commands here, every data command in
    /// [`Cluster::data_command`].
    fn call(
        &mut self,
        node: usize,
        info: &'static CommandInfo,
        args: &[Vec<u8>],
        session: &mut Session,
    ) -> Reply {
        use CommandId as C;
        let arg = |i: usize| args.get(i).map(Vec::as_slice).unwrap_or(&[]);
        let err = |e: ErrorReply| Reply::Error(e);
        match info.name {
            "watch" => return self.watch(node, args, session),
            "unwatch" => {
                session.watched.clear();
                return Reply::Ok;
            }
            _ => {}
        }
        match info.id {
            C::Multi => {
                if session.in_multi() {
                    return err(ErrorReply::NestedMulti);
                }
                session.multi = Some(Vec::new());
                session.dirty = false;
                Reply::Ok
            }
            C::Exec => {
                let Some(queue) = session.multi.take() else {
                    return err(ErrorReply::ExecWithoutMulti);
                };
                if std::mem::take(&mut session.dirty) {
                    session.watched.clear();
                    return err(ErrorReply::ExecAbort);
                }
                if self.watched_changed(session) {
                    session.watched.clear();
                    return Reply::NilArray;
                }
                session.watched.clear();
                // Inside a transaction a blocking command never blocks (CLIENT_DENY_BLOCKING).
                self.deny_blocking = true;
                let replies = queue
                    .iter()
                    .map(|q| match engine_lookup(q) {
                        Ok(i) => self.call(node, i, q, session),
                        Err(e) => err(ErrorReply::Command(e)),
                    })
                    .collect();
                self.deny_blocking = false;
                Reply::Array(replies)
            }
            C::Discard => {
                if !session.in_multi() {
                    return err(ErrorReply::DiscardWithoutMulti);
                }
                session.discard();
                Reply::Ok
            }
            C::Asking => {
                session.asking = true;
                Reply::Ok
            }
            C::Readonly => {
                session.readonly = true;
                Reply::Ok
            }
            C::Readwrite => {
                session.readonly = false;
                Reply::Ok
            }
            C::Quit => Reply::Ok,
            C::Reset => {
                *session = Session::default();
                Reply::Status("RESET".to_owned())
            }
            C::Ping => match args.len() {
                1 => Reply::Status("PONG".to_owned()),
                2 => Reply::Bulk(Some(arg(1).to_vec())),
                _ => err(ErrorReply::Command(CommandError::WrongArity {
                    command: info.name,
                })),
            },
            C::Echo => Reply::Bulk(Some(arg(1).to_vec())),
            C::Dbsize => Reply::Int(self.db(node).map_or(0, |db| db.len(self.now)) as i64),
            C::Flushall | C::Flushdb => {
                let ok = args.len() == 1
                    || (args.len() == 2
                        && (arg(1).eq_ignore_ascii_case(b"sync")
                            || arg(1).eq_ignore_ascii_case(b"async")));
                if !ok {
                    return err(ErrorReply::Syntax);
                }
                self.flush(node);
                Reply::Ok
            }
            C::ClusterKeyslot => Reply::Int(i64::from(key_slot(arg(2)))),
            C::ClusterMyid => Reply::Bulk(self.node_id(node).map(|id| id.as_bytes().to_vec())),
            C::ClusterSlots => self.cluster_slots(),
            C::ClusterCountkeysinslot => self.count_keys_in_slot(node, arg(2)),
            C::ClusterGetkeysinslot => self.get_keys_in_slot(node, arg(2), arg(3)),
            C::ClusterSetslot => self.setslot(node, args),
            C::ClusterNodes => Reply::Bulk(Some(self.cluster_nodes(node).into_bytes())),
            C::Migrate => self.migrate(node, args),
            C::Eval | C::EvalRo | C::Evalsha | C::EvalshaRo => {
                // A blocking command never blocks inside a script either.
                self.deny_blocking = true;
                let sha = matches!(info.id, C::Evalsha | C::EvalshaRo);
                let read_only = matches!(info.id, C::EvalRo | C::EvalshaRo);
                let reply = self.eval(node, args, session, sha, read_only);
                self.deny_blocking = false;
                reply
            }
            _ => match self.admin_command(node, info, args, session) {
                Some(reply) => reply,
                None => self.data_command(node, info, args),
            },
        }
    }
}

impl Cluster {
    /// WATCH key …: remembers each key's write count on this node (and whether it had already
    /// expired); refused inside MULTI.
    fn watch(&mut self, node: usize, args: &[Vec<u8>], session: &mut Session) -> Reply {
        if session.in_multi() {
            return ErrorReply::Data(data::DataError::WatchInMulti).into();
        }
        let now = self.now;
        let Some(n) = self.nodes.get(node) else {
            return Reply::Ok;
        };
        for key in args.iter().skip(1) {
            if session
                .watched
                .iter()
                .any(|w| w.addr == n.addr && &w.key == key)
            {
                continue;
            }
            session.watched.push(route::Watched {
                addr: n.addr.clone(),
                key: key.clone(),
                version: n.db.version(key),
                expired: n.db.is_expired_here(key, now),
            });
        }
        Reply::Ok
    }

    /// Whether a key the session watches was written, or expired, since WATCH (EXEC then
    /// answers the nil array).
    fn watched_changed(&self, session: &Session) -> bool {
        session.watched.iter().any(|w| {
            let Some(n) = self.nodes.iter().find(|n| n.addr == w.addr) else {
                return true;
            };
            let version = n.db.version(&w.key);
            let expired_now = n.db.is_expired_here(&w.key, self.now);
            if w.expired {
                // Deleting a key that had already expired is no change (Redis's touchWatchedKey).
                version > w.version + 1
                    || (version == w.version + 1 && n.db.raw_entry(&w.key).is_some())
            } else {
                version != w.version || expired_now
            }
        })
    }

    /// Runs a data command on `node`'s key space ([`Db::exec`]) and copies every key it wrote
    /// to the node's replicas, as replication would; a command no module runs gets the page's
    /// note.
    fn data_command(&mut self, node: usize, info: &'static CommandInfo, args: &[Vec<u8>]) -> Reply {
        let now = self.now;
        let Some(n) = self.nodes.get_mut(node) else {
            return NotRun::OnlyStrings {
                name: info.name.to_owned(),
            }
            .into();
        };
        n.db.deny_blocking = self.deny_blocking;
        let reply = n.db.exec(now, info.name, args);
        n.db.deny_blocking = false;
        let Some(reply) = reply else {
            return NotRun::OnlyStrings {
                name: info.name.to_owned(),
            }
            .into();
        };
        let touched = n.db.take_touched();
        if !touched.is_empty() {
            type Copied = (Vec<u8>, Option<Entry>, Option<&'static str>);
            let entries: Vec<Copied> = touched
                .into_iter()
                .map(|k| {
                    let e = n.db.raw_entry(&k).cloned();
                    let enc = n.db.str_encoding_override(&k);
                    (k, e, enc)
                })
                .collect();
            for r in self.write_targets(node).into_iter().filter(|&r| r != node) {
                if let Some(replica) = self.nodes.get_mut(r) {
                    for (k, e, enc) in &entries {
                        replica.db.mirror(k, e.clone());
                        replica.db.mirror_str_encoding(k, *enc);
                    }
                    replica.db.take_touched();
                }
            }
        }
        reply
    }
}
