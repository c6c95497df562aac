//! What every format is turned into ([`NodeInfo`]), and from those nodes to the map: masters
//! and replicas sorted by address, slot claims settled in paste order, warnings collected.

use super::error::{ImportError, ImportErrorKind, ImportWarning};
use super::{Format, Imported, MAX_CLAIMED_SLOTS};
use crate::core::cluster::topology::{Master, Replica, SlotMap, SlotRange};
use crate::core::key::slot::N_SLOTS;
use core::cmp::Ordering;
use std::collections::HashMap;
use std::net::IpAddr;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Role {
    Master,
    /// A replica, and the id of its master (`None`: `-`, not known).
    ReplicaOf(Option<String>),
}

#[derive(Clone, Debug)]
pub(super) struct NodeInfo {
    pub(super) line: usize,
    pub(super) id: String,
    pub(super) addr: String,
    pub(super) hostname: Option<String>,
    pub(super) flags: Vec<String>,
    pub(super) role: Role,
    /// Slot ranges claimed, each with the line that claims it.
    pub(super) slots: Vec<(usize, SlotRange)>,
    pub(super) migrating: Vec<(u16, String)>,
    pub(super) importing: Vec<(u16, String)>,
    /// The config epoch, where the format shows one (CLUSTER NODES).
    pub(super) epoch: Option<u64>,
}

impl NodeInfo {
    pub(super) fn new(
        line: usize,
        id: String,
        addr: String,
        hostname: Option<String>,
        role: Role,
    ) -> Self {
        NodeInfo {
            line,
            id,
            addr,
            hostname,
            flags: Vec::new(),
            role,
            slots: Vec::new(),
            migrating: Vec::new(),
            importing: Vec::new(),
            epoch: None,
        }
    }
}

/// Orders addresses by IP (numerically), then port; hostnames and empty (`noaddr`) hosts come
/// before IPs, as text.
fn address_order(a: &str, b: &str) -> Ordering {
    fn key(addr: &str) -> (Option<IpAddr>, &str, u32) {
        let (host, port) = addr.rsplit_once(':').unwrap_or((addr, ""));
        (host.parse().ok(), host, port.parse().unwrap_or(u32::MAX))
    }
    key(a).cmp(&key(b))
}

pub(super) fn build(nodes: Vec<NodeInfo>, format: Format) -> Result<Imported, ImportError> {
    let (mut masters, mut replicas): (Vec<NodeInfo>, Vec<NodeInfo>) =
        nodes.into_iter().partition(|n| n.role == Role::Master);
    if masters.is_empty() {
        return Err(ImportError::whole(ImportErrorKind::NoMasters));
    }
    let order = |a: &NodeInfo, b: &NodeInfo| address_order(&a.addr, &b.addr).then(a.id.cmp(&b.id));
    crate::core::sort::sort_by(&mut masters, order);
    crate::core::sort::sort_by(&mut replicas, order);

    let mut warnings = Vec::new();
    let index: HashMap<String, usize> = masters
        .iter()
        .enumerate()
        .map(|(i, m)| (m.id.clone(), i))
        .collect();
    // Formats without epochs (SHARDS, SLOTS) get 1, 2, … in address order, as a created
    // cluster's masters have them.
    let mut model: Vec<Master> = masters
        .iter()
        .enumerate()
        .map(|(i, m)| Master {
            addr: m.addr.clone(),
            id: m.id.clone(),
            hostname: m.hostname.clone(),
            flags: m.flags.clone(),
            replicas: Vec::new(),
            migrating: m.migrating.clone(),
            importing: m.importing.clone(),
            epoch: m.epoch.unwrap_or(i as u64 + 1),
        })
        .collect();
    for r in replicas {
        let Role::ReplicaOf(of) = r.role else {
            continue;
        };
        match of.as_ref().and_then(|id| index.get(id)) {
            Some(&i) => {
                if let Some(m) = model.get_mut(i) {
                    m.replicas.push(Replica {
                        addr: r.addr,
                        id: r.id,
                        flags: r.flags,
                    });
                }
            }
            None => warnings.push(ImportWarning::OrphanReplica {
                line: r.line,
                addr: r.addr,
                id: r.id,
                master_id: of,
            }),
        }
    }

    // Claims are settled in paste order, so "first" means first in the paste, whatever the
    // sorted position of its master.
    let mut claims: Vec<(usize, usize, SlotRange)> = masters
        .iter()
        .enumerate()
        .flat_map(|(i, m)| m.slots.iter().map(move |&(line, r)| (line, i, r)))
        .collect();
    crate::core::sort::sort_by_key(&mut claims, |&(line, _, _)| line);
    let addr_of = |i: usize| model.get(i).map(|m| m.addr.clone()).unwrap_or_default();
    let mut owner: Vec<Option<usize>> = vec![None; N_SLOTS];
    let mut claimed = 0usize;
    for (line, who, range) in claims {
        claimed += range.len();
        if claimed > MAX_CLAIMED_SLOTS {
            return Err(ImportError::at(line, ImportErrorKind::TooManySlots));
        }
        // A run of slots of this range that one earlier master already holds.
        let mut clash: Option<(usize, u16, u16)> = None;
        for slot in range.first..=range.last {
            let Some(cell) = owner.get_mut(slot as usize) else {
                continue;
            };
            let holder = match *cell {
                None => {
                    *cell = Some(who);
                    None
                }
                Some(o) if o == who => None,
                Some(o) => Some(o),
            };
            match (holder, clash) {
                (Some(h), Some((c, start, _))) if h == c => clash = Some((c, start, slot)),
                (holder, previous) => {
                    if let Some((c, start, end)) = previous {
                        warnings.push(ImportWarning::Overlap {
                            range: SlotRange::new(start, end),
                            first: addr_of(c),
                            second: addr_of(who),
                            line,
                        });
                    }
                    clash = holder.map(|h| (h, slot, slot));
                }
            }
        }
        if let Some((c, start, end)) = clash {
            warnings.push(ImportWarning::Overlap {
                range: SlotRange::new(start, end),
                first: addr_of(c),
                second: addr_of(who),
                line,
            });
        }
    }

    let mut ranges = Vec::new();
    let mut uncovered = Vec::new();
    let mut first = 0usize;
    for run in owner.chunk_by(|a, b| a == b) {
        let range = SlotRange::new(first as u16, (first + run.len() - 1) as u16);
        first += run.len();
        match run.first().copied().flatten() {
            Some(m) => ranges.push((m, range)),
            None => uncovered.push(range),
        }
    }
    if !uncovered.is_empty() {
        warnings.push(ImportWarning::Uncovered {
            count: uncovered.iter().map(SlotRange::len).sum(),
            ranges: uncovered,
        });
    }
    let map = SlotMap::from_ranges(model, &ranges)
        .map_err(|e| ImportError::whole(ImportErrorKind::Topology(e)))?;
    Ok(Imported {
        map,
        format,
        warnings,
    })
}
