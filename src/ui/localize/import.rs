//! A paste that could not be imported, and what an import noticed, in the reader's language.

use super::topology_error;
use crate::core::cluster::import::{
    Clash, Expected, Found, ImportError, ImportErrorKind, ImportWarning, MAX_CLAIMED_SLOTS,
    MAX_INPUT_BYTES,
};
use crate::ui::messages::{fill, grouped, Messages};

/// How many uncovered ranges an import warning lists before "and N more".
const SHOWN_RANGES: usize = 8;

/// A paste that could not be imported, with its line when it has one.
pub fn import_error(t: &Messages, e: &ImportError) -> String {
    let kind = import_error_kind(t, &e.kind);
    match e.line {
        Some(line) => fill(t.at_line, &[&line, &kind]),
        None => kind,
    }
}

/// What an import expected where the paste went wrong.
fn expected(t: &Messages, e: &Expected) -> String {
    use Expected as E;
    match e {
        E::NodeIdAtStart => t.imp_want_node_id_at_start.to_string(),
        E::NodeFields => t.imp_want_node_fields.to_string(),
        E::BusAddress => t.imp_want_bus_address.to_string(),
        E::Flags => t.imp_want_flags.to_string(),
        E::OneRole => t.imp_want_one_role.to_string(),
        E::MasterId => t.imp_want_master_id.to_string(),
        E::Counter(c) => fill(t.imp_want_counter, &[&c.name(), &c.field()]),
        E::LinkState => t.imp_want_link_state.to_string(),
        E::NoSlotsOnReplica => t.imp_want_no_slots_on_replica.to_string(),
        E::OpenSlot => t.imp_want_open_slot.to_string(),
        E::SlotOrRange => t.imp_want_slot_or_range.to_string(),
        E::QuotedString => t.imp_want_quoted_string.to_string(),
        E::Integer => t.imp_want_integer.to_string(),
        E::Value => t.imp_want_value.to_string(),
        E::NothingAfterOneLineReply => t.imp_want_nothing_after.to_string(),
        E::NumberedItem => t.imp_want_numbered_item.to_string(),
        E::AlignedItem => t.imp_want_aligned_item.to_string(),
        E::ItemNumber(n) => fill(t.imp_want_item, &[n]),
        E::ShardList => t.imp_want_shard_list.to_string(),
        E::Shard => t.imp_want_shard.to_string(),
        E::ShardField(name) => fill(t.imp_want_shard_field, &[name]),
        E::ShardSlots => t.imp_want_shard_slots.to_string(),
        E::ShardNodes => t.imp_want_shard_nodes.to_string(),
        E::ShardNode => t.imp_want_shard_node.to_string(),
        E::NodeField(name) => fill(t.imp_want_node_field, &[name]),
        E::Role => t.imp_want_role.to_string(),
        E::ShardMaster => t.imp_want_shard_master.to_string(),
        E::RangeList => t.imp_want_range_list.to_string(),
        E::RangeEntry => t.imp_want_range_entry.to_string(),
        E::FirstSlot => t.imp_want_first_slot.to_string(),
        E::LastSlot => t.imp_want_last_slot.to_string(),
        E::RangeMaster => t.imp_want_range_master.to_string(),
        E::RangeNode => t.imp_want_range_node.to_string(),
        E::NodeAddress => t.imp_want_node_address.to_string(),
        E::NodePort => t.imp_want_node_port.to_string(),
        E::NodeId => t.imp_want_node_id.to_string(),
        E::Metadata => t.imp_want_metadata.to_string(),
        E::Host => t.imp_want_host.to_string(),
        E::Ip => t.imp_want_ip.to_string(),
        E::Hostname => t.imp_want_hostname.to_string(),
        E::Port => t.imp_want_port.to_string(),
        E::Id => t.imp_want_id.to_string(),
        E::FieldName => t.imp_want_field_name.to_string(),
        E::ValueOf(name) => fill(t.imp_want_value_of, &[name]),
        E::RawShardStart => t.imp_want_raw_shard_start.to_string(),
        E::RawShardNodes => t.imp_want_raw_shard_nodes.to_string(),
        E::RawNodeStart => t.imp_want_raw_node_start.to_string(),
        E::RawLastSlot => t.imp_want_raw_last_slot.to_string(),
        E::RawPort => t.imp_want_raw_port.to_string(),
        E::RawId => t.imp_want_raw_id.to_string(),
    }
}

/// What an import found instead. redis-cli's notations (`(integer) 7000`, `(nil)`,
/// `(empty array)`, `3)`) are code and stay as they are.
fn found(t: &Messages, f: &Found) -> String {
    match f {
        Found::Text(text) => fill(t.imp_found_text, &[text]),
        Found::Fields { count, line } => fill(t.imp_found_fields, &[count, line]),
        Found::Integer(n) => format!("(integer) {n}"),
        Found::Nil => "(nil)".to_owned(),
        Found::EmptyArray => "(empty array)".to_owned(),
        Found::Item(n) => format!("{n})"),
        Found::List => t.imp_found_list.to_string(),
        Found::EndOfList => t.imp_found_end_of_list.to_string(),
        Found::EndOfPaste => t.imp_found_end_of_paste.to_string(),
        Found::Missing => t.imp_found_missing.to_string(),
        Found::OnlyReplicas => t.imp_found_only_replicas.to_string(),
    }
}

/// What was wrong with a paste.
fn import_error_kind(t: &Messages, k: &ImportErrorKind) -> String {
    use ImportErrorKind as K;
    match k {
        K::TooLarge { bytes } => fill(
            t.imp_too_large,
            &[&grouped(*bytes as u64), &grouped(MAX_INPUT_BYTES as u64)],
        ),
        K::Empty => t.imp_empty.to_string(),
        K::Unrecognised { found } => fill(t.imp_unrecognised, &[found]),
        K::RedisError { message } => fill(t.imp_redis_error, &[message]),
        K::Expected {
            expected: what,
            found: instead,
        } => fill(t.imp_expected, &[&expected(t, what), &found(t, instead)]),
        K::SlotOutOfRange { found } => fill(t.imp_slot_out_of_range, &[found]),
        K::BackwardRange { first, last } => fill(t.imp_backward_range, &[first, last]),
        K::DuplicateNode { id, first_line } => fill(t.imp_duplicate_node, &[id, first_line]),
        K::Inconsistent { id, detail } => {
            let detail = match detail {
                Clash::MasterAfterReplica => t.imp_clashes[0],
                Clash::ReplicaAfterMaster => t.imp_clashes[1],
                Clash::TwoMasters => t.imp_clashes[2],
            };
            fill(t.imp_inconsistent, &[id, &detail])
        }
        K::SeveralReplies => t.imp_several_replies.to_string(),
        K::NoMasters => t.imp_no_masters.to_string(),
        K::TooDeep => t.imp_too_deep.to_string(),
        K::TooManySlots => fill(t.imp_too_many_slots, &[&MAX_CLAIMED_SLOTS]),
        K::Topology(e) => topology_error(t, e),
    }
}

/// Something an import noticed but did not refuse.
pub fn import_warning(t: &Messages, w: &ImportWarning) -> String {
    match w {
        ImportWarning::Overlap {
            range,
            first,
            second,
            line,
        } => {
            let template = if range.len() == 1 {
                t.imp_overlap_one
            } else {
                t.imp_overlap_many
            };
            fill(t.at_line, &[line, &fill(template, &[second, range, first])])
        }
        ImportWarning::Uncovered { count, ranges } => {
            let template = if *count == 1 {
                t.imp_uncovered_one
            } else {
                t.imp_uncovered_many
            };
            let shown: Vec<String> = ranges
                .iter()
                .take(SHOWN_RANGES)
                .map(|r| r.to_string())
                .collect();
            let mut list = shown.join(t.list_sep);
            if ranges.len() > SHOWN_RANGES {
                list.push_str(&fill(t.imp_more_ranges, &[&(ranges.len() - SHOWN_RANGES)]));
            }
            fill(template, &[count, &list])
        }
        ImportWarning::OrphanReplica {
            line,
            addr,
            master_id: Some(master),
            ..
        } => fill(t.at_line, &[line, &fill(t.imp_orphan, &[addr, master])]),
        ImportWarning::OrphanReplica {
            line,
            addr,
            master_id: None,
            ..
        } => fill(t.at_line, &[line, &fill(t.imp_orphan_unknown, &[addr])]),
    }
}
