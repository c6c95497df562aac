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

use super::clients::ClientRule;
use super::command;
use super::engine::{cli_text, Cluster, Redirect, Reply, Session};
use super::escape::{push_formatted, EscapeError};
use super::slot::N_SLOTS;
use super::topology::{SlotMap, SlotRange};
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

/// One end of an arrow in the sequence diagram.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Endpoint {
    /// The application's cluster client (its lifeline carries the slot table).
    Client,
    /// The operator's plain `redis-cli -p PORT` (no `-c`): admin commands such as
    /// `CLUSTER SETSLOT` and `MIGRATE`, and direct commands to one node.
    Operator,
    /// A cluster node, by address (`127.0.0.1:7001`).
    Node(String),
}

/// What an arrow carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// A command sent to a node (`from` the client or the operator, `to` the node).
    Request {
        /// The command's arguments, name first.
        args: Vec<Vec<u8>>,
    },
    /// A node's answer (`from` the node, `to` whoever asked).
    Reply {
        /// The reply.
        reply: Reply,
    },
    /// The `ASKING` request a client sends before retrying a command at an ASK target. Its
    /// reply (`+OK`) follows as a [`EventKind::Reply`].
    Asking,
    /// The client changed one entry of its slot table (`from` and `to` are both the client).
    TableUpdate {
        /// The slot.
        slot: u16,
        /// The address the table held before (`None`: no entry).
        old: Option<String>,
        /// The address it holds now.
        new: String,
    },
    /// The client waits before retrying after TRYAGAIN (`from` and `to` are the client). No
    /// time passes in the simulator: this is one step of the diagram.
    Backoff {
        /// Which retry this is (1 for the first).
        attempt: u32,
    },
    /// The client stops and hands an error to the application (`from` and `to` are the
    /// client).
    GiveUp {
        /// Why.
        reason: GiveUpReason,
    },
}

/// Why a client gave up on a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GiveUpReason {
    /// It followed as many redirections as its budget allows and got another one.
    TooManyRedirects {
        /// Redirections followed.
        followed: u32,
        /// Its budget.
        limit: u32,
    },
    /// TRYAGAIN after every retry it may make.
    StillSplit {
        /// Retries made.
        retries: u32,
    },
}

/// Why the client sent a command where it did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SendReason {
    /// An ASK named the node.
    Ask,
    /// redis-cli sends everything to the node it is connected to.
    Connected,
    /// The client's slot table names the node for the slot it computed.
    SlotTable {
        /// The slot the client computed for the first key (by its own rule).
        slot: u16,
    },
    /// The client's slot table names no node for the slot it computed (the slot is
    /// uncovered), so it sends to the node it knows.
    NoRoute {
        /// The slot the client computed.
        slot: u16,
    },
    /// A MOVED named the node, and the client's table does not name it for the slot the
    /// client computed (a client whose rule disagrees with Redis retries where the MOVED
    /// said, while its table still sends its own slot elsewhere).
    Moved {
        /// The slot the MOVED was for.
        slot: u16,
    },
    /// The command has no key.
    NoKey,
    /// The client takes the empty key for no key ([`ClientRule::EmptyKeyRandom`]).
    EmptyKey,
}

/// What an arrow means, as data (addresses, slots, commands): the page words it in the
/// reader's language (`ui::narration`). Commands and replies are never translated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Narration {
    /// The client sends `command` (its name, as typed) to `addr`, because of `why`.
    ClientSends {
        /// The command's name.
        command: String,
        /// The node.
        addr: String,
        /// Why there.
        why: SendReason,
    },
    /// The client sends `ASKING` to `addr`.
    ClientSendsAsking {
        /// The ASK target.
        addr: String,
    },
    /// `addr` accepts `ASKING`.
    AskingAccepted {
        /// The node.
        addr: String,
    },
    /// The operator's redis-cli sends `command` (the whole line, as typed) to `addr`.
    OperatorSends {
        /// The command line.
        command: String,
        /// The node.
        addr: String,
    },
    /// `addr` answers `MOVED slot target`.
    Moved {
        /// The node that answered.
        addr: String,
        /// The slot.
        slot: u16,
        /// The owner it names.
        target: String,
    },
    /// `addr` answers `ASK slot target`.
    Ask {
        /// The node that answered.
        addr: String,
        /// The slot.
        slot: u16,
        /// The node it names.
        target: String,
    },
    /// `addr` answers TRYAGAIN.
    TryAgain {
        /// The node.
        addr: String,
    },
    /// `addr` answers CROSSSLOT.
    CrossSlot {
        /// The node.
        addr: String,
    },
    /// `addr` answers CLUSTERDOWN.
    ClusterDown {
        /// The node.
        addr: String,
    },
    /// `addr` answers another error, quoted as Redis sent it.
    Error {
        /// The node.
        addr: String,
        /// The error text.
        error: String,
    },
    /// `addr` serves the command.
    Served {
        /// The node.
        addr: String,
    },
    /// The client points `slot` at `addr` in its table (after MOVED, or an ASK it takes for
    /// MOVED).
    TableUpdate {
        /// The slot.
        slot: u16,
        /// The new entry.
        addr: String,
        /// The old entry.
        old: Option<String>,
        /// The client took an ASK for a MOVED.
        ask_as_moved: bool,
    },
    /// As [`Narration::TableUpdate`] after a MOVED, but the client looks the key up under
    /// another slot (its own rule's), whose entry still names the wrong node: the update
    /// will not help the next command.
    TableUpdateInVain {
        /// The slot the MOVED named.
        slot: u16,
        /// The new entry.
        addr: String,
        /// The old entry.
        old: Option<String>,
        /// The slot the client computes for the key.
        own_slot: u16,
        /// What its table says for that slot.
        own_addr: String,
    },
    /// The client gives up after `followed` redirections.
    GiveUpRedirects {
        /// Redirections followed.
        followed: u32,
    },
    /// The client backs off before retry `attempt`.
    Backoff {
        /// Which retry (1 for the first).
        attempt: u32,
    },
    /// The client gives up after `retries` TRYAGAIN retries.
    GiveUpTryAgain {
        /// Retries made.
        retries: u32,
    },
}

/// One arrow of the sequence diagram, with everything the page shows beside it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// Where the arrow starts.
    pub from: Endpoint,
    /// Where it ends (the same endpoint for table updates, back-offs and giving up).
    pub to: Endpoint,
    /// What it carries.
    pub kind: EventKind,
    /// What happens and why, as data the page puts into words.
    pub narration: Narration,
    /// What a terminal shows for this arrow. For a reply: exactly what redis-cli prints (for
    /// [`Policy::RedisCliC`], a followed MOVED/ASK prints `-> Redirected to slot [N] located
    /// at ADDR` instead of the error, so concatenating a run's reply texts gives redis-cli's
    /// output). For a request or `ASKING`: the command as it would be typed at the prompt.
    /// Empty for table updates, back-offs and giving up.
    pub cli: String,
    /// The bytes on the wire: the RESP request (an array of bulk strings) or the RESP2 reply
    /// (`-ASK 5712 127.0.0.1:7002\r\n`). Empty for arrows that send nothing.
    pub resp: Vec<u8>,
}

impl Event {
    /// Whether this arrow is a reply carrying `MOVED`.
    pub fn is_moved(&self) -> bool {
        matches!(&self.kind, EventKind::Reply { reply } if Redirect::parse(reply).is_some_and(|r| !r.ask))
    }

    /// Whether this arrow is a reply carrying `ASK`.
    pub fn is_ask(&self) -> bool {
        matches!(&self.kind, EventKind::Reply { reply } if Redirect::parse(reply).is_some_and(|r| r.ask))
    }
}

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

/// `args` as typed at redis-cli's prompt: plain words as they are, others in double quotes
/// with redis-cli's escapes.
pub fn typed_form(args: &[Vec<u8>]) -> String {
    let mut out = String::new();
    for (i, arg) in args.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let plain = !arg.is_empty()
            && arg
                .iter()
                .all(|b| b.is_ascii_graphic() && !matches!(b, b'"' | b'\'' | b'\\'));
        if plain {
            out.push_str(&String::from_utf8_lossy(arg));
        } else {
            out.push('"');
            push_formatted(&mut out, arg);
            out.push('"');
        }
    }
    out
}

/// The RESP form of a request: an array of bulk strings.
pub fn request_resp(args: &[Vec<u8>]) -> Vec<u8> {
    let mut out = format!("*{}\r\n", args.len()).into_bytes();
    for arg in args {
        out.extend_from_slice(format!("${}\r\n", arg.len()).as_bytes());
        out.extend_from_slice(arg);
        out.extend_from_slice(b"\r\n");
    }
    out
}

fn node(addr: &str) -> Endpoint {
    Endpoint::Node(addr.to_owned())
}

fn request(from: Endpoint, addr: &str, args: &[Vec<u8>], narration: Narration) -> Event {
    Event {
        from,
        to: node(addr),
        kind: EventKind::Request {
            args: args.to_vec(),
        },
        narration,
        cli: typed_form(args),
        resp: request_resp(args),
    }
}

fn reply_event(
    addr: &str,
    to: Endpoint,
    args: &[Vec<u8>],
    reply: Reply,
    narration: Narration,
) -> Event {
    Event {
        from: node(addr),
        to,
        cli: cli_text(args, &reply),
        resp: reply.to_resp(),
        kind: EventKind::Reply { reply },
        narration,
    }
}

fn self_event(kind: EventKind, narration: Narration) -> Event {
    Event {
        from: Endpoint::Client,
        to: Endpoint::Client,
        kind,
        narration,
        cli: String::new(),
        resp: Vec::new(),
    }
}

/// What a reply means.
fn explain_reply(reply: &Reply, addr: &str) -> Narration {
    let addr = addr.to_owned();
    if let Some(r) = Redirect::parse(reply) {
        return if r.ask {
            Narration::Ask {
                addr,
                slot: r.slot,
                target: r.addr,
            }
        } else {
            Narration::Moved {
                addr,
                slot: r.slot,
                target: r.addr,
            }
        };
    }
    match reply {
        Reply::Error(e) if e.starts_with("TRYAGAIN") => Narration::TryAgain { addr },
        Reply::Error(e) if e.starts_with("CROSSSLOT") => Narration::CrossSlot { addr },
        Reply::Error(e) if e.starts_with("CLUSTERDOWN") => Narration::ClusterDown { addr },
        Reply::Error(e) => Narration::Error {
            addr,
            error: e.clone(),
        },
        _ => Narration::Served { addr },
    }
}

/// The command's first key, if it has keys.
fn first_key(args: &[Vec<u8>]) -> Option<&[u8]> {
    let spec = command::key_positions(args).ok()?;
    spec.keys(args).first().copied()
}

/// Sends `args` through `client` to `cluster` and returns every arrow it caused, in order.
///
/// The client picks the node from its slot table (redis-cli -c: the node it is connected to),
/// then follows its [`Policy`]. It always stops: after a reply that is not a redirection or
/// TRYAGAIN, after `max_redirects` followed redirections (the next one makes it give up), or
/// after `max_tryagain` retries.
pub fn run(cluster: &mut Cluster, client: &mut Client, args: &[Vec<u8>]) -> Vec<Event> {
    let mut events = Vec::new();
    let key = first_key(args);
    // The slot the client computes, by its own rule (`None`: it sends to any node).
    let slot = key.and_then(|k| client.rule.route_slot(k));
    let route_of = |client: &Client| -> String {
        match (client.policy, slot) {
            (Policy::RedisCliC, _) | (_, None) => client.connected.clone(),
            (_, Some(s)) => client
                .route(s)
                .map(str::to_owned)
                .unwrap_or_else(|| client.connected.clone()),
        }
    };
    let mut target = route_of(client);
    let mut asking = false;
    // The slot of the MOVED the client is following, if it is following one.
    let mut moved: Option<u16> = None;
    let mut redirects = 0u32;
    let mut tryagains = 0u32;
    let name = typed_form(args.get(..1).unwrap_or(&[]));
    loop {
        if asking {
            let asking_args = vec![b"ASKING".to_vec()];
            events.push(Event {
                kind: EventKind::Asking,
                ..request(
                    Endpoint::Client,
                    &target,
                    &asking_args,
                    Narration::ClientSendsAsking {
                        addr: target.clone(),
                    },
                )
            });
            let reply = cluster.exec(&target, &asking_args, client.session(&target));
            let narration = Narration::AskingAccepted {
                addr: target.clone(),
            };
            events.push(reply_event(
                &target,
                Endpoint::Client,
                &asking_args,
                reply,
                narration,
            ));
        }
        let why = match (client.policy, slot, moved) {
            _ if asking => SendReason::Ask,
            (Policy::RedisCliC, ..) => SendReason::Connected,
            // Following a MOVED to a node its table does not name for the slot it computed.
            (_, Some(s), Some(m)) if client.route(s) != Some(target.as_str()) => {
                SendReason::Moved { slot: m }
            }
            (_, Some(s), _) if client.route(s).is_none() => SendReason::NoRoute { slot: s },
            (_, Some(s), _) => SendReason::SlotTable { slot: s },
            (_, None, _) if key.is_some() => SendReason::EmptyKey,
            (_, None, _) => SendReason::NoKey,
        };
        events.push(request(
            Endpoint::Client,
            &target,
            args,
            Narration::ClientSends {
                command: name.clone(),
                addr: target.clone(),
                why,
            },
        ));
        let reply = cluster.exec(&target, args, client.session(&target));
        asking = false;
        moved = None;
        let mut ev = reply_event(
            &target,
            Endpoint::Client,
            args,
            reply.clone(),
            explain_reply(&reply, &target),
        );
        if let Some(r) = Redirect::parse(&reply) {
            if redirects >= client.max_redirects {
                events.push(ev);
                events.push(self_event(
                    EventKind::GiveUp {
                        reason: GiveUpReason::TooManyRedirects {
                            followed: redirects,
                            limit: client.max_redirects,
                        },
                    },
                    Narration::GiveUpRedirects {
                        followed: redirects,
                    },
                ));
                return events;
            }
            redirects += 1;
            match client.policy {
                Policy::RedisCliC => {
                    ev.cli = format!("-> Redirected to slot [{}] located at {}\n", r.slot, r.addr);
                    events.push(ev);
                    client.connected = r.addr.clone();
                    // redis-cli opens a new connection: the old one's flags are gone.
                    client.sessions.remove(&r.addr);
                    asking = r.ask;
                    target = r.addr;
                }
                Policy::Smart if r.ask => {
                    events.push(ev);
                    asking = true;
                    target = r.addr;
                }
                Policy::Smart | Policy::MovedOnly => {
                    events.push(ev);
                    let old = client.route(r.slot).map(str::to_owned);
                    client.set_route(r.slot, &r.addr);
                    // A client whose rule gives another slot than the MOVED's keeps looking
                    // the key up there: this update does not help its next command.
                    let own = slot
                        .filter(|s| *s != r.slot && !r.ask)
                        .and_then(|s| client.route(s).map(|a| (s, a.to_owned())));
                    let narration = match own {
                        Some((own_slot, own_addr)) if own_addr != r.addr => {
                            Narration::TableUpdateInVain {
                                slot: r.slot,
                                addr: r.addr.clone(),
                                old: old.clone(),
                                own_slot,
                                own_addr,
                            }
                        }
                        _ => Narration::TableUpdate {
                            slot: r.slot,
                            addr: r.addr.clone(),
                            old: old.clone(),
                            ask_as_moved: r.ask,
                        },
                    };
                    events.push(self_event(
                        EventKind::TableUpdate {
                            slot: r.slot,
                            old,
                            new: r.addr.clone(),
                        },
                        narration,
                    ));
                    moved = Some(r.slot);
                    target = r.addr;
                }
            }
            continue;
        }
        let tryagain = matches!(&reply, Reply::Error(e) if e.starts_with("TRYAGAIN"));
        events.push(ev);
        if tryagain && client.policy != Policy::RedisCliC {
            if tryagains >= client.max_tryagain {
                events.push(self_event(
                    EventKind::GiveUp {
                        reason: GiveUpReason::StillSplit { retries: tryagains },
                    },
                    Narration::GiveUpTryAgain { retries: tryagains },
                ));
                return events;
            }
            tryagains += 1;
            events.push(self_event(
                EventKind::Backoff { attempt: tryagains },
                Narration::Backoff { attempt: tryagains },
            ));
            target = route_of(client);
            continue;
        }
        return events;
    }
}

/// One thing that happens in a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// The operator's plain redis-cli sends a command to one node (`CLUSTER SETSLOT`,
    /// `MIGRATE`, or a direct command to show what a node answers). One connection per node
    /// lasts the whole scenario, so `ASKING` on it covers the next command there.
    Operator {
        /// The node's address.
        addr: String,
        /// The command.
        args: Vec<Vec<u8>>,
    },
    /// The application's client sends a command, following its policy.
    Client {
        /// The command.
        args: Vec<Vec<u8>>,
    },
}

/// Why a line typed into free mode is not an action (the page words it in its language).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActionError {
    /// `@host:port` with no command after it.
    NoCommand,
    /// A blank line.
    Empty,
    /// The command could not be split into arguments.
    Args(EscapeError),
}

/// A line typed into free mode: an operator command to one node (`@127.0.0.1:7001 CLUSTER
/// SETSLOT …`) or a command for the client.
pub fn parse_action(line: &str) -> Result<Action, ActionError> {
    let line = line.trim();
    let (addr, rest) = match line.strip_prefix('@') {
        Some(r) => match r.split_once(char::is_whitespace) {
            Some((addr, rest)) => (Some(addr.to_string()), rest),
            None => return Err(ActionError::NoCommand),
        },
        None => (None, line),
    };
    let args = command::split_args(rest).map_err(ActionError::Args)?;
    if args.is_empty() {
        return Err(ActionError::Empty);
    }
    Ok(match addr {
        Some(addr) => Action::Operator { addr, args },
        None => Action::Client { args },
    })
}

/// One step of a scenario: an action and the arrows it caused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// What was done.
    pub action: Action,
    /// What it caused, in order.
    pub events: Vec<Event>,
}

/// A ready-made story for the Redirections view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    /// A stable identifier for links (`live-migration`).
    pub id: &'static str,
    /// A short title, in English (the page words it by `id` in the reader's language).
    pub title: &'static str,
    /// The client's policy.
    pub policy: Policy,
    /// How the client computes a key's slot.
    pub rule: ClientRule,
    /// The client's redirect budget.
    pub max_redirects: u32,
    /// The client's slot table before the first step (ranges and addresses); table updates in
    /// the events change it step by step, and undoing them in reverse steps back.
    pub start_table: Vec<(SlotRange, String)>,
    /// The steps, in order.
    pub steps: Vec<Step>,
}

impl Scenario {
    /// Every event of every step, in order (the timeline the page scrubs through).
    pub fn events(&self) -> impl Iterator<Item = &Event> {
        self.steps.iter().flat_map(|s| s.events.iter())
    }
}

fn words(line: &str) -> Vec<Vec<u8>> {
    command::split_args(line).unwrap_or_default()
}

/// Runs `actions` on `cluster` with `client`, and records what each caused.
pub fn play(cluster: &mut Cluster, client: &mut Client, actions: Vec<Action>) -> Vec<Step> {
    let mut operator: BTreeMap<String, Session> = BTreeMap::new();
    actions
        .into_iter()
        .map(|action| {
            let events = match &action {
                Action::Client { args } => run(cluster, client, args),
                Action::Operator { addr, args } => {
                    let session = operator.entry(addr.clone()).or_default();
                    let req = request(
                        Endpoint::Operator,
                        addr,
                        args,
                        Narration::OperatorSends {
                            command: typed_form(args),
                            addr: addr.clone(),
                        },
                    );
                    let reply = cluster.exec(addr, args, session);
                    let narration = explain_reply(&reply, addr);
                    vec![
                        req,
                        reply_event(addr, Endpoint::Operator, args, reply, narration),
                    ]
                }
            };
            Step { action, events }
        })
        .collect()
}

/// Node ids of the fixtures' masters, as in transcript 07.
const ID_7001: &str = "f7c6b5d608aefdd517b33641eb638ce56252d0b4";
const ID_7002: &str = "44084a172411812451c56a0a3330ec6daa733083";
const M0: &str = "127.0.0.1:7000";
const M1: &str = "127.0.0.1:7001";
const M2: &str = "127.0.0.1:7002";

fn op(addr: &str, line: &str) -> Action {
    Action::Operator {
        addr: addr.to_owned(),
        args: words(line),
    }
}

fn cl(line: &str) -> Action {
    Action::Client { args: words(line) }
}

/// Transcript 07 up to the MIGRATE of `{user:1001}:profile`: the two keys written on 7001,
/// slot 5712 opened on both sides, one key moved.
fn migration_start() -> Vec<Action> {
    vec![
        cl("SET {user:1001}:profile alice"),
        cl("SET {user:1001}:orders 3"),
        op(M2, &format!("CLUSTER SETSLOT 5712 IMPORTING {ID_7001}")),
        op(M1, &format!("CLUSTER SETSLOT 5712 MIGRATING {ID_7002}")),
        op(M1, "MIGRATE 127.0.0.1 7002 {user:1001}:profile 0 5000"),
    ]
}

/// The scenarios that play a disagreeing client rule's MOVED loop on the fixtures' cluster:
/// `(rule, scenario id, title, key)`. Each key is the rule's documented example, or one whose
/// two slots belong to different masters of that cluster, so every command pays a MOVED:
/// `foo{}{bar}` 4015 (7000) for Redis's 8363 (7001); `{a}{b}` 3300 (7000) for 15495 (7002);
/// `naïve` 11246 (7002) for 2847 (7000). An empty key routed to any node has no loop to show.
pub const MOVED_LOOPS: &[(ClientRule, &str, &str, &str)] = &[
    (
        ClientRule::ClusterKeySlot,
        "client-disagrees",
        "A client that hashes keys differently: MOVED on every command",
        "foo{}{bar}",
    ),
    (
        ClientRule::LastBracePair,
        "client-last-brace",
        "A client that takes the last brace pair: MOVED on every command",
        "{a}{b}",
    ),
    (
        ClientRule::Utf16CodeUnits,
        "client-utf16",
        "A client that hashes UTF-16 code units: MOVED on every command",
        "naïve",
    ),
];

/// The id of the scenario that plays `rule`'s MOVED loop, if it has one.
pub fn moved_loop_scenario(rule: ClientRule) -> Option<&'static str> {
    MOVED_LOOPS
        .iter()
        .find(|&&(r, ..)| r == rule)
        .map(|&(_, id, ..)| id)
}

#[allow(clippy::too_many_arguments)]
fn scenario(
    id: &'static str,
    title: &'static str,
    policy: Policy,
    max_redirects: u32,
    mut cluster: Cluster,
    mut client: Client,
    actions: Vec<Action>,
) -> Scenario {
    let start_table = client.table();
    let rule = client.rule();
    let steps = play(&mut cluster, &mut client, actions);
    Scenario {
        id,
        title,
        policy,
        rule,
        max_redirects,
        start_table,
        steps,
    }
}

/// The page's scenarios, each run on the fixtures' cluster (recorded node ids), with key names
/// from transcripts 02-07.
pub fn scenarios() -> Vec<Scenario> {
    let fixture = SlotMap::fixture_cluster();
    let smart = |map: &SlotMap| Client::new(Policy::Smart, 16, map);
    let mut out = Vec::new();

    // (a) A stale route: the client's table still says 7000 serves slot 9779 (as before a
    // reshard moved it); 7001 owns it and holds user:1002.
    {
        let mut cluster = Cluster::new(fixture.clone());
        let mut session = Session::new();
        cluster.exec(M1, &words("SET user:1002 alice"), &mut session);
        let mut client = smart(&fixture);
        client.set_route(9779, M0);
        out.push(scenario(
            "stale-route",
            "Stale route after a reshard: MOVED, table updated, then direct",
            Policy::Smart,
            16,
            cluster,
            client,
            vec![cl("GET user:1002"), cl("GET user:1002")],
        ));
    }

    // (b) A live migration of slot 5712 from 7001 to 7002, key by key.
    {
        let mut actions = migration_start();
        actions.extend([
            cl("GET {user:1001}:profile"),
            cl("GET {user:1001}:orders"),
            op(M2, "GET {user:1001}:profile"),
            op(M2, "ASKING"),
            op(M2, "GET {user:1001}:profile"),
            op(M2, "GET {user:1001}:profile"),
        ]);
        out.push(scenario(
            "live-migration",
            "A live migration: ASK, ASKING, the source still serving, MOVED back from the target",
            Policy::Smart,
            16,
            Cluster::new(fixture.clone()),
            smart(&fixture),
            actions,
        ));
    }

    // (c) TRYAGAIN: an MGET whose keys are split between source and target, until the last
    // key moves.
    {
        let mut actions = migration_start();
        actions.extend([
            cl("MGET {user:1001}:profile {user:1001}:orders"),
            op(
                M1,
                "MIGRATE 127.0.0.1 7002 \"\" 0 5000 KEYS {user:1001}:orders",
            ),
            cl("MGET {user:1001}:profile {user:1001}:orders"),
        ]);
        out.push(scenario(
            "tryagain",
            "TRYAGAIN: a multi-key command split across source and target",
            Policy::Smart,
            16,
            Cluster::new(fixture.clone()),
            smart(&fixture),
            actions,
        ));
    }

    // (d) CROSSSLOT, as in transcript 04.
    out.push(scenario(
        "crossslot",
        "CROSSSLOT: keys in different slots",
        Policy::Smart,
        16,
        Cluster::new(fixture.clone()),
        smart(&fixture),
        vec![cl("MSET hello 1 bar 2"), cl("MGET hello bar")],
    ));

    // (e) The end of the migration: SETSLOT NODE everywhere, then the old owner answers MOVED.
    {
        let mut actions = migration_start();
        actions.extend([
            op(
                M1,
                "MIGRATE 127.0.0.1 7002 \"\" 0 5000 KEYS {user:1001}:orders",
            ),
            op(M2, &format!("CLUSTER SETSLOT 5712 NODE {ID_7002}")),
            op(M1, &format!("CLUSTER SETSLOT 5712 NODE {ID_7002}")),
            op(M0, &format!("CLUSTER SETSLOT 5712 NODE {ID_7002}")),
            cl("GET {user:1001}:profile"),
            cl("GET {user:1001}:orders"),
        ]);
        out.push(scenario(
            "end-of-migration",
            "The end of a migration: SETSLOT NODE, MOVED from the old owner, table updated",
            Policy::Smart,
            16,
            Cluster::new(fixture.clone()),
            smart(&fixture),
            actions,
        ));
    }

    // (f) A MOVED-only client (go-redis's budget of 3) during the same migration.
    {
        let budget = PRESETS
            .iter()
            .find(|(name, _)| *name == "go-redis")
            .map_or(3, |(_, n)| *n);
        let mut actions = migration_start();
        actions.push(cl("GET {user:1001}:profile"));
        out.push(scenario(
            "moved-only-client",
            "A MOVED-only client during a migration bounces until its redirects run out",
            Policy::MovedOnly,
            budget,
            Cluster::new(fixture.clone()),
            Client::new(Policy::MovedOnly, budget, &fixture),
            actions,
        ));
    }

    // (g) An uncovered slot: nobody serves slot 866 (hello).
    {
        let mut map = fixture.clone();
        map.assign(866, None);
        let client = smart(&map);
        out.push(scenario(
            "uncovered-slot",
            "An uncovered slot: CLUSTERDOWN Hash slot not served",
            Policy::Smart,
            16,
            Cluster::new(map),
            client,
            vec![cl("GET hello")],
        ));
    }

    // (h) Clients whose slot rule disagrees with Redis, one scenario per rule that can send a
    // command to the wrong master (see [`MOVED_LOOPS`]). cluster-key-slot 1.1.x hashes
    // `foo{}{bar}` as `{bar` (slot 4015, 7000's) where Redis hashes the whole key (slot 8363,
    // 7001's). Every GET goes to the wrong master first and pays a MOVED; the table update for
    // Redis's slot never helps, because the client looks the key up under its own slot.
    for &(rule, id, title, key) in MOVED_LOOPS {
        let mut cluster = Cluster::new(fixture.clone());
        let mut session = Session::new();
        let get = format!("GET {key}");
        // Written on the master that owns the key's slot by Redis's rule.
        let owner = fixture
            .owner(super::slot::key_slot(key.as_bytes()))
            .and_then(|i| fixture.masters().get(i))
            .map_or(M1, |m| m.addr.as_str());
        cluster.exec(owner, &words(&format!("SET {key} hello")), &mut session);
        out.push(scenario(
            id,
            title,
            Policy::Smart,
            16,
            cluster,
            smart(&fixture).with_rule(rule),
            vec![cl(&get), cl(&get), cl(&get)],
        ));
    }
    out
}

#[cfg(test)]
mod free_line_tests {
    use super::*;

    #[test]
    fn lines_become_client_or_operator_actions() {
        assert!(matches!(parse_action("GET foo"), Ok(Action::Client { .. })));
        match parse_action("@127.0.0.1:7001 CLUSTER SETSLOT 5712 STABLE") {
            Ok(Action::Operator { addr, args }) => {
                assert_eq!(addr, "127.0.0.1:7001");
                assert_eq!(args.len(), 4);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(parse_action("@127.0.0.1:7001"), Err(ActionError::NoCommand));
        assert_eq!(parse_action("   "), Err(ActionError::Empty));
        assert!(matches!(
            parse_action("GET \"x"),
            Err(ActionError::Args(EscapeError::UnclosedQuote {
                column: 5,
                ..
            }))
        ));
    }
}
