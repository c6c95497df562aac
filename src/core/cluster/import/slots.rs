//! `CLUSTER SLOTS`: per range, its first and last slot, then its master and each replica,
//! from either redis-cli form. Masters with no slots do not appear.

use super::build::{NodeInfo, Role};
use super::error::{Clash, Expected as E, Found, ImportError, ImportErrorKind};
use super::lines::{expected, is_host, is_hostname, Line};
use super::tree::{
    fields, hostname_value, id_value, item, list, port_value, raw_is, raw_value, slot_range, Node,
    Value,
};
use std::collections::HashMap;

/// Rebuilds `redis-cli --raw CLUSTER SLOTS` output into the terminal form's tree. Raw output
/// has no brackets, so the shape of the values decides: a range is two slot numbers; then come
/// nodes, each an address, a port, an id and optional `hostname`/`ip` metadata pairs, until
/// the next number (an address is never a bare number), which opens the next range.
pub(super) fn raw_slots(content: &[Line<'_>]) -> Result<Node, ImportError> {
    let is_number = |l: Option<&Line<'_>>| {
        l.is_some_and(|l| {
            let t = l.text.trim();
            !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit())
        })
    };
    let mut entries = Vec::new();
    let mut i = 0;
    while let Some(start) = content.get(i) {
        let Some(end) = content.get(i + 1) else {
            return Err(expected(start.no, E::RawLastSlot, Found::EndOfPaste));
        };
        let mut entry = vec![raw_value(start), raw_value(end)];
        i += 2;
        while content.get(i).is_some() && !is_number(content.get(i)) {
            let Some(host) = content.get(i) else { break };
            let mut node = vec![raw_value(host)];
            for (k, what) in [(1, E::RawPort), (2, E::RawId)] {
                let Some(l) = content.get(i + k) else {
                    let last = content.last().map_or(host.no, |l| l.no);
                    return Err(expected(last, what, Found::EndOfPaste));
                };
                node.push(raw_value(l));
            }
            i += 3;
            let mut meta = Vec::new();
            while raw_is(content.get(i), "hostname") || raw_is(content.get(i), "ip") {
                let (Some(k), Some(v)) = (content.get(i), content.get(i + 1)) else {
                    break;
                };
                meta.push(raw_value(k));
                meta.push(raw_value(v));
                i += 2;
            }
            node.push(Node {
                line: host.no,
                value: Value::Array(meta),
            });
            entry.push(Node {
                line: host.no,
                value: Value::Array(node),
            });
        }
        entries.push(Node {
            line: start.no,
            value: Value::Array(entry),
        });
    }
    Ok(Node {
        line: content.first().map_or(1, |l| l.no),
        value: Value::Array(entries),
    })
}
// CLUSTER SLOTS: per range, first slot, last slot, then the master and each replica as
// [endpoint, port, id, metadata]. Masters with no slots do not appear.

pub(super) fn read_slots(root: &Node) -> Result<Vec<NodeInfo>, ImportError> {
    let entries = list(root, E::RangeList)?;
    let mut out: Vec<NodeInfo> = Vec::new();
    let mut by_id: HashMap<String, usize> = HashMap::new();
    for entry in entries {
        let items = list(entry, E::RangeEntry)?;
        let first = item(items, 0, entry.line, E::FirstSlot)?;
        let last = item(items, 1, entry.line, E::LastSlot)?;
        let range = slot_range(first, last)?;
        let master_node = item(items, 2, entry.line, E::RangeMaster)?;
        let master = endpoint(master_node)?;
        let master_idx = match by_id.get(&master.id) {
            Some(&i) => {
                if out.get(i).is_some_and(|n| n.role != Role::Master) {
                    return Err(ImportError::at(
                        master_node.line,
                        ImportErrorKind::Inconsistent {
                            id: master.id,
                            detail: Clash::MasterAfterReplica,
                        },
                    ));
                }
                i
            }
            None => {
                by_id.insert(master.id.clone(), out.len());
                out.push(master);
                out.len() - 1
            }
        };
        let master_id = out
            .get(master_idx)
            .map(|n| n.id.clone())
            .unwrap_or_default();
        if let Some(m) = out.get_mut(master_idx) {
            m.slots.push((first.line, range));
        }
        for replica_node in items.get(3..).unwrap_or_default() {
            let mut replica = endpoint(replica_node)?;
            match by_id.get(&replica.id).and_then(|&i| out.get(i)) {
                None => {
                    replica.role = Role::ReplicaOf(Some(master_id.clone()));
                    by_id.insert(replica.id.clone(), out.len());
                    out.push(replica);
                }
                Some(known) if known.role == Role::ReplicaOf(Some(master_id.clone())) => {}
                Some(known) => {
                    let detail = if known.role == Role::Master {
                        Clash::ReplicaAfterMaster
                    } else {
                        Clash::TwoMasters
                    };
                    return Err(ImportError::at(
                        replica_node.line,
                        ImportErrorKind::Inconsistent {
                            id: replica.id,
                            detail,
                        },
                    ));
                }
            }
        }
    }
    Ok(out)
}

/// One node of a SLOTS range: `[endpoint, port, id]` and, since Redis 7, a metadata map
/// (`hostname`, and `ip` when the endpoint shown is the hostname).
fn endpoint(node: &Node) -> Result<NodeInfo, ImportError> {
    let items = list(node, E::RangeNode)?;
    let host_node = item(items, 0, node.line, E::NodeAddress)?;
    let host = host_node
        .text()
        .filter(|h| is_host(h))
        .ok_or_else(|| expected(host_node.line, E::Host, host_node.describe()))?;
    let port = port_value(item(items, 1, node.line, E::NodePort)?)?;
    let id = id_value(item(items, 2, node.line, E::NodeId)?)?;
    let (mut meta_ip, mut hostname) = (None, None);
    if let Some(meta) = items.get(3) {
        for (key, value) in fields(meta, E::Metadata)? {
            match key.as_str() {
                "ip" => {
                    meta_ip = Some(
                        value
                            .text()
                            .filter(|ip| is_host(ip))
                            .ok_or_else(|| expected(value.line, E::Ip, value.describe()))?,
                    )
                }
                "hostname" => hostname = hostname_value(value)?,
                _ => {}
            }
        }
    }
    // With `cluster-preferred-endpoint-type hostname` the first field is the hostname and the
    // metadata holds the IP; `?` stands for an endpoint the node does not know.
    let ip = match meta_ip {
        Some(ip) => {
            if hostname.is_none() && is_hostname(&host) && host != ip {
                hostname = Some(host);
            }
            ip
        }
        None => host,
    };
    Ok(NodeInfo::new(
        node.line,
        id,
        format!("{ip}:{port}"),
        hostname,
        Role::Master,
    ))
}
