//! One node's own state (`clusterState`, the process, replication offset) and the helpers of
//! cluster.c that change its view: `clusterSetNodeAsMaster`, `clusterNodeAddSlave`,
//! `clusterAddSlot` / `clusterDelSlot`, failure reports (`clusterNodeAddFailureReport`, …).

use super::types::{flag, Msg, Peer, Process, SlotBits, NO_NODE, SLOTS};
use super::walk::Walk;
use std::collections::VecDeque;
use std::rc::Rc;

/// `todo_before_sleep` bits (`CLUSTER_TODO_*`).
pub mod todo {
    pub const HANDLE_FAILOVER: u8 = 1;
    pub const UPDATE_STATE: u8 = 2;
    pub const SAVE_CONFIG: u8 = 4;
    pub const HANDLE_MANUALFAILOVER: u8 = 8;
}

/// `CLUSTER_CANT_FAILOVER_*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CantFailover {
    None,
    DataAge,
    WaitingDelay,
    Expired,
    WaitingVotes,
}

/// What a node writes to `nodes.conf` and reads back on restart (`clusterLoadConfig`).
#[derive(Clone, Debug)]
pub struct Saved {
    pub peers: Vec<Peer>,
    pub slot_owner: Rc<Vec<u32>>,
    pub current_epoch: u64,
    pub last_vote_epoch: u64,
}

/// A node: its process and its `clusterState`.
#[derive(Clone, Debug)]
pub struct Node {
    /// This node's index in `Sim::nodes` (its identity inside the simulation).
    pub ix: u32,
    /// Its 40-hex-digit node id.
    pub name: String,
    /// Its client port (the bus port is port + 10000).
    pub port: u16,
    /// The process id its log lines carry (a new one after a restart).
    pub pid: u32,
    /// Running, stopped (SIGSTOP) or killed.
    pub process: Process,
    /// Every node as this node knows it, itself included (`server.cluster->nodes`).
    pub peers: Vec<Peer>,
    /// The nodes this node knows (its dict's keys), itself included, in the order it met them.
    pub known_list: Vec<u32>,
    /// `server.cluster->slots`: the owner of each slot, or `NO_NODE`. Shared (copy on write)
    /// between nodes whose tables are equal, so a steady 1000-node cluster holds one table
    /// instead of a thousand 64 KB copies.
    pub slot_owner: Rc<Vec<u32>>,
    /// How many slots have no owner in `slot_owner`.
    pub unassigned: u32,
    /// Bumped on every change of `slot_owner` (invalidates cached claims).
    pub slots_version: u64,
    /// `currentEpoch`.
    pub current_epoch: u64,
    /// `lastVoteEpoch`: the epoch of its last vote.
    pub last_vote_epoch: u64,
    /// `cluster_state:ok` (else fail).
    pub state_ok: bool,
    /// `cluster_size`: masters that own at least one slot, as of the last state update.
    pub size: u32,
    /// `failover_auth_time`: when this replica's election may start (0: never set).
    pub failover_auth_time: u64,
    /// `failover_auth_count`: votes received.
    pub failover_auth_count: u32,
    /// `failover_auth_sent`: the vote request went out.
    pub failover_auth_sent: bool,
    /// `failover_auth_rank`.
    pub failover_auth_rank: u32,
    /// `failover_auth_epoch`: the epoch the votes are for.
    pub failover_auth_epoch: u64,
    /// `cant_failover_reason` (the last logged one).
    pub cant_failover_reason: CantFailover,
    /// When that reason was last logged (seconds).
    pub cant_failover_lastlog: u64,
    /// `mf_end`: the manual failover's deadline (0: none in progress).
    pub mf_end: u64,
    /// `mf_can_start`.
    pub mf_can_start: bool,
    /// `mf_slave`: the replica a master is failing over to (`NO_NODE`: none).
    pub mf_slave: u32,
    /// `mf_master_offset`: the paused master's offset (-1: not yet received).
    pub mf_master_offset: i64,
    /// The replication offset the node has (a master's `master_repl_offset`, a replica's
    /// processed offset).
    pub repl_offset: u64,
    /// A replica: the last instant its master's replication link was alive.
    pub master_seen: u64,
    /// `clusterCron`'s iteration counter (the random ping every 10th).
    pub iteration: u64,
    /// `cluster_pings_sent`: messages with gossip sent.
    pub pings_sent_counter: u64,
    /// `clusterUpdateState`'s first call (the writable delay of a master).
    pub first_call_time: u64,
    /// `among_minority_time`: last time this node saw itself in the minority.
    pub among_minority_time: u64,
    /// `todo_before_sleep` bits (`node::todo`).
    pub todo: u8,
    /// Offset of its 100 ms cron within the second.
    pub cron_phase: u64,
    /// The process generation whose cron timer is live (a restart starts a new one).
    pub cron_gen: u32,
    /// `cluster-replica-no-failover`.
    pub nofailover: bool,
    /// Messages that reached a stopped process, read when it resumes.
    pub inbox: VecDeque<Msg>,
    /// What its `nodes.conf` held when it was killed.
    pub saved: Option<Box<Saved>>,
    /// The cached `myslots` this node sends: table version, owner, bitmap.
    pub claim_cache: Option<(u64, u32, Rc<SlotBits>)>,
    /// `cluster_stats_messages_<type>_sent`, by `MsgType::stat_index`.
    pub stats_sent: [u64; 8],
    /// `cluster_stats_messages_<type>_received`.
    pub stats_received: [u64; 8],
    /// `stats_pfail_nodes`: nodes in PFAIL at the last cron.
    pub pfail_nodes: u32,
    /// Slots being imported (`importing_slots_from`): slot and source.
    pub importing: Vec<(u16, u32)>,
    /// The process's write-pause deadline during a manual failover (a master).
    pub paused_until: u64,
    /// When each peer is next due in `clusterCron`'s walk (`walk.rs`).
    pub(super) walk: Walk,
}

impl Node {
    /// The me (see the module docs).
    pub fn me(&self) -> &Peer {
        &self.peers[self.ix as usize]
    }
    /// The me mut (see the module docs).
    pub fn me_mut(&mut self) -> &mut Peer {
        let i = self.ix as usize;
        &mut self.peers[i]
    }
    /// The is master (see the module docs).
    pub fn is_master(&self) -> bool {
        self.me().is_master()
    }
    /// The is slave (see the module docs).
    pub fn is_slave(&self) -> bool {
        self.me().is_slave()
    }
    /// The my master (see the module docs).
    pub fn my_master(&self) -> Option<u32> {
        self.me().master()
    }
    /// Something `clusterCron`'s walk reads changed (flags, roles, replicas, slot counts, a
    /// link dropped): its next cron walks every peer.
    pub(super) fn touch(&mut self) {
        self.walk.dirty = true;
    }

    /// `clusterAddSlot` after `clusterDelSlot`: give `slot` to `owner` in this view.
    pub fn set_slot(&mut self, slot: usize, owner: u32) {
        let old = self.slot_owner[slot];
        if old == owner {
            return;
        }
        if old != NO_NODE {
            if let Some(p) = self.peers.get_mut(old as usize) {
                p.numslots = p.numslots.saturating_sub(1);
            }
        } else {
            self.unassigned = self.unassigned.saturating_sub(1);
        }
        if owner == NO_NODE {
            self.unassigned += 1;
        }
        Rc::make_mut(&mut self.slot_owner)[slot] = owner;
        self.walk.dirty = true;
        if owner != NO_NODE
            && let Some(p) = self.peers.get_mut(owner as usize)
        {
            p.numslots += 1;
        }
        self.slots_version += 1;
    }

    /// `clusterDelNodeSlots`.
    pub fn del_node_slots(&mut self, n: u32) {
        if self.peers[n as usize].numslots == 0 {
            return;
        }
        for j in 0..SLOTS {
            if self.slot_owner[j] == n {
                self.set_slot(j, NO_NODE);
            }
        }
    }

    /// The slots `n` owns in this view, as a bitmap.
    pub fn slots_of(&self, n: u32) -> Rc<SlotBits> {
        let mut bits = SlotBits::empty();
        for (j, o) in self.slot_owner.iter().enumerate() {
            if *o == n {
                bits.set(j);
            }
        }
        Rc::new(bits)
    }

    /// The `myslots` this node sends (its master's slots, or its own), cached until its
    /// table or role changes, so every message of a steady node shares one bitmap.
    pub fn claim(&mut self, n: u32) -> Rc<SlotBits> {
        if let Some((v, who, bits)) = &self.claim_cache
            && *v == self.slots_version
            && *who == n
        {
            return bits.clone();
        }
        let bits = self.slots_of(n);
        self.claim_cache = Some((self.slots_version, n, bits.clone()));
        bits
    }

    /// Whether `claim(n)` would answer from its cache.
    pub(super) fn claim_fresh(&self, n: u32) -> bool {
        matches!(&self.claim_cache, Some((v, who, _)) if *v == self.slots_version && *who == n)
    }

    /// Replace the cached claim for `n` by an equal bitmap (shared with other nodes).
    pub(super) fn set_claim(&mut self, n: u32, bits: Rc<SlotBits>) {
        self.claim_cache = Some((self.slots_version, n, bits));
    }

    /// Whether `claimed` is exactly the set of slots `n` owns in this view: the counts, then
    /// each claimed slot's owner (no bitmap built).
    pub fn claims_match(&self, n: u32, claimed: &SlotBits) -> bool {
        if claimed.count() != u32::from(self.peers[n as usize].numslots) {
            return false;
        }
        for (w, word) in claimed.0.iter().enumerate() {
            let mut bits = *word;
            while bits != 0 {
                let j = w * 64 + bits.trailing_zeros() as usize;
                if self.slot_owner[j] != n {
                    return false;
                }
                bits &= bits - 1;
            }
        }
        true
    }

    /// `clusterNodeRemoveSlave`.
    pub fn remove_slave(&mut self, master: u32, slave: u32) {
        self.touch();
        let m = &mut self.peers[master as usize];
        m.slaves.retain(|s| *s != slave);
        if m.slaves.is_empty() {
            m.flags &= !flag::MIGRATE_TO;
        }
    }

    /// `clusterNodeAddSlave`.
    pub fn add_slave(&mut self, master: u32, slave: u32) {
        self.touch();
        let m = &mut self.peers[master as usize];
        if !m.slaves.contains(&slave) {
            m.slaves.push(slave);
        }
        m.flags |= flag::MIGRATE_TO;
    }

    /// `clusterSetNodeAsMaster`.
    pub fn set_node_as_master(&mut self, n: u32) {
        if self.peers[n as usize].is_master() {
            return;
        }
        self.touch();
        if let Some(m) = self.peers[n as usize].master() {
            self.remove_slave(m, n);
            if n != self.ix {
                self.peers[n as usize].flags |= flag::MIGRATE_TO;
            }
        }
        let p = &mut self.peers[n as usize];
        p.flags &= !flag::SLAVE;
        p.flags |= flag::MASTER;
        p.set_master(None);
        self.todo |= todo::SAVE_CONFIG | todo::UPDATE_STATE;
    }

    /// Record that `sender` (a node known to be a master) sees `n` as failing; true if new
    /// (`clusterNodeAddFailureReport`).
    pub fn add_failure_report(&mut self, n: u32, sender: u32, now: u64) -> bool {
        let p = &mut self.peers[n as usize];
        for r in p.reports.iter_mut() {
            if r.0 == sender {
                r.1 = now;
                return false;
            }
        }
        p.reports.push((sender, now));
        p.reports_changed();
        true
    }

    /// `clusterNodeDelFailureReport`: true if there was one.
    pub fn del_failure_report(&mut self, n: u32, sender: u32, nt: u64, now: u64) -> bool {
        self.cleanup_reports(n, nt, now);
        let p = &mut self.peers[n as usize];
        let before = p.reports.len();
        p.reports.retain(|r| r.0 != sender);
        p.reports_changed();
        before != p.reports.len()
    }

    /// `clusterNodeCleanupFailureReports`: reports older than 2 × NT are dropped.
    pub fn cleanup_reports(&mut self, n: u32, nt: u64, now: u64) {
        let maxtime = nt * 2;
        let p = &mut self.peers[n as usize];
        if p.has_reports() {
            p.reports.retain(|r| now.saturating_sub(r.1) <= maxtime);
            p.reports_changed();
        }
    }

    /// `clusterNodeFailureReportsCount` (after the cleanup).
    pub fn failure_reports(&mut self, n: u32, nt: u64, now: u64) -> usize {
        self.cleanup_reports(n, nt, now);
        self.peers[n as usize].reports.len()
    }

    /// `clusterCountNonFailingSlaves`.
    pub fn ok_slaves(&self, m: u32) -> u32 {
        self.peers[m as usize]
            .slaves
            .iter()
            .filter(|s| !self.peers[**s as usize].failed())
            .count() as u32
    }

    /// The replica's role letter in the log (`server.masterhost ? 'S' : 'M'`).
    pub fn role_char(&self) -> char {
        if self.is_slave() {
            'S'
        } else {
            'M'
        }
    }
}
