//! The Redis Cluster bus, simulated as Redis 7.0.15's `cluster.c` runs it: heartbeats, gossip,
//! failure detection (PFAIL → failure reports → FAIL), elections, epochs, UPDATE, replica
//! migration and manual failover, on a deterministic discrete-event clock.
//!
//! - `sim.rs` — the engine: clock, event queue, network (latency, loss, partitions),
//!   processes (run, SIGSTOP, SIGKILL, restart from the saved `nodes.conf`), writes.
//! - `queue.rs` — the event queue: a timing wheel over milliseconds beside a heap for far
//!   events, popping by time then push order.
//! - `cron.rs` — `clusterCron`, `clusterBeforeSleep`, `clusterUpdateState`, `clusterSendPing`.
//! - `packet.rs` — `clusterProcessPacket` and the gossip section, FAIL marking and clearing.
//! - `failover.rs` — elections, votes, manual failover, migration, `clusterUpdateSlotsConfigWith`.
//! - `node.rs`, `types.rs` — one node's state and its view of the others; messages and sizes.
//! - `reshard.rs` — `CLUSTER SETSLOT … IMPORTING / NODE` and redis-cli's slot move.
//! - `output.rs` — logs in redis-server's format, `CLUSTER NODES`, `CLUSTER INFO`, events.
//! - `rng.rs` — the seeded generator (no wall clock, no system randomness).
//! - `failover_times.rs` — a failover's measured times (`failover_times`).
//! - `scenario/` — ready-made scenarios, free-play scripts and share links, and the
//!   scrub-able timeline a view plays (steps, notable events and their numbers, lost writes).
//! - `measure.rs` — numbers measured by running it: heartbeat traffic (16384 vs 65536 slots),
//!   time to failover against NT over seeds, 2 masters versus 3.
//!
//! Simplifications (documented where they are made): the MEET handshake is folded into the
//! MEET (no temporary random name), replication is an offset that follows the master while
//! both can talk, connecting takes no time of its own (a connect to a killed process fails at
//! the end of the cron that tried it, as the asynchronous refusal does).
//!
//! Its own crate so that it is compiled with `opt-level = 3` while the page is compiled for
//! size; `slotscope::core::bus` re-exports everything here and adds the page's view of it
//! (`ClusterView`: a node's view as a `SlotMap`, every node's view for the command engine).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod cron;
mod failover;
mod failover_times;
pub mod measure;
mod node;
mod output;
mod packet;
mod queue;
mod reshard;
mod rng;
pub mod scenario;
mod sim;
mod types;
mod walk;

pub use failover::{FailoverMode, FailoverRefusal};
pub use failover_times::{failover_times, FailoverTimes};
pub use node::Node;
pub use output::{timestamp, BusEvent, EventKind, LogLine, Opinion};
pub use reshard::SetSlotRefusal;
pub use sim::Sim;
pub use types::{
    flag, Config, List, Msg, MsgType, Peer, PeerCold, Process, SlotBits, MAX_NODES, NO_NODE, SLOTS,
};
pub use types::{FAIL_BYTES, GOSSIP_BYTES, HEADER_BYTES, UPDATE_BYTES};

/// The slot ranges `redis-cli --cluster create` gives `masters` masters
/// (`clusterManagerCommandCreate`: `16384 / masters` per node, rounded).
pub fn create_ranges(masters: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(masters);
    if masters == 0 {
        return out;
    }
    let per = SLOTS as f64 / masters as f64;
    let mut first = 0usize;
    let mut cursor = 0.0f64;
    for i in 0..masters {
        let mut last = (cursor + per - 1.0).round() as usize;
        if last > SLOTS - 1 || i == masters - 1 {
            last = SLOTS - 1;
        }
        out.push((first, last));
        first = last + 1;
        cursor += per;
    }
    out
}

impl Sim {
    /// A cluster as `redis-cli --cluster create` leaves it once every node agrees: `masters`
    /// masters on ports `base_port..`, then one replica per entry of `replica_of` (the index
    /// of its master), config epochs 1..N in port order (`CLUSTER SET-CONFIG-EPOCH`),
    /// `cluster_current_epoch` N, every link up and every state ok. The clock then runs
    /// `warmup_ms` so pings and cron phases are in their steady state.
    pub fn create(
        cfg: Config,
        seed: u64,
        masters: usize,
        replica_of: &[usize],
        base_port: u16,
        warmup_ms: u64,
    ) -> Sim {
        let mut c = Creating::new(cfg, seed, masters, replica_of, base_port);
        while !c.step(usize::MAX) {}
        let mut sim = c.into_sim();
        sim.run_for(warmup_ms);
        sim
    }
}

/// [`Sim::create`] a few nodes at a time, its clock not run (a page creates 1000 nodes, a
/// million peer records, between frames): the same calls in the same order.
pub struct Creating {
    sim: Sim,
    masters: usize,
    replica_of: Vec<usize>,
    base_port: u16,
    total: usize,
    ranges: Vec<(usize, usize)>,
    /// Nodes added so far.
    added: usize,
    /// Nodes set up so far (once all are added).
    set_up: usize,
}

impl Creating {
    /// Ready to create the cluster [`Sim::create`] describes.
    pub fn new(
        cfg: Config,
        seed: u64,
        masters: usize,
        replica_of: &[usize],
        base_port: u16,
    ) -> Creating {
        let mut sim = Sim::new(cfg, seed);
        let masters = masters.min(MAX_NODES);
        // A replica of a master that does not exist is dropped, as are nodes past the cap.
        let replica_of: Vec<usize> = replica_of
            .iter()
            .copied()
            .filter(|m| *m < masters)
            .take(MAX_NODES - masters)
            .collect();
        let total = masters + replica_of.len();
        sim.expect_nodes = total;
        Creating {
            sim,
            masters,
            replica_of,
            base_port,
            total,
            ranges: create_ranges(masters),
            added: 0,
            set_up: 0,
        }
    }

    /// Nodes the cluster will have.
    pub fn nodes(&self) -> usize {
        self.total
    }

    /// The clock (creating does not move it).
    pub fn now(&self) -> u64 {
        self.sim.now
    }

    /// Adds or sets up as many as `n` more nodes: `true` once every node is there.
    pub fn step(&mut self, n: usize) -> bool {
        let mut left = n.max(1);
        while left > 0 && self.added < self.total {
            self.sim
                .add_node(self.base_port.saturating_add(self.added as u16));
            self.added += 1;
            left -= 1;
        }
        while left > 0 && self.set_up < self.total {
            self.set_up_node(self.set_up);
            self.set_up += 1;
            left -= 1;
        }
        self.set_up == self.total
    }

    /// Node `v`'s view: every node known and linked, the slots in `create_ranges` order.
    fn set_up_node(&mut self, v: usize) {
        let (masters, total) = (self.masters, self.total);
        let replica_of = &self.replica_of[..];
        let now = self.sim.now;
        let node = &mut self.sim.nodes[v];
        node.known_list = (0..total as u32).collect();
        for p in 0..total {
            let q = &mut node.peers[p];
            q.set_known(true);
            q.config_epoch = p as u64 + 1;
            q.set_link(if p == v { None } else { Some(now) });
            q.set_pong_received(now);
            q.data_received = now;
            q.flags = if p == v { flag::MYSELF } else { 0 };
            if p < masters {
                q.flags |= flag::MASTER;
            } else {
                q.flags |= flag::SLAVE;
                q.set_master(replica_of.get(p - masters).map(|m| *m as u32));
            }
        }
        for p in masters..total {
            if let Some(m) = replica_of.get(p - masters) {
                node.add_slave(*m as u32, p as u32);
            }
        }
        for (m, (a, b)) in self.ranges.iter().enumerate() {
            for j in *a..=*b {
                node.set_slot(j, m as u32);
            }
        }
        node.current_epoch = total as u64;
        node.state_ok = true;
        node.size = masters as u32;
        node.first_call_time = 1;
        // Every node's table is the same: share one.
        self.sim.intern_slots(v as u32);
    }

    /// The created cluster (every node there once [`Creating::step`] said so), its clock
    /// not run.
    pub fn into_sim(self) -> Sim {
        self.sim
    }
}
