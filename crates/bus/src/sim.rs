//! The discrete-event engine: a millisecond clock, an event queue (each node's `clusterCron`
//! every 100 ms, messages arriving), a network with per-link latency, loss and partitions, and
//! the processes (running, stopped with SIGSTOP, killed, restarted from their `nodes.conf`).

use super::node::{CantFailover, Node, Saved};
use super::output::{BusEvent, EventKind, LogLine, Opinion};
use super::queue::Queue;
use super::rng::Rng;
use super::types::{
    flag, Config, Msg, MsgType, Peer, Process, SlotBits, MAX_NODES, NO_NODE, SLOTS,
};
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;

/// What is scheduled.
#[derive(Clone, Debug)]
enum Ev {
    /// `clusterCron` of a node, for the process generation it was scheduled by.
    Cron(u32, u32),
    /// The event loop turns again: `clusterBeforeSleep` with what the last one left to do.
    Wake(u32),
    Deliver(Box<Msg>),
}

/// A simulated Redis Cluster bus. Deterministic: the same seed and the same calls give the
/// same logs, events and answers. A clone goes on exactly as the original would (slot tables
/// are shared copy-on-write).
#[derive(Clone)]
pub struct Sim {
    /// Cfg.
    pub cfg: Config,
    /// Now.
    pub now: u64,
    pub(super) rng: Rng,
    /// Nodes.
    pub nodes: Vec<Node>,
    /// What is scheduled, by time then in the order it was scheduled.
    queue: Queue<Ev>,
    /// Partition group of each node: messages cross only within a group.
    group: Vec<u32>,
    latency: HashMap<(u32, u32), u64>,
    /// Links cut in both directions (pairs, beside the partition groups).
    cuts: std::collections::HashSet<(u32, u32)>,
    /// Logs.
    pub logs: Vec<LogLine>,
    /// Events.
    pub events: Vec<BusEvent>,
    /// Messages sent in total (all types), for the traffic figures.
    pub bytes_sent: u64,
    /// Messages sent.
    pub messages_sent: u64,
    /// Whether each node's process is killed (a dense copy of `Node::process == Crashed`,
    /// so each cron checks its peers without touching every other node).
    pub(super) down: Vec<bool>,
    /// How many nodes are killed now.
    pub(super) down_count: usize,
    /// How many nodes `add_node` should make room for in each view (set by `Sim::create`,
    /// so a 1000-node cluster's views are allocated once instead of grown by doubling).
    pub(super) expect_nodes: usize,
    /// The all-unassigned slot table every new node starts from (shared).
    empty_table: Rc<Vec<u32>>,
    /// Recently seen distinct slot tables: a node whose table changed and now equals one of
    /// them shares it again (`intern_slots`).
    tables: Vec<Rc<Vec<u32>>>,
    /// Scratch: the peers due in the cron being run (`walk.rs`).
    pub(super) due: Vec<u32>,
    /// The last `myslots` bitmap built for each owner, shared by every node whose claim for
    /// that owner is equal (a master and its replicas), so a receiver's check of a claim it
    /// has seen is a pointer compare, not a 2 KB compare.
    claims: Vec<Option<Rc<SlotBits>>>,
    /// Scratch: one bit per node, set while the gossip section being built holds it
    /// (`send_ping`); all clear between messages.
    pub(super) gossip_marks: Vec<u64>,
    /// Scratch: the gossip picks drawn ahead of a section's loop (`send_ping`).
    pub(super) picks: Vec<u32>,
}

impl Sim {
    /// An empty bus at t = 0.
    pub fn new(cfg: Config, seed: u64) -> Sim {
        Sim {
            cfg,
            now: 0,
            rng: Rng::new(seed),
            nodes: Vec::new(),
            queue: Queue::new(),
            group: Vec::new(),
            latency: HashMap::new(),
            cuts: std::collections::HashSet::new(),
            logs: Vec::new(),
            events: Vec::new(),
            bytes_sent: 0,
            messages_sent: 0,
            down: Vec::new(),
            down_count: 0,
            expect_nodes: 0,
            empty_table: Rc::new(vec![NO_NODE; SLOTS]),
            tables: Vec::new(),
            due: Vec::new(),
            claims: Vec::new(),
            gossip_marks: vec![0; MAX_NODES.div_ceil(64)],
            picks: Vec::new(),
        }
    }

    /// Start a new, empty node (`cluster-enabled yes`, nothing known but itself) on `port`.
    /// Every existing node gets an (unknown) slot for it, so indexes stay valid. `None` past
    /// `MAX_NODES`.
    pub fn add_node(&mut self, port: u16) -> Option<u32> {
        if self.nodes.len() >= MAX_NODES {
            return None;
        }
        let ix = self.nodes.len() as u32;
        for n in &mut self.nodes {
            n.peers.push(Peer::default());
        }
        let count = self.nodes.len() + 1;
        let mut peers = Vec::with_capacity(count.max(self.expect_nodes.min(MAX_NODES)));
        peers.resize(count, Peer::default());
        peers[ix as usize] = Peer::known_with(flag::MYSELF | flag::MASTER);
        let name = self.rng.node_name();
        let pid = 10_000 + self.rng.below(20_000) as u32;
        let phase = self.rng.below(100);
        self.nodes.push(Node {
            ix,
            name,
            port,
            pid,
            process: Process::Running,
            peers,
            known_list: vec![ix],
            slot_owner: self.empty_table.clone(),
            unassigned: SLOTS as u32,
            slots_version: 0,
            current_epoch: 0,
            last_vote_epoch: 0,
            state_ok: false,
            size: 0,
            failover_auth_time: 0,
            failover_auth_count: 0,
            failover_auth_sent: false,
            failover_auth_rank: 0,
            failover_auth_epoch: 0,
            cant_failover_reason: CantFailover::None,
            cant_failover_lastlog: 0,
            mf_end: 0,
            mf_can_start: false,
            mf_slave: NO_NODE,
            mf_master_offset: -1,
            repl_offset: 0,
            master_seen: self.now,
            iteration: 0,
            pings_sent_counter: 0,
            first_call_time: 0,
            among_minority_time: 0,
            todo: 0,
            cron_phase: phase,
            cron_gen: 0,
            nofailover: false,
            inbox: VecDeque::new(),
            saved: None,
            claim_cache: None,
            stats_sent: [0; 8],
            stats_received: [0; 8],
            pfail_nodes: 0,
            paused_until: 0,
            importing: Vec::new(),
            walk: Default::default(),
        });
        self.group.push(0);
        self.down.push(false);
        let first = self.now - self.now % 100 + 100 + phase;
        self.push(first, Ev::Cron(ix, 0));
        Some(ix)
    }

    /// Whether `n` names a node of this simulation.
    pub fn has(&self, n: u32) -> bool {
        (n as usize) < self.nodes.len()
    }

    /// `CLUSTER MEET` sent to `a` about `b`: `a` adds `b` with the MEET flag; its next cron
    /// connects and sends MEET, and gossip does the rest.
    pub fn meet(&mut self, a: u32, b: u32) {
        if !self.has(a) || !self.has(b) || a == b {
            return;
        }
        self.learn(a, b, flag::MASTER);
        self.nodes[a as usize].peers[b as usize].flags |= flag::MEET;
        self.nodes[a as usize].touch();
    }

    fn push(&mut self, t: u64, ev: Ev) {
        self.queue.push(t, ev);
    }

    /// Process every event up to and including `t`, then set the clock to `t`.
    pub fn run_until(&mut self, t: u64) {
        while let Some((at, ev)) = self.queue.pop_until(t) {
            self.run_event(at, ev);
        }
        self.now = self.now.max(t);
    }

    /// [`Sim::run_until`] `t`, but at most `steps` events: `true` once `t` is reached (the
    /// same run as `run_until(t)`, cut into pieces a page can do between frames).
    pub fn run_until_steps(&mut self, t: u64, steps: usize) -> bool {
        for _ in 0..steps {
            match self.queue.pop_until(t) {
                Some((at, ev)) => self.run_event(at, ev),
                None => break,
            }
        }
        if self.queue.peek_time().is_some_and(|at| at <= t) {
            return false;
        }
        self.now = self.now.max(t);
        true
    }

    /// [`Sim::run_until_steps`] `t`, but counting each message an event sends as a step of
    /// its own beside the event (a cron that pings all 999 peers of a 1000-node cluster is
    /// 1000 steps, a delivery answered by a PONG 2), so that a piece of a burst costs about
    /// what a quiet piece does. It stops between two events, possibly inside a millisecond:
    /// `true` once `t` is reached. The same run as `run_until(t)`, in pieces.
    pub fn run_until_work(&mut self, t: u64, work: u64) -> bool {
        let sent0 = self.messages_sent;
        let mut events = 0u64;
        while events + (self.messages_sent - sent0) < work {
            match self.queue.pop_until(t) {
                Some((at, ev)) => self.run_event(at, ev),
                None => break,
            }
            events += 1;
        }
        if self.queue.peek_time().is_some_and(|at| at <= t) {
            return false;
        }
        self.now = self.now.max(t);
        true
    }

    /// Run `ms` more milliseconds.
    pub fn run_for(&mut self, ms: u64) {
        let t = self.now.saturating_add(ms);
        self.run_until(t);
    }

    /// Process the next event; its time, or `None` when nothing is scheduled.
    pub fn step(&mut self) -> Option<u64> {
        let (t, ev) = self.queue.pop()?;
        self.run_event(t, ev);
        Some(self.now)
    }

    /// Run one event taken from the queue at its time `t`.
    fn run_event(&mut self, t: u64, ev: Ev) {
        self.now = self.now.max(t);
        let who = match &ev {
            Ev::Cron(n, _) | Ev::Wake(n) => *n,
            Ev::Deliver(m) => m.to,
        };
        let version = self.nodes.get(who as usize).map(|x| x.slots_version);
        self.dispatch(t, ev);
        if self.nodes.get(who as usize).map(|x| x.slots_version) != version {
            self.intern_slots(who);
        }
    }

    /// After `n`'s slot table changed: share an equal table another node already holds
    /// (contents compared; the simulation reads the same owners either way).
    pub(super) fn intern_slots(&mut self, n: u32) {
        const KEEP: usize = 8;
        let Some(node) = self.nodes.get_mut(n as usize) else {
            return;
        };
        self.tables.retain(|t| Rc::strong_count(t) > 1);
        if self.tables.iter().any(|t| Rc::ptr_eq(t, &node.slot_owner)) {
            return;
        }
        if let Some(t) = self.tables.iter().find(|t| ***t == *node.slot_owner) {
            node.slot_owner = t.clone();
            return;
        }
        if self.tables.len() >= KEEP {
            self.tables.remove(0);
        }
        self.tables.push(node.slot_owner.clone());
    }

    fn dispatch(&mut self, t: u64, ev: Ev) {
        match ev {
            Ev::Cron(n, generation) => {
                if self.nodes[n as usize].cron_gen != generation {
                    return;
                }
                let next = t + 100;
                self.push(next, Ev::Cron(n, generation));
                if self.nodes[n as usize].process == Process::Running {
                    self.cluster_cron(n);
                    self.before_sleep(n);
                    self.wake_if_needed(n);
                }
            }
            Ev::Wake(n) => {
                if self.nodes[n as usize].process == Process::Running {
                    self.before_sleep(n);
                    self.wake_if_needed(n);
                }
            }
            Ev::Deliver(msg) => {
                let to = msg.to as usize;
                match self.nodes[to].process {
                    Process::Crashed => {}
                    Process::Hung => self.nodes[to].inbox.push_back(*msg),
                    Process::Running => self.receive(*msg),
                }
            }
        }
    }

    fn receive(&mut self, msg: Msg) {
        let to = msg.to;
        if self.cfg.record_messages {
            self.event(EventKind::Delivered {
                msg: msg.kind,
                from: msg.from,
                to,
            });
        }
        self.process_packet(msg);
        self.before_sleep(to);
        self.wake_if_needed(to);
    }

    /// A `clusterBeforeSleep` that left work for the next one: the loop turns again 1 ms
    /// later (Redis's loop wakes as soon as any socket or timer is ready).
    pub(super) fn wake_if_needed(&mut self, n: u32) {
        if self.nodes[n as usize].todo != 0 {
            let t = self.now + 1;
            self.push(t, Ev::Wake(n));
        }
    }

    /// Whether a message from `a` can reach `b` now (same partition group).
    pub fn reachable(&self, a: u32, b: u32) -> bool {
        self.group.get(a as usize) == self.group.get(b as usize)
            && !self.cuts.contains(&(a.min(b), a.max(b)))
    }

    /// Cut the link between `a` and `b` (both ways): their packets and replication stop.
    pub fn cut(&mut self, a: u32, b: u32) {
        self.cuts.insert((a.min(b), a.max(b)));
    }

    /// Restore the link between `a` and `b`.
    pub fn uncut(&mut self, a: u32, b: u32) {
        self.cuts.remove(&(a.min(b), a.max(b)));
    }

    /// Put a message on the wire: delivered after the link's latency unless the partition or
    /// the loss rate drops it.
    pub(super) fn send(&mut self, msg: Msg) {
        let (from, to) = (msg.from, msg.to);
        let size = msg.size();
        let kind = msg.kind;
        {
            let n = &mut self.nodes[from as usize];
            n.stats_sent[kind.stat_index()] += 1;
        }
        self.bytes_sent += u64::from(size);
        self.messages_sent += 1;
        let lost = !self.reachable(from, to) || self.rng.chance(self.cfg.loss);
        let lat = *self
            .latency
            .get(&(from, to))
            .unwrap_or(&self.cfg.latency_ms);
        let arrives = if lost {
            None
        } else {
            Some(self.now.saturating_add(lat))
        };
        if self.cfg.record_messages {
            self.event(EventKind::Sent {
                msg: kind,
                from,
                to,
                bytes: size,
                arrives,
            });
        }
        if let Some(t) = arrives {
            self.push(t, Ev::Deliver(Box::new(msg)));
        }
    }

    /// Set one direction's latency in ms.
    pub fn set_latency(&mut self, from: u32, to: u32, ms: u64) {
        self.latency.insert((from, to), ms);
    }

    /// Split the network: each node gets the number of its side; messages cross only
    /// between nodes of the same side (a firewall that drops, so links time out).
    pub fn partition(&mut self, sides: &[u32]) {
        for (i, g) in sides.iter().enumerate() {
            if let Some(slot) = self.group.get_mut(i) {
                *slot = *g;
            }
        }
        self.event(EventKind::Partition {
            sides: self.group.clone(),
        });
    }

    /// Heal every partition.
    pub fn heal(&mut self) {
        let n = self.group.len();
        self.partition(&vec![0; n]);
    }

    /// SIGSTOP: the process reads nothing; its sockets still accept and buffer.
    pub fn hang(&mut self, n: u32) {
        if !self.has(n) {
            return;
        }
        if self.nodes[n as usize].process == Process::Running {
            self.nodes[n as usize].process = Process::Hung;
            self.event(EventKind::Process {
                node: n,
                process: Process::Hung,
            });
        }
    }

    /// SIGCONT: the process reads what was buffered, then runs on.
    pub fn resume(&mut self, n: u32) {
        if !self.has(n) {
            return;
        }
        if self.nodes[n as usize].process != Process::Hung {
            return;
        }
        self.nodes[n as usize].process = Process::Running;
        self.event(EventKind::Process {
            node: n,
            process: Process::Running,
        });
        while let Some(m) = self.nodes[n as usize].inbox.pop_front() {
            self.receive(m);
        }
    }

    /// SIGKILL: connections are refused from now on; peers see their links closed.
    pub fn crash(&mut self, n: u32) {
        if !self.has(n) {
            return;
        }
        let nu = n as usize;
        if self.nodes[nu].process == Process::Crashed {
            return;
        }
        let saved = Saved {
            peers: self.nodes[nu].peers.clone(),
            slot_owner: self.nodes[nu].slot_owner.clone(),
            current_epoch: self.nodes[nu].current_epoch,
            last_vote_epoch: self.nodes[nu].last_vote_epoch,
        };
        let node = &mut self.nodes[nu];
        node.saved = Some(Box::new(saved));
        node.process = Process::Crashed;
        node.inbox.clear();
        self.down[nu] = true;
        self.down_count += 1;
        for other in &mut self.nodes {
            if let Some(p) = other.peers.get_mut(nu) {
                p.set_link(None);
                other.walk.dirty = true;
            }
        }
        self.event(EventKind::Process {
            node: n,
            process: Process::Crashed,
        });
    }

    /// Start a killed node again from its own `nodes.conf` (`clusterLoadConfig`): the roles,
    /// slots and epochs it last saved, no links, no pings in flight, state fail.
    pub fn restart(&mut self, n: u32) {
        if !self.has(n) {
            return;
        }
        let nu = n as usize;
        if self.nodes[nu].process != Process::Crashed {
            return;
        }
        let pid = 10_000 + self.rng.below(20_000) as u32;
        let now = self.now;
        let node = &mut self.nodes[nu];
        if let Some(saved) = node.saved.take() {
            node.peers = saved.peers;
            node.slot_owner = saved.slot_owner;
            node.unassigned = node.slot_owner.iter().filter(|o| **o == NO_NODE).count() as u32;
            node.current_epoch = saved.current_epoch;
            node.last_vote_epoch = saved.last_vote_epoch;
        }
        node.slots_version += 1;
        node.touch();
        for p in &mut node.peers {
            // clusterLoadConfig: a saved non-zero ping/pong time becomes "now".
            p.set_link(None);
            p.set_ping_sent(if p.ping_sent() != 0 { now } else { 0 });
            p.set_pong_received(if p.pong_received() != 0 { now } else { 0 });
            p.data_received = 0;
            p.reports.clear();
            p.reports_changed();
            p.set_claim_seen(None);
        }
        node.pid = pid;
        node.process = Process::Running;
        node.state_ok = false;
        node.first_call_time = 0;
        node.among_minority_time = 0;
        node.failover_auth_time = 0;
        node.failover_auth_sent = false;
        node.mf_end = 0;
        node.master_seen = now;
        node.iteration = 0;
        node.todo = 0;
        node.stats_sent = [0; 8];
        node.stats_received = [0; 8];
        node.cron_gen += 1;
        let generation = node.cron_gen;
        let name = node.name.clone();
        self.down[nu] = false;
        self.down_count = self.down_count.saturating_sub(1);
        // Its peers' walks skip the reconnect of a refused peer: walk every peer once.
        for other in &mut self.nodes {
            other.walk.dirty = true;
        }
        self.log(n, '*', format!("Node configuration loaded, I'm {name}"));
        // serverCron's first run comes 1 ms after start and runs clusterCron at once.
        self.push(now + 1, Ev::Cron(n, generation));
        self.event(EventKind::Process {
            node: n,
            process: Process::Running,
        });
    }

    /// Writes on a master: its offset advances by `bytes`, and so does every replica that
    /// runs and can hear it. False when the write is not taken: the node is not a running
    /// master, or its writes are paused for a manual failover.
    pub fn write(&mut self, master: u32, bytes: u64) -> bool {
        if !self.has(master) {
            return false;
        }
        let mu = master as usize;
        if self.nodes[mu].process != Process::Running
            || !self.nodes[mu].is_master()
            || self.nodes[mu].paused_until > self.now
        {
            return false;
        }
        self.nodes[mu].repl_offset = self.nodes[mu].repl_offset.saturating_add(bytes);
        let off = self.nodes[mu].repl_offset;
        for i in 0..self.nodes.len() {
            if self.nodes[i].my_master() == Some(master)
                && self.nodes[i].process == Process::Running
                && self.reachable(master, i as u32)
            {
                self.nodes[i].repl_offset = off;
            }
        }
        true
    }

    /// `cluster-replica-no-failover` of one replica.
    pub fn set_nofailover(&mut self, n: u32, on: bool) {
        if !self.has(n) {
            return;
        }
        self.nodes[n as usize].nofailover = on;
        let me = &mut self.nodes[n as usize];
        me.touch();
        if on {
            me.me_mut().flags |= flag::NOFAILOVER;
        } else {
            me.me_mut().flags &= !flag::NOFAILOVER;
        }
    }

    /// Write a log line as `serverLog` would.
    pub(super) fn log(&mut self, n: u32, level: char, text: String) {
        let node = &self.nodes[n as usize];
        self.logs.push(LogLine {
            t: self.now,
            node: n,
            pid: node.pid,
            role: node.role_char(),
            level,
            text,
        });
    }

    pub(super) fn event(&mut self, kind: EventKind) {
        self.events.push(BusEvent { t: self.now, kind });
    }

    /// Record an opinion change of `observer` about `subject`.
    pub(super) fn opinion(&mut self, observer: u32, subject: u32) {
        let f = self.nodes[observer as usize].peers[subject as usize].flags;
        let opinion = if f & flag::FAIL != 0 {
            Opinion::Fail
        } else if f & flag::PFAIL != 0 {
            Opinion::Pfail
        } else {
            Opinion::Ok
        };
        self.event(EventKind::Opinion {
            observer,
            subject,
            opinion,
        });
    }

    /// Index of the node with this port.
    pub fn by_port(&self, port: u16) -> Option<u32> {
        self.nodes
            .iter()
            .position(|n| n.port == port)
            .map(|i| i as u32)
    }

    /// Index of the node with this name.
    pub fn by_name(&self, name: &str) -> Option<u32> {
        self.nodes
            .iter()
            .position(|n| n.name == name)
            .map(|i| i as u32)
    }

    /// A random number in `0..n` from the simulation's generator.
    pub(super) fn random(&mut self, n: u64) -> u64 {
        self.rng.below(n)
    }
}

/// Messages are built from the sender's header fields (`clusterBuildMessageHdr`).
impl Sim {
    pub(super) fn header(&mut self, from: u32, to: u32, kind: MsgType) -> Msg {
        let n = &mut self.nodes[from as usize];
        let master_or_me = if n.is_slave() {
            n.my_master().unwrap_or(from)
        } else {
            from
        };
        let myslots = if n.claim_fresh(master_or_me) {
            n.claim(master_or_me)
        } else {
            // Built anew: share the bitmap another node last built for this owner if equal.
            let bits = n.claim(master_or_me);
            let o = master_or_me as usize;
            if self.claims.len() <= o {
                self.claims.resize(o + 1, None);
            }
            match &self.claims[o] {
                Some(shared) if **shared == *bits => {
                    let shared = shared.clone();
                    n.set_claim(master_or_me, shared.clone());
                    shared
                }
                _ => {
                    self.claims[o] = Some(bits.clone());
                    bits
                }
            }
        };
        let n = &self.nodes[from as usize];
        let me = n.me();
        let config_epoch = if n.is_slave() {
            n.my_master()
                .map(|m| n.peers[m as usize].config_epoch)
                .unwrap_or(me.config_epoch)
        } else {
            me.config_epoch
        };
        let mut sender_flags = me.flags & (flag::MASTER | flag::SLAVE | flag::NOFAILOVER);
        if n.nofailover {
            sender_flags |= flag::NOFAILOVER;
        }
        Msg {
            kind,
            from,
            to,
            reply: false,
            current_epoch: n.current_epoch,
            config_epoch,
            offset: n.repl_offset,
            sender_flags,
            slaveof: if n.is_slave() {
                n.my_master().unwrap_or(NO_NODE)
            } else {
                NO_NODE
            },
            myslots,
            paused: n.is_master() && n.paused_until > self.now,
            forceack: false,
            gossip: Vec::new(),
            about: NO_NODE,
            update_epoch: 0,
            update_slots: None,
        }
    }
}
