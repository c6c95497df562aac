//! Cluster clients as deterministic step machines: what six real libraries (ioredis,
//! go-redis, Lettuce, Jedis, redis-py, redis-rs, as their source at a named tag behaves:
//! [`library`]), `redis-cli -c` and a MOVED-only teaching client send and receive while slots
//! move, as arrows of a sequence diagram.
//!
//! [`run`] sends one command through a [`Client`] to a [`Cluster`] and returns every arrow it
//! caused, in order: requests, replies, `ASKING`, a one-entry rewrite or a whole-map refresh
//! (`CLUSTER SLOTS` / `CLUSTER NODES` sent to a node) of the client's slot table, back-offs
//! after `TRYAGAIN` (a step with the library's delay as numbers, not a clock), a multi-key
//! command split by slot or refused, and giving up. [`scenarios`] builds the page's
//! ready-made stories (a stale route, a live migration, TRYAGAIN, CROSSSLOT, the end of a
//! migration, a MOVED-only client bouncing, an uncovered slot, clients whose slot rule
//! disagrees with Redis's, a client during a failover: `failover.rs`, timed by the bus
//! simulator) from operator actions and client commands, run on the fixtures' cluster with the
//! recorded node ids. Nothing here reads a clock or draws a random number:
//! the same input gives the same events.

mod events;
mod failover;
pub mod library;
mod run;
mod scenarios;
pub mod steps;

pub use events::*;
pub use failover::{
    failover_scenario, FailoverMoment, FAILOVER_ID, FAILOVER_NODE_TIMEOUT_MS, FAILOVER_TITLE,
};
pub use library::{ClientLibrary, LIBRARIES};
pub use run::*;
pub use scenarios::*;

use crate::core::cluster::topology::{SlotMap, SlotRange};
use crate::core::key::args::split_args;
use crate::core::key::client_rules::ClientRule;
use crate::core::key::escape::{push_formatted, EscapeError};
use crate::core::key::slot::N_SLOTS;
use crate::core::server::cli::Redirect;
use crate::core::server::reply::{cli_text, ErrorReply, NotRun, Reply};
use crate::core::server::route::Session;
use crate::core::server::Cluster;
use std::collections::BTreeMap;

/// How a client reacts to MOVED, ASK and TRYAGAIN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Policy {
    /// A real library, as its source at a named tag behaves ([`ClientLibrary::behaviour`]):
    /// whether MOVED rewrites one entry or refreshes the whole map, whether ASK refreshes too,
    /// what TRYAGAIN does, its redirect budget and how it treats keys across slots.
    Library(ClientLibrary),
    /// `redis-cli -c`: no slot table, one connection; on MOVED or ASK it prints
    /// `-> Redirected to slot [N] located at ADDR`, reconnects there (sending `ASKING` first
    /// after an ASK) and stays connected to that node. TRYAGAIN is printed as an error.
    RedisCliC,
    /// A teaching client that only understands MOVED: it treats ASK as MOVED (rewriting one
    /// entry, never sending `ASKING`), so during a migration it bounces between source and
    /// target until its redirect budget runs out. TRYAGAIN goes to the application.
    MovedOnly,
}

/// The MOVED-only teaching client's redirect budget (go-redis's default `MaxRedirects`).
pub const MOVED_ONLY_BUDGET: u32 = 3;

const NO_ENTRY: u16 = u16::MAX;

/// A cluster client: its policy, its budgets, its slot table and one connection per node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Client {
    policy: Policy,
    /// How it computes a key's slot.
    rule: ClientRule,
    max_redirects: u32,
    /// MOVED replies seen over the client's life (redis-py refreshes every fifth).
    moved_seen: u32,
    /// Node addresses the table refers to, in the order first seen.
    addrs: Vec<String>,
    /// One entry per slot: an index into `addrs`, or `NO_ENTRY`.
    table: Box<[u16]>,
    /// Where redis-cli is connected (and where a keyless command goes).
    connected: String,
    /// Server-side state of each connection, by node address.
    sessions: BTreeMap<String, Session>,
}

impl Client {
    /// A client whose slot table is `map` as `CLUSTER SLOTS` reports it (each slot's owner),
    /// connected first to the first master (or `127.0.0.1:7000` for a map without masters).
    pub fn new(policy: Policy, max_redirects: u32, map: &SlotMap) -> Client {
        let addrs: Vec<String> = map.masters().iter().map(|m| m.addr.clone()).collect();
        // Filled run by run: a map has a few runs, and this runs for every client made.
        let mut table: Box<[u16]> = vec![NO_ENTRY; N_SLOTS].into_boxed_slice();
        for run in map.runs() {
            let owner = run.owner.and_then(|m| u16::try_from(m).ok());
            let range = usize::from(run.range.first)..=usize::from(run.range.last);
            if let (Some(m), Some(cells)) = (owner, table.get_mut(range)) {
                cells.fill(m);
            }
        }
        let connected = addrs
            .first()
            .cloned()
            .unwrap_or_else(|| "127.0.0.1:7000".to_owned());
        Client {
            policy,
            rule: ClientRule::Redis,
            max_redirects,
            moved_seen: 0,
            addrs,
            table,
            connected,
            sessions: BTreeMap::new(),
        }
    }

    /// A client built from the cluster's current slot map.
    pub fn of_cluster(policy: Policy, max_redirects: u32, cluster: &Cluster) -> Client {
        Client::new(policy, max_redirects, cluster.map())
    }

    /// The same client, first connected to `addr` (what `redis-cli -c -p PORT` is given).
    pub fn connected_to(mut self, addr: impl Into<String>) -> Client {
        self.connected = addr.into();
        self
    }

    /// A client of `library` with its default budget, its table read from `map`.
    pub fn library(library: ClientLibrary, map: &SlotMap) -> Client {
        Client::new(
            Policy::Library(library),
            library.behaviour().max_redirects,
            map,
        )
    }

    /// The same client, computing slots with `rule` (Redis's by default).
    pub fn with_rule(mut self, rule: ClientRule) -> Client {
        self.rule = rule;
        self
    }

    /// The policy.
    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// How it computes a key's slot.
    pub fn rule(&self) -> ClientRule {
        self.rule
    }

    /// How many MOVED/ASK redirections one command may follow.
    pub fn max_redirects(&self) -> u32 {
        self.max_redirects
    }

    /// The library it behaves as, if it is one.
    pub fn library_of(&self) -> Option<ClientLibrary> {
        match self.policy {
            Policy::Library(l) => Some(l),
            Policy::RedisCliC | Policy::MovedOnly => None,
        }
    }

    /// Every slot's entry read again from `map`, as a full refresh (`CLUSTER SLOTS`) does:
    /// each slot points at its owner, and an uncovered slot has no entry.
    pub fn replace_table(&mut self, map: &SlotMap) {
        let mut fresh = Client::new(self.policy, self.max_redirects, map);
        // Keep the addresses known so far (and their indices); add the new ones.
        for cell in fresh.table.iter_mut() {
            let Some(addr) = fresh.addrs.get(usize::from(*cell)) else {
                *cell = NO_ENTRY;
                continue;
            };
            let i = match self.addrs.iter().position(|a| a == addr) {
                Some(i) => i,
                None if self.addrs.len() < usize::from(NO_ENTRY) => {
                    self.addrs.push(addr.clone());
                    self.addrs.len() - 1
                }
                None => {
                    *cell = NO_ENTRY;
                    continue;
                }
            };
            *cell = u16::try_from(i).unwrap_or(NO_ENTRY);
        }
        fresh.addrs = Vec::new();
        self.table = fresh.table;
    }

    /// The nodes it knows, in the order first seen (a refresh from every node asks these).
    pub fn known_nodes(&self) -> &[String] {
        &self.addrs
    }

    /// Where redis-cli is connected now (it moves with every redirection it follows).
    pub fn connected(&self) -> &str {
        &self.connected
    }

    /// The address the slot table gives for `slot`.
    pub fn route(&self, slot: u16) -> Option<&str> {
        let i = *self.table.get(usize::from(slot))?;
        self.addrs.get(usize::from(i)).map(String::as_str)
    }

    /// Sets the table entry of `slot` (to show a stale route, or as MOVED does).
    pub fn set_route(&mut self, slot: u16, addr: &str) {
        let i = match self.addrs.iter().position(|a| a == addr) {
            Some(i) => i,
            None => {
                if self.addrs.len() >= usize::from(NO_ENTRY) {
                    return;
                }
                self.addrs.push(addr.to_owned());
                self.addrs.len() - 1
            }
        };
        if let (Some(cell), Ok(i)) = (self.table.get_mut(usize::from(slot)), u16::try_from(i)) {
            *cell = i;
        }
    }

    /// The slot table as runs of slots with the same entry, in slot order (what the page lists
    /// beside the diagram). Slots without an entry are left out.
    pub fn table(&self) -> Vec<(SlotRange, String)> {
        let mut out: Vec<(SlotRange, String)> = Vec::new();
        let mut start = 0usize;
        while let Some(&who) = self.table.get(start) {
            let rest = self.table.get(start..).unwrap_or_default();
            let end = start + rest.iter().position(|&m| m != who).unwrap_or(rest.len()) - 1;
            if let (Some(addr), Ok(first), Ok(last)) = (
                self.addrs.get(usize::from(who)),
                u16::try_from(start),
                u16::try_from(end),
            ) {
                out.push((SlotRange::new(first, last), addr.clone()));
            }
            start = end + 1;
        }
        out
    }

    fn session(&mut self, addr: &str) -> &mut Session {
        self.sessions.entry(addr.to_owned()).or_default()
    }
}
