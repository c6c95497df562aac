//! What each node does on its own clock: `clusterCron` (every 100 ms), `clusterBeforeSleep`,
//! `clusterUpdateState`, and the sending side of pings (`clusterSendPing` with its gossip).

use super::node::todo;
use super::output::EventKind;
use super::sim::Sim;
use super::types::{flag, Gossip, MsgType, Process};

/// Gossip sections at least this long read their peers ahead (`send_ping`,
/// `process_gossip`): from 160 nodes on.
pub(super) const READ_AHEAD_FROM: i64 = 16;

/// `CLUSTER_WRITABLE_DELAY`.
const WRITABLE_DELAY: u64 = 2000;
/// `CLUSTER_MIN_REJOIN_DELAY` / `CLUSTER_MAX_REJOIN_DELAY`.
const MIN_REJOIN_DELAY: u64 = 500;
const MAX_REJOIN_DELAY: u64 = 5000;

impl Sim {
    /// `clusterCron`: reconnect links, the once-a-second random ping, the NT/2 pings, link
    /// freeing, PFAIL, then the replica's failover, manual failover and migration, and the
    /// cluster state.
    pub(super) fn cluster_cron(&mut self, n: u32) {
        let nu = n as usize;
        let nt = self.cfg.node_timeout;
        let now = self.now;
        self.nodes[nu].iteration += 1;
        let iteration = self.nodes[nu].iteration;
        self.nodes[nu].pfail_nodes = 0;
        // The cron only appends to `known_list` (never here, in fact): walk it by index
        // rather than cloning a thousand ids ten times a second per node.
        let known_len = self.nodes[nu].known_list.len();

        let (orphaned, max_slaves, this_slaves, update_state) =
            if self.nodes[nu].walk.valid(known_len, nt) && self.nodes[nu].mf_end == 0 {
                self.short_walk(n, iteration)
            } else {
                self.full_walk(n, iteration)
            };

        // The replication link: a replica hears its master while both can talk.
        if let Some(m) = self.nodes[nu].my_master()
            && self.nodes[m as usize].process == Process::Running
            && self.reachable(n, m)
        {
            self.nodes[nu].master_seen = now;
            if self.nodes[m as usize].is_master() {
                let off = self.nodes[m as usize].repl_offset;
                self.nodes[nu].repl_offset = self.nodes[nu].repl_offset.max(off);
            }
        }

        self.manual_failover_check_timeout(n);
        if self.nodes[nu].is_slave() {
            self.handle_manual_failover(n);
            self.handle_slave_failover(n);
            if orphaned > 0
                && max_slaves >= 2
                && this_slaves == max_slaves
                && self.cfg.allow_replica_migration
            {
                self.handle_slave_migration(n, max_slaves);
            }
        }
        if update_state || !self.nodes[nu].state_ok {
            self.update_state(n);
        }
    }

    /// Once a second: ping the node with the oldest PONG among 5 random ones.
    pub(super) fn random_ping(&mut self, n: u32, iteration: u64) {
        let nu = n as usize;
        let known_len = self.nodes[nu].known_list.len();
        if iteration.is_multiple_of(10) {
            let mut best: Option<(u32, u64)> = None;
            for _ in 0..5 {
                let r = self.random(known_len as u64) as usize;
                let pick = self.nodes[nu].known_list[r];
                let p = &self.nodes[nu].peers[pick as usize];
                if p.link().is_none() || p.ping_sent() != 0 {
                    continue;
                }
                if p.flags & (flag::MYSELF | flag::HANDSHAKE) != 0 {
                    continue;
                }
                if best.is_none_or(|(_, t)| t > p.pong_received()) {
                    best = Some((pick, p.pong_received()));
                }
            }
            if let Some((pick, _)) = best {
                self.send_ping(n, pick, MsgType::Ping, false);
            }
        }
    }

    /// `clusterBeforeSleep`: what packets asked to be done once the event loop is idle.
    pub(super) fn before_sleep(&mut self, n: u32) {
        let nu = n as usize;
        let flags = self.nodes[nu].todo;
        self.nodes[nu].todo = 0;
        if flags & todo::HANDLE_MANUALFAILOVER != 0 {
            if self.nodes[nu].is_slave() {
                self.handle_manual_failover(n);
                self.handle_slave_failover(n);
            }
        } else if flags & todo::HANDLE_FAILOVER != 0 {
            self.handle_slave_failover(n);
        }
        if flags & todo::UPDATE_STATE != 0 {
            self.update_state(n);
        }
    }

    /// `clusterUpdateState`: ok or fail, with the writable delay after start and the rejoin
    /// delay of a master coming back from the minority.
    pub(super) fn update_state(&mut self, n: u32) {
        let nu = n as usize;
        let now = self.now;
        let nt = self.cfg.node_timeout;
        let node = &mut self.nodes[nu];
        node.todo &= !todo::UPDATE_STATE;
        if node.first_call_time == 0 {
            node.first_call_time = now.max(1);
        }
        if node.is_master() && !node.state_ok && now - node.first_call_time < WRITABLE_DELAY {
            return;
        }
        // Full coverage: no slot without an owner, no owner FAIL (counted per owner rather
        // than per slot: the same answer as Redis's loop over the 16384 slots).
        let mut ok = true;
        if self.cfg.require_full_coverage {
            ok = node.unassigned == 0
                && !node.known_list.iter().any(|p| {
                    node.peers[*p as usize].numslots > 0 && node.peers[*p as usize].failed()
                });
        }
        let mut size = 0u32;
        let mut reachable = 0u32;
        for &p in &node.known_list {
            let q = &node.peers[p as usize];
            if q.is_master() && q.numslots > 0 {
                size += 1;
                if q.flags & (flag::FAIL | flag::PFAIL) == 0 {
                    reachable += 1;
                }
            }
        }
        node.size = size;
        if reachable < size / 2 + 1 {
            ok = false;
            node.among_minority_time = now;
        }
        if ok != node.state_ok {
            let rejoin = nt.clamp(MIN_REJOIN_DELAY, MAX_REJOIN_DELAY);
            let minority = node.among_minority_time != 0;
            if ok && node.is_master() && minority && now - node.among_minority_time < rejoin {
                return;
            }
            node.state_ok = ok;
            self.log(
                n,
                '#',
                format!("Cluster state changed: {}", if ok { "ok" } else { "fail" }),
            );
            self.event(EventKind::State { node: n, ok });
        }
    }

    /// `clusterSendPing`: a PING, PONG or MEET with `max(3, nodes/10)` random gossip entries
    /// (capped at nodes − 2), then every node in PFAIL.
    pub(super) fn send_ping(&mut self, from: u32, to: u32, kind: MsgType, reply: bool) {
        let fu = from as usize;
        self.nodes[fu].pings_sent_counter += 1;
        let known = self.nodes[fu].known_list.len() as i64;
        let mut freshnodes = known - 2;
        let mut wanted = (known / 10).max(3);
        if wanted > freshnodes {
            wanted = freshnodes;
        }
        if !reply && kind == MsgType::Ping {
            self.nodes[fu].peers[to as usize].set_ping_sent(self.now);
            // Its link may be freed NT/2 later, at the earliest.
            let t = self
                .now
                .saturating_add(self.cfg.node_timeout / 2)
                .saturating_add(1);
            self.nodes[fu].walk.due_at(to, t);
        }
        let mut msg = self.header(from, to, kind);
        msg.reply = reply;
        let mut maxiter = wanted * 3;
        let mut gossip: Vec<Gossip> = Vec::with_capacity(wanted.max(0) as usize);
        let rng = &mut self.rng;
        let node = &self.nodes[fu];
        // Which nodes this message already gossips about (Redis marks each node with the
        // message's counter, `last_in_ping_gossip`: the same test, without a write to each
        // picked record). All clear between messages.
        let marks = &mut self.gossip_marks;
        let len = node.known_list.len() as u64;
        // In a created cluster the r-th known node is node r: the pick skips a read of
        // `known_list` (a cache miss of its own in a big cluster, before the peer's).
        let identity = node.walk.known_is_identity(node.known_list.len());
        let pick_at = |r: usize| -> Option<u32> {
            if identity {
                debug_assert_eq!(node.known_list.get(r), Some(&(r as u32)));
                Some(r as u32)
            } else {
                node.known_list.get(r).copied()
            }
        };
        // In a big cluster each pick is a cache miss: draw the first `wanted` picks at once
        // and load the peers they land on together (their misses overlap) before the loop
        // takes them one at a time. The loop draws at least `wanted` numbers (it stops at
        // `wanted` entries, at `3 × wanted` draws, or when `freshnodes ≥ wanted` are spent),
        // so the generator advances exactly as it would draw by draw. What the pick reads is
        // in the record's hot part (`Peer`), which may straddle two cache lines: `hot_bits`
        // reads its first and last fields.
        let ahead = &mut self.picks;
        ahead.clear();
        if wanted >= READ_AHEAD_FROM {
            // Drawn first, loaded in a loop of their own: a short loop body lets the CPU
            // keep more of the loads in flight at once.
            for _ in 0..wanted {
                ahead.push(rng.below(len) as u32);
            }
            let mut acc = 0u64;
            for &r in ahead.iter() {
                if let Some(pick) = pick_at(r as usize)
                    && let Some(p) = node.peers.get(pick as usize)
                {
                    acc ^= p.hot_bits();
                }
            }
            std::hint::black_box(acc);
        }
        let mut drawn = 0usize;
        while freshnodes > 0 && (gossip.len() as i64) < wanted && maxiter > 0 {
            maxiter -= 1;
            let r = match ahead.get(drawn) {
                Some(r) => *r as usize,
                None => rng.below(len) as usize,
            };
            drawn += 1;
            let Some(pick) = pick_at(r) else {
                continue;
            };
            if pick == from {
                continue;
            }
            let Some(p) = node.peers.get(pick as usize) else {
                continue;
            };
            if p.flags & flag::PFAIL != 0 {
                continue;
            }
            if p.flags & (flag::HANDSHAKE | flag::NOADDR) != 0 || (!p.has_link() && p.numslots == 0)
            {
                freshnodes -= 1;
                continue;
            }
            let (word, bit) = (pick as usize / 64, 1u64 << (pick % 64));
            let Some(mark) = marks.get_mut(word) else {
                continue;
            };
            if *mark & bit != 0 {
                continue;
            }
            gossip.push(Gossip::about(pick as u16, p));
            *mark |= bit;
            freshnodes -= 1;
        }
        debug_assert!(
            drawn >= ahead.len(),
            "drew fewer picks than were read ahead"
        );
        for g in &gossip {
            if let Some(mark) = marks.get_mut(usize::from(g.node) / 64) {
                *mark = 0;
            }
        }
        let pfail = self.nodes[fu].pfail_nodes;
        if pfail > 0 {
            let mut left = pfail;
            for &p in &self.nodes[fu].known_list {
                if left == 0 {
                    break;
                }
                let q = &self.nodes[fu].peers[p as usize];
                if q.flags & (flag::HANDSHAKE | flag::NOADDR) != 0 || q.flags & flag::PFAIL == 0 {
                    continue;
                }
                gossip.push(Gossip::about(p as u16, q));
                left -= 1;
            }
        }
        msg.gossip = gossip;
        self.send(msg);
    }

    /// `clusterBroadcastPong`: a PONG to every connected node, or only to the replicas of
    /// our master (`CLUSTER_BROADCAST_LOCAL_SLAVES`).
    pub(super) fn broadcast_pong(&mut self, n: u32, local_slaves: bool) {
        let nu = n as usize;
        let known = self.nodes[nu].known_list.clone();
        let master = if self.nodes[nu].is_master() {
            Some(n)
        } else {
            self.nodes[nu].my_master()
        };
        for p in known {
            let q = &self.nodes[nu].peers[p as usize];
            if p == n || q.link().is_none() || q.flags & (flag::HANDSHAKE | flag::NOADDR) != 0 {
                continue;
            }
            if local_slaves && !(q.is_slave() && q.master().is_some() && q.master() == master) {
                continue;
            }
            self.send_ping(n, p, MsgType::Pong, false);
        }
    }

    /// `clusterBroadcastMessage`: one message type to every connected node.
    pub(super) fn broadcast(&mut self, n: u32, kind: MsgType, about: u32, forceack: bool) {
        let nu = n as usize;
        let known = self.nodes[nu].known_list.clone();
        for p in known {
            let q = &self.nodes[nu].peers[p as usize];
            if p == n || q.link().is_none() || q.flags & (flag::HANDSHAKE | flag::NOADDR) != 0 {
                continue;
            }
            let mut m = self.header(n, p, kind);
            m.about = about;
            m.forceack = forceack;
            self.send(m);
        }
    }
}
