//! The cluster commands the engine runs: `CLUSTER SETSLOT` (open, close and reassign slots),
//! `MIGRATE` (move keys between nodes' key spaces), and the `CLUSTER NODES` and `CLUSTER SLOTS`
//! printers, as the node asked sees the map.

use super::parse_i64;
use super::reply::{ErrorReply, Reply, SetSlotError};
use super::{Cluster, Role};
use crate::core::key::slot::{key_slot, N_SLOTS};

impl Cluster {
    /// `CLUSTER COUNTKEYSINSLOT <slot>`.
    pub(super) fn count_keys_in_slot(&self, node: usize, slot: &[u8]) -> Reply {
        let Some(slot) = parse_i64(slot) else {
            return ErrorReply::NotInteger.into();
        };
        if !(0..N_SLOTS as i64).contains(&slot) {
            return ErrorReply::InvalidSlot.into();
        }
        let now = self.now;
        let n = self.db(node).map_or(0, |db| {
            db.iter()
                .filter(|(k, e)| !e.is_expired(now) && i64::from(key_slot(k)) == slot)
                .count()
        });
        Reply::Int(n as i64)
    }

    /// `CLUSTER GETKEYSINSLOT <slot> <count>`: newest keys first, as Redis lists them.
    pub(super) fn get_keys_in_slot(&self, node: usize, slot: &[u8], max: &[u8]) -> Reply {
        let (Some(slot), Some(max)) = (parse_i64(slot), parse_i64(max)) else {
            return ErrorReply::NotInteger.into();
        };
        if !(0..N_SLOTS as i64).contains(&slot) || max < 0 {
            return ErrorReply::InvalidSlotOrCount.into();
        }
        let now = self.now;
        let mut keys: Vec<(&Vec<u8>, u64)> = self.db(node).map_or(Vec::new(), |db| {
            db.iter()
                .filter(|(k, e)| !e.is_expired(now) && i64::from(key_slot(k)) == slot)
                .map(|(k, e)| (k, e.seq))
                .collect()
        });
        crate::core::sort::sort_by_key(&mut keys, |k| std::cmp::Reverse(k.1));
        Reply::Array(
            keys.into_iter()
                .take(usize::try_from(max).unwrap_or(usize::MAX))
                .map(|(k, _)| Reply::Bulk(Some(k.clone())))
                .collect(),
        )
    }

    /// `CLUSTER REPLICAS <id>` (and SLAVES): the replicas' lines of `CLUSTER NODES` as `node`
    /// prints them, one bulk string each; `ERR Unknown node <id>` or `ERR The specified node
    /// is not a master` as 7.0.15 answers.
    pub(super) fn cluster_replicas(&self, node: usize, id: &[u8]) -> Reply {
        let master = match self.lookup_node(id) {
            None => {
                return ErrorReply::SetSlot(SetSlotError::UnknownNode {
                    id: String::from_utf8_lossy(id).into_owned(),
                })
                .into()
            }
            Some(Err(())) => return ErrorReply::NotAMaster.into(),
            Some(Ok(m)) => m,
        };
        let Some(master_id) = self.map.masters().get(master).map(|m| m.id.clone()) else {
            return Reply::Array(Vec::new());
        };
        Reply::Array(
            self.cluster_nodes(node)
                .lines()
                .filter(|line| line.split(' ').nth(3) == Some(master_id.as_str()))
                .map(|line| Reply::Bulk(Some(line.as_bytes().to_vec())))
                .collect(),
        )
    }

    /// Whether the node named `id` is flagged `fail` or `fail?` in the map.
    pub(super) fn node_has_failed(&self, id: &[u8]) -> bool {
        self.map.masters().iter().any(|m| {
            let failed = |flags: &[String]| flags.iter().any(|f| f == "fail" || f == "fail?");
            (m.id.as_bytes() == id && failed(&m.flags))
                || m.replicas
                    .iter()
                    .any(|r| r.id.as_bytes() == id && failed(&r.flags))
        })
    }

    /// The master index and node id named by `id`, or whether it is a replica's id.
    pub(super) fn lookup_node(&self, id: &[u8]) -> Option<Result<usize, ()>> {
        let masters = self.map.masters();
        if let Some(m) = masters.iter().position(|m| m.id.as_bytes() == id) {
            return Some(Ok(m));
        }
        masters
            .iter()
            .any(|m| m.replicas.iter().any(|r| r.id.as_bytes() == id))
            .then_some(Err(()))
    }

    /// How many keys of `slot` the node holds.
    fn count_in_slot(&self, node: usize, slot: u16) -> usize {
        let now = self.now;
        self.db(node).map_or(0, |db| {
            db.iter()
                .filter(|(k, e)| !e.is_expired(now) && key_slot(k) == slot)
                .count()
        })
    }

    /// `CLUSTER SETSLOT <slot> IMPORTING|MIGRATING|NODE <id>` and `STABLE`, as Redis 7.0's
    /// `clusterCommand` runs it on the node it was sent to. The node's own open slots are its
    /// master's `migrating`/`importing` lists; NODE changes the one owner table every node
    /// shares here (in Redis the new owner's bumped epoch spreads it by gossip at once).
    pub(super) fn setslot(&mut self, node: usize, args: &[Vec<u8>]) -> Reply {
        let arg = |i: usize| args.get(i).map(Vec::as_slice).unwrap_or(&[]);
        let err = |e: SetSlotError| Reply::Error(ErrorReply::SetSlot(e));
        let me = match self.role(node) {
            Some(Role::Master(m)) => m,
            _ => return err(SetSlotError::OnlyMasters),
        };
        let slot = match parse_i64(arg(2)).and_then(|n| u16::try_from(n).ok()) {
            Some(s) if usize::from(s) < N_SLOTS => s,
            _ => return err(SetSlotError::BadSlot),
        };
        let action = arg(3).to_ascii_lowercase();
        let id = arg(4);
        let id_text = String::from_utf8_lossy(id).into_owned();
        let owner = self.map.owner(slot);
        match (action.as_slice(), args.len()) {
            (b"migrating" | b"importing", 5) => {
                let migrating = action == b"migrating";
                if migrating && owner != Some(me) {
                    return err(SetSlotError::NotOwner { slot });
                }
                if !migrating && owner == Some(me) {
                    return err(SetSlotError::AlreadyOwner { slot });
                }
                let target = match self.lookup_node(id) {
                    None => return err(SetSlotError::DontKnowNode { id: id_text }),
                    Some(Err(())) => return err(SetSlotError::TargetNotMaster),
                    Some(Ok(t)) => t,
                };
                let target_id = self
                    .map
                    .masters()
                    .get(target)
                    .map(|t| t.id.clone())
                    .unwrap_or_default();
                if let Some(m) = self.map.master_mut(me) {
                    let list = if migrating {
                        &mut m.migrating
                    } else {
                        &mut m.importing
                    };
                    list.retain(|(s, _)| *s != slot);
                    list.push((slot, target_id));
                    crate::core::sort::sort_by_key(list, |(s, _)| *s);
                }
            }
            (b"stable", 4) => {
                if let Some(m) = self.map.master_mut(me) {
                    m.migrating.retain(|(s, _)| *s != slot);
                    m.importing.retain(|(s, _)| *s != slot);
                }
            }
            (b"node", 5) => {
                let target = match self.lookup_node(id) {
                    None => return err(SetSlotError::UnknownNode { id: id_text }),
                    Some(Err(())) => return err(SetSlotError::TargetNotMaster),
                    Some(Ok(t)) => t,
                };
                let keys_here = self.count_in_slot(node, slot);
                if owner == Some(me) && target != me && keys_here != 0 {
                    return err(SetSlotError::StillHoldsKeys { slot });
                }
                let was_importing = self
                    .map
                    .masters()
                    .get(me)
                    .is_some_and(|m| m.importing.iter().any(|(s, _)| *s == slot));
                self.map.assign(slot, Some(target));
                if let Some(m) = self.map.master_mut(me) {
                    if keys_here == 0 {
                        m.migrating.retain(|(s, _)| *s != slot);
                    }
                    if target == me {
                        m.importing.retain(|(s, _)| *s != slot);
                    }
                }
                // Redis 7.0.15 `clusterCommand` SETSLOT NODE: the node that has just imported
                // the slot bumps its config epoch without consensus, so the new owner wins.
                if target == me && was_importing {
                    self.map.bump_epoch_without_consensus(me);
                }
            }
            _ => return err(SetSlotError::BadAction),
        }
        Reply::Ok
    }

    /// `MIGRATE host port key|"" destination-db timeout [COPY] [REPLACE] [AUTH pw]
    /// [AUTH2 user pw] [KEYS key…]`, as Redis 7.0's `migrateCommand`: keys the node does not
    /// hold are left out (`+NOKEY` when none is left); each key is restored on the target with
    /// RESTORE-ASKING (routed there as the target routes it) and deleted here unless COPY.
    pub(super) fn migrate(&mut self, node: usize, args: &[Vec<u8>]) -> Reply {
        let arg = |i: usize| args.get(i).map(Vec::as_slice).unwrap_or(&[]);
        let (mut copy, mut replace, mut auth) = (false, false, false);
        let mut first_key = 3;
        let mut num_keys = 1;
        let mut j = 6;
        while j < args.len() {
            let more = args.len() - 1 - j;
            let is = |w: &[u8]| arg(j).eq_ignore_ascii_case(w);
            if is(b"copy") {
                copy = true;
            } else if is(b"replace") {
                replace = true;
            } else if is(b"auth") {
                if more < 1 {
                    return ErrorReply::Syntax.into();
                }
                auth = true;
                j += 1;
            } else if is(b"auth2") {
                if more < 2 {
                    return ErrorReply::Syntax.into();
                }
                auth = true;
                j += 2;
            } else if is(b"keys") {
                if !arg(3).is_empty() {
                    return ErrorReply::MigrateKeysNeedEmptyKey.into();
                }
                first_key = j + 1;
                num_keys = args.len() - j - 1;
                break;
            } else {
                return ErrorReply::Syntax.into();
            }
            j += 1;
        }
        let (Some(_timeout), Some(dbid)) = (parse_i64(arg(5)), parse_i64(arg(4))) else {
            return ErrorReply::NotInteger.into();
        };
        let keys: Vec<Vec<u8>> = args
            .iter()
            .skip(first_key)
            .take(num_keys)
            .filter(|k| self.live_entry(node, k).is_some())
            .cloned()
            .collect();
        if keys.is_empty() {
            return Reply::Status("NOKEY".to_owned());
        }
        let target_addr = format!(
            "{}:{}",
            String::from_utf8_lossy(arg(1)),
            String::from_utf8_lossy(arg(2))
        );
        let Some(target) = self.node_index(&target_addr) else {
            return ErrorReply::MigrateIo.into();
        };
        let replied = |e: ErrorReply| Reply::Error(ErrorReply::TargetReplied(Box::new(e)));
        if auth {
            return replied(ErrorReply::AuthNotConfigured);
        }
        if dbid != 0 {
            return replied(ErrorReply::SelectInCluster);
        }
        let mut first_error: Option<ErrorReply> = None;
        for key in &keys {
            let route = self.route_keys(target, [key.as_slice()], true, false, true, false);
            let target_error = if let Some(e) = route.error() {
                Some(e)
            } else if self.is_replica(target) {
                Some(ErrorReply::ReadonlyReplica)
            } else if !replace && self.live_entry(target, key).is_some() {
                Some(ErrorReply::BusyKey)
            } else {
                None
            };
            match target_error {
                Some(e) => {
                    first_error.get_or_insert(e);
                }
                None => {
                    let Some(entry) = self.live_entry(node, key).cloned() else {
                        continue;
                    };
                    if target != node {
                        self.del(target, key);
                    }
                    self.put_entry(target, key, entry);
                    if !copy && target != node {
                        self.del(node, key);
                    }
                }
            }
        }
        match first_error {
            Some(e) => replied(e),
            None => Reply::Ok,
        }
    }

    /// `CLUSTER NODES` as the node at index `node` prints it: every node, `myself` on its own
    /// line, its open slots (`[slot->-id]`, `[slot-<-id]`) after its ranges, each master's and
    /// its replicas' config epoch. Ping and pong times are 0: the real ones change from run to
    /// run, so compare the output field by field, not byte for byte.
    pub fn cluster_nodes_of(&self, node_addr: &str) -> Option<String> {
        self.node_index(node_addr).map(|n| self.cluster_nodes(n))
    }

    pub(super) fn cluster_nodes(&self, node: usize) -> String {
        let my_addr = self.nodes.get(node).map(|n| n.addr.as_str()).unwrap_or("");
        let bus = |addr: &str| {
            let cport = addr
                .rsplit_once(':')
                .and_then(|(_, p)| p.parse::<u32>().ok())
                .filter(|p| *p != 0)
                .map_or(0, |p| p.saturating_add(10000));
            format!("{addr}@{cport}")
        };
        let flags = |addr: &str, extra: &[String], role: &str| {
            let mut words: Vec<&str> = Vec::new();
            if addr == my_addr {
                words.push("myself");
            }
            words.push(role);
            words.extend(
                extra
                    .iter()
                    .map(String::as_str)
                    .filter(|f| !matches!(*f, "myself" | "master" | "slave" | "replica")),
            );
            words.join(",")
        };
        // A node others see as failed has no link to them (Redis prints `disconnected`).
        let link = |flags: &[String]| {
            if flags.iter().any(|f| f == "fail") {
                "disconnected"
            } else {
                "connected"
            }
        };
        let ranges = self.map.ranges_by_master();
        let mut out = String::new();
        for (i, m) in self.map.masters().iter().enumerate() {
            let epoch = m.epoch;
            let addr = match &m.hostname {
                Some(h) => format!("{},{h}", bus(&m.addr)),
                None => bus(&m.addr),
            };
            out.push_str(&format!(
                "{} {addr} {} - 0 0 {epoch} {}",
                m.id,
                flags(&m.addr, &m.flags, "master"),
                link(&m.flags)
            ));
            for r in ranges.get(i).into_iter().flatten() {
                out.push_str(&format!(" {r}"));
            }
            if m.addr == my_addr {
                let mut open: Vec<(u16, String)> = m
                    .migrating
                    .iter()
                    .map(|(s, id)| (*s, format!("[{s}->-{id}]")))
                    .collect();
                open.extend(
                    m.importing
                        .iter()
                        .filter(|(s, _)| !m.migrating.iter().any(|(ms, _)| ms == s))
                        .map(|(s, id)| (*s, format!("[{s}-<-{id}]"))),
                );
                crate::core::sort::sort(&mut open);
                for (_, text) in open {
                    out.push(' ');
                    out.push_str(&text);
                }
            }
            out.push('\n');
            for r in &m.replicas {
                out.push_str(&format!(
                    "{} {} {} {} 0 0 {epoch} {}\n",
                    r.id,
                    bus(&r.addr),
                    flags(&r.addr, &r.flags, "slave"),
                    m.id,
                    link(&r.flags)
                ));
            }
        }
        out
    }

    pub(super) fn cluster_slots(&self) -> Reply {
        fn endpoint(addr: &str, id: &str, hostname: Option<&str>) -> Reply {
            let (ip, port) = addr.rsplit_once(':').unwrap_or((addr, "0"));
            let meta = match hostname {
                Some(h) => vec![
                    Reply::Bulk(Some(b"hostname".to_vec())),
                    Reply::Bulk(Some(h.as_bytes().to_vec())),
                ],
                None => Vec::new(),
            };
            Reply::Array(vec![
                Reply::Bulk(Some(ip.as_bytes().to_vec())),
                Reply::Int(port.parse().unwrap_or(0)),
                Reply::Bulk(Some(id.as_bytes().to_vec())),
                Reply::Array(meta),
            ])
        }
        let masters = self.map.masters();
        let entries = self
            .map
            .runs()
            .filter_map(|run| {
                let master = masters.get(run.owner?)?;
                let mut entry = vec![
                    Reply::Int(i64::from(run.range.first)),
                    Reply::Int(i64::from(run.range.last)),
                    endpoint(&master.addr, &master.id, master.hostname.as_deref()),
                ];
                entry.extend(
                    master
                        .replicas
                        .iter()
                        .filter(|r| !r.flags.iter().any(|f| f == "fail"))
                        .map(|r| endpoint(&r.addr, &r.id, None)),
                );
                Some(Reply::Array(entry))
            })
            .collect();
        Reply::Array(entries)
    }
}
