//! The core's errors and warnings in the reader's language.
//!
//! The core returns its errors as data (enums with numbers, node ids and the user's text as
//! fields); every function here words one of them through a [`Messages`] table, matching every
//! variant by name, so a new variant does not build until both tables word it. Lines that
//! redis-cli itself prints (`*** …`, `[ERR] …`) are its words: they are quoted verbatim in every
//! language, after the page's own explanation.

use super::messages::{count, fill, grouped, Messages};
use crate::core::client::ActionError;
use crate::core::cluster::import::{Format, ImportError, ImportWarning};
use crate::core::cluster::reshard::ReshardError;
use crate::core::cluster::topology::{SlotRange, TopologyError};
use crate::core::key::escape::{format_key, EscapeError};
use crate::core::schemes::{CompareError, MAX_MASTERS};
use crate::core::workload::batch::{BatchError, MAX_LINES};
use crate::core::workload::tags::{TagError, MAX_PER_MASTER};
use crate::core::workload::{PlanError, TemplateError, MAX_KEYS, MAX_SUB_TAGS};
use crate::core::N_SLOTS;

mod import;
#[cfg(test)]
mod tests;

pub use import::{import_error, import_warning};

/// What is wrong at the column an [`EscapeError`] points at (a key, a command line or a hex
/// line), without the column: the one wording of the whole family.
pub fn escape_detail(t: &Messages, e: &EscapeError) -> String {
    match e {
        EscapeError::BadHex { found, .. } if found.is_empty() => t.esc_hex_at_end.to_string(),
        EscapeError::BadHex { found, .. } => fill(t.esc_bad_hex, &[found]),
        EscapeError::UnknownEscape { found, .. } => fill(t.esc_unknown, &[found]),
        EscapeError::TrailingBackslash { .. } => t.esc_trailing.to_string(),
        EscapeError::UnclosedQuote { quote, .. } => fill(t.esc_unclosed, &[quote]),
        EscapeError::TextAfterQuote { .. } => t.esc_after_quote.to_string(),
        EscapeError::NotHex { found, .. } => fill(t.esc_not_hex, &[found]),
        EscapeError::UnpairedHexDigit { .. } => t.esc_unpaired_hex.to_string(),
    }
}

/// An [`EscapeError`] with its column, as a phrase (`column 5: …`) for a list or after
/// redis-cli's `Invalid argument(s)`.
pub fn escape_error(t: &Messages, e: &EscapeError) -> String {
    fill(t.at_column, &[&e.column(), &escape_detail(t, e)])
}

/// An [`EscapeError`] with its column, as a sentence of its own (`Column 5: ….`).
pub fn escape_sentence(t: &Messages, e: &EscapeError) -> String {
    fill(t.at_column_sentence, &[&e.column(), &escape_detail(t, e)])
}

/// A line free mode cannot run.
pub fn action_error(t: &Messages, e: &ActionError) -> String {
    match e {
        ActionError::NoCommand => t.action_no_command.to_string(),
        ActionError::Empty => t.action_empty.to_string(),
        ActionError::Args(e) => escape_error(t, e),
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

/// A refused reshard, rebalance, removal or failover. redis-cli's own lines are quoted verbatim
/// after the page's explanation.
pub fn reshard_error(t: &Messages, e: &ReshardError) -> String {
    let cli = |template: &str| fill(template, &[&e.redis_cli_text().unwrap_or_default()]);
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
        ReshardError::TargetIsSource { .. } => cli(t.reshard_cli_target_is_source),
        ReshardError::NoSources => cli(t.reshard_cli_no_sources),
        ReshardError::NotKnown { .. } => cli(t.reshard_cli_not_known),
        ReshardError::ClusterNotOk { .. } => cli(t.reshard_cli_check),
        ReshardError::TableMismatch => cli(t.reshard_cli_assertion),
        ReshardError::NotEmpty { .. } => cli(t.reshard_cli_not_empty),
        ReshardError::NoSuchNode { .. } => cli(t.reshard_cli_no_such_node),
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
        CompareError::Topology(e) => topology_error(t, e),
        CompareError::Rebalance(e) => fill(t.cmp_err_rebalance, &[&reshard_error(t, e)]),
    }
}

/// A batch that was not answered at all.
pub fn batch_error(t: &Messages, e: &BatchError) -> String {
    match e {
        BatchError::NoSuchNode { addr } => fill(t.batch_no_node, &[addr]),
        BatchError::TooManyLines { lines } => fill(
            t.batch_too_many_lines,
            &[&count(t.n_lines, *lines), &grouped(MAX_LINES as u64)],
        ),
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
        /// How many slots moved.
        n_slots: usize,
        /// How many the reader asked for (redis-cli rounds each source's share, so it may
        /// move fewer).
        asked: usize,
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
        /// Its new config epoch.
        epoch: u64,
    },
    /// A change: a master with no replica failed; it keeps its slots and the cluster is down.
    FailedClusterDown {
        /// Its address.
        master: String,
        /// The slots it keeps, unserved.
        slots: usize,
    },
    /// A change: a master with no slots failed (its address).
    FailedNoSlots(String),
    /// A change: a failover of another kind.
    FailedOver,
    /// A notice: a master lost its last slot and became a replica of the master that took it,
    /// its replicas following.
    BecameReplica {
        /// Its address.
        node: String,
        /// The address of the master it now replicates.
        of: String,
    },
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
    /// Whether it is about a pasted cluster (an import's error or warnings): shown beside the
    /// paste box, where the reader is looking, not above the map.
    pub fn is_import(&self) -> bool {
        matches!(self, Note::Import(_) | Note::ImportWarnings(_))
    }

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
            Note::Resharded { n_slots, asked, to } if n_slots == asked => {
                fill(t.change_reshard, &[n_slots, to])
            }
            Note::Resharded { n_slots, asked, to } => {
                fill(t.change_reshard_rounded, &[asked, to, n_slots])
            }
            Note::Rebalanced => t.change_rebalance.to_string(),
            Note::Drained(addr) => fill(t.change_drain, &[addr]),
            Note::Promoted {
                failed,
                promoted,
                epoch,
            } => fill(t.change_promoted, &[failed, promoted, epoch]),
            Note::FailedClusterDown { master, slots } => {
                fill(t.change_cluster_down, &[master, slots])
            }
            Note::FailedNoSlots(addr) => fill(t.change_no_slots, &[addr]),
            Note::FailedOver => t.change_failover.to_string(),
            Note::BecameReplica { node, of } => fill(t.notice_became_replica, &[node, of]),
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
