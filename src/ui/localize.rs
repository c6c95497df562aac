//! The core's errors and warnings in the reader's language.
//!
//! The core's `Display` impls are English (the CLI and the tests use them); the page renders the
//! same values through a [`Messages`] table instead. With [`EN`](super::messages::EN) every
//! function here returns exactly the `Display` text. Lines that redis-cli itself prints
//! (`*** …`, `[ERR] …`) are replies, and stay verbatim in every language.

use super::messages::{fill, Messages};
use crate::core::batch::{BatchError, MAX_LINES};
use crate::core::command::ArgsError;
use crate::core::compare::{CompareError, MAX_MASTERS};
use crate::core::escape::{format_key, EscapeError};
use crate::core::import::{
    Clash, Format, ImportError, ImportErrorKind, ImportWarning, MAX_CLAIMED_SLOTS, MAX_INPUT_BYTES,
};
use crate::core::plan::{PlanError, TemplateError, MAX_KEYS, MAX_SUB_TAGS};
use crate::core::redirect::ActionError;
use crate::core::reshard::ReshardError;
use crate::core::tags::{TagError, MAX_PER_MASTER};
use crate::core::topology::{SlotRange, TopologyError};
use crate::core::N_SLOTS;

/// How many uncovered ranges an import warning lists before "and N more".
const SHOWN_RANGES: usize = 8;

/// A command line that could not be split into arguments, worded as [`ArgsError`]'s
/// `Display`.
pub fn args_error(t: &Messages, e: &ArgsError) -> String {
    match e {
        ArgsError::UnclosedQuote { column, quote: '"' } => fill(t.args_unclosed_double, &[column]),
        ArgsError::UnclosedQuote { column, quote } => fill(t.args_unclosed_other, &[column, quote]),
        ArgsError::TextAfterQuote { column } => fill(t.args_text_after_quote, &[column]),
        #[allow(unreachable_patterns)]
        _ => e.to_string(),
    }
}

/// A line free mode cannot run, worded as [`ActionError`]'s `Display`.
pub fn action_error(t: &Messages, e: &ActionError) -> String {
    match e {
        ActionError::NoCommand => t.action_no_command.to_string(),
        ActionError::Empty => t.action_empty.to_string(),
        ActionError::Args(e) => args_error(t, e),
        #[allow(unreachable_patterns)]
        _ => e.to_string(),
    }
}

/// A redis-cli escape error, worded as [`EscapeError`]'s `Display` (lower case, for a list).
pub fn escape_error(t: &Messages, e: &EscapeError) -> String {
    match e {
        EscapeError::BadHex { column, found } if found.is_empty() => {
            fill(t.esc_hex_at_end, &[column])
        }
        EscapeError::BadHex { column, found } => fill(t.esc_bad_hex, &[column, found]),
        EscapeError::UnknownEscape { column, found } => fill(t.esc_unknown, &[column, found]),
        EscapeError::TrailingBackslash { column } => fill(t.esc_trailing, &[column]),
        EscapeError::UnclosedQuote { column } => fill(t.esc_unclosed, &[column]),
        EscapeError::TextAfterQuote { column } => fill(t.esc_after_quote, &[column]),
    }
}

/// A refused change to the slot map.
pub fn topology_error(t: &Messages, e: &TopologyError) -> String {
    match e {
        TopologyError::BadRange {
            master,
            first,
            last,
        } => fill(t.topo_bad_range, &[master, first, last]),
        TopologyError::Overlap {
            slot,
            first,
            second,
        } => fill(t.topo_overlap, &[slot, first, second]),
        TopologyError::NoSuchMaster { master_idx } => fill(t.err_no_master_number, &[master_idx]),
        TopologyError::TooManyMasters { n_masters } => fill(t.topo_too_many_masters, &[n_masters]),
        TopologyError::NotEmpty { master, slots } => fill(t.topo_not_empty, &[master, slots]),
    }
}

/// A refused reshard, rebalance, removal or failover. redis-cli's own lines stay verbatim.
pub fn reshard_error(t: &Messages, e: &ReshardError) -> String {
    match e {
        ReshardError::NoSuchMaster { master_idx } => fill(t.err_no_master_number, &[master_idx]),
        ReshardError::DuplicateMaster { master_idx } => fill(t.reshard_duplicate, &[master_idx]),
        ReshardError::BadSlotCount { n_slots } => fill(t.reshard_bad_count, &[n_slots, &N_SLOTS]),
        ReshardError::SourcesOwnNothing => t.reshard_sources_empty.to_string(),
        ReshardError::BadWeight { master_idx, weight } => {
            fill(t.reshard_bad_weight, &[weight, master_idx])
        }
        ReshardError::ZeroTotalWeight => t.reshard_zero_weight.to_string(),
        ReshardError::AlreadyFailed { master } => fill(t.reshard_already_failed, &[master]),
        // What redis-cli prints: `*** …` and `[ERR] …` lines.
        ReshardError::TargetIsSource { .. }
        | ReshardError::NoSources
        | ReshardError::NotKnown { .. }
        | ReshardError::ClusterNotOk { .. }
        | ReshardError::TableMismatch
        | ReshardError::NotEmpty { .. }
        | ReshardError::NoSuchNode { .. } => e.to_string(),
    }
}

/// A paste that could not be imported, with its line when it has one.
pub fn import_error(t: &Messages, e: &ImportError) -> String {
    let kind = import_error_kind(t, &e.kind);
    match e.line {
        Some(line) => fill(t.at_line, &[&line, &kind]),
        None => kind,
    }
}

/// What was wrong with a paste.
fn import_error_kind(t: &Messages, k: &ImportErrorKind) -> String {
    use ImportErrorKind as K;
    match k {
        K::TooLarge { bytes } => fill(t.imp_too_large, &[bytes, &MAX_INPUT_BYTES]),
        K::Empty => t.imp_empty.to_string(),
        K::Unrecognised { found } => fill(t.imp_unrecognised, &[found]),
        K::RedisError { message } => fill(t.imp_redis_error, &[message]),
        K::Expected { expected, found } => fill(t.imp_expected, &[expected, found]),
        K::SlotOutOfRange { found } => fill(t.imp_slot_out_of_range, &[found]),
        K::BackwardRange { first, last } => fill(t.imp_backward_range, &[first, last]),
        K::DuplicateNode { id, first_line } => fill(t.imp_duplicate_node, &[id, first_line]),
        K::Inconsistent { id, detail } => {
            let detail = match detail {
                Clash::MasterAfterReplica => t.imp_clashes[0],
                Clash::ReplicaAfterMaster => t.imp_clashes[1],
                Clash::TwoMasters => t.imp_clashes[2],
                #[allow(unreachable_patterns)]
                _ => "",
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

/// A key template without exactly one `%d`.
pub fn template_error(t: &Messages, e: &TemplateError) -> String {
    match e {
        TemplateError::NoPlaceholder { template } => {
            fill(t.tpl_no_placeholder, &[&format_key(template.as_bytes())])
        }
        TemplateError::ManyPlaceholders { template, count } => {
            fill(t.tpl_many, &[&format_key(template.as_bytes()), count])
        }
    }
}

/// Keys that could not be generated, or an experiment that could not run.
pub fn plan_error(t: &Messages, e: &PlanError) -> String {
    match e {
        PlanError::Template(e) => template_error(t, e),
        PlanError::TooManyKeys { asked } => fill(t.plan_too_many_keys, &[asked, &MAX_KEYS]),
        PlanError::SubTags { k } => fill(t.plan_sub_tags, &[k, &MAX_SUB_TAGS]),
    }
}

/// Tags that could not be generated.
pub fn tag_error(t: &Messages, e: &TagError) -> String {
    match e {
        TagError::Template(e) => template_error(t, e),
        TagError::CloseBrace { template } => {
            fill(t.tag_close_brace, &[&format_key(template.as_bytes())])
        }
        TagError::NoMasters => t.tag_no_masters.to_string(),
        TagError::MastersWithoutSlots { masters } => {
            let template = if masters.len() == 1 {
                t.tag_without_slots_one
            } else {
                t.tag_without_slots_many
            };
            fill(template, &[&masters.join(t.list_sep)])
        }
        TagError::TooManyPerMaster { per_master } => {
            fill(t.tag_too_many, &[per_master, &MAX_PER_MASTER])
        }
        TagError::Exhausted {
            tries,
            found,
            wanted,
            master,
            master_found,
            per_master,
        } => fill(
            t.tag_exhausted,
            &[tries, found, wanted, master, master_found, per_master],
        ),
    }
}

/// A comparison that could not be run.
pub fn compare_error(t: &Messages, e: &CompareError) -> String {
    match e {
        CompareError::NoMasters => t.cmp_err_no_masters.to_string(),
        CompareError::TooManyMasters { n_masters } => {
            fill(t.cmp_err_too_many, &[n_masters, &MAX_MASTERS])
        }
        CompareError::DuplicateAddr { addr } => fill(t.cmp_err_duplicate, &[addr]),
        CompareError::Rebalance { reason } => fill(t.cmp_err_rebalance, &[reason]),
    }
}

/// A batch that was not answered at all.
pub fn batch_error(t: &Messages, e: &BatchError) -> String {
    match e {
        BatchError::NoSuchNode { addr } => fill(t.batch_no_node, &[addr]),
        BatchError::TooManyLines { lines } => fill(t.batch_too_many_lines, &[lines, &MAX_LINES]),
    }
}

/// Something the reducer has to say (an error, a notice or a change's label), kept as data so
/// the page words it in the reader's language when it shows it.
#[derive(Clone, Debug, PartialEq)]
pub enum Note {
    /// A refused change to the slot map.
    Topology(TopologyError),
    /// A refused reshard, rebalance, removal or failover.
    Reshard(ReshardError),
    /// A paste that could not be imported.
    Import(ImportError),
    /// What an import noticed.
    ImportWarnings(Vec<ImportWarning>),
    /// redis-cli's own lines (verbatim), and whether to add the empty-masters hint.
    RedisCli {
        /// The lines, as redis-cli prints them.
        lines: Vec<String>,
        /// Whether some masters are empty and stayed so.
        empty_masters_hint: bool,
    },
    /// A reshard's slot count that is not 1 to 16384, as typed.
    BadSlotCount(String),
    /// A rebalance threshold that is not 0 to 100, as typed.
    BadThreshold(String),
    /// A weight without `=`.
    WeightNotPair(String),
    /// A weight for a master that does not exist.
    WeightNoMaster {
        /// The master named.
        who: String,
        /// The whole pair.
        pair: String,
    },
    /// A weight that is not a number from 0 up.
    WeightNotNumber(String),
    /// A master index that does not exist.
    NoMasterNumber(usize),
    /// A change: slots resharded to a master.
    Resharded {
        /// How many slots.
        n_slots: usize,
        /// The target's address.
        to: String,
    },
    /// A change: a rebalance.
    Rebalanced,
    /// A change: a master drained and removed (its address).
    Drained(String),
    /// A change: a master failed and its replica took over.
    Promoted {
        /// The failed master's address.
        failed: String,
        /// The promoted replica's address.
        promoted: String,
    },
    /// A change: a master with no replica failed.
    FailedUncovered {
        /// Its address.
        master: String,
        /// The slots now unserved.
        slots: usize,
    },
    /// A change: a master with no slots failed (its address).
    FailedNoSlots(String),
    /// A change: a failover of another kind.
    FailedOver,
    /// A change: back to the fixtures' cluster.
    Fixture,
    /// A change: a cluster created with this many masters.
    Created(usize),
    /// A change: a master added (its address).
    AddedMaster(String),
    /// A change: a master removed (its address).
    RemovedMaster(String),
    /// A change: slots moved to a master.
    Moved {
        /// The slots.
        range: SlotRange,
        /// The target's address.
        to: String,
    },
    /// A change: a cluster imported from this command's output.
    Imported(Format),
    /// A change: the last one undone.
    Undone,
    /// A change: the last undone one redone.
    Redone,
}

impl Note {
    /// The note in the language of `t`.
    pub fn text(&self, t: &Messages) -> String {
        match self {
            Note::Topology(e) => topology_error(t, e),
            Note::Reshard(e) => reshard_error(t, e),
            Note::Import(e) => import_error(t, e),
            Note::ImportWarnings(w) => {
                let all: Vec<String> = w.iter().map(|w| import_warning(t, w)).collect();
                all.join(" ")
            }
            Note::RedisCli {
                lines,
                empty_masters_hint,
            } => {
                let mut text = lines.join("\n");
                if *empty_masters_hint {
                    if !lines.is_empty() {
                        text.push('\n');
                    }
                    text.push_str(t.hint_empty_masters);
                }
                text
            }
            Note::BadSlotCount(typed) => fill(t.note_bad_slot_count, &[typed]),
            Note::BadThreshold(typed) => fill(t.note_bad_threshold, &[typed]),
            Note::WeightNotPair(pair) => fill(t.weight_not_pair, &[pair]),
            Note::WeightNoMaster { who, pair } => fill(t.weight_no_master, &[who, pair]),
            Note::WeightNotNumber(w) => fill(t.weight_not_number, &[w]),
            Note::NoMasterNumber(i) => fill(t.err_no_master_number, &[i]),
            Note::Resharded { n_slots, to } => fill(t.change_reshard, &[n_slots, to]),
            Note::Rebalanced => t.change_rebalance.to_string(),
            Note::Drained(addr) => fill(t.change_drain, &[addr]),
            Note::Promoted { failed, promoted } => fill(t.change_promoted, &[failed, promoted]),
            Note::FailedUncovered { master, slots } => fill(t.change_uncovered, &[master, slots]),
            Note::FailedNoSlots(addr) => fill(t.change_no_slots, &[addr]),
            Note::FailedOver => t.change_failover.to_string(),
            Note::Fixture => t.change_fixture.to_string(),
            Note::Created(n) => fill(t.change_created, &[n]),
            Note::AddedMaster(addr) => fill(t.change_add_master, &[addr]),
            Note::RemovedMaster(addr) => fill(t.change_remove_master, &[addr]),
            Note::Moved { range, to } => fill(t.change_move, &[range, to]),
            Note::Imported(format) => fill(t.change_imported, &[format]),
            Note::Undone => t.lab_undo.to_string(),
            Note::Redone => t.lab_redo.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::messages::{EN, ZH};

    fn escapes() -> Vec<EscapeError> {
        vec![
            EscapeError::BadHex {
                column: 3,
                found: String::new(),
            },
            EscapeError::BadHex {
                column: 3,
                found: "zq".into(),
            },
            EscapeError::UnknownEscape {
                column: 1,
                found: 'q',
            },
            EscapeError::TrailingBackslash { column: 9 },
            EscapeError::UnclosedQuote { column: 1 },
            EscapeError::TextAfterQuote { column: 5 },
        ]
    }

    fn topologies() -> Vec<TopologyError> {
        vec![
            TopologyError::BadRange {
                master: "127.0.0.1:7000".into(),
                first: 0,
                last: 20000,
            },
            TopologyError::Overlap {
                slot: 7,
                first: "a:1".into(),
                second: "b:2".into(),
            },
            TopologyError::NoSuchMaster { master_idx: 9 },
            TopologyError::TooManyMasters { n_masters: 70000 },
            TopologyError::NotEmpty {
                master: "127.0.0.1:7001".into(),
                slots: 5461,
            },
        ]
    }

    fn reshards() -> Vec<ReshardError> {
        vec![
            ReshardError::NoSuchMaster { master_idx: 4 },
            ReshardError::DuplicateMaster { master_idx: 1 },
            ReshardError::TargetIsSource {
                master: "a:1".into(),
            },
            ReshardError::BadSlotCount { n_slots: 0 },
            ReshardError::NoSources,
            ReshardError::SourcesOwnNothing,
            ReshardError::NotKnown { id: "abc".into() },
            ReshardError::ClusterNotOk {
                problem: "[ERR] Not all 16384 slots are covered by nodes.".into(),
                action: "resharding",
            },
            ReshardError::BadWeight {
                master_idx: 2,
                weight: "-1".into(),
            },
            ReshardError::ZeroTotalWeight,
            ReshardError::TableMismatch,
            ReshardError::NotEmpty {
                master: "a:1".into(),
                slots: 3,
            },
            ReshardError::NoSuchNode { id: "dead".into() },
            ReshardError::AlreadyFailed {
                master: "a:1".into(),
            },
        ]
    }

    fn import_kinds() -> Vec<ImportErrorKind> {
        use ImportErrorKind as K;
        vec![
            K::TooLarge { bytes: 3_000_000 },
            K::Empty,
            K::Unrecognised {
                found: "\"cluster_state:ok\"".into(),
            },
            K::RedisError {
                message: "ERR This instance has cluster support disabled".into(),
            },
            K::Expected {
                expected: "a slot range".into(),
                found: "\"x\"".into(),
            },
            K::SlotOutOfRange {
                found: "16384".into(),
            },
            K::BackwardRange { first: 5, last: 3 },
            K::DuplicateNode {
                id: "abc".into(),
                first_line: 2,
            },
            K::Inconsistent {
                id: "abc".into(),
                detail: Clash::MasterAfterReplica,
            },
            K::Inconsistent {
                id: "abc".into(),
                detail: Clash::ReplicaAfterMaster,
            },
            K::Inconsistent {
                id: "abc".into(),
                detail: Clash::TwoMasters,
            },
            K::SeveralReplies,
            K::NoMasters,
            K::TooDeep,
            K::TooManySlots,
            K::Topology(TopologyError::TooManyMasters { n_masters: 70000 }),
        ]
    }

    fn warnings() -> Vec<ImportWarning> {
        let ranges: Vec<SlotRange> = (0..10)
            .map(|i| SlotRange::new(i * 10, i * 10 + 1))
            .collect();
        vec![
            ImportWarning::Overlap {
                range: SlotRange::new(5, 5),
                first: "a:1".into(),
                second: "b:2".into(),
                line: 3,
            },
            ImportWarning::Overlap {
                range: SlotRange::new(5, 9),
                first: "a:1".into(),
                second: "b:2".into(),
                line: 3,
            },
            ImportWarning::Uncovered {
                count: 1,
                ranges: vec![SlotRange::new(42, 42)],
            },
            ImportWarning::Uncovered {
                count: 20,
                ranges: ranges.clone(),
            },
            ImportWarning::Uncovered {
                count: 16,
                ranges: ranges[..8].to_vec(),
            },
            ImportWarning::OrphanReplica {
                line: 4,
                addr: "c:3".into(),
                id: "r1".into(),
                master_id: Some("m9".into()),
            },
            ImportWarning::OrphanReplica {
                line: 4,
                addr: "c:3".into(),
                id: "r1".into(),
                master_id: None,
            },
        ]
    }

    fn templates() -> Vec<TemplateError> {
        vec![
            TemplateError::NoPlaceholder {
                template: "user:\x01".into(),
            },
            TemplateError::ManyPlaceholders {
                template: "%d:%d".into(),
                count: 2,
            },
        ]
    }

    fn tags() -> Vec<TagError> {
        vec![
            TagError::Template(templates()[0].clone()),
            TagError::CloseBrace {
                template: "a}%d".into(),
            },
            TagError::NoMasters,
            TagError::MastersWithoutSlots {
                masters: vec!["a:1".into()],
            },
            TagError::MastersWithoutSlots {
                masters: vec!["a:1".into(), "b:2".into()],
            },
            TagError::TooManyPerMaster { per_master: 20_000 },
            TagError::Exhausted {
                tries: 100,
                found: 5,
                wanted: 12,
                master: "a:1".into(),
                master_found: 0,
                per_master: 4,
            },
        ]
    }

    fn plans() -> Vec<PlanError> {
        vec![
            PlanError::Template(templates()[1].clone()),
            PlanError::TooManyKeys { asked: 2_000_000 },
            PlanError::SubTags { k: 0 },
        ]
    }

    fn compares() -> Vec<CompareError> {
        vec![
            CompareError::NoMasters,
            CompareError::TooManyMasters { n_masters: 5000 },
            CompareError::DuplicateAddr { addr: "a:1".into() },
            CompareError::Rebalance {
                reason: ReshardError::ZeroTotalWeight.to_string(),
            },
        ]
    }

    fn batches() -> Vec<BatchError> {
        vec![
            BatchError::NoSuchNode { addr: "x:9".into() },
            BatchError::TooManyLines { lines: 5000 },
        ]
    }

    /// Checks `render` with English against `Display`, and that Chinese differs unless
    /// `verbatim` says the text is redis-cli's own.
    fn check<E: std::fmt::Display>(
        values: &[E],
        render: impl Fn(&Messages, &E) -> String,
        verbatim: impl Fn(&E) -> bool,
    ) {
        for e in values {
            let en = render(&EN, e);
            assert_eq!(en, e.to_string());
            let zh = render(&ZH, e);
            if verbatim(e) {
                assert_eq!(zh, en);
            } else {
                assert_ne!(zh, en, "{en}");
                assert!(!zh.contains("{0}") && !zh.contains("{1}"), "{zh}");
            }
        }
    }

    #[test]
    fn english_is_the_display_text_and_chinese_differs() {
        check(&escapes(), escape_error, |_| false);
        check(&topologies(), topology_error, |_| false);
        check(&reshards(), reshard_error, |e| {
            matches!(
                e,
                ReshardError::TargetIsSource { .. }
                    | ReshardError::NoSources
                    | ReshardError::NotKnown { .. }
                    | ReshardError::ClusterNotOk { .. }
                    | ReshardError::TableMismatch
                    | ReshardError::NotEmpty { .. }
                    | ReshardError::NoSuchNode { .. }
            )
        });
        let imports: Vec<ImportError> = import_kinds()
            .into_iter()
            .flat_map(|kind| {
                [
                    ImportError {
                        line: None,
                        kind: kind.clone(),
                    },
                    ImportError {
                        line: Some(7),
                        kind,
                    },
                ]
            })
            .collect();
        check(&imports, import_error, |_| false);
        check(&warnings(), import_warning, |_| false);
        check(&templates(), template_error, |_| false);
        check(&plans(), plan_error, |_| false);
        check(&tags(), tag_error, |_| false);
        check(&compares(), compare_error, |_| false);
        check(&batches(), batch_error, |_| false);
        let args = vec![
            ArgsError::UnclosedQuote {
                column: 5,
                quote: '"',
            },
            ArgsError::UnclosedQuote {
                column: 2,
                quote: '\'',
            },
            ArgsError::TextAfterQuote { column: 9 },
        ];
        check(&args, args_error, |_| false);
        let actions: Vec<ActionError> = [ActionError::NoCommand, ActionError::Empty]
            .into_iter()
            .chain(args.into_iter().map(ActionError::Args))
            .collect();
        check(&actions, action_error, |_| false);
    }

    #[test]
    fn notes_word_as_the_reducer_did_in_english_and_differ_in_chinese() {
        let cases: Vec<(Note, &str)> = vec![
            (Note::BadSlotCount("x".into()), "The number of slots must be a whole number from 1 to 16384 (got \"x\")."),
            (Note::BadThreshold("200".into()), "The threshold must be a percentage from 0 to 100 (got \"200\")."),
            (Note::WeightNotPair("a".into()), "\"a\" is not a weight: write node=weight, e.g. 127.0.0.1:7000=2"),
            (Note::WeightNoMaster { who: "b:1".into(), pair: "b:1=2".into() }, "No master b:1 for the weight \"b:1=2\""),
            (Note::WeightNotNumber("-1".into()), "\"-1\" is not a weight (a number, 0 or more)"),
            (Note::NoMasterNumber(7), "no master number 7"),
            (Note::Resharded { n_slots: 1000, to: "127.0.0.1:7006".into() }, "Reshard 1000 slots to 127.0.0.1:7006"),
            (Note::Rebalanced, "Rebalance"),
            (Note::Drained("a:1".into()), "Move every slot off a:1, then remove it"),
            (Note::Promoted { failed: "a:1".into(), promoted: "b:2".into() }, "a:1 failed: its replica b:2 took over its slots"),
            (Note::FailedUncovered { master: "a:1".into(), slots: 5461 }, "a:1 failed with no replica: its 5461 slots are served by nobody (CLUSTERDOWN)"),
            (Note::FailedNoSlots("a:1".into()), "a:1 failed; it owned no slots, so no replica was promoted"),
            (Note::FailedOver, "Failover"),
            (Note::Fixture, "The fixtures' cluster"),
            (Note::Created(3), "--cluster create, 3 masters"),
            (Note::AddedMaster("a:1".into()), "Add master a:1 (no slots yet)"),
            (Note::RemovedMaster("a:1".into()), "Remove master a:1"),
            (Note::Moved { range: SlotRange::new(0, 10), to: "a:1".into() }, "Move slots 0-10 to a:1"),
            (Note::Imported(Format::Nodes), "Imported CLUSTER NODES"),
            (Note::Undone, "Undo"),
            (Note::Redone, "Redo"),
            (
                Note::RedisCli { lines: vec!["*** No rebalancing needed! All nodes are within the 2.00% threshold.".into()], empty_masters_hint: true },
                "*** No rebalancing needed! All nodes are within the 2.00% threshold.\nEmpty masters take part only with --cluster-use-empty-masters: tick \"use empty masters\" to give them slots.",
            ),
            (Note::ImportWarnings(warnings()[..2].to_vec()), "line 3: b:2 claims slot 5, which a:1 already claims; the map keeps a:1 line 3: b:2 claims slots 5-9, which a:1 already claims; the map keeps a:1"),
        ];
        for (note, english) in cases {
            assert_eq!(note.text(&EN), english);
            assert_ne!(note.text(&ZH), english);
        }
        let verbatim = Note::RedisCli {
            lines: vec!["[OK] All 16384 slots covered.".into()],
            empty_masters_hint: false,
        };
        assert_eq!(verbatim.text(&ZH), verbatim.text(&EN));
        let e = Note::Reshard(ReshardError::ZeroTotalWeight);
        assert_eq!(e.text(&EN), ReshardError::ZeroTotalWeight.to_string());
    }

    #[test]
    fn chinese_keeps_numbers_and_names() {
        let w = &warnings()[3];
        let zh = import_warning(&ZH, w);
        assert_eq!(zh, "有 20 个槽没有主节点提供服务：0-1、10-11、20-21、30-31、40-41、50-51、60-61、70-71，另有 2 个范围");
        assert_eq!(
            reshard_error(
                &ZH,
                &ReshardError::BadWeight {
                    master_idx: 2,
                    weight: "-1".into()
                }
            ),
            "编号为 2 的主节点的权重 -1：权重必须是不小于 0 的数"
        );
    }
}
