//! The receiving side: `clusterProcessPacket` (epochs, roles, slot claims, UPDATE, FAIL, votes,
//! MFSTART), `clusterProcessGossipSection`, `markNodeAsFailingIfNeeded`,
//! `clearNodeFailureIfNeeded` and `clusterHandleConfigEpochCollision`.

use super::node::todo;
use super::sim::Sim;
use super::types::{flag, Msg, MsgType, Peer, NO_NODE};

impl Sim {
    /// Make `other` known to `n` (a MEET, or gossip from a known node about a new one).
    pub(super) fn learn(&mut self, n: u32, other: u32, flags: u16) {
        let nu = n as usize;
        if self.nodes[nu].peers[other as usize].known() {
            return;
        }
        self.nodes[nu].peers[other as usize] =
            Peer::known_with(flags & (flag::MASTER | flag::SLAVE));
        if self.nodes[nu].peers[other as usize].flags == 0 {
            self.nodes[nu].peers[other as usize].flags = flag::MASTER;
        }
        self.nodes[nu].known_list.push(other);
        self.nodes[nu].todo |= todo::UPDATE_STATE;
        self.nodes[nu].touch();
    }

    /// `clusterProcessPacket` for a message that reached a running node.
    pub(super) fn process_packet(&mut self, msg: Msg) {
        let n = msg.to;
        let nu = n as usize;
        let now = self.now;
        let s = msg.from;
        let su = s as usize;
        if msg.gossip.len() as i64 >= super::cron::READ_AHEAD_FROM {
            // Load every gossip entry's peer first, and the sender's record, so their cache
            // misses overlap (see `send_ping`) instead of coming one by one below.
            let peers = &self.nodes[nu].peers;
            let mut acc = 0u64;
            for g in &msg.gossip {
                if let Some(p) = peers.get(g.node as usize) {
                    acc ^= p.hot_bits();
                }
            }
            if let Some(p) = peers.get(su) {
                acc ^= p.hot_bits() ^ p.data_received;
            }
            std::hint::black_box(acc);
        }
        self.nodes[nu].stats_received[msg.kind.stat_index()] += 1;
        if msg.kind == MsgType::Meet && !self.nodes[nu].peers[su].known() {
            // A MEET from an unknown node: it joins (the handshake is folded into the MEET).
            self.learn(n, s, msg.sender_flags);
        }
        let known = self.nodes[nu].peers[su].known();
        let mut sender_config_epoch = 0;
        if known {
            self.nodes[nu].peers[su].data_received = now;
            sender_config_epoch = msg.config_epoch;
            let node = &mut self.nodes[nu];
            if msg.current_epoch > node.current_epoch {
                node.current_epoch = msg.current_epoch;
            }
            if msg.config_epoch > node.peers[su].config_epoch {
                node.peers[su].config_epoch = msg.config_epoch;
            }
            node.peers[su].repl_offset = msg.offset;
            if node.mf_end != 0
                && node.is_slave()
                && node.my_master() == Some(s)
                && msg.paused
                && node.mf_master_offset == -1
            {
                node.mf_master_offset = msg.offset as i64;
                node.todo |= todo::HANDLE_MANUALFAILOVER;
                self.log(
                    n,
                    '#',
                    format!(
                        "Received replication offset for paused master manual failover: {}",
                        msg.offset
                    ),
                );
            }
        }
        match msg.kind {
            MsgType::Ping | MsgType::Meet | MsgType::Pong => {
                self.process_ping(n, &msg, known, sender_config_epoch)
            }
            MsgType::Fail => {
                if !known {
                    return;
                }
                let f = msg.about;
                let fp = &self.nodes[nu].peers[f as usize];
                if fp.known() && fp.flags & (flag::FAIL | flag::MYSELF) == 0 {
                    let (a, b) = (
                        self.nodes[su].name.clone(),
                        self.nodes[f as usize].name.clone(),
                    );
                    self.log(n, '*', format!("FAIL message received from {a} about {b}"));
                    let p = &mut self.nodes[nu].peers[f as usize];
                    p.flags |= flag::FAIL;
                    p.set_fail_time(now);
                    p.flags &= !flag::PFAIL;
                    self.nodes[nu].todo |= todo::UPDATE_STATE | todo::SAVE_CONFIG;
                    self.nodes[nu].touch();
                    self.opinion(n, f);
                }
            }
            MsgType::FailoverAuthRequest => {
                if known {
                    self.send_failover_auth_if_needed(n, &msg);
                }
            }
            MsgType::FailoverAuthAck => {
                let node = &mut self.nodes[nu];
                let sp = &node.peers[su];
                if known
                    && sp.is_master()
                    && sp.numslots > 0
                    && msg.current_epoch >= node.failover_auth_epoch
                {
                    node.failover_auth_count += 1;
                    node.todo |= todo::HANDLE_FAILOVER;
                }
            }
            MsgType::MfStart => {
                if !known || self.nodes[nu].peers[su].master() != Some(n) {
                    return;
                }
                self.reset_manual_failover(n);
                self.nodes[nu].mf_end = now + 5000;
                self.nodes[nu].mf_slave = s;
                self.mf_pause(n);
                let name = self.nodes[su].name.clone();
                self.log(
                    n,
                    '#',
                    format!("Manual failover requested by replica {name}."),
                );
                // Sent on the link the MFSTART came in by: it answers as a reply would.
                self.send_ping(n, s, MsgType::Ping, true);
            }
            MsgType::Update => {
                if !known {
                    return;
                }
                let about = msg.about;
                if about == NO_NODE || !self.nodes[nu].peers[about as usize].known() {
                    return;
                }
                if self.nodes[nu].peers[about as usize].config_epoch >= msg.update_epoch {
                    return;
                }
                if self.nodes[nu].peers[about as usize].is_slave() {
                    self.nodes[nu].set_node_as_master(about);
                }
                self.nodes[nu].peers[about as usize].config_epoch = msg.update_epoch;
                if let Some(bits) = msg.update_slots.clone() {
                    self.update_slots_config_with(n, about, msg.update_epoch, &bits);
                }
            }
        }
    }

    fn process_ping(&mut self, n: u32, msg: &Msg, known: bool, sender_config_epoch: u64) {
        let nu = n as usize;
        let s = msg.from;
        let su = s as usize;
        let now = self.now;
        if msg.kind == MsgType::Ping || msg.kind == MsgType::Meet {
            // Answered at once, on the connection it came by.
            self.send_ping(n, s, MsgType::Pong, true);
        }
        if !known {
            return;
        }
        {
            let node = &mut self.nodes[nu];
            let p = &mut node.peers[su];
            let flags = (p.flags & !flag::NOFAILOVER) | (msg.sender_flags & flag::NOFAILOVER);
            if flags != p.flags {
                p.flags = flags;
                node.touch();
            }
        }
        if msg.reply && msg.kind == MsgType::Pong {
            let nt = self.cfg.node_timeout;
            let node = &mut self.nodes[nu];
            let p = &mut node.peers[su];
            p.set_pong_received(now);
            p.set_ping_sent(0);
            // The NT/2 ping is due again NT/2 after this pong.
            node.walk
                .due_at(s, now.saturating_add(nt / 2).saturating_add(1));
            let p = &mut node.peers[su];
            if p.timed_out() {
                p.flags &= !flag::PFAIL;
                node.touch();
                self.nodes[nu].todo |= todo::UPDATE_STATE | todo::SAVE_CONFIG;
                self.opinion(n, s);
            } else if p.failed() {
                self.clear_node_failure_if_needed(n, s);
            }
        }
        // Role changes the sender announces.
        if msg.slaveof == NO_NODE {
            if !self.nodes[nu].peers[su].is_master() {
                self.nodes[nu].set_node_as_master(s);
            }
        } else {
            let m = msg.slaveof;
            if self.nodes[nu].peers[su].is_master() {
                self.nodes[nu].del_node_slots(s);
                let p = &mut self.nodes[nu].peers[su];
                p.flags &= !(flag::MASTER | flag::MIGRATE_TO);
                p.flags |= flag::SLAVE;
                self.nodes[nu].touch();
                self.nodes[nu].todo |= todo::SAVE_CONFIG | todo::UPDATE_STATE;
            }
            if self.nodes[nu].peers[m as usize].known()
                && self.nodes[nu].peers[su].master() != Some(m)
            {
                if let Some(old) = self.nodes[nu].peers[su].master() {
                    self.nodes[nu].remove_slave(old, s);
                }
                self.nodes[nu].add_slave(m, s);
                self.nodes[nu].peers[su].set_master(Some(m));
            }
        }
        // Slot claims.
        let sender_master = if self.nodes[nu].peers[su].is_master() {
            Some(s)
        } else {
            self.nodes[nu].peers[su].master()
        };
        let mut dirty = false;
        if let Some(sm) = sender_master {
            let version = self.nodes[nu].slots_version;
            let cached = match self.nodes[nu].peers[sm as usize].claim_seen() {
                // A master and its replicas send equal bitmaps from different allocations:
                // equal contents (2 KB compared) are as good as the same pointer.
                Some((bits, v)) => {
                    v == version
                        && (std::rc::Rc::ptr_eq(bits, &msg.myslots) || **bits == *msg.myslots)
                }
                None => false,
            };
            if !cached {
                dirty = !self.nodes[nu].claims_match(sm, &msg.myslots);
                if !dirty {
                    self.nodes[nu].peers[sm as usize]
                        .set_claim_seen(Some((msg.myslots.clone(), version)));
                }
            }
        }
        if dirty && self.nodes[nu].peers[su].is_master() {
            self.update_slots_config_with(n, s, sender_config_epoch, &msg.myslots);
        }
        if dirty {
            for j in 0..super::types::SLOTS {
                if !msg.myslots.get(j) {
                    continue;
                }
                let o = self.nodes[nu].slot_owner[j];
                if o == s || o == NO_NODE {
                    continue;
                }
                if self.nodes[nu].peers[o as usize].config_epoch > sender_config_epoch {
                    let (a, b) = (
                        self.nodes[su].name.clone(),
                        self.nodes[o as usize].name.clone(),
                    );
                    self.log(
                        n,
                        '-',
                        format!("Node {a} has old slots configuration, sending an UPDATE message about {b}"),
                    );
                    let mut m = self.header(n, s, MsgType::Update);
                    m.reply = true;
                    m.about = o;
                    m.update_epoch = self.nodes[nu].peers[o as usize].config_epoch;
                    m.update_slots = Some(self.nodes[nu].slots_of(o));
                    self.send(m);
                    break;
                }
            }
        }
        // clusterHandleConfigEpochCollision
        if self.nodes[nu].is_master()
            && self.nodes[nu].peers[su].is_master()
            && sender_config_epoch == self.nodes[nu].me().config_epoch
            && self.nodes[su].name > self.nodes[nu].name
        {
            let node = &mut self.nodes[nu];
            node.current_epoch += 1;
            let e = node.current_epoch;
            node.me_mut().config_epoch = e;
            let name = self.nodes[su].name.clone();
            self.log(
                n,
                '-',
                format!("WARNING: configEpoch collision with node {name}. configEpoch set to {e}"),
            );
        }
        self.process_gossip(n, msg);
    }

    /// `clusterProcessGossipSection`: failure reports from masters, pong times from clean
    /// entries, and nodes we did not know.
    fn process_gossip(&mut self, n: u32, msg: &Msg) {
        let nu = n as usize;
        let s = msg.from;
        let nt = self.cfg.node_timeout;
        let now = self.now;
        let sender_is_master = self.nodes[nu].peers[s as usize].is_master();
        for g in &msg.gossip {
            let x = u32::from(g.node);
            let xu = x as usize;
            if xu >= self.nodes[nu].peers.len() {
                continue;
            }
            if !self.nodes[nu].peers[xu].known() {
                if g.flags & flag::NOADDR == 0 {
                    self.learn(n, x, g.flags);
                }
                continue;
            }
            debug_assert_eq!(
                self.nodes[nu].peers[xu].has_reports(),
                !self.nodes[nu].peers[xu].reports.is_empty()
            );
            let bad = g.flags & (flag::FAIL | flag::PFAIL) != 0;
            if !bad {
                // The common case, without a report to add: drop the sender's report if it
                // had one, and take the fresher pong time (no report, no ping in flight).
                let node = &mut self.nodes[nu];
                let back = sender_is_master
                    && x != n
                    && node.peers[xu].has_reports()
                    && node.del_failure_report(x, s, nt, now);
                if node.peers[xu].ping_sent() == 0
                    && (!node.peers[xu].has_reports() || node.failure_reports(x, nt, now) == 0)
                {
                    let pong = u64::from(g.pong_received_s) * 1000;
                    let p = &mut node.peers[xu];
                    if pong <= now + 500 && pong > p.pong_received() {
                        p.set_pong_received(pong);
                    }
                }
                if back {
                    let (a, b) = (
                        self.nodes[s as usize].name.clone(),
                        self.nodes[xu].name.clone(),
                    );
                    self.log(
                        n,
                        '-',
                        format!("Node {a} reported node {b} is back online."),
                    );
                }
                continue;
            }
            if sender_is_master && x != n {
                if self.nodes[nu].add_failure_report(x, s, now) {
                    let (a, b) = (
                        self.nodes[s as usize].name.clone(),
                        self.nodes[xu].name.clone(),
                    );
                    self.log(
                        n,
                        '-',
                        format!("Node {a} reported node {b} as not reachable."),
                    );
                }
                self.mark_node_as_failing_if_needed(n, x);
            }
        }
    }

    /// `markNodeAsFailingIfNeeded`.
    fn mark_node_as_failing_if_needed(&mut self, n: u32, x: u32) {
        let nu = n as usize;
        let nt = self.cfg.node_timeout;
        let now = self.now;
        let needed = self.nodes[nu].size / 2 + 1;
        let p = &self.nodes[nu].peers[x as usize];
        if !p.timed_out() || p.failed() {
            return;
        }
        let mut failures = self.nodes[nu].failure_reports(x, nt, now) as u32;
        if self.nodes[nu].is_master() {
            failures += 1;
        }
        if failures < needed {
            return;
        }
        let name = self.nodes[x as usize].name.clone();
        self.log(
            n,
            '*',
            format!("Marking node {name} as failing (quorum reached)."),
        );
        let p = &mut self.nodes[nu].peers[x as usize];
        p.flags &= !flag::PFAIL;
        p.flags |= flag::FAIL;
        p.set_fail_time(now);
        self.nodes[nu].touch();
        self.opinion(n, x);
        self.broadcast(n, MsgType::Fail, x, false);
        self.nodes[nu].todo |= todo::UPDATE_STATE | todo::SAVE_CONFIG;
    }

    /// `clearNodeFailureIfNeeded`: a replica or a slot-less master at once; a master with
    /// slots after 2 × NT.
    fn clear_node_failure_if_needed(&mut self, n: u32, x: u32) {
        let nu = n as usize;
        let now = self.now;
        let nt = self.cfg.node_timeout;
        let p = &self.nodes[nu].peers[x as usize];
        let name = self.nodes[x as usize].name.clone();
        if p.is_slave() || p.numslots == 0 {
            let what = if p.is_slave() {
                "replica"
            } else {
                "master without slots"
            };
            self.log(
                n,
                '*',
                format!("Clear FAIL state for node {name}: {what} is reachable again."),
            );
            self.nodes[nu].peers[x as usize].flags &= !flag::FAIL;
            self.nodes[nu].touch();
            self.nodes[nu].todo |= todo::UPDATE_STATE | todo::SAVE_CONFIG;
            self.opinion(n, x);
            return;
        }
        if p.is_master() && p.numslots > 0 && now.saturating_sub(p.fail_time()) > nt * 2 {
            self.log(
                n,
                '*',
                format!("Clear FAIL state for node {name}: is reachable again and nobody is serving its slots after some time."),
            );
            self.nodes[nu].peers[x as usize].flags &= !flag::FAIL;
            self.nodes[nu].touch();
            self.nodes[nu].todo |= todo::UPDATE_STATE | todo::SAVE_CONFIG;
            self.opinion(n, x);
        }
    }
}
