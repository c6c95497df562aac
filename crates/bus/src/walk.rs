//! The speed-up of `clusterCron`'s walk over the peers: each node keeps, per peer, the earliest
//! instant at which the walk can do anything about it (free its link, send the NT/2 ping, flag
//! it PFAIL), in a min-heap, so a cron visits only the peers that are due instead of all N of
//! them ten times a second. Whatever else the walk reads (flags, roles, replicas, slot counts,
//! links that are down, the node's own role or manual failover) marks the node `dirty` when it
//! changes, and the next cron walks every peer as Redis does. Same effects, same order, same
//! random numbers: a debug build checks each shortened walk against the full rules.

use super::output::EventKind;
use super::sim::Sim;
use super::types::{flag, MsgType, Peer, MAX_NODES};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Bits of a heap key that hold the peer's index (the deadline is shifted above them).
const PEER_BITS: u32 = 10;
const _: () = assert!(MAX_NODES <= 1 << PEER_BITS);
/// The latest deadline a key can hold (later ones are stored as this: still never reached).
const MAX_DEADLINE: u64 = u64::MAX >> PEER_BITS;

/// One node's cache of its cron walk.
#[derive(Clone, Debug)]
pub struct Walk {
    /// The next cron walks every peer (something the walk reads changed).
    pub dirty: bool,
    /// The node timeout the deadlines were computed with.
    nt: u64,
    /// How many peers the node knew then.
    known: usize,
    /// Deadline and peer (`deadline << PEER_BITS | peer`), earliest first; stale keys (whose
    /// deadline is not the peer's `sched`) are dropped when they come up.
    heap: BinaryHeap<Reverse<u64>>,
    /// Each peer's scheduled deadline (`u64::MAX`: none).
    sched: Vec<u64>,
    /// Each peer's position in `known_list` (the order the walk acts in); empty when every
    /// peer's position is its index (a created cluster), so a thousand nodes save 4 MB.
    pos: Vec<u32>,
    /// What the last full walk counted: `pfail_nodes`, and for a replica the orphaned
    /// masters, the most working replicas of a master and those of its own master.
    pub pfail: u32,
    pub orphaned: u32,
    pub max_slaves: u32,
    pub this_slaves: u32,
    /// The peers whose connection the last full walk found refused (killed processes), in
    /// `known_list` order: every later walk reconnects them before the random ping, runs their
    /// rules with the due peers and finds them refused again at its end, as the full walk
    /// does, without walking every peer (a restart marks every node dirty).
    pub refused: Vec<u32>,
}

impl Default for Walk {
    fn default() -> Self {
        Walk {
            dirty: true,
            nt: 0,
            known: 0,
            heap: BinaryHeap::new(),
            sched: Vec::new(),
            pos: Vec::new(),
            pfail: 0,
            orphaned: 0,
            max_slaves: 0,
            this_slaves: 0,
            refused: Vec::new(),
        }
    }
}

/// The earliest instant at which `clusterCron`'s per-peer rules can act on `q` if nothing
/// about it changes before: `u64::MAX` never, 0 at once (no link: the reconnect).
pub fn deadline(q: &Peer, nt: u64) -> u64 {
    if q.flags & (flag::MYSELF | flag::NOADDR | flag::HANDSHAKE) != 0 {
        return u64::MAX;
    }
    let Some(ctime) = q.link() else { return 0 };
    if q.ping_sent() == 0 {
        // The NT/2 ping: now − pong_received > NT/2.
        return q.pong_received().saturating_add(nt / 2).saturating_add(1);
    }
    // The link is freed when it is older than NT and both the ping and the last data are
    // older than NT/2.
    let free = ctime
        .saturating_add(nt)
        .max(q.ping_sent().saturating_add(nt / 2))
        .max(q.data_received.saturating_add(nt / 2))
        .saturating_add(1);
    // PFAIL once both are older than NT.
    let pfail = if q.flags & (flag::PFAIL | flag::FAIL) == 0 {
        q.ping_sent()
            .max(q.data_received)
            .saturating_add(nt)
            .saturating_add(1)
    } else {
        u64::MAX
    };
    free.min(pfail)
}

impl Walk {
    /// `p`'s rules may act from `t` on (a ping went out, or a pong came back): schedule it if
    /// that is earlier than what is scheduled.
    pub fn due_at(&mut self, p: u32, t: u64) {
        if self.dirty {
            return;
        }
        let Some(s) = self.sched.get_mut(p as usize) else {
            return;
        };
        let t = t.min(MAX_DEADLINE);
        if t < *s {
            *s = t;
            self.heap.push(Reverse((t << PEER_BITS) | u64::from(p)));
        }
    }

    /// After a full walk: every known peer's deadline, from scratch.
    pub fn rebuild(&mut self, known_list: &[u32], peers: &[Peer], nt: u64) {
        self.nt = nt;
        self.known = known_list.len();
        self.sched.clear();
        self.sched.resize(peers.len(), u64::MAX);
        self.pos.clear();
        let identity = known_list.iter().enumerate().all(|(i, p)| *p as usize == i);
        if !identity {
            self.pos.resize(peers.len(), u32::MAX);
        }
        let mut keys = std::mem::take(&mut self.heap).into_vec();
        keys.clear();
        for (i, &p) in known_list.iter().enumerate() {
            let Some(q) = peers.get(p as usize) else {
                continue;
            };
            if let Some(slot) = self.pos.get_mut(p as usize) {
                *slot = i as u32;
            }
            let d = deadline(q, nt);
            if d != u64::MAX {
                let d = d.min(MAX_DEADLINE);
                self.sched[p as usize] = d;
                keys.push(Reverse((d << PEER_BITS) | u64::from(p)));
            }
        }
        self.heap = BinaryHeap::from(keys);
    }

    /// Whether `known_list` (now `known` long) is `0, 1, 2, …` (a created cluster's): true
    /// when the last rebuild found it so at this length (the list only ever grows).
    pub fn known_is_identity(&self, known: usize) -> bool {
        known > 0 && self.known == known && self.pos.is_empty()
    }

    /// Whether the cache still describes this node (same timeout, same peers, not dirty).
    pub fn valid(&self, known: usize, nt: u64) -> bool {
        !self.dirty && self.known == known && self.nt == nt
    }

    /// Take the peers due at `now` out of the heap, in `known_list` order, into `out`.
    pub fn take_due(&mut self, now: u64, out: &mut Vec<u32>) {
        out.clear();
        while let Some(&Reverse(k)) = self.heap.peek() {
            let t = k >> PEER_BITS;
            if t > now {
                break;
            }
            self.heap.pop();
            let p = (k & ((1 << PEER_BITS) - 1)) as usize;
            if self.sched.get(p) != Some(&t) {
                continue;
            }
            self.sched[p] = u64::MAX;
            out.push(p as u32);
        }
        self.sort_walk_order(out);
    }

    /// Sort peers into `known_list` order (the order the walk acts in).
    pub fn sort_walk_order(&self, out: &mut [u32]) {
        if out.len() > 1 {
            let pos = &self.pos;
            if pos.is_empty() {
                out.sort_unstable();
            } else {
                out.sort_unstable_by_key(|p| pos.get(*p as usize).copied().unwrap_or(u32::MAX));
            }
        }
    }

    /// Schedule `p` again from its current fields (after the walk looked at it).
    pub fn reschedule(&mut self, p: u32, q: &Peer) {
        let d = deadline(q, self.nt);
        if d != u64::MAX {
            self.due_at(p, d);
        }
    }
}

impl Sim {
    /// `clusterCron`'s walk over every peer, as Redis does it (reconnect, the once-a-second
    /// random ping, then each peer's rules, then the refused connections); afterwards, unless
    /// something it read changed meanwhile, each peer's next deadline. Returns the replica
    /// counts and whether a peer became PFAIL.
    pub(super) fn full_walk(&mut self, n: u32, iteration: u64) -> (u32, u32, u32, bool) {
        let nu = n as usize;
        let now = self.now;
        let nt = self.cfg.node_timeout;
        let known_len = self.nodes[nu].known_list.len();
        self.nodes[nu].walk.dirty = false;
        // clusterNodeCronHandleReconnect
        let mut pfail_nodes = 0u32;
        for i in 0..known_len {
            let p = self.nodes[nu].known_list[i];
            let (pflags, plink) = {
                let peer = &self.nodes[nu].peers[p as usize];
                (peer.flags, peer.link())
            };
            if pflags & (flag::MYSELF | flag::NOADDR) != 0 {
                continue;
            }
            if pflags & flag::PFAIL != 0 {
                pfail_nodes += 1;
            }
            if plink.is_none() {
                // Counted so far, for the gossip of the PING sent here.
                self.nodes[nu].pfail_nodes = pfail_nodes;
                self.nodes[nu].peers[p as usize].set_link(Some(now));
                let target_up = !self.down[p as usize];
                if target_up && self.reachable(n, p) {
                    // clusterLinkConnectHandler: the first packet keeps an older ping_sent.
                    let old = self.nodes[nu].peers[p as usize].ping_sent();
                    let meet = self.nodes[nu].peers[p as usize].flags & flag::MEET != 0;
                    let kind = if meet { MsgType::Meet } else { MsgType::Ping };
                    self.send_ping(n, p, kind, false);
                    if old != 0 {
                        self.nodes[nu].peers[p as usize].set_ping_sent(old);
                    }
                    self.nodes[nu].peers[p as usize].flags &= !flag::MEET;
                }
            }
        }
        self.nodes[nu].pfail_nodes = pfail_nodes;

        self.random_ping(n, iteration);

        let mut orphaned = 0u32;
        let mut max_slaves = 0u32;
        let mut this_slaves = 0u32;
        let mut update_state = false;
        let i_am_slave = self.nodes[nu].is_slave();
        let my_master = self.nodes[nu].my_master();
        for i in 0..known_len {
            let p = self.nodes[nu].known_list[i];
            let pu = p as usize;
            let flags = self.nodes[nu].peers[pu].flags;
            if flags & (flag::MYSELF | flag::NOADDR | flag::HANDSHAKE) != 0 {
                continue;
            }
            if i_am_slave && flags & flag::MASTER != 0 && flags & flag::FAIL == 0 {
                let ok = self.nodes[nu].ok_slaves(p);
                if ok == 0 && self.nodes[nu].peers[pu].numslots > 0 && flags & flag::MIGRATE_TO != 0
                {
                    orphaned += 1;
                }
                max_slaves = max_slaves.max(ok);
                if my_master == Some(p) {
                    this_slaves = ok;
                }
            }
            if self.cron_peer(n, p) {
                update_state = true;
            }
        }

        // Connections to killed processes fail (asynchronously, after this cron). They are
        // remembered rather than marking the walk dirty: the short walk handles them.
        let mut refused = std::mem::take(&mut self.nodes[nu].walk.refused);
        refused.clear();
        for i in 0..known_len {
            if self.down_count == 0 {
                break;
            }
            let p = self.nodes[nu].known_list[i];
            if p != n && self.down[p as usize] && self.nodes[nu].peers[p as usize].link().is_some()
            {
                refused.push(p);
            }
        }
        self.refuse(n, &refused);
        self.nodes[nu].walk.refused = refused;

        let node = &mut self.nodes[nu];
        if !node.walk.dirty {
            node.walk.rebuild(&node.known_list, &node.peers, nt);
            node.walk.pfail = pfail_nodes;
            node.walk.orphaned = orphaned;
            node.walk.max_slaves = max_slaves;
            node.walk.this_slaves = this_slaves;
        }
        (orphaned, max_slaves, this_slaves, update_state)
    }

    /// The walk when nothing it reads changed since the last full one: the random ping, then
    /// the rules of the peers whose deadline has come, in `known_list` order; the counts are
    /// the full walk's.
    pub(super) fn short_walk(&mut self, n: u32, iteration: u64) -> (u32, u32, u32, bool) {
        let nu = n as usize;
        let now = self.now;
        self.nodes[nu].pfail_nodes = self.nodes[nu].walk.pfail;
        // clusterNodeCronHandleReconnect for the peers refused last time: still killed (a
        // restart makes the walk full), so the new link sends nothing.
        let refused = std::mem::take(&mut self.nodes[nu].walk.refused);
        for &p in &refused {
            self.nodes[nu].peers[p as usize].set_link(Some(now));
        }
        self.random_ping(n, iteration);
        let mut due = std::mem::take(&mut self.due);
        self.nodes[nu].walk.take_due(now, &mut due);
        if !refused.is_empty() {
            // Their rules run every cron, in `known_list` order with the due peers.
            due.extend_from_slice(&refused);
            self.nodes[nu].walk.sort_walk_order(&mut due);
            due.dedup();
        }
        if due.len() > 1 {
            // Each due peer is a cache miss in a big cluster (its hot record, then its cold
            // one): load them all first so the misses overlap.
            let peers = &self.nodes[nu].peers;
            let mut acc = 0u64;
            for &p in &due {
                if let Some(q) = peers.get(p as usize) {
                    acc ^= q.hot_bits() ^ q.data_received;
                }
            }
            std::hint::black_box(acc);
        }
        #[cfg(debug_assertions)]
        self.check_walk(n, &due, &refused);
        let mut update_state = false;
        for &p in &due {
            let flags = self.nodes[nu].peers[p as usize].flags;
            if flags & (flag::MYSELF | flag::NOADDR | flag::HANDSHAKE) == 0 && self.cron_peer(n, p)
            {
                update_state = true;
            }
            let node = &mut self.nodes[nu];
            node.walk.reschedule(p, &node.peers[p as usize]);
        }
        self.due = due;
        self.refuse(n, &refused);
        self.nodes[nu].walk.refused = refused;
        let w = &self.nodes[nu].walk;
        (w.orphaned, w.max_slaves, w.this_slaves, update_state)
    }

    /// The connections to these killed peers fail: no link, and the log line.
    fn refuse(&mut self, n: u32, refused: &[u32]) {
        let nu = n as usize;
        for &p in refused {
            let pu = p as usize;
            self.nodes[nu].peers[pu].set_link(None);
            let (name, port) = (self.nodes[pu].name.clone(), self.nodes[pu].port);
            self.log(
                n,
                '-',
                format!(
                    "Connection with Node {name} at 127.0.0.1:{} failed: Connection refused",
                    u32::from(port) + 10000
                ),
            );
        }
    }

    /// One peer's rules in `clusterCron`: free a link that has been silent too long, the NT/2
    /// ping, the manual failover's ping to its replica, PFAIL. True if it flagged PFAIL.
    fn cron_peer(&mut self, n: u32, p: u32) -> bool {
        let nu = n as usize;
        let pu = p as usize;
        let now = self.now;
        let nt = self.cfg.node_timeout;
        let (flags, ping_sent, data_received, pong_received, link) = {
            let q = &self.nodes[nu].peers[pu];
            (
                q.flags,
                q.ping_sent(),
                q.data_received,
                q.pong_received(),
                q.link(),
            )
        };
        let ping_delay = now.saturating_sub(ping_sent);
        let data_delay = now.saturating_sub(data_received);
        if let Some(ctime) = link
            && now.saturating_sub(ctime) > nt
            && ping_sent != 0
            && ping_delay > nt / 2
            && data_delay > nt / 2
        {
            self.nodes[nu].peers[pu].set_link(None);
            self.nodes[nu].touch();
            self.event(EventKind::LinkFreed {
                observer: n,
                subject: p,
            });
        }
        let link = self.nodes[nu].peers[pu].link();
        if link.is_some() && ping_sent == 0 && now.saturating_sub(pong_received) > nt / 2 {
            self.send_ping(n, p, MsgType::Ping, false);
            return false;
        }
        let me = &self.nodes[nu];
        if me.mf_end != 0 && me.is_master() && me.mf_slave == p && link.is_some() {
            self.send_ping(n, p, MsgType::Ping, false);
            return false;
        }
        if ping_sent == 0 {
            return false;
        }
        let node_delay = ping_delay.min(data_delay);
        if node_delay > nt && flags & (flag::PFAIL | flag::FAIL) == 0 {
            self.nodes[nu].peers[pu].flags |= flag::PFAIL;
            self.nodes[nu].touch();
            self.opinion(n, p);
            return true;
        }
        false
    }
}

impl Sim {
    /// Debug builds: a shortened walk at `now` must be one the full walk agrees with — every
    /// peer not due is left alone by every rule, no link is down, and the counts are the ones
    /// the full walk would make.
    #[cfg(debug_assertions)]
    pub(super) fn check_walk(&self, n: u32, due: &[u32], refused: &[u32]) {
        let node = &self.nodes[n as usize];
        let now = self.now;
        let nt = self.cfg.node_timeout;
        let mut pfail = 0u32;
        for &p in &node.known_list {
            let q = &node.peers[p as usize];
            if q.flags & (flag::MYSELF | flag::NOADDR) != 0 {
                continue;
            }
            if q.flags & flag::PFAIL != 0 {
                pfail += 1;
            }
            assert!(q.link().is_some(), "walk of {n}: no link to {p} at {now}");
            assert_eq!(
                self.down[p as usize],
                refused.contains(&p),
                "walk of {n}: {p} is down but not refused (or the reverse)"
            );
            if due.contains(&p) || q.flags & flag::HANDSHAKE != 0 {
                continue;
            }
            let ping_delay = now.saturating_sub(q.ping_sent());
            let data_delay = now.saturating_sub(q.data_received);
            let free = q.link().is_some_and(|c| now.saturating_sub(c) > nt)
                && q.ping_sent() != 0
                && ping_delay > nt / 2
                && data_delay > nt / 2;
            let ping = q.ping_sent() == 0 && now.saturating_sub(q.pong_received()) > nt / 2;
            let pf = q.ping_sent() != 0
                && ping_delay.min(data_delay) > nt
                && q.flags & (flag::PFAIL | flag::FAIL) == 0;
            assert!(
                !free && !ping && !pf,
                "walk of {n} at {now}: peer {p} is due but not scheduled ({q:?})"
            );
        }
        assert_eq!(pfail, node.walk.pfail, "walk of {n}: PFAIL count");
        let (o, m, t) = self.orphan_counts(n);
        assert_eq!(
            (o, m, t),
            (
                node.walk.orphaned,
                node.walk.max_slaves,
                node.walk.this_slaves
            ),
            "walk of {n}: replica counts"
        );
    }

    /// The replica counts of `clusterCron`'s walk (orphaned masters, the most working replicas
    /// of a master, those of our own master), as the full walk counts them.
    #[cfg(debug_assertions)]
    fn orphan_counts(&self, n: u32) -> (u32, u32, u32) {
        let node = &self.nodes[n as usize];
        let (mut orphaned, mut max_slaves, mut this_slaves) = (0, 0, 0);
        if !node.is_slave() {
            return (0, 0, 0);
        }
        for &p in &node.known_list {
            let q = &node.peers[p as usize];
            if q.flags & (flag::MYSELF | flag::NOADDR | flag::HANDSHAKE) != 0 {
                continue;
            }
            if q.flags & flag::MASTER != 0 && q.flags & flag::FAIL == 0 {
                let ok = node.ok_slaves(p);
                if ok == 0 && q.numslots > 0 && q.flags & flag::MIGRATE_TO != 0 {
                    orphaned += 1;
                }
                max_slaves = max_slaves.max(ok);
                if node.my_master() == Some(p) {
                    this_slaves = ok;
                }
            }
        }
        (orphaned, max_slaves, this_slaves)
    }
}
