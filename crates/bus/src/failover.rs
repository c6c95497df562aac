//! Elections and role changes: `clusterHandleSlaveFailover` (delay, rank, epoch, votes),
//! `clusterSendFailoverAuthIfNeeded` (the six checks), manual failover (`CLUSTER FAILOVER`,
//! MFSTART, FORCE, TAKEOVER), `clusterHandleSlaveMigration`, `clusterSetMaster`,
//! `clusterFailoverReplaceYourMaster` and `clusterUpdateSlotsConfigWith`.

use super::node::{todo, CantFailover};
use super::output::EventKind;
use super::sim::Sim;
use super::types::{flag, Msg, MsgType, SlotBits, NO_NODE, SLOTS};

/// `CLUSTER_MF_TIMEOUT`, `CLUSTER_MF_PAUSE_MULT`, `CLUSTER_SLAVE_MIGRATION_DELAY`,
/// `CLUSTER_CANT_FAILOVER_RELOG_PERIOD` (seconds).
const MF_TIMEOUT: u64 = 5000;
const MF_PAUSE_MULT: u64 = 2;
const MIGRATION_DELAY: u64 = 5000;
const CANT_FAILOVER_RELOG_PERIOD: u64 = 10;

/// `CLUSTER FAILOVER`'s variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailoverMode {
    /// `Default`.
    Default,
    /// `Force`.
    Force,
    /// `Takeover`.
    Takeover,
}

/// `CLUSTER FAILOVER`'s refusals; `Display` is Redis's reply text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailoverRefusal {
    /// `NotAReplica`.
    NotAReplica,
    /// `MasterUnknown`.
    MasterUnknown,
    /// `MasterDown`.
    MasterDown,
    /// The process does not answer (stopped or killed).
    NoAnswer,
}

impl std::fmt::Display for FailoverRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FailoverRefusal::NotAReplica => "ERR You should send CLUSTER FAILOVER to a replica",
            FailoverRefusal::MasterUnknown => "ERR I'm a replica but my master is unknown to me",
            FailoverRefusal::MasterDown => {
                "ERR Master is down or failed, please use CLUSTER FAILOVER FORCE"
            }
            FailoverRefusal::NoAnswer => "Could not connect to Redis",
        })
    }
}

impl Sim {
    /// `CLUSTER FAILOVER [FORCE|TAKEOVER]` sent to node `n`; `Ok` is Redis's `+OK`.
    pub fn cluster_failover(&mut self, n: u32, mode: FailoverMode) -> Result<(), FailoverRefusal> {
        let nu = n as usize;
        if !self.has(n) || self.nodes[nu].process != super::types::Process::Running {
            return Err(FailoverRefusal::NoAnswer);
        }
        if self.nodes[nu].is_master() {
            return Err(FailoverRefusal::NotAReplica);
        }
        let Some(m) = self.nodes[nu].my_master() else {
            return Err(FailoverRefusal::MasterUnknown);
        };
        let force = mode != FailoverMode::Default;
        let mp = &self.nodes[nu].peers[m as usize];
        if !force && (mp.failed() || mp.link().is_none()) {
            return Err(FailoverRefusal::MasterDown);
        }
        self.reset_manual_failover(n);
        self.nodes[nu].mf_end = self.now + MF_TIMEOUT;
        match mode {
            FailoverMode::Takeover => {
                self.log(n, '#', "Taking over the master (user request).".into());
                self.bump_epoch_without_consensus(n);
                self.failover_replace_your_master(n);
            }
            FailoverMode::Force => {
                self.log(n, '#', "Forced failover user request accepted.".into());
                self.nodes[nu].mf_can_start = true;
            }
            FailoverMode::Default => {
                self.log(n, '#', "Manual failover user request accepted.".into());
                let msg = self.header(n, m, MsgType::MfStart);
                if self.nodes[nu].peers[m as usize].link().is_some() {
                    self.send(msg);
                }
            }
        }
        self.before_sleep(n);
        self.wake_if_needed(n);
        Ok(())
    }

    /// `clusterBumpConfigEpochWithoutConsensus`.
    pub(super) fn bump_epoch_without_consensus(&mut self, n: u32) -> bool {
        let nu = n as usize;
        let max = self.max_epoch(n);
        let node = &mut self.nodes[nu];
        let mine = node.me().config_epoch;
        if mine == 0 || mine != max {
            node.current_epoch += 1;
            let e = node.current_epoch;
            node.me_mut().config_epoch = e;
            self.log(n, '#', format!("New configEpoch set to {e}"));
            true
        } else {
            false
        }
    }

    /// `clusterGetMaxEpoch`.
    fn max_epoch(&self, n: u32) -> u64 {
        let node = &self.nodes[n as usize];
        node.known_list
            .iter()
            .map(|p| node.peers[*p as usize].config_epoch)
            .max()
            .unwrap_or(0)
            .max(node.current_epoch)
    }

    /// `resetManualFailover`.
    pub(super) fn reset_manual_failover(&mut self, n: u32) {
        let node = &mut self.nodes[n as usize];
        if node.mf_slave != NO_NODE {
            node.paused_until = 0;
        }
        node.mf_end = 0;
        node.mf_can_start = false;
        node.mf_slave = NO_NODE;
        node.mf_master_offset = -1;
    }

    /// `manualFailoverCheckTimeout`.
    pub(super) fn manual_failover_check_timeout(&mut self, n: u32) {
        let node = &self.nodes[n as usize];
        if node.mf_end != 0 && node.mf_end < self.now {
            self.log(n, '#', "Manual failover timed out.".into());
            self.reset_manual_failover(n);
        }
    }

    /// `clusterHandleManualFailover`: start once the paused master's offset is reached.
    pub(super) fn handle_manual_failover(&mut self, n: u32) {
        let nu = n as usize;
        let node = &self.nodes[nu];
        if node.mf_end == 0 || node.mf_can_start || node.mf_master_offset == -1 {
            return;
        }
        if node.mf_master_offset == node.repl_offset as i64 {
            self.nodes[nu].mf_can_start = true;
            self.log(
                n,
                '#',
                "All master replication stream processed, manual failover can start.".into(),
            );
            self.nodes[nu].todo |= todo::HANDLE_FAILOVER;
            return;
        }
        self.nodes[nu].todo |= todo::HANDLE_MANUALFAILOVER;
    }

    /// `clusterGetSlaveRank`: siblings (that may fail over) with a larger offset than ours.
    fn slave_rank(&self, n: u32) -> u32 {
        let node = &self.nodes[n as usize];
        let Some(m) = node.my_master() else { return 0 };
        let mine = node.repl_offset;
        node.peers[m as usize]
            .slaves
            .iter()
            .filter(|s| {
                let p = &node.peers[**s as usize];
                **s != n && p.flags & flag::NOFAILOVER == 0 && p.repl_offset > mine
            })
            .count() as u32
    }

    /// `clusterLogCantFailover`.
    fn log_cant_failover(&mut self, n: u32, reason: CantFailover) {
        let nu = n as usize;
        let nolog_fail_time = self.cfg.node_timeout + 5000;
        let now_s = self.now / 1000;
        let node = &self.nodes[nu];
        if reason == node.cant_failover_reason
            && now_s.saturating_sub(node.cant_failover_lastlog) < CANT_FAILOVER_RELOG_PERIOD
        {
            return;
        }
        self.nodes[nu].cant_failover_reason = reason;
        if let Some(m) = self.nodes[nu].my_master() {
            let mp = &self.nodes[nu].peers[m as usize];
            if mp.failed() && self.now.saturating_sub(mp.fail_time()) < nolog_fail_time {
                return;
            }
        }
        let msg = match reason {
            CantFailover::DataAge => {
                "Disconnected from master for longer than allowed. Please check the 'cluster-replica-validity-factor' configuration option."
            }
            CantFailover::WaitingDelay => "Waiting the delay before I can start a new failover.",
            CantFailover::Expired => "Failover attempt expired.",
            CantFailover::WaitingVotes => "Waiting for votes, but majority still not reached.",
            CantFailover::None => "Unknown reason code.",
        };
        self.nodes[nu].cant_failover_lastlog = now_s;
        self.log(n, '#', format!("Currently unable to failover: {msg}"));
    }

    /// `clusterHandleSlaveFailover`.
    pub(super) fn handle_slave_failover(&mut self, n: u32) {
        let nu = n as usize;
        let now = self.now;
        let nt = self.cfg.node_timeout;
        let node = &mut self.nodes[nu];
        node.todo &= !todo::HANDLE_FAILOVER;
        // Redis's times are unix ms, so a never-set 0 is "long ago": keep that meaning.
        let auth_age = if node.failover_auth_time == 0 {
            u64::MAX
        } else {
            now.saturating_sub(node.failover_auth_time)
        };
        let needed = node.size / 2 + 1;
        let manual = node.mf_end != 0 && node.mf_can_start;
        let auth_timeout = (nt * 2).max(2000);
        let auth_retry = auth_timeout * 2;
        let Some(m) = node.my_master() else {
            node.cant_failover_reason = CantFailover::None;
            return;
        };
        let mp = &node.peers[m as usize];
        if node.is_master()
            || (!mp.failed() && !manual)
            || (node.nofailover && !manual)
            || mp.numslots == 0
        {
            node.cant_failover_reason = CantFailover::None;
            return;
        }
        let mut data_age = (now / 1000).saturating_sub(node.master_seen / 1000) * 1000;
        if data_age > nt {
            data_age -= nt;
        }
        let factor = self.cfg.replica_validity_factor;
        if factor != 0 && data_age > self.cfg.repl_ping_period * 1000 + nt * factor && !manual {
            self.log_cant_failover(n, CantFailover::DataAge);
            return;
        }
        let node = &mut self.nodes[nu];
        if auth_age > auth_retry {
            let delay = 500 + self.rng.below(500);
            let rank = self.slave_rank(n);
            let node = &mut self.nodes[nu];
            node.failover_auth_time = now + delay + u64::from(rank) * 1000;
            node.failover_auth_count = 0;
            node.failover_auth_sent = false;
            node.failover_auth_rank = rank;
            if node.mf_end != 0 {
                node.failover_auth_time = now;
                node.failover_auth_rank = 0;
                node.todo |= todo::HANDLE_FAILOVER;
            }
            let (t, r, off) = (
                node.failover_auth_time - now,
                node.failover_auth_rank,
                node.repl_offset,
            );
            self.log(
                n,
                '#',
                format!(
                    "Start of election delayed for {t} milliseconds (rank #{r}, offset {off})."
                ),
            );
            self.event(EventKind::ElectionScheduled {
                node: n,
                at: now + t,
                rank: r,
            });
            self.broadcast_pong(n, true);
            return;
        }
        if !node.failover_auth_sent && node.mf_end == 0 {
            let rank = self.slave_rank(n);
            let node = &mut self.nodes[nu];
            if rank > node.failover_auth_rank {
                let added = u64::from(rank - node.failover_auth_rank) * 1000;
                node.failover_auth_time += added;
                node.failover_auth_rank = rank;
                self.log(
                    n,
                    '#',
                    format!(
                        "Replica rank updated to #{rank}, added {added} milliseconds of delay."
                    ),
                );
            }
        }
        let node = &self.nodes[nu];
        if now < node.failover_auth_time {
            self.log_cant_failover(n, CantFailover::WaitingDelay);
            return;
        }
        if auth_age > auth_timeout {
            self.log_cant_failover(n, CantFailover::Expired);
            return;
        }
        if !node.failover_auth_sent {
            let node = &mut self.nodes[nu];
            node.current_epoch += 1;
            node.failover_auth_epoch = node.current_epoch;
            let e = node.current_epoch;
            node.failover_auth_sent = true;
            let forceack = node.mf_end != 0;
            self.log(
                n,
                '#',
                format!("Starting a failover election for epoch {e}."),
            );
            self.event(EventKind::ElectionStarted { node: n, epoch: e });
            self.broadcast(n, MsgType::FailoverAuthRequest, NO_NODE, forceack);
            self.nodes[nu].todo |= todo::UPDATE_STATE | todo::SAVE_CONFIG;
            return;
        }
        if node.failover_auth_count >= needed {
            self.log(n, '#', "Failover election won: I'm the new master.".into());
            let node = &mut self.nodes[nu];
            let e = node.failover_auth_epoch;
            if node.me().config_epoch < e {
                node.me_mut().config_epoch = e;
                self.log(
                    n,
                    '#',
                    format!("configEpoch set to {e} after successful failover"),
                );
            }
            self.failover_replace_your_master(n);
        } else {
            self.log_cant_failover(n, CantFailover::WaitingVotes);
        }
    }

    /// `clusterFailoverReplaceYourMaster`: become master, take the old master's slots, tell
    /// everyone with a PONG.
    pub(super) fn failover_replace_your_master(&mut self, n: u32) {
        let nu = n as usize;
        let Some(old) = self.nodes[nu].my_master() else {
            return;
        };
        if self.nodes[nu].is_master() {
            return;
        }
        self.nodes[nu].set_node_as_master(n);
        for j in 0..SLOTS {
            if self.nodes[nu].slot_owner[j] == old {
                self.nodes[nu].set_slot(j, n);
            }
        }
        self.event(EventKind::Role {
            node: n,
            master: None,
        });
        self.update_state(n);
        self.broadcast_pong(n, false);
        self.reset_manual_failover(n);
    }

    /// `clusterSetMaster`: become a replica of `m`.
    pub(super) fn set_master(&mut self, n: u32, m: u32) {
        let nu = n as usize;
        if self.nodes[nu].is_master() {
            self.nodes[nu].touch();
            let me = self.nodes[nu].me_mut();
            me.flags &= !(flag::MASTER | flag::MIGRATE_TO);
            me.flags |= flag::SLAVE;
        } else if let Some(old) = self.nodes[nu].my_master() {
            self.nodes[nu].remove_slave(old, n);
        }
        self.nodes[nu].me_mut().set_master(Some(m));
        self.nodes[nu].add_slave(m, n);
        if self.nodes[m as usize].is_master() && self.reachable(n, m) {
            self.nodes[nu].repl_offset = self.nodes[m as usize].repl_offset;
            self.nodes[nu].master_seen = self.now;
        }
        self.event(EventKind::Role {
            node: n,
            master: Some(m),
        });
        self.reset_manual_failover(n);
    }

    /// `clusterSendFailoverAuthIfNeeded`: the six checks; a vote is an ACK, a refusal only a
    /// log line.
    pub(super) fn send_failover_auth_if_needed(&mut self, n: u32, req: &Msg) {
        let nu = n as usize;
        let now = self.now;
        let nt = self.cfg.node_timeout;
        let node = &self.nodes[nu];
        let s = req.from;
        let name = self.nodes[s as usize].name.clone();
        if node.is_slave() || node.me().numslots == 0 {
            return;
        }
        if req.current_epoch < node.current_epoch {
            let cur = node.current_epoch;
            self.log(
                n,
                '#',
                format!(
                    "Failover auth denied to {name}: reqEpoch ({}) < curEpoch({cur})",
                    req.current_epoch
                ),
            );
            return;
        }
        if node.last_vote_epoch == node.current_epoch {
            let cur = node.current_epoch;
            self.log(
                n,
                '#',
                format!("Failover auth denied to {name}: already voted for epoch {cur}"),
            );
            return;
        }
        let sp = &node.peers[s as usize];
        let master = sp.master();
        if sp.is_master() {
            self.log(
                n,
                '#',
                format!("Failover auth denied to {name}: it is a master node"),
            );
            return;
        }
        let Some(m) = master else {
            self.log(
                n,
                '#',
                format!("Failover auth denied to {name}: I don't know its master"),
            );
            return;
        };
        if !node.peers[m as usize].failed() && !req.forceack {
            self.log(
                n,
                '#',
                format!("Failover auth denied to {name}: its master is up"),
            );
            return;
        }
        let voted = node.peers[m as usize].voted_time();
        if voted != 0 && now.saturating_sub(voted) < nt * 2 {
            let left = (nt * 2) - now.saturating_sub(voted);
            self.log(
                n,
                '#',
                format!("Failover auth denied to {name}: can't vote about this master before {left} milliseconds"),
            );
            return;
        }
        for j in 0..SLOTS {
            if !req.myslots.get(j) {
                continue;
            }
            let o = node.slot_owner[j];
            if o == NO_NODE {
                continue;
            }
            let e = node.peers[o as usize].config_epoch;
            if e <= req.config_epoch {
                continue;
            }
            self.log(
                n,
                '#',
                format!(
                    "Failover auth denied to {name}: slot {j} epoch ({e}) > reqEpoch ({})",
                    req.config_epoch
                ),
            );
            return;
        }
        let node = &mut self.nodes[nu];
        node.last_vote_epoch = node.current_epoch;
        node.peers[m as usize].set_voted_time(now);
        let cur = node.current_epoch;
        let ack = self.header(n, s, MsgType::FailoverAuthAck);
        self.send(ack);
        self.log(
            n,
            '#',
            format!("Failover auth granted to {name} for epoch {cur}"),
        );
        self.event(EventKind::Vote {
            voter: n,
            candidate: s,
            epoch: cur,
        });
    }

    /// `clusterHandleSlaveMigration`: the smallest-named replica of the best-covered master
    /// moves to an orphaned master after 5 s.
    pub(super) fn handle_slave_migration(&mut self, n: u32, max_slaves: u32) {
        let nu = n as usize;
        let now = self.now;
        if !self.nodes[nu].state_ok {
            return;
        }
        let Some(mymaster) = self.nodes[nu].my_master() else {
            return;
        };
        let ok = {
            let node = &self.nodes[nu];
            node.peers[mymaster as usize]
                .slaves
                .iter()
                .filter(|s| {
                    let p = &node.peers[**s as usize];
                    !p.failed() && !p.timed_out()
                })
                .count() as u32
        };
        if ok <= self.cfg.migration_barrier {
            return;
        }
        let mut target = None;
        let mut candidate = n;
        let known = self.nodes[nu].known_list.clone();
        for p in known {
            let node = &self.nodes[nu];
            let q = &node.peers[p as usize];
            let mut orphaned = !(q.is_slave() || q.failed()) && q.flags & flag::MIGRATE_TO != 0;
            let okslaves = if q.is_master() { node.ok_slaves(p) } else { 0 };
            if okslaves > 0 {
                orphaned = false;
            }
            if orphaned {
                if target.is_none() && q.numslots > 0 {
                    target = Some(p);
                }
                if q.orphaned_time() == 0 {
                    self.nodes[nu].peers[p as usize].set_orphaned_time(now);
                }
            } else {
                self.nodes[nu].peers[p as usize].set_orphaned_time(0);
            }
            if okslaves == max_slaves {
                let node = &self.nodes[nu];
                for s in &node.peers[p as usize].slaves {
                    if self.nodes[*s as usize].name < self.nodes[candidate as usize].name {
                        candidate = *s;
                    }
                }
            }
        }
        if let Some(t) = target {
            let since = self.nodes[nu].peers[t as usize].orphaned_time();
            if candidate == n
                && now.saturating_sub(since) > MIGRATION_DELAY
                && !self.nodes[nu].nofailover
            {
                let name = self.nodes[t as usize].name.clone();
                self.log(n, '#', format!("Migrating to orphaned master {name}"));
                self.set_master(n, t);
            }
        }
    }

    /// `clusterUpdateSlotsConfigWith`: slots claimed with a greater config epoch change owner;
    /// a master left without slots (or the replica of one) follows the new owner.
    pub(super) fn update_slots_config_with(
        &mut self,
        n: u32,
        sender: u32,
        epoch: u64,
        slots: &SlotBits,
    ) {
        let nu = n as usize;
        if sender == n {
            self.log(n, '#', "Discarding UPDATE message about myself.".into());
            return;
        }
        let curmaster = if self.nodes[nu].is_master() {
            Some(n)
        } else {
            self.nodes[nu].my_master()
        };
        let mut newmaster = false;
        let mut sender_slots = 0u32;
        let mut migrated = 0u32;
        for j in 0..SLOTS {
            if !slots.get(j) {
                continue;
            }
            sender_slots += 1;
            let node = &self.nodes[nu];
            let o = node.slot_owner[j];
            if o == sender || node.importing.iter().any(|(sl, _)| usize::from(*sl) == j) {
                continue;
            }
            if o == NO_NODE || node.peers[o as usize].config_epoch < epoch {
                if Some(o) == curmaster {
                    newmaster = true;
                    migrated += 1;
                }
                self.nodes[nu].set_slot(j, sender);
                self.nodes[nu].todo |= todo::SAVE_CONFIG | todo::UPDATE_STATE;
            }
        }
        let cur_slots = curmaster
            .map(|c| self.nodes[nu].peers[c as usize].numslots)
            .unwrap_or(1);
        if newmaster
            && cur_slots == 0
            && (self.cfg.allow_replica_migration || sender_slots == migrated)
        {
            let name = self.nodes[sender as usize].name.clone();
            self.log(
                n,
                '#',
                format!(
                    "Configuration change detected. Reconfiguring myself as a replica of {name}"
                ),
            );
            self.set_master(n, sender);
            self.nodes[nu].todo |= todo::SAVE_CONFIG | todo::UPDATE_STATE;
        } else if let Some(m) = self.nodes[nu].my_master()
            && let Some(gm) = self.nodes[nu].peers[m as usize].master()
            && gm != n
        {
            let name = self.nodes[gm as usize].name.clone();
            self.log(
                n,
                '#',
                format!(
                    "I'm a sub-replica! Reconfiguring myself as a replica of grandmaster {name}"
                ),
            );
            self.set_master(n, gm);
            self.nodes[nu].todo |= todo::SAVE_CONFIG | todo::UPDATE_STATE;
        }
    }

    /// Pause writes on a master for a manual failover (`pauseClients`), as MFSTART does.
    pub(super) fn mf_pause(&mut self, n: u32) {
        let until = self.now + MF_TIMEOUT * MF_PAUSE_MULT;
        self.nodes[n as usize].paused_until = until;
    }
}
