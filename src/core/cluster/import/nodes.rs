//! `CLUSTER NODES` lines: `<id> <ip:port@cport[,hostname]> <flags> <master> <ping-sent>
//! <pong-recv> <config-epoch> <link-state> <slot> <slot> ...`

use super::build::{NodeInfo, Role};
use super::error::{Counter, Expected as E, Found, ImportError, ImportErrorKind};
use super::lines::{expected, is_hostname, is_node_id, shorten, text, Line};
use crate::core::cluster::topology::SlotRange;
use crate::core::key::slot::N_SLOTS;
use std::collections::HashMap;

pub(super) fn read_nodes(content: &[Line<'_>]) -> Result<Vec<NodeInfo>, ImportError> {
    let mut out: Vec<NodeInfo> = Vec::with_capacity(content.len());
    let mut seen: HashMap<String, usize> = HashMap::new();
    for line in content {
        let node = node_line(line.no, line.text.trim())?;
        if let Some(&first_line) = seen.get(&node.id) {
            return Err(ImportError::at(
                line.no,
                ImportErrorKind::DuplicateNode {
                    id: node.id,
                    first_line,
                },
            ));
        }
        seen.insert(node.id.clone(), line.no);
        out.push(node);
    }
    Ok(out)
}

fn node_line(no: usize, line: &str) -> Result<NodeInfo, ImportError> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let field = |i: usize| fields.get(i).copied().unwrap_or_default();
    if !is_node_id(field(0)) {
        return Err(expected(no, E::NodeIdAtStart, text(field(0))));
    }
    if fields.len() < 8 {
        return Err(expected(
            no,
            E::NodeFields,
            Found::Fields {
                count: fields.len(),
                line: shorten(line),
            },
        ));
    }
    let (addr, hostname) =
        parse_address(field(1)).ok_or_else(|| expected(no, E::BusAddress, text(field(1))))?;

    // Flags: comma-separated words. The role (master, slave) is not a flag here; `noflags`
    // means there are none. A node still in handshake shows no role: it is taken as a master
    // (with no slots), so it still appears.
    let mut flags = Vec::new();
    let (mut is_master, mut is_replica) = (false, false);
    for word in field(2).split(',') {
        if word.is_empty() || !word.bytes().all(|b| b.is_ascii_lowercase() || b == b'?') {
            return Err(expected(no, E::Flags, text(field(2))));
        }
        match word {
            "master" => is_master = true,
            "slave" | "replica" => is_replica = true,
            "noflags" => {}
            _ => flags.push(word.to_owned()),
        }
    }
    if is_master && is_replica {
        return Err(expected(no, E::OneRole, text(field(2))));
    }
    let master_field = field(3);
    if master_field != "-" && !is_node_id(master_field) {
        return Err(expected(no, E::MasterId, text(master_field)));
    }
    for counter in [Counter::PingSent, Counter::PongRecv, Counter::ConfigEpoch] {
        let f = field(counter.field() - 1);
        if f.is_empty() || f.len() > 20 || !f.bytes().all(|b| b.is_ascii_digit()) {
            return Err(expected(no, E::Counter(counter), text(f)));
        }
    }
    if !matches!(field(7), "connected" | "disconnected") {
        return Err(expected(no, E::LinkState, text(field(7))));
    }
    let role = if is_replica {
        Role::ReplicaOf((master_field != "-").then(|| master_field.to_owned()))
    } else {
        Role::Master
    };
    let mut node = NodeInfo::new(no, field(0).to_owned(), addr, hostname, role);
    node.flags = flags;
    // Up to 20 digits (checked above): a u64 holds every config epoch Redis writes.
    node.epoch = field(6).parse::<u64>().ok();
    for &f in fields.get(8..).unwrap_or_default() {
        if is_replica {
            return Err(expected(no, E::NoSlotsOnReplica, text(f)));
        }
        slot_field(no, f, &mut node)?;
    }
    Ok(node)
}

/// `ip:port@cport`, `ip:port@cport,hostname` (Redis 7), or `ip:port` (before Redis 4).
/// `noaddr` nodes show `:0@0`. IPv6 addresses are not bracketed (`::1:7000@17000`), so the
/// port is what follows the last colon. Later aux fields (`,key=value`) are ignored.
fn parse_address(field: &str) -> Option<(String, Option<String>)> {
    let (main, bus) = match field.split_once('@') {
        Some((main, bus)) => (main, Some(bus)),
        None => (field, None),
    };
    let (_, port) = main.rsplit_once(':')?;
    if port.is_empty() || port.parse::<u16>().is_err() {
        return None;
    }
    let mut hostname = None;
    if let Some(bus) = bus {
        let mut parts = bus.split(',');
        let cport = parts.next().unwrap_or_default();
        if cport.is_empty() || cport.parse::<u32>().is_err() {
            return None;
        }
        // Redis 7.0 writes the hostname only when one is set; later versions may add
        // `key=value` aux fields after it.
        match parts.next() {
            Some(h) if h.is_empty() || h.contains('=') => {}
            Some(h) if is_hostname(h) => hostname = Some(h.to_owned()),
            Some(_) => return None,
            None => {}
        }
    }
    Some((main.to_owned(), hostname))
}

/// One slot field of a master's line: `5712`, `0-5460`, `[5712->-<id>]` (migrating to id) or
/// `[5712-<-<id>]` (importing from id).
fn slot_field(no: usize, f: &str, node: &mut NodeInfo) -> Result<(), ImportError> {
    if let Some(inner) = f.strip_prefix('[') {
        let bad = || expected(no, E::OpenSlot, text(f));
        let inner = inner.strip_suffix(']').ok_or_else(bad)?;
        let (slot, id, migrating) = if let Some((slot, id)) = inner.split_once("->-") {
            (slot, id, true)
        } else if let Some((slot, id)) = inner.split_once("-<-") {
            (slot, id, false)
        } else {
            return Err(bad());
        };
        if !is_node_id(id) {
            return Err(bad());
        }
        let slot = slot_number(no, slot, f)?;
        let list = if migrating {
            &mut node.migrating
        } else {
            &mut node.importing
        };
        list.push((slot, id.to_owned()));
        return Ok(());
    }
    let range = match f.split_once('-') {
        Some((a, b)) => {
            let (first, last) = (slot_number(no, a, f)?, slot_number(no, b, f)?);
            if first > last {
                return Err(ImportError::at(
                    no,
                    ImportErrorKind::BackwardRange { first, last },
                ));
            }
            SlotRange::new(first, last)
        }
        None => {
            let slot = slot_number(no, f, f)?;
            SlotRange::new(slot, slot)
        }
    };
    node.slots.push((no, range));
    Ok(())
}

/// A slot number: decimal digits, at most 16383. `field` is the whole field, for the message.
fn slot_number(no: usize, digits: &str, field: &str) -> Result<u16, ImportError> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(expected(no, E::SlotOrRange, text(field)));
    }
    match digits.parse::<u32>() {
        Ok(n) if (n as usize) < N_SLOTS => Ok(n as u16),
        _ => Err(ImportError::at(
            no,
            ImportErrorKind::SlotOutOfRange {
                found: shorten(digits),
            },
        )),
    }
}
