//! Every string the page shows a reader, in one table, so a second language is a second table.
//!
//! Templates hold numbered holes (`{0}`, `{1}`) that [`fill`] replaces; numbers, keys and
//! replies are passed in and never translated.

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
    /// `\x` not followed by two hex digits: `{0}` column, `{1}` what followed.
    pub err_bad_hex: &'static str,
    /// `\x` at the very end: `{0}` column.
    pub err_hex_at_end: &'static str,
    /// Unknown escape: `{0}` column, `{1}` the character.
    pub err_unknown_escape: &'static str,
    /// Lone backslash at the end: `{0}` column.
    pub err_trailing_backslash: &'static str,
    /// Opening quote never closed: `{0}` column.
    pub err_unclosed_quote: &'static str,
    /// Text after the closing quote: `{0}` column.
    pub err_text_after_quote: &'static str,
    /// Key too long: `{0}` bytes, `{1}` the limit.
    pub err_too_long: &'static str,
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
    /// Column: the least possible.
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
    /// A free-mode line over the limit; {0} its size in MB, {1} the limit in KB.
    pub free_too_long: &'static str,
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
    /// Plans heading: `{0}` keys, `{1}` slots, `{2}` masters.
    pub plan_strategies: &'static str,
    /// Column.
    pub plan_col_strategy: &'static str,
    /// Column.
    pub plan_col_trips: &'static str,
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
    /// Copy as MGET.
    pub plan_copy_mget: &'static str,
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
    /// Hot-spot point.
    pub hot_takeaway: &'static str,
    /// How long the recompute took in this browser; {0} milliseconds.
    pub hot_timing: &'static str,
    /// Tag generator heading.
    pub tags_title: &'static str,
    /// Tag generator help.
    pub tags_help: &'static str,
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
    /// Smart client.
    pub free_smart: &'static str,
    /// MOVED-only client.
    pub free_moved_only: &'static str,
    /// Preset select.
    pub free_preset: &'static str,
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
    /// Footer text.
    pub footer: &'static str,
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
    /// Accessible name of the last change's redis-cli commands.
    pub lab_commands_label: &'static str,
    /// Accessible name of the scrollable CRC register table.
    pub crc_register_label: &'static str,
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
    stage_slot: "& 0x3FFF",
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
    err_bad_hex: "Column {0}: \\x needs two hex digits (0-9, a-f), but \"{1}\" follows it.",
    err_hex_at_end: "Column {0}: \\x needs two hex digits, but the key ends there.",
    err_unknown_escape: "Column {0}: \\{1} is not an escape redis-cli knows. Write \\\\ for a backslash.",
    err_trailing_backslash: "Column {0}: the key ends with a lone backslash. Write \\\\ for a backslash.",
    err_unclosed_quote: "Column {0}: this double quote is never closed. End the key with \" or write \\\" for a quote.",
    err_text_after_quote: "Column {0}: there is text after the closing quote. Write \\\" for a quote inside the key.",
    err_too_long: "This key would be {0} bytes; the page explains keys of up to {1} bytes. The key shown below is the last one that fit.",
    node_migrating: "migrating {0} → {1}",
    node_importing: "importing {0} ← {1}",
    node_no_slots: "no slots: it serves nothing until a reshard",
    node_replica_of: "replica of {0}",
    node_failover: "fail over",
    node_failover_title: "Make {0} fail: its first replica takes over its slots",
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
    cmp_ideal: "Least possible, 1/(N+1)",
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
    free_too_long: "That command line is {0} MB; free mode takes lines up to {1} KB, since the diagram shows every argument. Nothing was sent.",
    plan_too_big: "That paste is {0} MB; the planner reads pastes up to {1} MB, so the batch before it is kept. For more keys, use the generator below (up to 1,000,000).",
    plan_or_generate: "or generate",
    plan_generator: "key generator",
    plan_gen_template: "keys from a template with %d",
    plan_gen_h3: "route-cache keys (pairs of H3 cells)",
    plan_gen_count: "how many keys",
    plan_generate: "Generate",
    plan_generated: "one MGET of the {0} generated keys",
    plan_one_slot: "OK: every key is in slot {0}, on {1}",
    plan_strategies: "{0} keys in {1} slots on {2} masters: four ways to send them",
    plan_col_strategy: "Strategy",
    plan_col_trips: "Round trips",
    plan_col_commands: "Commands",
    plan_col_queue: "Busiest master's queue",
    plan_col_largest: "Largest command (keys)",
    plan_col_atomic: "Atomic groups (largest)",
    plan_unserved: "{0} keys are in slots no master serves: every strategy fails for them (CLUSTERDOWN).",
    plan_chunk: "Chunks of",
    plan_chunk_stats: "keys touch {0} masters on average (at most {1}) in the order given, {2} (at most {3}) sorted by slot first",
    plan_copy_as: "Copy the per-slot plan as",
    plan_copy_mget: "MGET per slot (reads)",
    plan_copy_tagged: "EVAL SET … EX per master, keys rewritten with per-master tags (the route cache's fix)",
    plan_copy_eval: "EVAL SET … EX per slot (writes with an expiry; MSET has none)",
    hot_title: "Hot spots: one tag is one slot is one master",
    hot_help: "{0} keys under one hash tag all land on one master; split the tag into k sub-tags and they spread, but multi-key commands then work only within each sub-tag. Counts below are exact, and match what a real cluster stored.",
    hot_k: "sub-tags k",
    hot_untagged: "no tag at all (key:<i>)",
    hot_tags: "tags: {0}",
    hot_busiest: "The busiest master holds {0} of the keys ({1}).",
    hot_unserved: "{0} keys are in slots nobody serves.",
    hot_more_masters: "and {0} more masters",
    hot_timing: "Recomputed in {0} ms, in this browser.",
    hot_takeaway: "A tag buys atomicity (MULTI, MGET, Lua across the keys) at the price of spread: choose k as small as your multi-key operations need.",
    tags_title: "Tags per master",
    tags_help: "Try %d = 0, 1, 2, … in the template until every master owns N tags: writing a key as {tag}:rest then puts it on the master you chose, and a batch becomes one command per master.",
    tags_template: "template (inside the braces)",
    tags_per_master: "tags per master",
    tags_slot: "slot {0}",
    tags_tried: "{0} integers tried, {1} tags kept (the smallest that land on each master).",
    tags_pin_title: "Pin a key to a slot",
    tags_pin_slot: "slot",
    tags_pin_use: "use the shortest tag",
    tags_pin_bad: "A slot is a whole number from 0 to 16383.",
    redir_title: "Redirections: MOVED, ASK, ASKING, TRYAGAIN, step by step",
    redir_help: "Pick a scenario and play it, or step through it. The replies are exactly what Redis 7 sends; the client's slot table on the right changes on MOVED and, visibly, not on ASK.",
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
    redir_table_help: "Only the slots this scenario touches. A smart client rewrites an entry on MOVED; on ASK it does not.",
    redir_replies: "Replies so far, as redis-cli prints them",
    free_title: "Try it yourself",
    free_help: "Type a command for the client and press Enter; it runs against the cluster above, including any migration the topology lab set up. Start a line with @host:port to send it straight to that node, as an operator would (CLUSTER SETSLOT, MIGRATE).",
    free_client: "client",
    free_smart: "smart client (MOVED updates the table, ASK does not)",
    free_moved_only: "MOVED-only client (treats ASK as MOVED)",
    free_preset: "redirect limit",
    free_input: "A command for the client, or @host:port and a command for one node",
    free_send: "Send",
    cluster_label: "Cluster",
    cluster_fixture: "The fixtures' cluster (3 masters + 3 replicas)",
    cluster_created: "redis-cli --cluster create with {0} masters",
    cluster_n_label: "Masters",
    cluster_n_error: "Masters must be a whole number from 1 to 1000 (got \"{0}\"); the cluster shown is unchanged.",
    footer: "Every slot, range and error text on this page is checked against a real Redis 7.0.15 cluster. Runs entirely in your browser.",
    map_ranges_title: "Slot ranges per master",
    map_ranges_master: "{0}, {1} slots:",
    map_ranges_unowned: "No master (uncovered), {0} slots:",
    pipeline_summary: "Slot {0}, master {1}",
    pipeline_summary_unowned: "Slot {0}, no master",
    pipeline_label: "From key to master",
    seq_label: "Sequence diagram of the client and the cluster's nodes",
    plan_commands_label: "Commands for this plan",
    lab_commands_label: "redis-cli commands that perform this change",
    crc_register_label: "CRC register, byte by byte",
};

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

/// Simplified Chinese. (Placeholder until the translated table lands.)
pub const ZH: Messages = EN;

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
