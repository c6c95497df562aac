//! Cluster clients as deterministic step machines: what a smart client, `redis-cli -c` and a
//! MOVED-only client send and receive while slots move, as arrows of a sequence diagram.
//!
//! [`run`] sends one command through a [`Client`] to a [`Cluster`] and returns every arrow it
//! caused, in order: requests, replies, `ASKING`, changes to the client's slot table, back-offs
//! after `TRYAGAIN` (a step, not a clock) and giving up. [`scenarios`] builds the page's
//! ready-made stories (a stale route, a live migration, TRYAGAIN, CROSSSLOT, the end of a
//! migration, a MOVED-only client bouncing, an uncovered slot, clients whose slot rule
//! disagrees with Redis's) from operator actions and client commands, run on the fixtures'
//! cluster with the recorded node ids. Nothing here reads a clock or draws a random number:
//! the same input gives the same events.

mod events;
mod run;
mod scenarios;
pub mod steps;

pub use events::*;
pub use run::*;
pub use scenarios::*;

use crate::core::cluster::topology::{SlotMap, SlotRange};
use crate::core::key::args::split_args;
use crate::core::key::client_rules::ClientRule;
use crate::core::key::escape::{push_formatted, EscapeError};
use crate::core::key::slot::N_SLOTS;
use crate::core::server::cli::Redirect;
use crate::core::server::reply::{cli_text, ErrorReply, Reply};
use crate::core::server::route::Session;
use crate::core::server::Cluster;
use std::collections::BTreeMap;

/// How a client reacts to MOVED, ASK and TRYAGAIN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Policy {
    /// A smart cluster client (ioredis, redis-rs, Lettuce, go-redis): on MOVED it updates its
    /// slot table and retries at the new owner; on ASK it sends `ASKING` and the command to the
    /// named node once, leaving its table alone; on TRYAGAIN it backs off and retries.
    Smart,
    /// `redis-cli -c`: no slot table, one connection; on MOVED or ASK it prints
    /// `-> Redirected to slot [N] located at ADDR`, reconnects there (sending `ASKING` first
    /// after an ASK) and stays connected to that node. TRYAGAIN is printed as an error.
    RedisCliC,
    /// A client that only understands MOVED: it treats ASK as MOVED (updating its table, never
    /// sending `ASKING`), so during a migration it bounces between source and target until its
    /// redirect budget runs out.
    MovedOnly,
}

/// Max-redirect presets named after the libraries whose defaults they are.
pub const PRESETS: &[(&str, u32)] = &[
    ("ioredis", 16),
    ("redis-rs", 16),
    ("Lettuce", 5),
    ("go-redis", 3),
];

/// How many times a smart client retries after TRYAGAIN before it gives up.
pub const DEFAULT_MAX_TRYAGAIN: u32 = 3;

const NO_ENTRY: u16 = u16::MAX;

/// A cluster client: its policy, its budgets, its slot table and one connection per node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Client {
    policy: Policy,
    /// How it computes a key's slot.
    rule: ClientRule,
    max_redirects: u32,
    max_tryagain: u32,
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
            max_tryagain: DEFAULT_MAX_TRYAGAIN,
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

    /// The same client with another TRYAGAIN budget.
    pub fn with_max_tryagain(mut self, max_tryagain: u32) -> Client {
        self.max_tryagain = max_tryagain;
        self
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

    /// How many TRYAGAIN retries one command may make.
    pub fn max_tryagain(&self) -> u32 {
        self.max_tryagain
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
