//! The server: a deterministic Redis Cluster that answers commands the way Redis 7.0 does, and
//! a redis-cli that talks to it and prints what the real one prints.
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
//!
//! Its parts: [`reply`] (replies and their errors as data), [`command`] and `table` (the
//! command table), [`route`] (sessions and `getNodeByQuery`), `strings` (string commands),
//! `cluster_cmds` (SETSLOT, MIGRATE, NODES, SLOTS), `script` (the Lua subset), [`sha1`] and
//! [`cli`] (redis-cli). This module holds the cluster's key spaces and `processCommand`.

pub mod cli;
mod cluster_cmds;
pub mod command;
pub mod reply;
pub mod route;
mod script;
pub mod sha1;
mod strings;
mod table;

use crate::core::cluster::topology::SlotMap;
use crate::core::key::slot::key_slot;
use command::{engine_lookup, parse_i64, CommandId, CommandInfo, KeyRule};
use std::collections::BTreeMap;

pub use cli::{Cli, CliOutput, Redirect, Typed};
pub use reply::{cli_text, ErrorReply, NotRun, Reply};
pub use route::{Route, Session};
pub use sha1::sha1_hex;

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
    /// NODES COUNTKEYSINSLOT GETKEYSINSLOT SETSLOT, MIGRATE, EVAL and EVALSHA. Other commands of
    /// the table are routed exactly, then answered with the page's [`NotRun`] note.
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
        let info = match engine_lookup(args) {
            Ok(info) => info,
            Err(e) => {
                session.flag();
                return ErrorReply::Command(e).into();
            }
        };
        let exec = info.id == CommandId::Exec;
        if !matches!(info.keys, KeyRule::None) || exec {
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
        if let Some(queue) = session.multi.as_mut() {
            use CommandId::{Discard, Exec, Multi, Quit};
            if !matches!(info.id, Exec | Discard | Multi | Quit) {
                // Redis's queueMultiCommand: once the transaction is aborted, commands are
                // answered QUEUED but no longer kept, so EXEC's routing never sees them.
                if !session.dirty {
                    queue.push(args.to_vec());
                }
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
        use CommandId as C;
        let arg = |i: usize| args.get(i).map(Vec::as_slice).unwrap_or(&[]);
        let err = |e: ErrorReply| Reply::Error(e);
        let bulk = |v: Option<&[u8]>| Reply::Bulk(v.map(<[u8]>::to_vec));
        let key = arg(1);
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
                    return err(ErrorReply::ExecAbort);
                }
                let replies = queue
                    .iter()
                    .map(|q| match engine_lookup(q) {
                        Ok(i) => self.call(node, i, q, session),
                        Err(e) => err(ErrorReply::Command(e)),
                    })
                    .collect();
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
            C::Ping => match args.len() {
                1 => Reply::Status("PONG".to_owned()),
                2 => Reply::Bulk(Some(arg(1).to_vec())),
                _ => err(ErrorReply::Command(command::CommandError::WrongArity {
                    command: info.name,
                })),
            },
            C::Echo => Reply::Bulk(Some(arg(1).to_vec())),
            C::Dbsize => Reply::Int(self.db(node).map_or(0, |db| db.keys.len()) as i64),
            C::FlushAll | C::FlushDb => {
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
            C::ClusterCountKeysInSlot => self.count_keys_in_slot(node, arg(2)),
            C::ClusterGetKeysInSlot => self.get_keys_in_slot(node, arg(2), arg(3)),
            C::Eval => self.eval(node, args, session, false),
            C::EvalSha => self.eval(node, args, session, true),
            C::Fcall => err(ErrorReply::FunctionNotFound),
            C::ClusterSetslot => self.setslot(node, args),
            C::ClusterNodes => Reply::Bulk(Some(self.cluster_nodes(node).into_bytes())),
            C::Migrate => self.migrate(node, args),
            C::Info | C::ClusterInfo | C::ClusterShards => NotRun::Unsimulated {
                name: info.name.to_owned(),
            }
            .into(),
            C::Expire => NotRun::NoClock {
                name: info.name.to_owned(),
            }
            .into(),
            C::Get => bulk(self.get(node, key)),
            C::Set => self.set_command(node, args),
            C::GetSet => {
                let old = bulk(self.get(node, key));
                self.set(node, key, arg(2).to_vec());
                old
            }
            C::Incr => self.incr_by(node, key, Ok(1)),
            C::Decr => self.incr_by(node, key, Ok(-1)),
            C::IncrBy => self.incr_by(node, key, parse_i64(arg(2)).ok_or(ErrorReply::NotInteger)),
            C::DecrBy => {
                let by = match parse_i64(arg(2)) {
                    None => Err(ErrorReply::NotInteger),
                    Some(i64::MIN) => Err(ErrorReply::DecrementOverflow),
                    Some(n) => Ok(-n),
                };
                self.incr_by(node, key, by)
            }
            C::Append => self.append(node, key, arg(2)),
            C::Strlen => Reply::Int(self.get(node, key).map_or(0, <[u8]>::len) as i64),
            C::Mget => Reply::Array(
                args.iter()
                    .skip(1)
                    .map(|k| bulk(self.get(node, k)))
                    .collect(),
            ),
            C::Mset => self.mset(node, info, args, false),
            C::MsetNx => self.mset(node, info, args, true),
            C::Del | C::Unlink => {
                let mut n = 0;
                for k in args.iter().skip(1) {
                    if self.del(node, k) {
                        n += 1;
                    }
                }
                Reply::Int(n)
            }
            C::Exists | C::Touch => Reply::Int(
                args.iter()
                    .skip(1)
                    .filter(|k| self.get(node, k).is_some())
                    .count() as i64,
            ),
            C::Ttl => Reply::Int(if self.get(node, key).is_some() {
                -1
            } else {
                -2
            }),
            C::Type => Reply::Status(
                if self.get(node, key).is_some() {
                    "string"
                } else {
                    "none"
                }
                .to_owned(),
            ),
            C::Rename => self.rename(node, key, arg(2), false),
            C::RenameNx => self.rename(node, key, arg(2), true),
            // The container itself never reaches here: a lookup returns its subcommand, or
            // refuses it for arity.
            C::Cluster | C::Routed => NotRun::OnlyStrings {
                name: info.name.to_owned(),
            }
            .into(),
        }
    }
}
