//! Every string the page shows a reader, in one table, so a second language is a second table.
//! (Over 800 lines because it is that table: a field with its doc, and its English, per string.)
//!
//! Templates hold numbered holes (`{0}`, `{1}`) that [`fill`] replaces; numbers, keys and
//! replies are passed in and never translated.

pub use super::messages_zh::ZH;

/// A field's text (or, for an array field, its texts), listed by [`Messages::fields`].
trait Texts {
    /// Appends `(name, text)` for each text, naming array items `name[i]`.
    fn push_texts(&self, name: &'static str, out: &mut Vec<(String, &'static str)>);
}

impl Texts for &'static str {
    fn push_texts(&self, name: &'static str, out: &mut Vec<(String, &'static str)>) {
        out.push((name.to_string(), self));
    }
}

impl<const N: usize> Texts for [&'static str; N] {
    fn push_texts(&self, name: &'static str, out: &mut Vec<(String, &'static str)>) {
        for (i, text) in self.iter().enumerate() {
            out.push((format!("{name}[{i}]"), text));
        }
    }
}

/// Declares [`Messages`] and its [`Messages::fields`] from one list, so a new field is listed
/// (and checked by the tests of every table) without anyone having to remember it.
macro_rules! messages_struct {
    ($(#[$meta:meta])* pub struct $name:ident {
        $($(#[$fmeta:meta])* pub $field:ident: $ty:ty,)*
    }) => {
        $(#[$meta])*
        pub struct $name {
            $($(#[$fmeta])* pub $field: $ty,)*
        }

        impl $name {
            /// Every text of the table as `(field name, text)`, in declaration order; the items
            /// of an array field are named `field[i]`.
            pub fn fields(&self) -> Vec<(String, &'static str)> {
                let mut out = Vec::new();
                $(Texts::push_texts(&self.$field, stringify!($field), &mut out);)*
                out
            }
        }
    };
}

messages_struct! {
/// All user-facing text of the page.
pub struct Messages {
    /// Page title.
    pub title: &'static str,
    /// One sentence under the title.
    pub tagline: &'static str,
    /// Label of the key field.
    pub key_label: &'static str,
    /// Help under the key field.
    pub key_help: &'static str,
    /// Heading of the example keys.
    pub examples: &'static str,
    /// Shown above a dimmed pipeline while the field holds a malformed key.
    pub stale_note: &'static str,
    /// Stage titles, left to right.
    pub stage_bytes: &'static str,
    /// Title of the hashed-part stage.
    pub stage_hashed: &'static str,
    /// Title of the CRC stage.
    pub stage_crc: &'static str,
    /// Title of the mask stage.
    pub stage_slot: &'static str,
    /// Title of the master stage.
    pub stage_master: &'static str,
    /// `{0}` = byte count.
    pub bytes_count: &'static str,
    /// Shown for the empty key.
    pub empty_key: &'static str,
    /// Explains how typed text becomes bytes.
    pub bytes_rule: &'static str,
    /// Rule when the key has no `{`.
    pub rule_no_open: &'static str,
    /// Rule when a `{` at byte `{0}` has no `}` after it.
    pub rule_no_close: &'static str,
    /// Rule for an empty tag at byte `{0}`.
    pub rule_empty_tag: &'static str,
    /// Rule for a tag between bytes `{0}` and `{1}`.
    pub rule_tag: &'static str,
    /// CRC rule: `{0}` = number of bytes hashed.
    pub crc_rule: &'static str,
    /// Toggle for the register view.
    pub crc_show_register: &'static str,
    /// Column headings of the register table.
    pub crc_cols: [&'static str; 5],
    /// `{0}` = rows shown, `{1}` = rows in all.
    pub crc_truncated: &'static str,
    /// Slot rule: `{0}` = CRC, `{1}` = CRC & 0x3FFF in hex, `{2}` = slot.
    pub slot_rule: &'static str,
    /// Master rule: `{0}` slot, `{1}` range, `{2}` master.
    pub master_rule: &'static str,
    /// Appended to the master rule: `{0}` = replica list.
    pub master_replicas: &'static str,
    /// When nobody owns the slot: `{0}` slot.
    pub master_none: &'static str,
    /// Shown as the master's name when nobody owns the slot.
    pub unowned: &'static str,
    /// Before the redis-cli command that checks the slot on a real cluster.
    pub verify: &'static str,
    /// Heading of the slot map.
    pub map_title: &'static str,
    /// Explains the map's layout.
    pub map_help: &'static str,
    /// Accessible name of the map canvas.
    pub map_label: &'static str,
    /// Readout for a hovered or focused slot: `{0}` slot, `{1}` owner, `{2}` range.
    pub map_readout: &'static str,
    /// Appended to the readout of a slot being migrated: `{0}` source, `{1}` target.
    pub map_migrating: &'static str,
    /// Appended to the readout on the typed key's slot.
    pub map_your_key: &'static str,
    /// Readout when nothing is hovered.
    pub map_readout_idle: &'static str,
    /// `{0}` = slot of the typed key.
    pub map_marked: &'static str,
    /// Heading of the legend.
    pub legend_title: &'static str,
    /// `{0}` = slot count, `{1}` = percentage.
    pub legend_slots: &'static str,
    /// Prefix of the replica list.
    pub legend_replicas: &'static str,
    /// `{0}` = number of unowned slots.
    pub legend_unowned: &'static str,
    /// `{0}` = how many more ranges are not listed.
    pub legend_more_ranges: &'static str,
    /// Key too long: `{0}` bytes, `{1}` the limit.
    pub err_too_long: &'static str,
    /// The same, when the key's escapes were not read (a text over four times the limit):
    /// {0} is a lower bound on its bytes, {1} the limit.
    pub err_too_long_at_least: &'static str,
    /// A master's migrating slot: `{0}` slot, `{1}` target.
    pub node_migrating: &'static str,
    /// A master's importing slot: `{0}` slot, `{1}` source.
    pub node_importing: &'static str,
    /// Shown instead of ranges for a master with no slots.
    pub node_no_slots: &'static str,
    /// A replica's line: `{0}` its master.
    pub node_replica_of: &'static str,
    /// Fail-over button.
    pub node_failover: &'static str,
    /// Its tooltip: `{0}` master.
    pub node_failover_title: &'static str,
    /// Remove button.
    pub node_remove: &'static str,
    /// Its tooltip: `{0}` master.
    pub node_remove_title: &'static str,
    /// Copy button.
    pub copy: &'static str,
    /// Copy button, after a click.
    pub copied: &'static str,
    /// Lab heading.
    pub lab_title: &'static str,
    /// Lab help.
    pub lab_help: &'static str,
    /// Add-master button.
    pub lab_add_master: &'static str,
    /// Undo button.
    pub lab_undo: &'static str,
    /// Redo button.
    pub lab_redo: &'static str,
    /// Before the slot count of a reshard.
    pub lab_reshard: &'static str,
    /// "from" (sources).
    pub lab_from: &'static str,
    /// "to" (target).
    pub lab_to: &'static str,
    /// How to pick several sources.
    pub lab_from_help: &'static str,
    /// All masters as sources.
    pub lab_all_masters: &'static str,
    /// Reshard button.
    pub lab_reshard_go: &'static str,
    /// Rebalance button.
    pub lab_rebalance: &'static str,
    /// The --cluster-use-empty-masters checkbox.
    pub lab_use_empty: &'static str,
    /// The threshold field.
    pub lab_threshold: &'static str,
    /// The weights field.
    pub lab_weights: &'static str,
    /// A selection: `{0}` first, `{1}` last, `{2}` count.
    pub lab_selected: &'static str,
    /// Move-selection button.
    pub lab_move: &'static str,
    /// Clear-selection button.
    pub lab_clear: &'static str,
    /// After a change's label: `{0}` slots moved.
    pub lab_moved: &'static str,
    /// `{0}` more ranges not listed.
    pub lab_more_moves: &'static str,
    /// Toggle for the commands.
    pub lab_show_commands: &'static str,
    /// Offer after a refused removal.
    pub lab_drain: &'static str,
    /// Import heading.
    pub lab_import_title: &'static str,
    /// Import help.
    pub lab_import_help: &'static str,
    /// Placeholder of the paste box.
    pub lab_import_placeholder: &'static str,
    /// Import button.
    pub lab_import_go: &'static str,
    /// Export button.
    pub lab_export: &'static str,
    /// Hide-export button.
    pub lab_export_hide: &'static str,
    /// Comparison heading.
    pub cmp_title: &'static str,
    /// Comparison help: `{0}` keys.
    pub cmp_help: &'static str,
    /// Label of N.
    pub cmp_n: &'static str,
    /// Label of V.
    pub cmp_v: &'static str,
    /// Column: method.
    pub cmp_method: &'static str,
    /// Column: keys moved.
    pub cmp_moved: &'static str,
    /// Column: the ideal share of keys moved.
    pub cmp_ideal: &'static str,
    /// Column: balance.
    pub cmp_balance: &'static str,
    /// Column: per-master bars.
    pub cmp_after: &'static str,
    /// Row: slots.
    pub cmp_slots: &'static str,
    /// Note under the slots row.
    pub cmp_slots_note: &'static str,
    /// Row: ring, `{0}` = V.
    pub cmp_ring: &'static str,
    /// Note under the ring row.
    pub cmp_ring_note: &'static str,
    /// Row: mod N.
    pub cmp_mod: &'static str,
    /// Note under the mod-N row.
    pub cmp_mod_note: &'static str,
    /// Bad N or V.
    pub cmp_bad_input: &'static str,
    /// The point of it.
    pub cmp_takeaway: &'static str,
    /// Planner heading.
    pub plan_title: &'static str,
    /// Planner help.
    pub plan_help: &'static str,
    /// Label of the mode select.
    pub plan_lines_are: &'static str,
    /// Mode: commands.
    pub plan_commands: &'static str,
    /// Mode: keys for `{0}`.
    pub plan_keys_for: &'static str,
    /// Label of the node select.
    pub plan_sent_to: &'static str,
    /// Accessible name of the paste box.
    pub plan_batch_label: &'static str,
    /// A paste over the limit; {0} its size in MB, {1} the limit in MiB.
    pub plan_too_big: &'static str,
    /// A batch held out of the text field: `{0}` lines shown of `{1}`, `{2}` KB in all, `{3}`
    /// [`Messages::plan_held_all`] or nothing.
    pub plan_held: &'static str,
    /// As [`Messages::plan_held`] when the field shows part of a line (a batch of long lines):
    /// `{0}` = KB shown, `{1}` = the batch's KB, `{2}` = its lines, counted, `{3}` as there.
    pub plan_held_bytes: &'static str,
    /// The sentence in a held batch's note when the plan reads all of it (not when the batch
    /// has more commands than the page answers, or more keys than it plans).
    pub plan_held_all: &'static str,
    /// Put a held batch into the text field.
    pub plan_edit_in_field: &'static str,
    /// Asked before a held batch this long goes into the field: `{0}` = its KB.
    pub plan_edit_slow: &'static str,
    /// The button that puts it there after [`Messages::plan_edit_slow`].
    pub plan_edit_anyway: &'static str,
    /// Empty the batch.
    pub plan_clear: &'static str,
    /// After Clear, while the field is empty.
    pub plan_cleared: &'static str,
    /// Puts the cleared batch back.
    pub plan_undo_clear: &'static str,
    /// A free-mode line over the limit; {0} its size in bytes, {1} the limit.
    pub free_too_long: &'static str,
    /// A paste refused by a short field (a template, the weights): its bytes with it, the limit.
    pub paste_too_long: &'static str,
    /// A paste refused by the import's field: the text's bytes with it, the limit.
    pub imp_paste_too_large: &'static str,
    /// A paste refused in free mode, as `free_too_long`: the line's bytes with it, the limit.
    pub free_paste_too_long: &'static str,
    /// Before the generator.
    pub plan_or_generate: &'static str,
    /// Accessible name of the generator select.
    pub plan_generator: &'static str,
    /// Generator: template.
    pub plan_gen_template: &'static str,
    /// Generator: H3 pairs.
    pub plan_gen_h3: &'static str,
    /// Generator count.
    pub plan_gen_count: &'static str,
    /// Generate button.
    pub plan_generate: &'static str,
    /// A generated batch: `{0}` keys.
    pub plan_generated: &'static str,
    /// All keys in one slot: `{0}` slot, `{1}` master.
    pub plan_one_slot: &'static str,
    /// Under a pasted key list's one line when it has more keys than the engine sends:
    /// `{0}` = that limit.
    pub plan_routed_only: &'static str,
    /// Keys whose first line starts with a command's name and a space: `{0}` = that key.
    pub plan_keys_like_commands: &'static str,
    /// Accessible name of the list of replies (scrollable when long).
    pub plan_verdicts_label: &'static str,
    /// Plans heading: `{0}` keys, `{1}` slots, `{2}` masters.
    pub plan_strategies: &'static str,
    /// Column.
    pub plan_col_strategy: &'static str,
    /// Column.
    pub plan_col_trips: &'static str,
    /// Column: latency when every master is asked at once.
    pub plan_col_parallel: &'static str,
    /// Under the strategies: round trips are not latency.
    pub plan_latency_note: &'static str,
    /// Under DBSIZE, KEYS, FLUSHALL…: `{0}` the node that answered.
    pub plan_per_node: &'static str,
    /// The same for a count a client adds up (DBSIZE): `{0}` the node.
    pub plan_per_node_sum: &'static str,
    /// The same for a command that succeeds only where every master's does (PING, FLUSHALL):
    /// `{0}` the node.
    pub plan_per_node_all_ok: &'static str,
    /// Column.
    pub plan_col_commands: &'static str,
    /// Column.
    pub plan_col_queue: &'static str,
    /// Column.
    pub plan_col_largest: &'static str,
    /// Column.
    pub plan_col_atomic: &'static str,
    /// Keys nobody serves: `{0}`.
    pub plan_unserved: &'static str,
    /// Chunk size label.
    pub plan_chunk: &'static str,
    /// Chunk stats: unsorted mean/max, sorted mean/max.
    pub plan_chunk_stats: &'static str,
    /// Copy-as label.
    pub plan_copy_as: &'static str,
    /// Copy as one command per slot: `{0}` = the command the keys are sent as (MGET, DEL…).
    pub plan_copy_per_slot: &'static str,
    /// Copy as EVAL.
    pub plan_copy_eval: &'static str,
    /// Copy as EVAL per master with tags.
    pub plan_copy_tagged: &'static str,
    /// Hot-spot heading.
    pub hot_title: &'static str,
    /// Hot-spot help: `{0}` keys.
    pub hot_help: &'static str,
    /// Sub-tags label.
    pub hot_k: &'static str,
    /// No-tag checkbox.
    pub hot_untagged: &'static str,
    /// Tags on a master: `{0}`.
    pub hot_tags: &'static str,
    /// Busiest: `{0}` share, `{1}` master.
    pub hot_busiest: &'static str,
    /// Unserved keys: `{0}`.
    pub hot_unserved: &'static str,
    /// Masters not listed: `{0}`.
    pub hot_more_masters: &'static str,
    /// Under the hot spot's list of the busiest masters: `{0}` = how many more, each with no
    /// more keys than the last listed.
    pub hot_more_fewer: &'static str,
    /// As [`Messages::hot_more_fewer`] when none of them holds a key.
    pub hot_more_empty: &'static str,
    /// Hot-spot point.
    pub hot_takeaway: &'static str,
    /// How long the recompute took in this browser; {0} milliseconds.
    pub hot_timing: &'static str,
    /// Tag generator heading.
    pub tags_title: &'static str,
    /// Tag generator help.
    pub tags_help: &'static str,
    /// Beside the tag generator: tags pin slots, not masters.
    pub tags_pin_slots_note: &'static str,
    /// Template label.
    pub tags_template: &'static str,
    /// Per-master label.
    pub tags_per_master: &'static str,
    /// A tag's slot: `{0}`.
    pub tags_slot: &'static str,
    /// Tried: `{0}` integers, `{1}` tags kept.
    pub tags_tried: &'static str,
    /// Pin heading.
    pub tags_pin_title: &'static str,
    /// Pin slot label.
    pub tags_pin_slot: &'static str,
    /// Before the pinning tag.
    pub tags_pin_use: &'static str,
    /// Bad slot.
    pub tags_pin_bad: &'static str,
    /// Redirections heading.
    pub redir_title: &'static str,
    /// A link names a scenario the page lacks; {0} the id, {1} the scenario shown instead.
    pub link_unknown_scenario: &'static str,
    /// A link's step is not a number; {0} the step, {1} the scenario.
    pub link_bad_step: &'static str,
    /// A link's step is past the end; {0} the step, {1} the scenario, {2} its steps.
    pub link_past_end: &'static str,
    /// Redirections help.
    pub redir_help: &'static str,
    /// Scenario select label.
    pub redir_scenario: &'static str,
    /// RESP checkbox.
    pub redir_wire: &'static str,
    /// Keyboard help of the player.
    pub redir_keys: &'static str,
    /// To the start.
    pub redir_start: &'static str,
    /// Step back.
    pub redir_prev: &'static str,
    /// Play.
    pub redir_play: &'static str,
    /// Pause.
    pub redir_pause: &'static str,
    /// Step forward.
    pub redir_next: &'static str,
    /// To the end.
    pub redir_end: &'static str,
    /// Slower.
    pub redir_slower: &'static str,
    /// Faster.
    pub redir_faster: &'static str,
    /// Timeline.
    pub redir_timeline: &'static str,
    /// Step `{0}` of `{1}`.
    pub redir_step: &'static str,
    /// Client table heading.
    pub redir_table: &'static str,
    /// Its node column.
    pub redir_table_node: &'static str,
    /// Table help.
    pub redir_table_help: &'static str,
    /// Replies heading.
    pub redir_replies: &'static str,
    /// Free mode heading.
    pub free_title: &'static str,
    /// Free mode help.
    pub free_help: &'static str,
    /// Client select.
    pub free_client: &'static str,
    /// MOVED-only teaching client: `{0}` its redirect budget.
    pub free_moved_only: &'static str,
    /// Command box.
    pub free_input: &'static str,
    /// Send button.
    pub free_send: &'static str,
    /// Label of the cluster picker.
    pub cluster_label: &'static str,
    /// The fixtures' cluster, as a choice.
    pub cluster_fixture: &'static str,
    /// A created cluster, as a choice: `{0}` = masters.
    pub cluster_created: &'static str,
    /// Label of the master-count field.
    pub cluster_n_label: &'static str,
    /// Error for a bad master count: `{0}` what was typed.
    pub cluster_n_error: &'static str,
    /// redis-cli refuses to create so few masters; its output follows.
    pub cluster_cli_refused: &'static str,
    /// Footer text.
    pub footer: &'static str,
    /// A master index that does not exist: `{0}`.
    pub err_no_master_number: &'static str,
    /// `{0}` master, `{1}`-`{2}` a range past 16383.
    pub topo_bad_range: &'static str,
    /// `{0}` slot claimed by `{1}` and `{2}`.
    pub topo_overlap: &'static str,
    /// `{0}` masters, more than the map numbers.
    pub topo_too_many_masters: &'static str,
    /// Removing master `{0}`, which owns `{1}` slots.
    pub topo_not_empty: &'static str,
    /// Master number `{0}` named twice.
    pub reshard_duplicate: &'static str,
    /// `{0}` slots asked for; `{1}` the most.
    pub reshard_bad_count: &'static str,
    /// The sources own no slots.
    pub reshard_sources_empty: &'static str,
    /// Weight `{0}` given for master number `{1}`.
    pub reshard_bad_weight: &'static str,
    /// All weights are 0.
    pub reshard_zero_weight: &'static str,
    /// Failover of `{0}`, already failed.
    pub reshard_already_failed: &'static str,
    /// A problem on line `{0}`; `{1}` the problem.
    pub at_line: &'static str,
    /// A paste of `{0}` bytes; `{1}` the limit.
    pub imp_too_large: &'static str,
    /// A paste with no output.
    pub imp_empty: &'static str,
    /// Output of another command; `{0}` its first line, quoted.
    pub imp_unrecognised: &'static str,
    /// The paste is an error reply: `{0}`.
    pub imp_redis_error: &'static str,
    /// `{0}` what should be there, `{1}` what is.
    pub imp_expected: &'static str,
    /// Slot `{0}` past 16383.
    pub imp_slot_out_of_range: &'static str,
    /// Range `{0}`-`{1}` that ends before it starts.
    pub imp_backward_range: &'static str,
    /// Node `{0}` listed again, first on line `{1}`.
    pub imp_duplicate_node: &'static str,
    /// Node `{0}` with two roles; `{1}` what clashes.
    pub imp_inconsistent: &'static str,
    /// A second command in the paste.
    pub imp_several_replies: &'static str,
    /// A paste without a master.
    pub imp_no_masters: &'static str,
    /// Arrays nested too deeply.
    pub imp_too_deep: &'static str,
    /// More than `{0}` slot claims.
    pub imp_too_many_slots: &'static str,
    /// Import warning: `{0}` claims slot `{1}` that `{2}` claimed first.
    pub imp_overlap_one: &'static str,
    /// Import warning: `{0}` claims slots `{1}` that `{2}` claimed first.
    pub imp_overlap_many: &'static str,
    /// Import warning: `{0}` (one) slot unserved; `{1}` it.
    pub imp_uncovered_one: &'static str,
    /// Import warning: `{0}` slots unserved; `{1}` their ranges.
    pub imp_uncovered_many: &'static str,
    /// Between the items of a list (ranges, addresses).
    pub list_sep: &'static str,
    /// After a sentence, before what follows it on the line (a button): a space in English,
    /// nothing after a Chinese full stop.
    pub sentence_gap: &'static str,
    /// After a shortened list of ranges: `{0}` not shown.
    pub imp_more_ranges: &'static str,
    /// Import warning: replica `{0}` of master `{1}`, not in the paste.
    pub imp_orphan: &'static str,
    /// Import warning: replica `{0}` of no known master.
    pub imp_orphan_unknown: &'static str,
    /// Template `{0}` without `%d`.
    pub tpl_no_placeholder: &'static str,
    /// Template `{0}` with `{1}` `%d`.
    pub tpl_many: &'static str,
    /// `{0}` keys asked for; `{1}` the most.
    pub plan_too_many_keys: &'static str,
    /// `{0}` sub-tags; `{1}` the most.
    pub plan_sub_tags: &'static str,
    /// Template `{0}` with a `}` inside the tag.
    pub tag_close_brace: &'static str,
    /// No master to give tags to.
    pub tag_no_masters: &'static str,
    /// Master `{0}` owns no slots.
    pub tag_without_slots_one: &'static str,
    /// Masters `{0}` own no slots.
    pub tag_without_slots_many: &'static str,
    /// `{0}` tags per master asked for; `{1}` the most.
    pub tag_too_many: &'static str,
    /// Gave up after `{0}` integers: `{1}` of `{2}` tags; `{3}` has `{4}` of `{5}`.
    pub tag_exhausted: &'static str,
    /// Comparison with no master.
    pub cmp_err_no_masters: &'static str,
    /// `{0}` masters; `{1}` the most.
    pub cmp_err_too_many: &'static str,
    /// Address `{0}` given twice.
    pub cmp_err_duplicate: &'static str,
    /// The rebalance refused: `{0}` why.
    pub cmp_err_rebalance: &'static str,
    /// `{0}` is not a node.
    pub batch_no_node: &'static str,
    /// `{0}` lines; `{1}` the most.
    pub batch_too_many_lines: &'static str,
    /// Keys moved: `{0}`.
    pub cmp_keys: &'static str,
    /// A bar's tooltip: master `{0}`, `{1}` keys.
    pub cmp_bar_title: &'static str,
    /// Only `{0}` keys are planned.
    pub plan_only_first: &'static str,
    /// Accessible name of the fan-out drawing: `{0}` masters.
    pub plan_fanout_label: &'static str,
    /// A bad generator count: `{0}` the most, `{1}` what was typed.
    pub plan_count_error: &'static str,
    /// A bad tags-per-master count: `{0}` what was typed.
    pub tags_not_a_number: &'static str,
    /// A reshard's slot count that is not 1 to 16384: `{0}` what was typed.
    pub note_bad_slot_count: &'static str,
    /// A rebalance threshold that is not 0 to 100: `{0}` what was typed.
    pub note_bad_threshold: &'static str,
    /// A weight without `=`: `{0}`.
    pub weight_not_pair: &'static str,
    /// A weight for master `{0}`, which does not exist; `{1}` the pair.
    pub weight_no_master: &'static str,
    /// A weight that is not a number from 0 up: `{0}`.
    pub weight_not_number: &'static str,
    /// After redis-cli's lines when a plain rebalance leaves empty masters empty.
    pub hint_empty_masters: &'static str,
    /// A change: `{0}` slots resharded to `{1}`.
    pub change_reshard: &'static str,
    /// A change: `{0}` slots asked to `{1}`, of which redis-cli's rounding moved `{2}`.
    pub change_reshard_rounded: &'static str,
    /// A change: a rebalance.
    pub change_rebalance: &'static str,
    /// A change: master `{0}` drained and removed.
    pub change_drain: &'static str,
    /// A change: `{0}` failed and replica `{1}` took over with config epoch `{2}`.
    pub change_promoted: &'static str,
    /// A change: `{0}` failed without a replica; it keeps its `{1}` slots and the cluster is down.
    pub change_cluster_down: &'static str,
    /// A change: `{0}`, with no slots, failed.
    pub change_no_slots: &'static str,
    /// A change: a failover of another kind.
    pub change_failover: &'static str,
    /// A notice: master `{0}` lost its last slot and became a replica of `{1}`.
    pub notice_became_replica: &'static str,
    /// A change: back to the fixtures' cluster.
    pub change_fixture: &'static str,
    /// A change: a cluster created with `{0}` masters.
    pub change_created: &'static str,
    /// A change: master `{0}` added.
    pub change_add_master: &'static str,
    /// A change: master `{0}` removed.
    pub change_remove_master: &'static str,
    /// A change: slots `{0}` moved to `{1}`.
    pub change_move: &'static str,
    /// A change: a cluster imported from `{0}` output.
    pub change_imported: &'static str,
    /// Before the map's download buttons.
    pub export_map: &'static str,
    /// Before the sequence diagram's download buttons.
    pub export_seq: &'static str,
    /// Accessible name of a download button: `{0}` = what, `{1}` = format.
    pub export_button: &'static str,
    /// The exported legend's last line when it lists only some masters: `{0}` = how many more.
    pub export_more_masters: &'static str,
    /// The masthead's share button.
    pub share: &'static str,
    /// Said once the link is on the clipboard.
    pub share_copied: &'static str,
    /// Said when the browser refuses the clipboard; the link is shown below it.
    pub share_refused: &'static str,
    /// Label of the read-only field that shows the link.
    pub share_link_label: &'static str,
    /// Said when the planner's batch is too long to travel in a link.
    pub share_batch_omitted: &'static str,
    /// Said when the key is too long to travel in a link.
    pub share_key_omitted: &'static str,
    /// Said when the cluster is too big to travel in a link.
    pub share_cluster_omitted: &'static str,
    /// Heads the list of what a link could not restore.
    pub restore_link: &'static str,
    /// Heads the list of what the state saved in this browser could not restore.
    pub restore_saved: &'static str,
    /// The fragment is not a slotscope link.
    pub restore_not_a_link: &'static str,
    /// A link from a newer version: `{0}` = its version.
    pub restore_version: &'static str,
    /// `{0}` = the link's length in bytes.
    pub restore_too_long: &'static str,
    /// The payload has characters a link never has.
    pub restore_bad_base64: &'static str,
    /// The link stops part-way.
    pub restore_truncated: &'static str,
    /// `{0}` = a section name: that part is damaged.
    pub restore_bad_section: &'static str,
    /// `{0}` = a section name: a text in it is too long.
    pub restore_text_too_long: &'static str,
    /// `{0}` = a section number from a newer version.
    pub restore_unknown_section: &'static str,
    /// A section's head is damaged.
    pub restore_damaged: &'static str,
    /// Bytes after the end of the link.
    pub restore_trailing: &'static str,
    /// Name of the language section.
    pub section_lang: &'static str,
    /// Name of the key section.
    pub section_key: &'static str,
    /// Name of the cluster section.
    pub section_cluster: &'static str,
    /// Name of the planner section.
    pub section_planner: &'static str,
    /// Name of the redirection section.
    pub section_scenario: &'static str,
    /// Heading of the "when clients disagree" panel under the pipeline.
    pub rules_title: &'static str,
    /// Its first sentence: `{0}` = Redis's slot.
    pub rules_help: &'static str,
    /// The npm module cluster-key-slot 1.1.x's rule.
    pub rules_cluster_key_slot: &'static str,
    /// The last-brace-pair rule.
    pub rules_last_brace: &'static str,
    /// The UTF-16 code unit rule.
    pub rules_utf16: &'static str,
    /// The empty-key-to-a-random-node rule.
    pub rules_empty_random: &'static str,
    /// A rule's slot: `{0}` = slot.
    pub rules_slot: &'static str,
    /// A rule's outcome when it has no slot.
    pub rules_any_node: &'static str,
    /// Consequence, MOVED on every command: `{0}` = node it sends to, `{1}` = the MOVED reply.
    pub rules_moved: &'static str,
    /// Consequence, same master by luck: `{0}` = the master.
    pub rules_same_node: &'static str,
    /// Consequence, any node: `{0}` = the owner, `{1}` = the MOVED reply the others send.
    pub rules_any: &'static str,
    /// Consequence, the client's slot has no master: `{0}` = the client's slot.
    pub rules_no_route: &'static str,
    /// Consequence, Redis's slot has no master: `{0}` = Redis's slot.
    pub rules_unserved: &'static str,
    /// Link that opens the rule's own MOVED-loop scenario in the redirections view.
    pub rules_watch: &'static str,
    /// The quiet line when every rule agrees with Redis.
    pub rules_agree: &'static str,
    /// Summary of the slot map's text alternative (every range of every master).
    pub map_ranges_title: &'static str,
    /// A master in that list: `{0}` = address, `{1}` = slot count.
    pub map_ranges_master: &'static str,
    /// The uncovered slots in that list: `{0}` = slot count.
    pub map_ranges_unowned: &'static str,
    /// Announced (politely) when the key's result changes: `{0}` = slot, `{1}` = master.
    pub pipeline_summary: &'static str,
    /// As above when nobody owns the slot: `{0}` = slot.
    pub pipeline_summary_unowned: &'static str,
    /// Accessible name of the pipeline section.
    pub pipeline_label: &'static str,
    /// Accessible name of the sequence diagram.
    pub seq_label: &'static str,
    /// Accessible name of the planner's copyable commands.
    pub plan_commands_label: &'static str,
    /// The copied plan's field shows its start: `{0}` KB of `{1}` KB.
    pub plan_copy_cut: &'static str,
    /// A big batch's copied plan is being written (after the batch is shown): `{0}` keys.
    pub plan_copy_writing: &'static str,
    /// A paste too big to read in the frame that shows it is being taken from the clipboard.
    pub plan_pasting: &'static str,
    /// A big batch of keys is being read a slice at a time: `{0}` KB read of `{1}` KB.
    pub plan_reading: &'static str,
    /// A big batch of keys is being generated a slice at a time: `{0}` made of `{1}`.
    pub plan_generating: &'static str,
    /// A big batch's keys are being planned (in a task after the frame that shows them):
    /// `{0}` keys.
    pub plan_planning: &'static str,
    /// Accessible name of the last change's redis-cli commands.
    pub lab_commands_label: &'static str,
    /// Accessible name of the scrollable CRC register table.
    pub crc_register_label: &'static str,
    /// The document's title (the tab, bookmarks).
    pub doc_title: &'static str,
    /// Header of the slot column of the client's table.
    pub redir_table_slot: &'static str,
    /// First line of the copied per-master-tag script: `{0}` = tag template.
    pub plan_copy_retagged: &'static str,
    /// Comment line above each copied command: `{0}` = slot, `{1}` = master's address.
    pub plan_copy_slot: &'static str,
    /// Under the copied plan: what redis-cli does with its `#` lines (a command, refused: `{0}`
    /// is the node's reply, shown as code); the shell line that leaves them out follows it.
    pub plan_copy_comments: &'static str,
    /// Stands for the master of a slot nobody serves, in a copied comment.
    pub plan_copy_no_master: &'static str,
    /// The copied plan's last line when it stops short: `{0}` = slots left out, `{1}` = slots
    /// listed, `{2}` = all the batch's slots.
    pub plan_copy_more: &'static str,
    /// Marks a reply that is the page's note, not Redis's words.
    pub note_label: &'static str,
    /// INFO and the like: `{0}` = the command.
    pub note_unsimulated: &'static str,
    /// Another data type the node would serve: `{0}` = the command.
    pub note_only_strings: &'static str,
    /// A stream consumer-group command: `{0}` = the command.
    pub note_consumer_groups: &'static str,
    /// A batch line too long to show: `{0}` = command, `{1}` = key count.
    pub plan_keys_line: &'static str,
    /// Free mode: `@host:port` with nothing after it.
    pub action_no_command: &'static str,
    /// Free mode: an empty line.
    pub action_empty: &'static str,
    /// The four send strategies' names (per key, per slot, per master, tagged), as rows of the
    /// planner's table.
    pub strategy_names: [&'static str; 4],
    /// A node given two roles in a `CLUSTER SLOTS` paste, the end of [`Messages::imp_inconsistent`]:
    /// a master after a replica, a replica after a master, the replica of two masters.
    pub imp_clashes: [&'static str; 3],
    /// A node's role after its address in the planner's node list: master, replica.
    pub node_roles: [&'static str; 2],
    /// Counted keys, singular and plural: `{0}` = the number, grouped ([`count`]).
    pub n_keys: [&'static str; 2],
    /// Counted slots, as [`Messages::n_keys`].
    pub n_slots: [&'static str; 2],
    /// Counted masters, as [`Messages::n_keys`].
    pub n_masters: [&'static str; 2],
    /// Counted lines, as [`Messages::n_keys`].
    pub n_lines: [&'static str; 2],
    /// Counted replicas, as [`Messages::n_keys`].
    pub n_replicas: [&'static str; 2],
    // typed replies
    /// A script outside the page's Lua subset: `{0}` = line, `{1}` = column, `{2}` = one of
    /// [`Messages::script_problems`].
    pub note_script_syntax: &'static str,
    /// A returned table with a nil element: `{0}` = the element's position.
    pub note_script_nil: &'static str,
    /// A `redis.call` argument that is not a string or an integer: `{0}` = the argument's
    /// position, `{1}` = the line.
    pub note_script_argument: &'static str,
    /// A command sent to an address where no node listens: `{0}` = the address.
    pub note_no_node: &'static str,
    /// Note: a blocking pop with timeout 0 and nothing to pop ({0} = command).
    pub note_blocks_forever: &'static str,
    /// Note: a command whose reply is Redis's serialized value ({0} = command).
    pub note_serialized: &'static str,
    /// Note: a value too large for the page ({0} = command).
    pub note_too_large: &'static str,
    /// A command acting on the server itself (CLIENT, CONFIG SET, SAVE, …): `{0}` = the command.
    pub note_not_simulated: &'static str,
    /// SUBSCRIBE, MONITOR and the like: `{0}` = the command.
    pub note_subscribe: &'static str,
    /// CLUSTER MEET, ADDSLOTS, … (the topology lab's work): `{0}` = the command.
    pub note_topology: &'static str,
    /// A command that would wait for ever (WAIT with timeout 0): `{0}` = the command.
    pub note_waits_forever: &'static str,
    /// What the script reader found wrong: no `return` first, text after the returned
    /// expression, no `,`, no `(` after redis.call, no `]`, no expression, no integer, nesting
    /// too deep, a string not closed, an escape above 255, an unknown escape.
    pub script_problems: [&'static str; 11],
    // errors as data
    /// A problem at a column of typed text (planner lines, free mode): `{0}` column, `{1}` what.
    pub at_column: &'static str,
    /// The same as a sentence of its own, under the key field: `{0}` column, `{1}` what.
    pub at_column_sentence: &'static str,
    /// `\x` at the very end of the key.
    pub esc_hex_at_end: &'static str,
    /// `\x` without two hex digits: `{0}` what follows it.
    pub esc_bad_hex: &'static str,
    /// An escape redis-cli does not know: `{0}` the character after the backslash.
    pub esc_unknown: &'static str,
    /// A lone backslash at the end of the key.
    pub esc_trailing: &'static str,
    /// A quote never closed: `{0}` the quote.
    pub esc_unclosed: &'static str,
    /// Text right after a closing quote.
    pub esc_after_quote: &'static str,
    /// A character that is not a hex digit: `{0}` the character.
    pub esc_not_hex: &'static str,
    /// An odd number of hex digits.
    pub esc_unpaired_hex: &'static str,
    /// What an import expected: a node id at the start of a `CLUSTER NODES` line.
    pub imp_want_node_id_at_start: &'static str,
    /// … the 8 fields before the slots.
    pub imp_want_node_fields: &'static str,
    /// … an `ip:port@cport` address.
    pub imp_want_bus_address: &'static str,
    /// … flags.
    pub imp_want_flags: &'static str,
    /// … one role.
    pub imp_want_one_role: &'static str,
    /// … the master field.
    pub imp_want_master_id: &'static str,
    /// … a counter: `{0}` its name (`ping-sent`, …), `{1}` its field number.
    pub imp_want_counter: &'static str,
    /// … the link state.
    pub imp_want_link_state: &'static str,
    /// … no slots on a replica's line.
    pub imp_want_no_slots_on_replica: &'static str,
    /// … an open slot.
    pub imp_want_open_slot: &'static str,
    /// … a slot or a range.
    pub imp_want_slot_or_range: &'static str,
    /// … a quoted string.
    pub imp_want_quoted_string: &'static str,
    /// … a number after `(integer)`.
    pub imp_want_integer: &'static str,
    /// … a value of redis-cli's terminal form.
    pub imp_want_value: &'static str,
    /// … nothing after a one-line reply.
    pub imp_want_nothing_after: &'static str,
    /// … a numbered item.
    pub imp_want_numbered_item: &'static str,
    /// … an item lined up with its array's.
    pub imp_want_aligned_item: &'static str,
    /// … item `{0})` of the array.
    pub imp_want_item: &'static str,
    /// … a list of shards.
    pub imp_want_shard_list: &'static str,
    /// … a shard.
    pub imp_want_shard: &'static str,
    /// … a shard's field: `{0}` its name.
    pub imp_want_shard_field: &'static str,
    /// … a shard's slots.
    pub imp_want_shard_slots: &'static str,
    /// … a shard's nodes.
    pub imp_want_shard_nodes: &'static str,
    /// … a node of a shard.
    pub imp_want_shard_node: &'static str,
    /// … a node's field: `{0}` its name.
    pub imp_want_node_field: &'static str,
    /// … a role.
    pub imp_want_role: &'static str,
    /// … a master in the shard.
    pub imp_want_shard_master: &'static str,
    /// … a list of slot ranges.
    pub imp_want_range_list: &'static str,
    /// … a slot range and its nodes.
    pub imp_want_range_entry: &'static str,
    /// … a range's first slot.
    pub imp_want_first_slot: &'static str,
    /// … a range's last slot.
    pub imp_want_last_slot: &'static str,
    /// … the range's master.
    pub imp_want_range_master: &'static str,
    /// … a node of a range.
    pub imp_want_range_node: &'static str,
    /// … the node's address.
    pub imp_want_node_address: &'static str,
    /// … the node's port.
    pub imp_want_node_port: &'static str,
    /// … the node's id.
    pub imp_want_node_id: &'static str,
    /// … the node's metadata.
    pub imp_want_metadata: &'static str,
    /// … an address (an endpoint).
    pub imp_want_host: &'static str,
    /// … an IP address.
    pub imp_want_ip: &'static str,
    /// … a hostname.
    pub imp_want_hostname: &'static str,
    /// … a port number.
    pub imp_want_port: &'static str,
    /// … a node id.
    pub imp_want_id: &'static str,
    /// … a field name.
    pub imp_want_field_name: &'static str,
    /// … a field's value: `{0}` the field's name.
    pub imp_want_value_of: &'static str,
    /// … `slots` opening a shard (`--raw`).
    pub imp_want_raw_shard_start: &'static str,
    /// … `nodes` after a shard's slots (`--raw`).
    pub imp_want_raw_shard_nodes: &'static str,
    /// … `id` opening a node (`--raw`).
    pub imp_want_raw_node_start: &'static str,
    /// … a range's last slot on the next line (`--raw`).
    pub imp_want_raw_last_slot: &'static str,
    /// … the port after the address (`--raw`).
    pub imp_want_raw_port: &'static str,
    /// … the id after the port (`--raw`).
    pub imp_want_raw_id: &'static str,
    /// What an import found instead: a piece of the paste, `{0}`.
    pub imp_found_text: &'static str,
    /// … a line with too few fields: `{0}` how many, `{1}` the line.
    pub imp_found_fields: &'static str,
    /// … a list.
    pub imp_found_list: &'static str,
    /// … the end of a list.
    pub imp_found_end_of_list: &'static str,
    /// … the end of the paste.
    pub imp_found_end_of_paste: &'static str,
    /// … nothing.
    pub imp_found_missing: &'static str,
    /// … only replicas.
    pub imp_found_only_replicas: &'static str,
    /// redis-cli's refusal (`{0}`, verbatim) when the target is also a source.
    pub reshard_cli_target_is_source: &'static str,
    /// redis-cli's refusal (`{0}`) when no source is given.
    pub reshard_cli_no_sources: &'static str,
    /// redis-cli's refusal (`{0}`) of a node it does not know.
    pub reshard_cli_not_known: &'static str,
    /// redis-cli's refusal (`{0}`, two lines) after a failed cluster check.
    pub reshard_cli_check: &'static str,
    /// redis-cli's failed assertion (`{0}`).
    pub reshard_cli_assertion: &'static str,
    /// redis-cli's refusal (`{0}`) to delete a master that owns slots.
    pub reshard_cli_not_empty: &'static str,
    /// redis-cli's refusal (`{0}`) of a node id it does not know.
    pub reshard_cli_no_such_node: &'static str,
    // state
    /// Above the generated batch's row, while it stands in for the pasted lines: `{0}` = how
    /// many keys.
    pub plan_showing_generated: &'static str,
    /// The button that sets the generated keys aside and plans the pasted lines again.
    pub plan_show_pasted: &'static str,
    // --- bus-engine branch ---
    /// A command sent to a node whose process was killed while the page follows the bus:
    /// `{0}` = its address.
    pub note_node_crashed: &'static str,
    /// … to a node stopped with SIGSTOP: `{0}` = its address.
    pub note_node_hung: &'static str,
    /// Under the lab's instant failover: how long a real one takes, measured on the bus
    /// simulator. `{0}` = cluster-node-timeout (s), `{1}` = first `fail?` (s), `{2}` = `fail`
    /// (s), `{3}` = the replica promoted (s).
    pub lab_real_failover: &'static str,
    // nav-phone: the section bar, the key read-out, the reserved selection row, long keys.
    /// Accessible name of the section bar.
    pub nav_label: &'static str,
    /// The section bar's links, in page order.
    pub nav_key: &'static str,
    /// See `nav_key`.
    pub nav_map: &'static str,
    /// See `nav_key`.
    pub nav_planner: &'static str,
    /// See `nav_key`.
    pub nav_tags: &'static str,
    /// See `nav_key`.
    pub nav_redirections: &'static str,
    /// See `nav_key`.
    pub nav_bus: &'static str,
    /// See `nav_key`.
    pub nav_why: &'static str,
    /// The sticky read-out's slot: `{0}` = slot.
    pub readout_slot: &'static str,
    /// The sticky read-out's accessible name: `{0}` = key, `{1}` = slot, `{2}` = master.
    pub readout_label: &'static str,
    /// The selection row while nothing is selected on the map.
    pub lab_select_hint: &'static str,
    /// Opens a long key's value in full: `{0}` = its length in bytes.
    pub key_show_all: &'static str,
    /// Closes it again.
    pub key_show_less: &'static str,
    /// Accessible name of the button that closes the Share button's panel.
    pub share_close: &'static str,
    // bus-view
    /// The share link's cluster-bus part, as the restore notice names it.
    pub section_bus: &'static str,
    // diagrams-tour
    /// Heading of the replies list when the RESP wire bytes are shown.
    pub redir_replies_wire: &'static str,
    /// A node owns a slot (under its lifeline head): `{0}` = slot.
    pub seq_owner: &'static str,
    /// A node is migrating a slot: `{0}` = slot, `{1}` = the node the keys go to.
    pub seq_migrating: &'static str,
    /// A node is importing a slot: `{0}` = slot, `{1}` = the node the keys come from.
    pub seq_importing: &'static str,
    /// Under a node that holds no keys of the slots in play.
    pub seq_no_keys: &'static str,
    /// Accessible label of a key on a lifeline: `{0}` = key, `{1}` = node.
    pub seq_key_on: &'static str,
    /// The player's check box that hides the operator's lifeline (on a phone).
    pub redir_operator: &'static str,
    /// Under the map after a change: `{0}` slots moved so far of `{1}`, from `{2}` (addresses).
    pub trail_count: &'static str,
    /// Heading of the keys that moved with the slots.
    pub trail_keys: &'static str,
    /// When neither the page's key nor a sample key moved: `{0}` = the sample keys.
    pub trail_no_keys: &'static str,
    /// The page's key moved: `{0}` = slot, `{1}` = old master, `{2}` = new.
    pub trail_your_key: &'static str,
    /// A sample key moved: `{0}` = key, `{1}` = slot, `{2}` = old master, `{3}` = new.
    pub trail_key: &'static str,
    // numbers
    /// Narration, PFAIL: `{0}` observer, `{1}` subject, `{2}` ms since its unanswered PING, `{3}` node-timeout.
    pub bn_pfail: &'static str,
    /// Narration, FAIL by quorum: `{0}` observer, `{1}` subject, `{2}` reports counted, `{3}` quorum.
    pub bn_fail: &'static str,
    /// After `bn_fail`: `{0}` FAIL messages sent.
    pub bn_fail_sent: &'static str,
    /// Narration, FAIL taken from a FAIL message: `{0}` observer, `{1}` subject, `{2}` broadcaster.
    pub bn_fail_received: &'static str,
    /// Narration, PFAIL cleared: `{0}` observer, `{1}` subject.
    pub bn_cleared_pfail: &'static str,
    /// Narration, FAIL cleared: `{0}` observer, `{1}` subject, `{2}` Redis's log line saying why.
    pub bn_cleared_fail: &'static str,
    /// Narration, cluster_state:fail in the minority: `{0}` node, `{1}` masters reachable, `{2}` needed.
    pub bn_state_minority: &'static str,
    /// Narration, cluster_state:fail for an uncovered slot: `{0}` node, `{1}` slot.
    pub bn_state_slot: &'static str,
    /// Narration, cluster_state:ok: `{0}` node, `{1}` masters reachable, `{2}` needed.
    pub bn_state_ok: &'static str,
    /// Narration, election scheduled: `{0}` replica, `{1}` delay ms, `{2}` random part, `{3}` rank part, `{4}` rank, `{5}` replication offset.
    pub bn_scheduled: &'static str,
    /// Narration, a manual failover's election, no delay: `{0}` replica.
    pub bn_scheduled_now: &'static str,
    /// Narration, election started: `{0}` replica, `{1}` epoch, `{2}` votes needed.
    pub bn_started: &'static str,
    /// Narration, a vote: `{0}` voter, `{1}` candidate, `{2}` epoch, `{3}` votes so far, `{4}` needed.
    pub bn_vote: &'static str,
    /// Narration, a replica became master: `{0}` node, `{1}` its new config epoch.
    pub bn_promoted: &'static str,
    /// Narration, a master became a replica: `{0}` node, `{1}` its new master, `{2}` that master's config epoch.
    pub bn_demoted: &'static str,
    /// Narration, a replica follows another master: `{0}` node, `{1}` master, `{2}` its config epoch.
    pub bn_replica: &'static str,
    /// Heading of the writes list (a scenario with writes).
    pub bn_writes_title: &'static str,
    /// A write: `{0}` its number, `{1}` ms, `{2}` the master.
    pub bn_write: &'static str,
    /// An acknowledged write: `{0}` the master's offset after it.
    pub bn_write_ok: &'static str,
    /// An acknowledged write then lost: `{0}` offset, `{1}` ms when lost, `{2}` the promoted replica, `{3}` its offset.
    pub bn_write_lost: &'static str,
    /// A write refused with CLUSTERDOWN: `{0}` Redis's reply.
    pub bn_write_down: &'static str,
    /// A write to a stopped or dead process.
    pub bn_write_no_answer: &'static str,
    /// A write to a node that is a replica now.
    pub bn_write_not_master: &'static str,
    /// A write while writes are paused for a manual failover.
    pub bn_write_paused: &'static str,
    /// Under the writes: `{0}` lost writes, `{1}` their numbers.
    pub bn_lost_summary: &'static str,
    /// Under the writes of a partition: `{0}` master, `{1}` ms it was cut off, `{2}` ms it turned cluster_state:fail, `{3}` node-timeout.
    pub bn_lost_cut: &'static str,
    /// Under the writes when none was lost (so far).
    pub bn_no_lost: &'static str,
    /// Heading of the MEET spread.
    pub bn_meet_title: &'static str,
    /// The MEET spread: `{0}` new node, `{1}` member met, `{2}` ms joined, `{3}` other nodes, `{4}` ms until all knew it, `{5}` hops.
    pub bn_meet_done: &'static str,
    /// The MEET spread before everyone knows: `{0}` new node, `{1}` met, `{2}` ms, `{3}` nodes that know it, `{4}` others.
    pub bn_meet_so_far: &'static str,
    /// One node learning of the new node: `{0}` node, `{1}` ms after the MEET, `{2}` hops.
    pub bn_meet_node: &'static str,
    /// One node learning of it where the hop is unknown: `{0}` node, `{1}` ms.
    pub bn_meet_node_direct: &'static str,
    /// Heading of the numbers panel.
    pub bn_title: &'static str,
    /// While a figure is being simulated.
    pub bn_computing: &'static str,
    /// Heading of the heartbeat traffic table.
    pub bn_traffic_title: &'static str,
    /// Under it: `{0}` bitmap bytes (16384), `{1}` (65536), `{2}` seconds measured, `{3}` node-timeout.
    pub bn_traffic_help: &'static str,
    /// Label of the masters choice.
    pub bn_masters: &'static str,
    /// Columns of the traffic table: slots, bytes per message, messages a second per node, per node, per cluster.
    pub bn_cols: [&'static str; 5],
    /// A rate: `{0}` bytes, readable (KB, MB).
    pub bn_per_s: &'static str,
    /// Under the table: `{0}` masters, `{1}` how many times the 65536 traffic is the 16384 one, `{2}` extra bytes a second for the cluster.
    pub bn_traffic_grow: &'static str,
    /// Heading of the failover chart.
    pub bn_chart_title: &'static str,
    /// Under it: `{0}` seeded runs per setting.
    pub bn_chart_help: &'static str,
    /// The chart's axes: x, y.
    pub bn_chart_axes: [&'static str; 2],
    /// The chart's series.
    pub bn_chart_kinds: [&'static str; 3],
    /// The chart's table row: `{0}` series, `{1}` min, `{2}` median, `{3}` p90, `{4}` max (ms).
    pub bn_chart_row: &'static str,
    /// Accessible name of the chart.
    pub bn_chart_label: &'static str,
    /// Heading of the 2-masters case.
    pub bn_three_title: &'static str,
    /// The 2-masters case: `{0}` survivor, `{1}` ms to its PFAIL, `{2}` masters it reaches, `{3}` needed, `{4}` ms the run was watched, `{5}` ms to promotion with 3 masters.
    pub bn_three: &'static str,
    /// Button: open the 2-masters case in the player.
    pub bn_three_run: &'static str,
    /// The tour's first stop, measured: `{0}` masters and `{1}` replicas each (counted, [`count`]), `{2}` messages a second, `{3}` bytes a second (16384), `{4}` (65536), `{5}` node-timeout.
    pub bn_tour_measured: &'static str,
    // --- seq18 branch ---
    /// A hidden lifeline's message drawn as a note on the other end: `{0}` = lifeline (the
    /// operator), `{1}` = what it carried (the language's colon between them).
    pub seq_note_from: &'static str,
    // map18: trail ends, a new cluster under the map and in the lab's last change.
    /// The label at the start of a reshard's trail: `{0}` the master the slots came from.
    pub trail_from: &'static str,
    /// The label at the arrowhead: `{0}` the master the slots went to.
    pub trail_to: &'static str,
    /// Under the map after a new cluster replaced the old one: `{0}` what was done.
    pub trail_new_cluster: &'static str,
    /// After the last change's title when it made a new cluster (instead of the slots moved).
    pub lab_new_cluster: &'static str,
    // first-screen module (crates/first)
    /// Shown by the prerendered page while the first-screen module answers a key typed before
    /// the app has started: the values are the key's, the sentences follow with the app.
    pub pipeline_early: &'static str,
    /// The tour's first stop while the simulator measures a big cluster: `{0}` nodes.
    pub bn_tour_measuring: &'static str,
    /// The tour's first stop for a cluster beyond the simulator's reach here: `{0}` nodes, `{1}` the most it measures.
    pub bn_tour_too_big: &'static str,
}
}

/// English.
pub const EN: Messages = Messages {
    title: "slotscope",
    tagline: "How Redis Cluster finds a key: bytes → hash tag → CRC16 → slot → master. Type a key and watch every step.",
    key_label: "Key",
    key_help: "As redis-cli reads it: \\xNN for any byte, \\n \\r \\t \\a \\b, \\\\ for a backslash, \\\" for a quote; surrounding double quotes are optional.",
    examples: "Try",
    stale_note: "The text in the field is not a key the page can explain; the cards still show the last one that was.",
    stage_bytes: "Bytes",
    stage_hashed: "Hashed part",
    stage_crc: "CRC16",
    stage_slot: "Slot",
    stage_master: "Master",
    bytes_count: "{0} bytes",
    empty_key: "(empty key)",
    bytes_rule: "The key as Redis receives it: each character as its UTF-8 bytes, each escape as one byte, shown the way redis-cli prints keys.",
    rule_no_open: "No { in the key, so the whole key is hashed.",
    rule_no_close: "The first { is at byte {0}, but no } follows it, so the whole key is hashed.",
    rule_empty_tag: "The first } comes right after the first { (byte {0}): an empty tag {} does not count, so the whole key is hashed.",
    rule_tag: "Hash tag: only the bytes between the first { (byte {0}) and the first } after it (byte {1}) are hashed. Keys with the same tag share a slot.",
    crc_rule: "CRC-16/XMODEM of the {0} hashed bytes: polynomial 0x1021, register starting at 0, no reflection.",
    crc_show_register: "Show the register byte by byte",
    crc_cols: ["#", "byte", "register before", "table index", "register after"],
    crc_truncated: "First {0} of {1} bytes shown.",
    slot_rule: "{0} & 0x3FFF = {1} = {2}: keep the low 14 bits, since there are 16384 slots.",
    master_rule: "Slot {0} lies in {1}, which {2} owns.",
    master_replicas: "Replicas: {0}.",
    master_none: "No master owns slot {0}: a command on this key gets CLUSTERDOWN Hash slot not served.",
    unowned: "nobody",
    verify: "Check it in redis-cli (interactive, where these escapes work):",
    map_title: "All 16384 slots",
    map_help: "128 slots per row, slot 0 top left. Each colour is a master; the ring marks your key's slot.",
    map_label: "Slot map: 16384 slots coloured by master. Arrow keys move between slots, Page Up and Page Down move by eight rows, Home and End jump to the first and last slot; hold Shift to select a range, Escape clears it.",
    map_readout: "Slot {0} · {1} · {2}",
    map_migrating: " · migrating {0} → {1} (keys not yet moved get ASK)",
    map_your_key: " · your key is here",
    map_readout_idle: "Point at a slot, or focus the map and use the arrow keys. Drag (or Shift+arrows) to select slots to move.",
    map_marked: "Your key: slot {0}",
    legend_title: "Masters",
    legend_slots: "{0} slots · {1}%",
    legend_replicas: "replicas",
    legend_unowned: "{0} slots have no master",
    legend_more_ranges: "and {0} more ranges",
    err_too_long: "This key would be {0} bytes; the page explains keys of up to {1} bytes (1 MiB). The field and the cards keep the key before it.",
    err_too_long_at_least: "This key would be at least {0} bytes; the page explains keys of up to {1} bytes (1 MiB). The field and the cards keep the key before it.",
    node_migrating: "migrating {0} → {1}",
    node_importing: "importing {0} ← {1}",
    node_no_slots: "no slots: it serves nothing until a reshard",
    node_replica_of: "replica of {0}",
    node_failover: "fail over",
    node_failover_title: "Make {0} fail: its first replica takes over its slots with a new config epoch; with no replica, {0} keeps them and the cluster is down",
    node_remove: "remove",
    node_remove_title: "Remove {0} from the cluster (only once it owns no slots)",
    copy: "Copy",
    copied: "Copied",
    lab_title: "Change the cluster",
    lab_help: "Every operation works as redis-cli's does, and can be undone. A new master owns no slots until you reshard or rebalance.",
    lab_add_master: "Add an empty master",
    lab_undo: "Undo",
    lab_redo: "Redo",
    lab_reshard: "Reshard",
    lab_from: "slots from",
    lab_to: "to",
    lab_from_help: "Ctrl- or Cmd-click to take slots from several masters (--cluster-from id,id)",
    lab_all_masters: "all masters",
    lab_reshard_go: "Reshard",
    lab_rebalance: "Rebalance",
    lab_use_empty: "use empty masters (--cluster-use-empty-masters)",
    lab_threshold: "threshold",
    lab_weights: "weights",
    lab_selected: "Slots {0}-{1} selected ({2})",
    lab_move: "Move",
    lab_clear: "Clear",
    lab_moved: "{0} slots moved",
    lab_more_moves: "and {0} more ranges",
    lab_show_commands: "Show the redis-cli commands that would do this",
    lab_drain: "Move its slots away, then remove it",
    lab_import_title: "Import a real cluster, or export this one",
    lab_import_help: "Paste what CLUSTER NODES, CLUSTER SHARDS or CLUSTER SLOTS printed (redis-cli's output, prompt lines included, is fine). The map shows that cluster; nothing you paste leaves this page.",
    lab_import_placeholder: "d3bede0c… 127.0.0.1:7000@17000 myself,master - 0 0 1 connected 0-5460",
    lab_import_go: "Show this cluster",
    lab_export: "Export as CLUSTER NODES",
    lab_export_hide: "Hide the export",
    cmp_title: "Why 16384 slots, and not a ring or mod N?",
    cmp_help: "Add one master to N and count, on {0} keys key:0, key:1, …, how many keys have to move and how even the masters are afterwards.",
    cmp_n: "Masters before (N)",
    cmp_v: "Virtual nodes per master on the ring (V)",
    cmp_method: "Method",
    cmp_moved: "Keys moved",
    cmp_ideal: "Ideal, 1/(N+1)",
    cmp_balance: "Busiest master ÷ mean",
    cmp_after: "Keys per master after",
    cmp_slots: "Hash slots",
    cmp_slots_note: "add-node, then rebalance --cluster-use-empty-masters: only the keys of the slots handed over move",
    cmp_ring: "Consistent hashing, V = {0}",
    cmp_ring_note: "the new master's points take over arcs: balance depends on V",
    cmp_mod: "hash mod N",
    cmp_mod_note: "almost every key changes master",
    cmp_bad_input: "N must be from 1 to 64 and V from 1 to 1000.",
    cmp_takeaway: "Slots move as few keys as a ring does, but by choice: redis-cli decides which slots go where, so the balance is exact and every move is a slot you can name, migrate and watch.",
    plan_title: "Fan-out planner: will Redis take this batch, and how should a client send it?",
    plan_help: "Paste redis-cli commands (one per line; MULTI … EXEC and EVAL work), or keys for one command. Each line is answered as the chosen node answers it: CROSSSLOT is checked before MOVED, and EVAL checks only its declared keys.",
    plan_lines_are: "The lines are",
    plan_commands: "commands",
    plan_keys_for: "keys for one {0}",
    plan_sent_to: "sent to",
    plan_batch_label: "Commands or keys, one per line",
    free_too_long: "That command line is {0} bytes; free mode takes lines up to {1} bytes (64 KiB), since the diagram shows every argument. Nothing was sent.",
    paste_too_long: "With that paste the field would hold {0} bytes; it takes up to {1} bytes (64 KiB). Nothing was pasted.",
    imp_paste_too_large: "With that paste the text would be {0} bytes; the import reads at most {1} bytes (2 MiB). Nothing was pasted. Paste one command's output (CLUSTER NODES is the most compact).",
    free_paste_too_long: "With that paste the command line would be {0} bytes; free mode takes lines up to {1} bytes (64 KiB), since the diagram shows every argument. Nothing was pasted.",
    plan_held: "The field shows the first {0} of the batch's {1} ({2} KB).{3} A batch this long stays out of the text field, which the browser is slow to lay out at every change.",
    plan_held_bytes: "The field shows the first {0} KB of the batch's {1} KB ({2}).{3} A batch this long stays out of the text field, which the browser is slow to lay out at every change.",
    plan_held_all: " The plan reads all of it.",
    plan_edit_in_field: "Edit it in the field",
    plan_edit_slow: "The field would hold all {0} KB. The browser lays out a text field's whole text at every change, so with this much, opening it and each keystroke after can take seconds, with the page not answering meanwhile.",
    plan_edit_anyway: "Edit it anyway",
    plan_clear: "Clear",
    plan_cleared: "The batch was cleared.",
    plan_undo_clear: "Undo",
    plan_too_big: "With that paste the batch would be {0} bytes; the planner reads batches of up to {1} bytes (4 MiB), so the batch before it is kept. For more keys, use the generator below (up to 1,000,000).",
    plan_or_generate: "or generate",
    plan_generator: "key generator",
    plan_gen_template: "keys from a template with %d",
    plan_gen_h3: "route-cache keys (pairs of H3 cells)",
    plan_gen_count: "how many keys",
    plan_generate: "Generate",
    plan_generated: "{1} generated, sent as one {0}",
    plan_one_slot: "Served here: every key is in slot {0}, on {1}",
    plan_routed_only: "With more than {0} keys the page does not run the command; it shows what Redis checks first: the error the node answers without running it (CROSSSLOT, MOVED), or that the node would run it, in which slot.",
    plan_verdicts_label: "Replies, one per line",
    plan_keys_like_commands: "The first line is read as one key, \"{0}\": these lines look like commands. To have each answered as a command, choose \"commands\" above.",
    plan_strategies: "{0} in {1} on {2}: four ways to send them",
    plan_col_strategy: "Strategy",
    plan_col_trips: "Round trips, one after another",
    plan_col_parallel: "Latency, all masters at once",
    plan_per_node: "This sees only the keys of {0}. Each master holds only its own slots' keys, so a cluster client sends this command to every master and merges the replies.",
    plan_per_node_sum: "This counts only the keys of {0}. Each master holds only its own slots' keys, so a cluster client sends this command to every master and adds up the replies.",
    plan_per_node_all_ok: "This is {0}'s answer alone, and it acted on that node only. A cluster client sends this command to every master or node, as Redis's tips for it say, and reports success only if every one succeeds.",
    plan_latency_note: "Round trips count every exchange with a master. Latency is what a client waits for: one that asks every master at once waits about one round trip (RTT) for each exchange the busiest master needs, so a parallel fan-out costs about one RTT whatever the number of masters.",
    plan_col_commands: "Commands",
    plan_col_queue: "Busiest master's queue",
    plan_col_largest: "Largest command (keys)",
    plan_col_atomic: "Atomic groups (keys in the largest)",
    plan_unserved: "{0} in slots no master serves: every strategy fails for them (CLUSTERDOWN).",
    plan_chunk: "Chunks of",
    plan_chunk_stats: "keys: masters a chunk touches, in the order given: {0} on average (at most {1}); sorted by slot first: {2} (at most {3})",
    plan_copy_as: "Copy the plan as",
    plan_copy_per_slot: "{0} per slot",
    plan_copy_tagged: "EVAL SET … EX per master, keys rewritten with per-master tags (the route cache's fix)",
    plan_copy_eval: "EVAL SET … EX per slot (writes each key with an expiry)",
    hot_title: "Hot spots: one tag is one slot is one master",
    hot_help: "{0} keys under one hash tag all land on one master; split the tag into k sub-tags and they spread, but multi-key commands then work only within each sub-tag. Counts below are exact: on the recorded cluster they match what a real cluster stored.",
    hot_k: "sub-tags k",
    hot_untagged: "no tag at all (key:<i>)",
    hot_tags: "tags: {0}",
    hot_busiest: "The busiest master holds {0} of the keys ({1}).",
    hot_unserved: "{0} keys are in slots nobody serves.",
    hot_more_masters: "and {0} more masters",
    hot_more_fewer: "and {0} more masters, none with more keys than the last one listed",
    hot_more_empty: "and {0} more masters with no keys",
    hot_timing: "Recomputed in {0} ms, in this browser.",
    hot_takeaway: "A tag buys atomicity (MULTI, MGET, Lua across the keys) at the price of spread: choose k as small as your multi-key operations need.",
    tags_title: "Tags per master",
    tags_help: "Try %d = 0, 1, 2, … in the template until every master owns N tags: writing a key as {tag}:rest then puts it on the master you chose, and a batch becomes one command per master.",
    tags_template: "template (inside the braces)",
    tags_per_master: "tags per master",
    tags_pin_slots_note: "A tag pins a slot, not a master: a reshard or a failover moves the tag's slot, with its keys, to another master, and a master added later owns none of these tags until you generate them again for the new cluster.",
    tags_slot: "slot {0}",
    tags_tried: "{0} integers tried, {1} tags kept (the smallest that land on each master).",
    tags_pin_title: "Pin a key to a slot",
    tags_pin_slot: "slot",
    tags_pin_use: "use the shortest tag",
    tags_pin_bad: "A slot is a whole number from 0 to 16383.",
    redir_title: "Redirections: MOVED, ASK, ASKING, TRYAGAIN, step by step",
    redir_help: "Pick a scenario and play it, or step through it. The replies are exactly what Redis 7 sends; the client's slot table, beside the diagram on a wide screen and below it on a narrow one, changes on MOVED and, visibly, not on ASK.",
    redir_scenario: "Scenario",
    redir_wire: "show the RESP wire bytes",
    link_unknown_scenario: "This link asks for a scenario called \"{0}\", which this page does not have: showing \"{1}\" from the start instead.",
    link_bad_step: "This link's step \"{0}\" is not a whole number: showing \"{1}\" from the start.",
    link_past_end: "This link asks for step {0}, but \"{1}\" has {2} steps: showing the last one.",
    redir_keys: "Player: Space plays or pauses, arrow keys step, Home and End jump, + and − change the speed",
    redir_start: "Back to the start",
    redir_prev: "Step back",
    redir_play: "Play",
    redir_pause: "Pause",
    redir_next: "Step forward",
    redir_end: "To the end",
    redir_slower: "Slower",
    redir_faster: "Faster",
    redir_timeline: "Timeline",
    redir_step: "step {0} of {1}",
    redir_table: "Client's slot table",
    redir_table_node: "node",
    redir_table_help: "Only the slots this scenario touches. On MOVED a library rewrites the entry or refreshes its whole map (the table of clients below says which); an entry holds until the next reshard or failover. On ASK no library changes it.",
    redir_replies: "Replies so far, as redis-cli prints them",
    free_title: "Try it yourself",
    free_help: "Type a command for the client and press Enter; it runs against the cluster above, including any migration the topology lab set up. Start a line with @host:port to send it straight to that node, as an operator would (CLUSTER SETSLOT, MIGRATE).",
    free_client: "client",
    free_moved_only: "MOVED-only teaching client (treats ASK as MOVED) ({0})",
    free_input: "A command for the client, or @host:port and a command for one node",
    free_send: "Send",
    cluster_label: "Cluster",
    cluster_fixture: "The fixtures' cluster (3 masters + 3 replicas)",
    cluster_created: "redis-cli --cluster create with {0} masters",
    cluster_n_label: "Masters",
    cluster_n_error: "Masters must be a whole number from 3 to 1000 (got \"{0}\"); the cluster shown is unchanged.",
    cluster_cli_refused: "redis-cli refuses: a Redis Cluster needs at least 3 masters. The cluster shown is unchanged. What redis-cli 7.0.15 prints:",
    footer: "Every slot, range and error text on this page is checked against a real Redis 7.0.15 cluster. Runs entirely in your browser.",
    err_no_master_number: "no master number {0}",
    topo_bad_range: "{0}: slot range {1}-{2} is not within 0-16383",
    topo_overlap: "slot {0} is claimed by both {1} and {2}",
    topo_too_many_masters: "{0} masters is more than this page can draw (65535)",
    topo_not_empty: "{0} is not empty ({1} slots)! Reshard its slots away first, then remove it",
    reshard_duplicate: "master number {0} is listed twice",
    reshard_bad_count: "cannot move {0} slots: the number must be from 1 to {1}",
    reshard_sources_empty: "the source nodes own no slots: there is nothing to move",
    reshard_bad_weight: "weight {0} for master number {1}: a weight must be a number from 0 up",
    reshard_zero_weight: "the weights of the masters add up to 0: there are no shares to compute",
    reshard_already_failed: "{0} has already failed",
    at_line: "line {0}: {1}",
    imp_too_large: "the text is {0} bytes, and at most {1} (2 MiB) are read; paste one command's output (CLUSTER NODES is the most compact)",
    imp_empty: "nothing to import: paste the output of CLUSTER NODES, CLUSTER SHARDS or CLUSTER SLOTS",
    imp_unrecognised: "expected the output of CLUSTER NODES, CLUSTER SHARDS or CLUSTER SLOTS, found \"{0}\"",
    imp_redis_error: "redis answered with an error, not with the cluster's layout: {0}",
    imp_expected: "expected {0}, found {1}",
    imp_slot_out_of_range: "slot {0} is out of range: slots are numbered 0-16383",
    imp_backward_range: "the range {0}-{1} ends before it starts; write it {1}-{0}",
    imp_duplicate_node: "node {0} already appeared on line {1}; paste one command's output at a time",
    imp_inconsistent: "node {0} {1}",
    imp_several_replies: "a second command starts here; paste one command's output at a time",
    imp_no_masters: "the paste lists no master node",
    imp_too_deep: "arrays are nested more deeply than in any CLUSTER reply",
    imp_too_many_slots: "the masters claim more than {0} slots in all, but a cluster has 16384: this is not one cluster's output",
    imp_overlap_one: "{0} claims slot {1}, which {2} already claims; the map keeps {2}",
    imp_overlap_many: "{0} claims slots {1}, which {2} already claims; the map keeps {2}",
    imp_uncovered_one: "no master serves {0} slot: {1}",
    imp_uncovered_many: "no master serves {0} slots: {1}",
    list_sep: ", ",
    sentence_gap: " ",
    imp_more_ranges: " and {0} more ranges",
    imp_orphan: "{0} is a replica of {1}, which the paste does not list; it is left out",
    imp_orphan_unknown: "{0} is a replica of an unknown master (-); it is left out",
    tpl_no_placeholder: "\"{0}\" has no %d: put %d where the number goes",
    tpl_many: "\"{0}\" has {1} %d: it needs exactly one",
    plan_too_many_keys: "{0} keys is more than this page generates at once ({1})",
    plan_sub_tags: "{0} sub-tags: choose between 1 and {1}",
    tag_close_brace: "\"{0}\" has a } inside the tag, where Redis would end it: leave it out",
    tag_no_masters: "the cluster has no master to give tags to",
    tag_without_slots_one: "{0} owns no slots, so no tag can land on it: reshard slots to it first",
    tag_without_slots_many: "{0} own no slots, so no tag can land on them: reshard slots to them first",
    tag_too_many: "{0} tags per master is more than this page looks for ({1})",
    tag_exhausted: "after trying {0} integers, {1} of {2} tags were found; {3} has only {4} of {5}: allow more tries",
    cmp_err_no_masters: "there must be at least one master",
    cmp_err_too_many: "{0} masters is more than this comparison takes ({1})",
    cmp_err_duplicate: "{0} is given twice: every master needs its own address",
    cmp_err_rebalance: "rebalance: {0}",
    batch_no_node: "{0} is not a node of this cluster",
    batch_too_many_lines: "{0} are more than the page answers one by one ({1}); to plan them, paste only their keys, one per line, with \"keys for one …\" chosen above",
    cmp_keys: "{0} keys",
    cmp_bar_title: "master {0}: {1} keys",
    plan_only_first: "Only the first {0} are planned",
    plan_fanout_label: "client fanning out to {0}",
    plan_count_error: "The count must be from 1 to {0} (got \"{1}\").",
    tags_not_a_number: "\"{0}\" is not a whole number of tags",
    note_bad_slot_count: "The number of slots must be a whole number from 1 to 16384 (got \"{0}\").",
    note_bad_threshold: "The threshold must be a percentage from 0 to 100 (got \"{0}\").",
    weight_not_pair: "\"{0}\" is not a weight: write node=weight, e.g. 127.0.0.1:7000=2",
    weight_no_master: "No master {0} for the weight \"{1}\"",
    weight_not_number: "\"{0}\" is not a weight (a number, 0 or more)",
    hint_empty_masters: "Empty masters take part only with --cluster-use-empty-masters: tick \"use empty masters\" to give them slots.",
    change_reshard: "Reshard {0} slots to {1}",
    change_reshard_rounded: "Reshard {0} slots to {1}: redis-cli moves {2}, as it rounds each source's share down (the share of the source with the most slots up)",
    change_rebalance: "Rebalance",
    change_drain: "Move every slot off {0}, then remove it",
    change_promoted: "{0} failed: its replica {1} took over its slots with the new highest config epoch, {2}; {0} stays listed as a failed master with no slots",
    change_cluster_down: "{0} failed with no replica: it keeps its {1} slots, and every node answers \"CLUSTERDOWN The cluster is down\" until it comes back",
    change_no_slots: "{0} failed; it owned no slots, so no replica was promoted",
    change_failover: "Failover",
    notice_became_replica: "{0} lost its last slot and became a replica of {1}, which took it; its replicas follow {1} too (Redis 7 does this with \"cluster-allow-replica-migration yes\", the default)",
    change_fixture: "The fixtures' cluster",
    change_created: "--cluster create, {0} masters",
    change_add_master: "Add master {0} (no slots yet)",
    change_remove_master: "Remove master {0}",
    change_move: "Move slots {0} to {1}",
    change_imported: "Imported {0}",
    export_map: "Download the map",
    export_seq: "Download the diagram",
    export_button: "{0} as {1}",
    export_more_masters: "and {0} more masters",
    share: "Share",
    share_copied: "Link copied.",
    share_refused: "The browser would not let the page copy. Select the link and copy it:",
    share_link_label: "Link to this page as it is now",
    share_batch_omitted: "The batch is too long for a link; it is kept in this browser.",
    share_key_omitted: "The key is too long for a link; it is kept in this browser.",
    share_cluster_omitted: "The cluster is too big for a link; it is kept in this browser.",
    restore_link: "Part of this link could not be restored (everything else was):",
    restore_saved: "Part of the state saved in this browser could not be restored (everything else was):",
    restore_not_a_link: "the part of the address after # is not a slotscope link, so the page opened as usual",
    restore_version: "the link was made by a newer version of slotscope (format {0}), so nothing in it could be read",
    restore_too_long: "the link is {0} bytes long, more than a link may be, so nothing in it was read",
    restore_bad_base64: "the link has characters a slotscope link never has, so nothing in it could be read",
    restore_truncated: "the link is cut short: what came after the cut is missing",
    restore_bad_section: "the {0} part is damaged, so it was left as the page opens",
    restore_text_too_long: "a text in the {0} part is too long, so it was left as the page opens",
    restore_unknown_section: "part {0} of the link is from a newer version and was skipped",
    restore_damaged: "the link is damaged part-way: what came after the damage is missing",
    restore_trailing: "the link has extra characters at its end, which were ignored",
    section_lang: "language",
    section_key: "key",
    section_cluster: "cluster",
    section_planner: "planner",
    section_scenario: "redirection scenario",
    rules_title: "When clients disagree",
    rules_help: "Redis puts this key in slot {0}. Some client-side rules compute something else, and route the command there:",
    rules_cluster_key_slot: "cluster-key-slot 1.1.x (npm): skips an empty {} but then closes the tag at the next }",
    rules_last_brace: "Tools that take the last {…} pair instead of the first",
    rules_utf16: "Hashing UTF-16 code units (the low 8 bits of each) instead of UTF-8 bytes",
    rules_empty_random: "Tools that treat an empty key as no key and pick a random node",
    rules_slot: "slot {0}",
    rules_any_node: "any node",
    rules_moved: "sends to {0}, which answers {1} — on every command.",
    rules_same_node: "still lands on {0}, which owns both slots: served, by luck.",
    rules_any: "served only when it picks {0}; any other master answers {1}.",
    rules_no_route: "no master owns slot {0}: the client has nowhere to send it.",
    rules_unserved: "no master serves slot {0}: CLUSTERDOWN, whichever rule the client uses.",
    rules_watch: "Watch the MOVED loop",
    rules_agree: "The common client-side rules (cluster-key-slot, last brace pair, UTF-16, empty key) all agree with Redis on this key.",
    map_ranges_title: "Slot ranges per master",
    map_ranges_master: "{0}, {1} slots:",
    map_ranges_unowned: "No master (uncovered), {0} slots:",
    pipeline_summary: "Slot {0}, master {1}",
    pipeline_summary_unowned: "Slot {0}, no master",
    pipeline_label: "From key to master",
    seq_label: "Sequence diagram of the client and the cluster's nodes",
    plan_commands_label: "Commands for this plan",
    plan_copy_cut: "The field shows the first {0} KB of the plan's {1} KB; Copy copies all of it.",
    plan_copy_writing: "Writing the commands for {0}…",
    plan_pasting: "Taking in the paste…",
    plan_reading: "Reading the batch: {0} KB of {1} KB…",
    plan_planning: "Planning {0}…",
    plan_generating: "Generating keys: {0} of {1}…",
    lab_commands_label: "redis-cli commands that perform this change",
    crc_register_label: "CRC register, byte by byte",
    doc_title: "slotscope — Redis Cluster slots, step by step",
    redir_table_slot: "slot",
    plan_copy_retagged: "# keys rewritten as {tag}key with one {0} tag per master",
    plan_copy_slot: "# slot {0} on {1}",
    plan_copy_comments: "The lines starting with # say which slot and master each command is for. redis-cli has no comments: it sends such a line as a command, and the node answers {0}. To run the commands, leave those lines out; with -c, redis-cli follows MOVED, so any node of the cluster will do:",
    plan_copy_no_master: "(no master)",
    plan_copy_more: "# … and {0} not listed: this list stops at the first {1} of the batch's {2}. Split the batch to copy the rest.",
    note_label: "Not run here:",
    note_unsimulated: "slotscope does not simulate {0}: its real output carries ids, timestamps and counters that change from run to run.",
    note_consumer_groups: "slotscope does not simulate stream consumer groups, so it does not run {0}.",
    note_only_strings: "this node would serve {0}, but slotscope does not simulate this command, so it does not run it.",
    plan_keys_line: "{0} … ({1})",
    action_no_command: "write @host:port followed by a command",
    action_empty: "type a command",
    strategy_names: ["per key", "per slot", "per master, pipelined", "per-master tags"],
    imp_clashes: [
        "serves this range as a master, but an earlier range lists it as a replica",
        "is listed as a replica here, but as a master elsewhere",
        "is listed as the replica of two different masters",
    ],
    node_roles: ["master", "replica"],
    n_keys: ["{0} key", "{0} keys"],
    n_slots: ["{0} slot", "{0} slots"],
    n_masters: ["{0} master", "{0} masters"],
    n_lines: ["{0} line", "{0} lines"],
    n_replicas: ["{0} replica", "{0} replicas"],
    // typed replies
    note_script_syntax: "slotscope does not run this script: at line {0}, column {1}, {2}. It runs only `return` of redis.call(…), of {…} tables of those, of KEYS[n], ARGV[n], strings and integers.",
    note_script_nil: "slotscope does not run this script: element {0} of a returned table is nil, and Lua tables stop at nil.",
    note_script_argument: "slotscope does not run this script: argument {0} of redis.call on line {1} is not a string or an integer.",
    note_no_node: "no node listens at {0}.",
    note_blocks_forever: "{0} with timeout 0 waits until another client pushes; nothing here ever will, so a real client would block for ever. slotscope does not run it.",
    note_serialized: "slotscope does not simulate {0}: it does not keep Redis's serialized (RDB) form of values.",
    note_too_large: "{0} would make a value too large for this page to hold (Redis would run it), so slotscope does not run it.",
    note_not_simulated: "slotscope does not simulate {0}: it acts on the server itself (connections, persistence, replication, configuration, users, diagnostics), which the page does not model.",
    note_subscribe: "slotscope does not run {0}: after it the connection only waits for messages, and none would ever arrive here.",
    note_topology: "slotscope does not run {0} here: change the cluster's shape in the topology lab above.",
    note_waits_forever: "slotscope does not run {0}: with these arguments a real node would wait for ever.",
    script_problems: [
        "the script must start with `return`",
        "there is text after the returned expression",
        "expected `,` between arguments",
        "expected `(` after redis.call",
        "expected `]`",
        "expected redis.call(…), {…}, KEYS[n], ARGV[n], a string or an integer",
        "expected an integer",
        "expressions nest too deeply",
        "a string is not closed",
        "an escape sequence is above 255",
        "an escape Lua 5.1 does not know",
    ],
    // errors as data
    at_column: "column {0}: {1}",
    at_column_sentence: "Column {0}: {1}.",
    esc_hex_at_end: "\\x needs two hex digits, but the key ends there",
    esc_bad_hex: "\\x needs two hex digits (0-9, a-f), but \"{0}\" follows it",
    esc_unknown: "\\{0} is not an escape redis-cli knows; write \\\\ for a backslash",
    esc_trailing: "the key ends with a lone backslash; write \\\\ for a backslash",
    esc_unclosed: "this quote ({0}) is never closed; close it with {0}, or write \\{0} for a quote inside it",
    esc_after_quote: "there is text right after the closing quote; end the key or argument there, or write \\\" for a quote inside it",
    esc_not_hex: "\"{0}\" is not a hex digit (0-9, a-f)",
    esc_unpaired_hex: "this digit has no pair: each byte takes two hex digits",
    imp_want_node_id_at_start: "a node id (40 hex digits) at the start of the line",
    imp_want_node_fields: "8 fields (id, address, flags, master, ping-sent, pong-recv, config-epoch, link-state) before the slots",
    imp_want_bus_address: "an address like 127.0.0.1:7000@17000",
    imp_want_flags: "flags like myself,master or slave,fail?",
    imp_want_one_role: "one role, master or slave",
    imp_want_master_id: "the master's node id (40 hex digits), or - for a master",
    imp_want_counter: "a number ({0}) in field {1}",
    imp_want_link_state: "the link state, connected or disconnected, in field 8",
    imp_want_no_slots_on_replica: "no slots on a replica's line",
    imp_want_open_slot: "an open slot like [5712->-<node id>] or [5712-<-<node id>]",
    imp_want_slot_or_range: "a slot or a range like 0-5460",
    imp_want_quoted_string: "a quoted string",
    imp_want_integer: "a whole number after (integer)",
    imp_want_value: "a value such as \"127.0.0.1\", (integer) 7000 or (empty array)",
    imp_want_nothing_after: "nothing after a one-line reply",
    imp_want_numbered_item: "a numbered item such as 2) (integer) 7000",
    imp_want_aligned_item: "an item lined up under the items of its array",
    imp_want_item: "item {0}) here",
    imp_want_shard_list: "a list of shards",
    imp_want_shard: "a shard: its slots and its nodes",
    imp_want_shard_field: "the shard's \"{0}\"",
    imp_want_shard_slots: "the shard's slots (a list)",
    imp_want_shard_nodes: "the shard's nodes (a list)",
    imp_want_shard_node: "a node: its id, port, ip, role, ...",
    imp_want_node_field: "the node's \"{0}\"",
    imp_want_role: "the role \"master\" or \"replica\"",
    imp_want_shard_master: "a node with the role \"master\" in the shard",
    imp_want_range_list: "a list of slot ranges",
    imp_want_range_entry: "a slot range and its nodes",
    imp_want_first_slot: "the first slot of a range",
    imp_want_last_slot: "the last slot of the range",
    imp_want_range_master: "the master serving the range",
    imp_want_range_node: "a node: its address, port and id",
    imp_want_node_address: "the node's address",
    imp_want_node_port: "the node's port",
    imp_want_node_id: "the node's id",
    imp_want_metadata: "the node's metadata (a list)",
    imp_want_host: "an address",
    imp_want_ip: "an IP address",
    imp_want_hostname: "a hostname (letters, digits, '-' and '.')",
    imp_want_port: "a port number (0-65535)",
    imp_want_id: "a node id (40 hex digits)",
    imp_want_field_name: "a field name",
    imp_want_value_of: "the value of \"{0}\" after it",
    imp_want_raw_shard_start: "\"slots\", which opens each shard",
    imp_want_raw_shard_nodes: "\"nodes\" after the shard's slots",
    imp_want_raw_node_start: "\"id\", which opens each node",
    imp_want_raw_last_slot: "the last slot of the range on the next line",
    imp_want_raw_port: "the node's port after its address",
    imp_want_raw_id: "the node's id after its port",
    imp_found_text: "\"{0}\"",
    imp_found_fields: "only {0}: \"{1}\"",
    imp_found_list: "a list",
    imp_found_end_of_list: "the end of the list",
    imp_found_end_of_paste: "the end of the paste",
    imp_found_missing: "none",
    imp_found_only_replicas: "only replicas",
    reshard_cli_target_is_source: "{0}",
    reshard_cli_no_sources: "{0}",
    reshard_cli_not_known: "{0}",
    reshard_cli_check: "{0}",
    reshard_cli_assertion: "{0}",
    reshard_cli_not_empty: "{0}",
    reshard_cli_no_such_node: "{0}",
    // state
    plan_showing_generated: "Planning the generated keys below ({0}); the pasted lines are set aside.",
    plan_show_pasted: "Plan the pasted lines again",
    // --- bus-engine branch ---
    note_node_crashed: "{0} is down: its process was killed, so the connection is refused.",
    note_node_hung: "{0} is stopped (SIGSTOP): the kernel accepts the connection but nothing answers, so the client waits until its own timeout.",
    lab_real_failover: "The lab swaps the roles at once; a real failover takes ≈ {3} s. With cluster-node-timeout {0} s, the other nodes flag the master fail? after ≈ {1} s, agree it is fail after ≈ {2} s (from then on the cluster answers CLUSTERDOWN), and the replica wins its election after ≈ {3} s. Watch it in the cluster bus section.",
    // nav-phone
    nav_label: "Sections",
    nav_key: "Key",
    nav_map: "Slot map & lab",
    nav_planner: "Planner",
    nav_tags: "Tags & hot spots",
    nav_redirections: "Redirections",
    nav_bus: "Cluster bus",
    nav_why: "Why slots",
    readout_slot: "slot {0}",
    readout_label: "Your key {0} is in slot {1}, served by {2}. Go to the key field.",
    lab_select_hint: "No slots selected. Drag across the map (or press Shift with the arrow keys on it) to pick some and move them to a master.",
    key_show_all: "Show all {0} bytes",
    key_show_less: "Show less",
    share_close: "Close",
    // bus-view
    section_bus: "cluster bus player",
    // diagrams-tour
    redir_replies_wire: "Replies so far, as RESP bytes on the wire (\\r\\n shown escaped)",
    seq_owner: "owns {0}",
    seq_migrating: "MIGRATING {0} → {1}",
    seq_importing: "IMPORTING {0} ← {1}",
    seq_no_keys: "no keys here",
    seq_key_on: "{0} is on {1}",
    redir_operator: "show the operator",
    trail_count: "{0} of {1} slots moved, from {2}",
    trail_keys: "Keys that moved with them:",
    trail_no_keys: "Neither your key nor the transcripts' sample keys ({0}) are in the moved slots.",
    trail_your_key: "your key (slot {0}): {1} → {2}",
    trail_key: "{0} (slot {1}): {2} → {3}",
    // numbers
    bn_pfail: "{0} sent {1} a PING {2} ms ago and has had no PONG: that is more than cluster-node-timeout ({3} ms), so it flags it fail? (PFAIL) and tells the others in its gossip.",
    bn_fail: "{0} marks {1} as fail: {2} masters hold it failing (failure reports, its own view included when it is a master), which reaches the quorum of {3}, a majority of the masters that own slots.",
    bn_fail_sent: " It broadcasts FAIL to the {0} other nodes it can reach.",
    bn_fail_received: "{0} takes {1} as fail from the FAIL message {2} broadcast: a FAIL needs no quorum of its own.",
    bn_cleared_pfail: "{0} hears from {1} again and drops its fail? flag.",
    bn_cleared_fail: "{0} clears the FAIL flag on {1}; its log says: {2}",
    bn_state_minority: "{0} says cluster_state:fail: it reaches {1} of the masters that own slots and needs {2}, a majority, so it refuses queries with CLUSTERDOWN.",
    bn_state_slot: "{0} says cluster_state:fail: slot {1} has no working master and cluster-require-full-coverage is yes, so it refuses queries with CLUSTERDOWN.",
    bn_state_ok: "{0} says cluster_state:ok: it reaches {1} masters that own slots (it needs {2}) and every slot has a working master.",
    bn_scheduled: "{0} sees its master failing and schedules its election in {1} ms: 500 ms fixed + {2} ms random + {3} ms for rank #{4} (its replication offset is {5}; the replica with the largest offset has rank #0).",
    bn_scheduled_now: "{0} starts its election at once: a manual failover waits for no rank delay.",
    bn_started: "{0} starts a failover election for epoch {1} and asks every master for its vote: it needs {2}, a majority of the masters that own slots.",
    bn_vote: "{0} grants its vote to {1} for epoch {2}: {3} of the {4} votes it needs.",
    bn_promoted: "{0} is a master now, with config epoch {1}: the newest claim on its slots, which every other node adopts.",
    bn_demoted: "{0}, a master before, learns that {1} owns its slots with the newer config epoch {2}, and becomes its replica.",
    bn_replica: "{0} is a replica of {1} now (config epoch {2}).",
    bn_writes_title: "Writes and what became of them",
    bn_write: "write #{0} at {1} ms to {2}: ",
    bn_write_ok: "acknowledged (offset {0})",
    bn_write_lost: "acknowledged (offset {0}), then lost at {1} ms: {2} took over at offset {3} and never had it",
    bn_write_down: "refused: {0}",
    bn_write_no_answer: "no answer (the process is stopped or dead)",
    bn_write_not_master: "refused with MOVED: the node is a replica now",
    bn_write_paused: "blocked: writes are paused for a manual failover",
    bn_lost_summary: "{0} acknowledged writes were lost ({1}): the client was told OK, yet the new master never received them.",
    bn_lost_cut: "{0} was cut off at {1} ms and kept taking writes until it saw itself in the minority at {2} ms (after cluster-node-timeout, {3} ms, without answers): every write it took in between is lost when it rejoins as a replica.",
    bn_no_lost: "No acknowledged write has been lost so far.",
    bn_meet_title: "How the new node spreads by gossip",
    bn_meet_done: "{0} met {1} at {2} ms; all {3} other nodes knew it {4} ms later, the farthest after {5} gossip hops.",
    bn_meet_so_far: "{0} met {1} at {2} ms; {3} of the {4} other nodes know it so far.",
    bn_meet_node: "{0}: after {1} ms, hop {2}",
    bn_meet_node_direct: "{0}: after {1} ms",
    bn_title: "Numbers, measured in the simulator",
    bn_computing: "Simulating…",
    bn_traffic_title: "Heartbeat traffic: 16384 or 65536 slots",
    bn_traffic_help: "Every PING and PONG starts with a header that carries the sender's slots as a bitmap: {0} bytes with 16384 slots, {1} with 65536. Counted from the messages of a steady simulated cluster (masters only) over {2} s at cluster-node-timeout {3} ms, Redis's default.",
    bn_masters: "Masters",
    bn_cols: ["slots", "bytes per message", "messages/s per node", "per node", "whole cluster"],
    bn_per_s: "{0}/s",
    bn_traffic_grow: "With {0} masters, 65536 slots would make the bus carry {1}× as many bytes: {2} more every second, for nothing but bigger bitmaps.",
    bn_chart_title: "Time to failover against cluster-node-timeout",
    bn_chart_help: "{0} seeded runs per setting of a cluster of 3 masters with one replica each whose first master is killed: when the first node flags it fail? (PFAIL), when the first node marks it fail (FAIL), and when its replica is promoted. Bars span min to max, the thick mark is the median, the thin one the 90th percentile.",
    bn_chart_axes: ["cluster-node-timeout (ms)", "ms after the kill"],
    bn_chart_kinds: ["first fail? (PFAIL)", "first fail (FAIL)", "replica promoted"],
    bn_chart_row: "{0}: {1} to {4} ms, median {2}, p90 {3}",
    bn_chart_label: "Chart: time to failover (PFAIL, FAIL, promotion) for several values of cluster-node-timeout; the same figures are in the table below.",
    bn_three_title: "Why at least 3 masters",
    bn_three: "2 masters with a replica each; one is killed. {0} flags it fail? after {1} ms, but marking it fail needs a majority of the masters that own slots: it reaches {2} and needs {3}. So no FAIL, no election, no promotion, and cluster_state stays fail for all {4} ms watched. With 3 masters the same crash ends with the replica promoted {5} ms after the kill.",
    bn_three_run: "Watch it with 2 masters",
    bn_tour_measured: "Measured in the cluster-bus simulator for {0} with {1} each at cluster-node-timeout {5} ms: {2} messages a second carry {3} a second with 16384 slots, and would carry {4} with 65536.",
    // --- seq18 branch ---
    seq_note_from: "{0}: {1}",

    // map18
    trail_from: "from {0}",
    trail_to: "to {0}",
    trail_new_cluster: "{0}: a new cluster, not a reshard. Its masters got their slots when it was made, so no slot and no key moved.",
    lab_new_cluster: "a new cluster, nothing moved",
    pipeline_early: "These are your key's bytes, slot and master. The sentences that explain each step appear when the page has finished loading.",
    bn_tour_measuring: "Measuring the heartbeat traffic of these {0} nodes in the cluster-bus simulator…",
    bn_tour_too_big: "Not measured: simulating {0} nodes would take longer than a reader waits here, so the page measures clusters of up to {1} nodes. The arithmetic above holds at any size.",
};

/// `n` with a comma between each group of three digits (both languages write it so).
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `n` things, worded by `forms` (singular, plural: [`Messages::n_keys`] and its kin), the
/// number grouped ([`grouped`]).
pub fn count(forms: [&str; 2], n: impl TryInto<u64>) -> String {
    let n = n.try_into().unwrap_or(u64::MAX);
    fill(forms[usize::from(n != 1)], &[&grouped(n)])
}

/// Fills `{0}`, `{1}`, … in `template` with `args`, in order.
///
/// A hole with no argument is left as it is, so a missing argument shows rather than panics.
pub fn fill(template: &str, args: &[&dyn core::fmt::Display]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let hole = after
            .find('}')
            .and_then(|close| after[..close].parse::<usize>().ok().map(|n| (n, close)));
        match hole.and_then(|(n, close)| args.get(n).map(|a| (a, close))) {
            Some((arg, close)) => {
                out.push_str(&arg.to_string());
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The messages table for the reader's language (the [`crate::ui::lang::Lang`] in context).
#[yew::hook]
pub fn use_messages() -> &'static Messages {
    yew::use_context::<crate::ui::lang::Lang>()
        .unwrap_or_default()
        .messages()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_grouped_by_three_and_counted_in_both_languages() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(133_200), "133,200");
        assert_eq!(grouped(19_980_000), "19,980,000");
        assert_eq!(count(EN.n_lines, 1), "1 line");
        assert_eq!(count(EN.n_keys, 0), "0 keys");
        assert_eq!(count(EN.n_keys, 1_000_000), "1,000,000 keys");
        assert_eq!(count(crate::ui::messages_zh::ZH.n_slots, 1), "1 个槽");
    }

    #[test]
    fn fill_replaces_numbered_holes_and_keeps_braces() {
        assert_eq!(fill("a {0} b {1}", &[&1, &"x"]), "a 1 b x");
        assert_eq!(
            fill(EN.rule_no_open, &[]),
            "No { in the key, so the whole key is hashed."
        );
        assert_eq!(fill("{} {2} {0}", &[&7]), "{} {2} 7");
        assert_eq!(
            fill(EN.rule_empty_tag, &[&3]),
            "The first } comes right after the first { (byte 3): an empty tag {} does not count, so the whole key is hashed."
        );
    }
}
