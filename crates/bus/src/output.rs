//! What the simulation shows: log lines in redis-server's format, `CLUSTER NODES` and
//! `CLUSTER INFO` as one node would answer, and the event stream a view animates.

use super::sim::Sim;
use super::types::{flag, MsgType, Process, NO_NODE, SLOTS};
use std::fmt::Write;

/// One `serverLog` line: `pid:R dd Mon yyyy hh:mm:ss.mmm L text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogLine {
    /// Simulated ms.
    pub t: u64,
    /// The node that wrote it (index).
    pub node: u32,
    /// Its process id.
    pub pid: u32,
    /// `M` master, `S` replica, `C` child (the replication role when it was written).
    pub role: char,
    /// `.` debug, `-` verbose, `*` notice, `#` warning.
    pub level: char,
    /// The message, exactly as Redis writes it.
    pub text: String,
}

impl LogLine {
    /// The line exactly as redis-server writes it, the simulated clock (plus `start_unix_ms`)
    /// as its timestamp.
    pub fn format(&self, start_unix_ms: u64) -> String {
        let ms = start_unix_ms.saturating_add(self.t);
        format!(
            "{}:{} {} {} {}",
            self.pid,
            self.role,
            timestamp(ms),
            self.level,
            self.text
        )
    }
}

/// `01 Dec 2026 07:20:23.214` for a unix time in ms (UTC).
pub fn timestamp(unix_ms: u64) -> String {
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let secs = unix_ms / 1000;
    let days = (secs / 86400) as i64;
    let rem = secs % 86400;
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!(
        "{:02} {} {} {:02}:{:02}:{:02}.{:03}",
        d,
        MONTHS[((m - 1) as usize).min(11)],
        y,
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        unix_ms % 1000
    )
}

/// What an observer thinks of a subject.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opinion {
    /// `Ok`.
    Ok,
    /// `Pfail`.
    Pfail,
    /// `Fail`.
    Fail,
}

/// One thing that happened, at simulated time `t`.
#[derive(Clone, Debug, PartialEq)]
pub struct BusEvent {
    /// Simulated ms.
    pub t: u64,
    /// What happened.
    pub kind: EventKind,
}

/// The event stream (data only: the view words and draws it).
#[derive(Clone, Debug, PartialEq)]
pub enum EventKind {
    /// A message left `from`; `arrives` is `None` when the network dropped it.
    /// `Sent`.
    Sent {
        /// The message type.
        msg: MsgType,
        /// The sender.
        from: u32,
        /// The receiver.
        to: u32,
        /// Its size on the wire.
        bytes: u32,
        /// When it arrives (`None`: dropped).
        arrives: Option<u64>,
    },
    /// `Delivered`.
    Delivered {
        /// The message type.
        msg: MsgType,
        /// The sender.
        from: u32,
        /// The receiver.
        to: u32,
    },
    /// `Opinion`.
    Opinion {
        /// Whose view.
        observer: u32,
        /// About whom.
        subject: u32,
        /// The new opinion.
        opinion: Opinion,
    },
    /// `LinkFreed`.
    LinkFreed {
        /// Whose view.
        observer: u32,
        /// About whom.
        subject: u32,
    },
    /// `State`.
    State {
        /// The node.
        node: u32,
        /// `cluster_state:ok`.
        ok: bool,
    },
    /// The node's own role: master (`None`) or replica of `master`.
    /// `Role`.
    Role {
        /// The node.
        node: u32,
        /// Its master, or `None` for a master.
        master: Option<u32>,
    },
    /// `Process`.
    Process {
        /// The node.
        node: u32,
        /// The process state.
        process: Process,
    },
    /// `ElectionScheduled`.
    ElectionScheduled {
        /// The node.
        node: u32,
        /// When the election starts.
        at: u64,
        /// Its rank.
        rank: u32,
    },
    /// `ElectionStarted`.
    ElectionStarted {
        /// The node.
        node: u32,
        /// The epoch.
        epoch: u64,
    },
    /// `Vote`.
    Vote {
        /// The master that voted.
        voter: u32,
        /// The replica voted for.
        candidate: u32,
        /// The epoch.
        epoch: u64,
    },
    /// `Partition`.
    Partition {
        /// The side of each node.
        sides: Vec<u32>,
    },
}

impl Sim {
    /// Every log line of node `n`, formatted.
    pub fn log_text(&self, n: u32) -> Vec<String> {
        self.logs
            .iter()
            .filter(|l| l.node == n)
            .map(|l| l.format(self.cfg.start_unix_ms))
            .collect()
    }

    /// `CLUSTER NODES` as node `n` answers it now (`clusterGenNodesDescription`).
    pub fn cluster_nodes(&self, n: u32) -> String {
        if !self.has(n) {
            return String::new();
        }
        let node = &self.nodes[n as usize];
        let base = self.cfg.start_unix_ms;
        let mut out = String::new();
        for &p in &node.known_list {
            let q = &node.peers[p as usize];
            let other = &self.nodes[p as usize];
            let _ = write!(
                out,
                "{} 127.0.0.1:{}@{} ",
                other.name,
                other.port,
                u32::from(other.port) + 10000
            );
            let mut flags: Vec<&str> = Vec::new();
            let f = q.flags;
            if f & flag::MYSELF != 0 {
                flags.push("myself");
            }
            if f & flag::MASTER != 0 {
                flags.push("master");
            }
            if f & flag::SLAVE != 0 {
                flags.push("slave");
            }
            if f & flag::PFAIL != 0 {
                flags.push("fail?");
            }
            if f & flag::FAIL != 0 {
                flags.push("fail");
            }
            if f & flag::HANDSHAKE != 0 {
                flags.push("handshake");
            }
            if f & flag::NOADDR != 0 {
                flags.push("noaddr");
            }
            if f & flag::NOFAILOVER != 0 || (p == n && node.nofailover) {
                flags.push("nofailover");
            }
            out.push_str(&flags.join(","));
            match q.master() {
                Some(m) if q.is_slave() => {
                    let _ = write!(out, " {}", self.nodes[m as usize].name);
                }
                _ => out.push_str(" -"),
            }
            let ping = if q.ping_sent() == 0 {
                0
            } else {
                base + q.ping_sent()
            };
            let pong = if p == n {
                (base + self.now) / 1000 * 1000
            } else if q.pong_received() == 0 {
                0
            } else {
                base + q.pong_received()
            };
            let epoch = match q.master() {
                Some(m) if q.is_slave() => node.peers[m as usize].config_epoch,
                _ => q.config_epoch,
            };
            let linked = p == n || q.link().is_some();
            let _ = write!(
                out,
                " {ping} {pong} {epoch} {}",
                if linked { "connected" } else { "disconnected" }
            );
            if q.is_master() {
                let mut j = 0;
                while j < SLOTS {
                    if node.slot_owner[j] == p {
                        let start = j;
                        while j + 1 < SLOTS && node.slot_owner[j + 1] == p {
                            j += 1;
                        }
                        if start == j {
                            let _ = write!(out, " {start}");
                        } else {
                            let _ = write!(out, " {start}-{j}");
                        }
                    }
                    j += 1;
                }
            }
            out.push('\n');
        }
        out
    }

    /// `CLUSTER INFO` as node `n` answers it now (the bus counters of its current process).
    pub fn cluster_info(&self, n: u32) -> String {
        if !self.has(n) {
            return String::new();
        }
        let node = &self.nodes[n as usize];
        let (mut assigned, mut ok, mut pfail, mut fail) = (0, 0, 0, 0);
        for j in 0..SLOTS {
            let o = node.slot_owner[j];
            if o == NO_NODE {
                continue;
            }
            assigned += 1;
            let f = node.peers[o as usize].flags;
            if f & flag::FAIL != 0 {
                fail += 1;
            } else if f & flag::PFAIL != 0 {
                pfail += 1;
            } else {
                ok += 1;
            }
        }
        let mut out = String::new();
        let state = if node.state_ok { "ok" } else { "fail" };
        let my_epoch = match node.my_master() {
            Some(m) if node.is_slave() => node.peers[m as usize].config_epoch,
            _ => node.me().config_epoch,
        };
        let _ = write!(
            out,
            "cluster_state:{state}\r\ncluster_slots_assigned:{assigned}\r\ncluster_slots_ok:{ok}\r\ncluster_slots_pfail:{pfail}\r\ncluster_slots_fail:{fail}\r\ncluster_known_nodes:{}\r\ncluster_size:{}\r\ncluster_current_epoch:{}\r\ncluster_my_epoch:{my_epoch}\r\n",
            node.known_list.len(),
            node.size,
            node.current_epoch
        );
        let mut total = 0;
        for (i, c) in node.stats_sent.iter().enumerate() {
            if *c > 0 {
                let _ = write!(
                    out,
                    "cluster_stats_messages_{}_sent:{c}\r\n",
                    MsgType::stat_name(i)
                );
                total += c;
            }
        }
        let _ = write!(out, "cluster_stats_messages_sent:{total}\r\n");
        let mut total = 0;
        for (i, c) in node.stats_received.iter().enumerate() {
            if *c > 0 {
                let _ = write!(
                    out,
                    "cluster_stats_messages_{}_received:{c}\r\n",
                    MsgType::stat_name(i)
                );
                total += c;
            }
        }
        let _ = write!(out, "cluster_stats_messages_received:{total}\r\n");
        out.push_str("total_cluster_links_buffer_limit_exceeded:0\r\n");
        out
    }
}
