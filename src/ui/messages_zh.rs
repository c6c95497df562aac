//! 简体中文: the page's text table in Simplified Chinese, with the tests that keep every table
//! in step with English.
//!
//! Terms follow the Chinese Redis documentation: 槽 / 哈希槽, 主节点, 副本, 哈希标签, 重新分片,
//! 再平衡, 故障转移, 迁移中 / 导入中. Numbers, code, commands and Redis replies stay as they are.

use super::messages::Messages;

/// Simplified Chinese.
pub const ZH: Messages = Messages {
    title: "slotscope",
    tagline: "Redis 集群如何找到一个键：字节 → 哈希标签 → CRC16 → 槽 → 主节点。输入一个键，看清每一步。",
    key_label: "键",
    key_help: "按 redis-cli 的读法：\\xNN 表示任意字节，还有 \\n \\r \\t \\a \\b，\\\\ 表示反斜杠，\\\" 表示双引号；两端的双引号可有可无。",
    examples: "试试",
    stale_note: "输入框中的文本不是本页能解释的键；下方卡片仍显示上一个有效的键。",
    stage_bytes: "字节",
    stage_hashed: "参与哈希的部分",
    stage_crc: "CRC16",
    stage_slot: "& 0x3FFF",
    stage_master: "主节点",
    bytes_count: "{0} 字节",
    empty_key: "（空键）",
    bytes_rule: "Redis 收到的键：每个字符取其 UTF-8 字节，每个转义算一个字节，按 redis-cli 打印键的方式显示。",
    rule_no_open: "键中没有 {，因此对整个键求哈希。",
    rule_no_close: "第一个 { 位于字节 {0}，但其后没有 }，因此对整个键求哈希。",
    rule_empty_tag: "第一个 } 紧跟在第一个 {（字节 {0}）之后：空标签 {} 不算数，因此对整个键求哈希。",
    rule_tag: "哈希标签：只对第一个 {（字节 {0}）与其后第一个 }（字节 {1}）之间的字节求哈希。标签相同的键落在同一个槽。",
    crc_rule: "对 {0} 个参与哈希的字节计算 CRC-16/XMODEM：多项式 0x1021，寄存器初值为 0，不做反转。",
    crc_show_register: "逐字节显示寄存器",
    crc_cols: ["#", "字节", "之前的寄存器", "表索引", "之后的寄存器"],
    crc_truncated: "仅显示 {1} 个字节中的前 {0} 个。",
    slot_rule: "{0} & 0x3FFF = {1} = {2}：保留低 14 位，因为共有 16384 个槽。",
    master_rule: "槽 {0} 位于 {1}，由 {2} 负责。",
    master_replicas: "副本：{0}。",
    master_none: "没有主节点负责槽 {0}：对该键的命令会收到 CLUSTERDOWN Hash slot not served。",
    unowned: "无",
    verify: "在 redis-cli 中验证（需交互模式，这些转义才生效）：",
    map_title: "全部 16384 个槽",
    map_help: "每行 128 个槽，槽 0 在左上角。每种颜色代表一个主节点；圆环标出你的键所在的槽。",
    map_label: "槽位图：16384 个槽按主节点着色。方向键在槽之间移动，Page Up 和 Page Down 每次移动八行，Home 和 End 跳到第一个和最后一个槽；按住 Shift 可选择一段范围，Esc 清除选择。",
    map_readout: "槽 {0} · {1} · {2}",
    map_migrating: " · 迁移中 {0} → {1}（尚未迁走的键会收到 ASK）",
    map_your_key: " · 你的键在这里",
    map_readout_idle: "指向一个槽，或聚焦槽位图后使用方向键。拖动（或 Shift+方向键）可选择要迁移的槽。",
    map_marked: "你的键：槽 {0}",
    legend_title: "主节点",
    legend_slots: "{0} 个槽 · {1}%",
    legend_replicas: "副本",
    legend_unowned: "{0} 个槽没有主节点",
    legend_more_ranges: "另有 {0} 个范围",
    err_too_long: "这个键将有 {0} 字节；本页只解释不超过 {1} 字节的键。下方显示的是上一个未超限的键。",
    node_migrating: "迁移中 {0} → {1}",
    node_importing: "导入中 {0} ← {1}",
    node_no_slots: "没有槽：重新分片之前不提供任何服务",
    node_replica_of: "{0} 的副本",
    node_failover: "故障转移",
    node_failover_title: "让 {0} 故障：由它的第一个副本以新的配置纪元接管其槽；若没有副本，{0} 仍保有这些槽，集群进入下线状态",
    node_remove: "移除",
    node_remove_title: "从集群中移除 {0}（仅当它不再负责任何槽时）",
    copy: "复制",
    copied: "已复制",
    lab_title: "修改集群",
    lab_help: "每个操作都与 redis-cli 的行为一致，并且可以撤销。新主节点在重新分片或再平衡之前不负责任何槽。",
    lab_add_master: "添加一个空主节点",
    lab_undo: "撤销",
    lab_redo: "重做",
    lab_reshard: "重新分片",
    lab_from: "个槽，来自",
    lab_to: "到",
    lab_from_help: "按住 Ctrl 或 Cmd 点击，可从多个主节点取槽（--cluster-from id,id）",
    lab_all_masters: "所有主节点",
    lab_reshard_go: "重新分片",
    lab_rebalance: "再平衡",
    lab_use_empty: "使用空主节点（--cluster-use-empty-masters）",
    lab_threshold: "阈值",
    lab_weights: "权重",
    lab_selected: "已选择槽 {0}-{1}（{2} 个）",
    lab_move: "迁移",
    lab_clear: "清除",
    lab_moved: "迁移了 {0} 个槽",
    lab_more_moves: "另有 {0} 个范围",
    lab_show_commands: "显示执行此操作的 redis-cli 命令",
    lab_drain: "先迁走它的槽，再移除它",
    lab_import_title: "导入真实集群，或导出当前集群",
    lab_import_help: "粘贴 CLUSTER NODES、CLUSTER SHARDS 或 CLUSTER SLOTS 的输出（redis-cli 的输出连同提示符行也可以）。槽位图将显示该集群；粘贴的内容不会离开本页。",
    lab_import_placeholder: "d3bede0c… 127.0.0.1:7000@17000 myself,master - 0 0 1 connected 0-5460",
    lab_import_go: "显示此集群",
    lab_export: "导出为 CLUSTER NODES",
    lab_export_hide: "隐藏导出",
    cmp_title: "为什么是 16384 个槽，而不是哈希环或取模 N？",
    cmp_help: "在 N 个主节点之外再加一个，用 {0} 个键 key:0、key:1、… 统计有多少键需要迁移，以及之后各主节点是否均衡。",
    cmp_n: "原有主节点数（N）",
    cmp_v: "哈希环上每个主节点的虚拟节点数（V）",
    cmp_method: "方法",
    cmp_moved: "迁移的键",
    cmp_ideal: "理想值，1/(N+1)",
    cmp_balance: "最忙主节点 ÷ 平均值",
    cmp_after: "之后每个主节点的键数",
    cmp_slots: "哈希槽",
    cmp_slots_note: "add-node 后执行 rebalance --cluster-use-empty-masters：只有移交出去的槽中的键需要迁移",
    cmp_ring: "一致性哈希，V = {0}",
    cmp_ring_note: "新主节点的虚拟点接管若干弧段：均衡程度取决于 V",
    cmp_mod: "哈希取模 N",
    cmp_mod_note: "几乎每个键都换了主节点",
    cmp_bad_input: "N 必须在 1 到 64 之间，V 必须在 1 到 1000 之间。",
    cmp_takeaway: "槽迁移的键和哈希环一样少，但迁移是有意为之：由 redis-cli 决定哪些槽去往哪里，所以均衡是精确的，每次迁移的都是一个可以指名、迁移和观察的槽。",
    plan_title: "扇出规划器：Redis 会接受这批命令吗？客户端应该怎样发送？",
    plan_help: "粘贴 redis-cli 命令（每行一条；支持 MULTI … EXEC 和 EVAL），或一条命令的键。每一行都按所选节点的方式应答：先检查 CROSSSLOT 再检查 MOVED，EVAL 只检查其声明的键。",
    plan_lines_are: "每行是",
    plan_commands: "命令",
    plan_keys_for: "一条 {0} 的键",
    plan_sent_to: "发送到",
    plan_batch_label: "命令或键，每行一个",
    plan_too_big: "粘贴的内容有 {0} MB；规划器最多读取 {1} MB，因此保留之前的批次。需要更多键时，请使用下方的生成器（最多 1,000,000 个）。",
    free_too_long: "该命令行有 {0} MB；自由模式每行最多 {1} KB，因为图中会显示每个参数。未发送任何内容。",
    plan_or_generate: "或生成",
    plan_generator: "键生成器",
    plan_gen_template: "由含 %d 的模板生成键",
    plan_gen_h3: "路由缓存键（H3 单元格对）",
    plan_gen_count: "键的数量",
    plan_generate: "生成",
    plan_generated: "对 {0} 个生成的键执行一次 MGET",
    plan_one_slot: "OK：所有键都在槽 {0}，位于 {1}",
    plan_strategies: "{0} 个键，分布在 {2} 个主节点的 {1} 个槽中：四种发送方式",
    plan_col_strategy: "策略",
    plan_col_trips: "往返次数（逐个进行）",
    plan_col_parallel: "延迟（同时发往所有主节点）",
    plan_per_node: "这只统计或作用于 {0} 上的键。每个主节点只保存自己那些槽里的键，所以客户端会把这条命令发给每个主节点，再把回复相加（或合并）。",
    plan_latency_note: "往返次数统计与主节点的每一次交互。延迟是客户端实际等待的时间：同时向所有主节点发送的客户端，只需等待最忙的那个主节点所需的交互次数，每次约一个往返时延（RTT），所以并行扇出无论有多少个主节点，大约只花一个 RTT。",
    plan_col_commands: "命令数",
    plan_col_queue: "最忙主节点的队列",
    plan_col_largest: "最大命令（键数）",
    plan_col_atomic: "原子组（最大）",
    plan_unserved: "{0} 个键所在的槽没有主节点提供服务：所有策略对它们都会失败（CLUSTERDOWN）。",
    plan_chunk: "每块",
    plan_chunk_stats: "个键：按给定顺序平均涉及 {0} 个主节点（最多 {1} 个），先按槽排序则为 {2} 个（最多 {3} 个）",
    plan_copy_as: "将按槽划分的计划复制为",
    plan_copy_mget: "每个槽一条 MGET（读）",
    plan_copy_eval: "每个槽一条 EVAL SET … EX（带过期时间的写；MSET 无法设置过期）",
    plan_copy_tagged: "每个主节点一条 EVAL SET … EX，键改写为带各主节点标签的形式（路由缓存的解决办法）",
    hot_title: "热点：一个标签就是一个槽，也就是一个主节点",
    hot_help: "同一哈希标签下的 {0} 个键全部落在一个主节点上；把标签拆成 k 个子标签，键就会分散开，但多键命令只能在各个子标签内使用。下面的计数是精确值，与真实集群存储的结果一致。",
    hot_k: "子标签数 k",
    hot_untagged: "完全不用标签（key:<i>）",
    hot_tags: "标签：{0}",
    hot_busiest: "最忙的主节点持有 {0} 的键（{1}）。",
    hot_unserved: "{0} 个键所在的槽无人提供服务。",
    hot_more_masters: "另有 {0} 个主节点",
    hot_timing: "在此浏览器中重新计算用时 {0} 毫秒。",
    hot_takeaway: "标签换来原子性（跨键的 MULTI、MGET、Lua），代价是无法分散：k 取多键操作所需的最小值即可。",
    tags_title: "每个主节点的标签",
    tags_help: "在模板中依次尝试 %d = 0、1、2、…，直到每个主节点都有 N 个标签：把键写成 {tag}:rest，它就会落在你选定的主节点上，一批键就变成每个主节点一条命令。",
    tags_template: "模板（花括号内的部分）",
    tags_per_master: "每个主节点的标签数",
    tags_pin_slots_note: "标签固定的是槽，而不是主节点：重新分片或故障转移会把标签所在的槽连同其中的键移到另一个主节点；之后新加入的主节点不拥有任何这些标签，除非你为新的集群重新生成。",
    tags_slot: "槽 {0}",
    tags_tried: "尝试了 {0} 个整数，保留 {1} 个标签（落在各主节点上的最小者）。",
    tags_pin_title: "把键固定到某个槽",
    tags_pin_slot: "槽",
    tags_pin_use: "使用最短的标签",
    tags_pin_bad: "槽是 0 到 16383 之间的整数。",
    redir_title: "重定向：逐步观察 MOVED、ASK、ASKING、TRYAGAIN",
    redir_help: "选择一个场景并播放，或逐步查看。应答与 Redis 7 发送的完全一致；右侧客户端的槽表在 MOVED 时更新，而在 ASK 时明显不更新。",
    redir_scenario: "场景",
    redir_wire: "显示 RESP 线路字节",
    link_unknown_scenario: "此链接请求名为“{0}”的场景，但本页没有：改为从头显示“{1}”。",
    link_bad_step: "此链接的步骤“{0}”不是整数：从头显示“{1}”。",
    link_past_end: "此链接请求第 {0} 步，但“{1}”只有 {2} 步：显示最后一步。",
    redir_keys: "播放器：空格键播放或暂停，方向键单步，Home 和 End 跳转，+ 和 − 调整速度",
    redir_start: "回到开头",
    redir_prev: "后退一步",
    redir_play: "播放",
    redir_pause: "暂停",
    redir_next: "前进一步",
    redir_end: "跳到结尾",
    redir_slower: "减速",
    redir_faster: "加速",
    redir_timeline: "时间轴",
    redir_step: "第 {0} 步，共 {1} 步",
    redir_table: "客户端的槽表",
    redir_table_node: "节点",
    redir_table_help: "仅列出本场景涉及的槽。收到 MOVED 时，客户端库会改写该表项或刷新整张映射（见下方的客户端表）；表项一直有效，直到下一次重新分片或故障转移。收到 ASK 时，没有哪个库会改动它。",
    redir_replies: "目前为止的应答，按 redis-cli 的格式打印",
    free_title: "自己试试",
    free_help: "为客户端输入一条命令并按 Enter；它在上方的集群上运行，包括拓扑实验室设置的任何迁移。以 @host:port 开头的行会直接发给该节点，就像运维人员那样（CLUSTER SETSLOT、MIGRATE）。",
    free_client: "客户端",
    free_moved_only: "仅理解 MOVED 的教学客户端（把 ASK 当作 MOVED）（{0}）",
    free_input: "给客户端的命令，或 @host:port 加一条发给单个节点的命令",
    free_send: "发送",
    cluster_label: "集群",
    cluster_fixture: "示例集群（3 个主节点 + 3 个副本）",
    cluster_created: "redis-cli --cluster create，{0} 个主节点",
    cluster_n_label: "主节点数",
    cluster_n_error: "主节点数必须是 1 到 1000 之间的整数（输入的是“{0}”）；显示的集群保持不变。",
    footer: "本页的每个槽、范围和错误文本都在真实的 Redis 7.0.15 集群上核对过。完全在你的浏览器中运行。",
    err_no_master_number: "没有编号为 {0} 的主节点",
    topo_bad_range: "{0}：槽范围 {1}-{2} 不在 0-16383 之内",
    topo_overlap: "槽 {0} 同时被 {1} 和 {2} 声明",
    topo_too_many_masters: "{0} 个主节点超出了本页能绘制的数量（65535）",
    topo_not_empty: "{0} 不为空（{1} 个槽）！请先通过重新分片迁走它的槽，再移除它",
    reshard_duplicate: "编号为 {0} 的主节点被列出了两次",
    reshard_bad_count: "无法迁移 {0} 个槽：数量必须在 1 到 {1} 之间",
    reshard_sources_empty: "源节点不负责任何槽：没有可迁移的内容",
    reshard_bad_weight: "编号为 {1} 的主节点的权重 {0}：权重必须是不小于 0 的数",
    reshard_zero_weight: "各主节点的权重之和为 0：无法计算份额",
    reshard_already_failed: "{0} 已经故障",
    at_line: "第 {0} 行：{1}",
    imp_too_large: "粘贴的内容有 {0} 字节，最多读取 {1}（2 MiB）；请只粘贴一条命令的输出（CLUSTER NODES 最紧凑）",
    imp_empty: "没有可导入的内容：请粘贴 CLUSTER NODES、CLUSTER SHARDS 或 CLUSTER SLOTS 的输出",
    imp_unrecognised: "应为 CLUSTER NODES、CLUSTER SHARDS 或 CLUSTER SLOTS 的输出，实际是“{0}”",
    imp_redis_error: "Redis 返回的是错误，而不是集群布局：{0}",
    imp_expected: "应为{0}，实际是 {1}",
    imp_slot_out_of_range: "槽 {0} 超出范围：槽的编号为 0-16383",
    imp_backward_range: "范围 {0}-{1} 的结束早于开始；应写作 {1}-{0}",
    imp_duplicate_node: "节点 {0} 已在第 {1} 行出现过；请一次只粘贴一条命令的输出",
    imp_inconsistent: "节点 {0}：{1}",
    imp_several_replies: "这里开始了第二条命令；请一次只粘贴一条命令的输出",
    imp_no_masters: "粘贴的内容中没有主节点",
    imp_too_deep: "数组的嵌套深度超过了任何 CLUSTER 应答",
    imp_too_many_slots: "各主节点声明的槽总数超过 {0}，而一个集群只有 16384 个槽：这不是同一个集群的输出",
    imp_overlap_one: "{0} 声明了槽 {1}，但 {2} 已声明该槽；槽位图保留 {2}",
    imp_overlap_many: "{0} 声明了槽 {1}，但 {2} 已声明这些槽；槽位图保留 {2}",
    imp_uncovered_one: "有 {0} 个槽没有主节点提供服务：{1}",
    imp_uncovered_many: "有 {0} 个槽没有主节点提供服务：{1}",
    list_sep: "、",
    imp_more_ranges: "，另有 {0} 个范围",
    imp_orphan: "{0} 是 {1} 的副本，但粘贴内容中没有该主节点；已略去",
    imp_orphan_unknown: "{0} 是未知主节点（-）的副本；已略去",
    tpl_no_placeholder: "“{0}”中没有 %d：请把 %d 放在数字所在的位置",
    tpl_many: "“{0}”中有 {1} 个 %d：只能有一个",
    plan_too_many_keys: "{0} 个键超出了本页一次生成的上限（{1}）",
    plan_sub_tags: "{0} 个子标签：请在 1 到 {1} 之间选择",
    tag_close_brace: "“{0}”的标签内有 }，Redis 会在那里结束标签：请去掉它",
    tag_no_masters: "集群中没有可分配标签的主节点",
    tag_without_slots_one: "{0} 不负责任何槽，标签无法落在它上面：请先通过重新分片给它分配槽",
    tag_without_slots_many: "{0} 不负责任何槽，标签无法落在它们上面：请先通过重新分片给它们分配槽",
    tag_too_many: "每个主节点 {0} 个标签超出了本页的查找上限（{1}）",
    tag_exhausted: "尝试了 {0} 个整数，找到 {2} 个标签中的 {1} 个；{3} 只有 {5} 个中的 {4} 个：请允许更多尝试",
    cmp_err_no_masters: "至少需要一个主节点",
    cmp_err_too_many: "{0} 个主节点超出了此比较的上限（{1}）",
    cmp_err_duplicate: "{0} 出现了两次：每个主节点都需要自己的地址",
    cmp_err_rebalance: "再平衡：{0}",
    batch_no_node: "{0} 不是该集群的节点",
    batch_too_many_lines: "{0} 行超出了本页逐行应答的上限（{1}）；请改为粘贴键来做规划",
    cmp_keys: "{0} 个键",
    cmp_bar_title: "主节点 {0}：{1} 个键",
    plan_only_first: "只规划前 {0} 个键",
    plan_fanout_label: "客户端扇出到 {0} 个主节点",
    plan_count_error: "数量必须在 1 到 {0} 之间（输入的是“{1}”）。",
    tags_not_a_number: "标签数“{0}”不是整数",
    note_bad_slot_count: "槽数必须是 1 到 16384 之间的整数（输入的是“{0}”）。",
    note_bad_threshold: "阈值必须是 0 到 100 之间的百分比（输入的是“{0}”）。",
    weight_not_pair: "“{0}”不是权重：请写作 node=weight，例如 127.0.0.1:7000=2",
    weight_no_master: "权重“{1}”中的主节点 {0} 不存在",
    weight_not_number: "“{0}”不是权重（应为不小于 0 的数）",
    hint_empty_masters: "空主节点只有在使用 --cluster-use-empty-masters 时才参与：勾选“使用空主节点”即可给它们分配槽。",
    change_reshard: "重新分片 {0} 个槽到 {1}",
    change_rebalance: "再平衡",
    change_drain: "迁走 {0} 的所有槽，然后移除它",
    change_promoted: "{0} 故障：其副本 {1} 接管了它的槽，并获得新的最高配置纪元 {2}；{0} 仍以故障主节点的身份列出，不再负责任何槽",
    change_cluster_down: "{0} 故障且没有副本：它仍保有自己的 {1} 个槽，在它恢复之前，每个节点都回复 \"CLUSTERDOWN The cluster is down\"",
    change_no_slots: "{0} 故障；它不负责任何槽，因此没有副本被提升",
    change_failover: "故障转移",
    notice_became_replica: "{0} 失去了最后一个槽，成为接手该槽的 {1} 的副本；它原来的副本也改为复制 {1}（Redis 7 在 \"cluster-allow-replica-migration yes\" 时如此，这是默认设置）",
    change_fixture: "示例集群",
    change_created: "--cluster create，{0} 个主节点",
    change_add_master: "添加主节点 {0}（尚无槽）",
    change_remove_master: "移除主节点 {0}",
    change_move: "将槽 {0} 迁移到 {1}",
    change_imported: "已导入 {0}",
    export_map: "下载槽位图",
    export_seq: "下载时序图",
    export_button: "{0}（{1}）",
    export_more_masters: "另有 {0} 个主节点",
    share: "分享",
    share_copied: "链接已复制",
    share_refused: "浏览器不允许本页复制。请选中下面的链接并手动复制：",
    share_link_label: "指向本页当前状态的链接",
    share_batch_omitted: "这批命令太长，放不进链接；它保存在本浏览器中。",
    share_key_omitted: "这个键太长，放不进链接；它保存在本浏览器中。",
    share_cluster_omitted: "这个集群太大，放不进链接；它保存在本浏览器中。",
    restore_link: "此链接有一部分无法恢复（其余部分均已恢复）：",
    restore_saved: "本浏览器保存的状态有一部分无法恢复（其余部分均已恢复）：",
    restore_not_a_link: "地址中 # 之后的部分不是 slotscope 链接，因此页面按默认方式打开",
    restore_version: "此链接由更新版本的 slotscope 生成（格式 {0}），其中的内容都无法读取",
    restore_too_long: "此链接长 {0} 字节，超过链接的上限，因此没有读取其中任何内容",
    restore_bad_base64: "此链接含有 slotscope 链接中不会出现的字符，因此其中的内容都无法读取",
    restore_truncated: "此链接被截断了：截断处之后的内容已丢失",
    restore_bad_section: "{0}部分已损坏，因此保持页面打开时的样子",
    restore_text_too_long: "{0}部分中有一段文字太长，因此保持页面打开时的样子",
    restore_unknown_section: "链接的第 {0} 部分来自更新的版本，已跳过",
    restore_damaged: "此链接中途损坏：损坏处之后的内容已丢失",
    restore_trailing: "此链接末尾有多余的字符，已忽略",
    section_lang: "语言",
    section_key: "键",
    section_cluster: "集群",
    section_planner: "规划器",
    section_scenario: "重定向场景",
    rules_title: "当客户端与 Redis 不一致时",
    rules_help: "Redis 把这个键放在槽 {0}。有些客户端的规则算出的却是别的槽，并把命令发往那里：",
    rules_cluster_key_slot: "cluster-key-slot 1.1.x（npm）：跳过空的 {}，却在下一个 } 处结束标签",
    rules_last_brace: "取最后一对 {…} 而不是第一对的工具",
    rules_utf16: "按 UTF-16 码元（各取低 8 位）而不是 UTF-8 字节计算哈希",
    rules_empty_random: "把空键当成没有键、随机挑一个节点的工具",
    rules_slot: "槽 {0}",
    rules_any_node: "任意节点",
    rules_moved: "发往 {0}，它回复 {1} —— 每条命令都如此。",
    rules_same_node: "仍然落到 {0}，两个槽都归它：碰巧能执行。",
    rules_any: "只有选中 {0} 时才能执行；其他主节点都回复 {1}。",
    rules_no_route: "没有主节点拥有槽 {0}：客户端无处可发。",
    rules_unserved: "没有主节点负责槽 {0}：无论客户端用哪种规则，都是 CLUSTERDOWN。",
    rules_watch: "看看 MOVED 循环",
    rules_agree: "常见的客户端规则（cluster-key-slot、最后一对花括号、UTF-16、空键）在这个键上都与 Redis 一致。",
    map_ranges_title: "各主节点的槽范围",
    map_ranges_master: "{0}，{1} 个槽：",
    map_ranges_unowned: "无主节点（未覆盖），{0} 个槽：",
    pipeline_summary: "槽 {0}，主节点 {1}",
    pipeline_summary_unowned: "槽 {0}，无主节点",
    pipeline_label: "从键到主节点",
    seq_label: "客户端与集群各节点的时序图",
    plan_commands_label: "此方案的命令",
    lab_commands_label: "执行此变更的 redis-cli 命令",
    crc_register_label: "CRC 寄存器（逐字节）",
    doc_title: "slotscope — 一步步看 Redis Cluster 的槽",
    redir_table_slot: "槽",
    plan_copy_retagged: "# 键已改写为 {tag}key，每个主节点一个 {0} 标签",
    plan_copy_slot: "# 槽 {0}，发往 {1}",
    plan_copy_no_master: "（无主节点）",
    plan_copy_more: "# ……另有 {0} 个槽未列出：这份清单只列出这批键 {2} 个槽中的前 {1} 个。把这批键拆开即可复制其余部分。",
    note_label: "本页未运行：",
    note_unsimulated: "slotscope 不模拟 {0}：它的真实输出含有每次运行都会变化的 id、时间戳和计数器。",
    note_consumer_groups: "slotscope 不模拟流的消费者组，所以不运行 {0}。",
    note_only_strings: "这个节点会处理 {0}，但 slotscope 不模拟这个命令，所以不运行它。",
    plan_keys_line: "{0} …（{1} 个键）",
    action_no_command: "先写 @host:port，再跟一条命令",
    action_empty: "请输入一条命令",
    strategy_names: ["逐键发送", "逐槽发送", "逐主节点流水线", "按主节点打标签"],
    imp_clashes: [
        "它作为主节点负责这个范围，但前面的范围把它列为副本",
        "它在这里被列为副本，但在别处是主节点",
        "它被列为两个不同主节点的副本",
    ],
    node_roles: ["主节点", "副本"],
    // typed replies
    note_script_syntax: "slotscope 不运行这个脚本：第 {0} 行第 {1} 列，{2}。它只运行 `return` 后接 redis.call(…)、由它们组成的 {…} 表、KEYS[n]、ARGV[n]、字符串或整数的脚本。",
    note_script_nil: "slotscope 不运行这个脚本：返回的表的第 {0} 个元素是 nil，而 Lua 表在 nil 处结束。",
    note_script_argument: "slotscope 不运行这个脚本：第 {1} 行 redis.call 的第 {0} 个参数既不是字符串也不是整数。",
    note_no_node: "{0} 上没有节点在监听。",
    note_blocks_forever: "超时为 0 的 {0} 会一直等到另一个客户端推入数据；这里不会有，所以真实客户端会永远阻塞。slotscope 不运行它。",
    note_serialized: "slotscope 不模拟 {0}：它不保存 Redis 对值的序列化（RDB）形式。",
    note_too_large: "{0} 产生的值太大，本页面无法容纳（Redis 会执行它），所以 slotscope 不运行它。",
    note_not_simulated: "slotscope 不模拟 {0}：它作用于服务器本身（连接、持久化、复制、配置、用户、诊断），页面没有模拟这些。",
    note_subscribe: "slotscope 不运行 {0}：执行后连接只会等待消息，而这里永远不会有消息到来。",
    note_topology: "slotscope 不在这里运行 {0}：请在上方的拓扑实验室里改变集群的结构。",
    note_waits_forever: "slotscope 不运行 {0}：在这些参数下，真实节点会一直等待下去。",
    script_problems: [
        "脚本必须以 `return` 开头",
        "返回的表达式之后还有文本",
        "参数之间应为 `,`",
        "redis.call 之后应为 `(`",
        "应为 `]`",
        "应为 redis.call(…)、{…}、KEYS[n]、ARGV[n]、字符串或整数",
        "应为整数",
        "表达式嵌套太深",
        "字符串没有结束",
        "转义序列大于 255",
        "Lua 5.1 不认识的转义",
    ],
    // errors as data
    at_column: "第 {0} 列：{1}",
    at_column_sentence: "第 {0} 列：{1}。",
    esc_hex_at_end: "\\x 后面需要两个十六进制数字，但键在此处结束",
    esc_bad_hex: "\\x 后面需要两个十六进制数字（0-9、a-f），但后面是“{0}”",
    esc_unknown: "\\{0} 不是 redis-cli 认识的转义；反斜杠请写作 \\\\",
    esc_trailing: "键以单独的反斜杠结尾；反斜杠请写作 \\\\",
    esc_unclosed: "这个引号（{0}）没有闭合；请用 {0} 闭合，引号本身请写作 \\{0}",
    esc_after_quote: "右引号之后紧跟着文本；键或参数应在此结束，引号本身请写作 \\\"",
    esc_not_hex: "“{0}”不是十六进制数字（0-9、a-f）",
    esc_unpaired_hex: "这个数字没有配对：每个字节需要两个十六进制数字",
    imp_want_node_id_at_start: "行首的节点 ID（40 位十六进制数字）",
    imp_want_node_fields: "槽之前的 8 个字段（节点 ID、地址、标志、主节点、ping-sent、pong-recv、config-epoch、link-state）",
    imp_want_bus_address: "形如 127.0.0.1:7000@17000 的地址",
    imp_want_flags: "形如 myself,master 或 slave,fail? 的标志",
    imp_want_one_role: "一个角色：master 或 slave",
    imp_want_master_id: "主节点的节点 ID（40 位十六进制数字），主节点本身则为 -",
    imp_want_counter: "第 {1} 个字段中的数字（{0}）",
    imp_want_link_state: "第 8 个字段中的连接状态：connected 或 disconnected",
    imp_want_no_slots_on_replica: "副本的行上没有槽",
    imp_want_open_slot: "形如 [5712->-<节点 ID>] 或 [5712-<-<节点 ID>] 的打开的槽",
    imp_want_slot_or_range: "一个槽，或形如 0-5460 的范围",
    imp_want_quoted_string: "带引号的字符串",
    imp_want_integer: "(integer) 之后的整数",
    imp_want_value: "形如 \"127.0.0.1\"、(integer) 7000 或 (empty array) 的值",
    imp_want_nothing_after: "单行应答之后不应再有内容",
    imp_want_numbered_item: "带编号的项，如 2) (integer) 7000",
    imp_want_aligned_item: "与所在数组的其他项对齐的项",
    imp_want_item: "此处的第 {0}) 项",
    imp_want_shard_list: "分片列表",
    imp_want_shard: "一个分片：它的槽和节点",
    imp_want_shard_field: "分片的 \"{0}\"",
    imp_want_shard_slots: "分片的槽（一个列表）",
    imp_want_shard_nodes: "分片的节点（一个列表）",
    imp_want_shard_node: "一个节点：它的 id、port、ip、role 等字段",
    imp_want_node_field: "节点的 \"{0}\"",
    imp_want_role: "角色 \"master\" 或 \"replica\"",
    imp_want_shard_master: "分片中角色为 \"master\" 的节点",
    imp_want_range_list: "槽范围的列表",
    imp_want_range_entry: "一个槽范围及其节点",
    imp_want_first_slot: "范围的第一个槽",
    imp_want_last_slot: "范围的最后一个槽",
    imp_want_range_master: "负责该范围的主节点",
    imp_want_range_node: "一个节点：它的地址、端口和 ID",
    imp_want_node_address: "节点的地址",
    imp_want_node_port: "节点的端口",
    imp_want_node_id: "节点的 ID",
    imp_want_metadata: "节点的元数据（一个列表）",
    imp_want_host: "一个地址",
    imp_want_ip: "一个 IP 地址",
    imp_want_hostname: "主机名（字母、数字、'-' 和 '.'）",
    imp_want_port: "端口号（0-65535）",
    imp_want_id: "节点 ID（40 位十六进制数字）",
    imp_want_field_name: "字段名",
    imp_want_value_of: "\"{0}\" 之后的值",
    imp_want_raw_shard_start: "\"slots\"（每个分片以它开头）",
    imp_want_raw_shard_nodes: "分片的槽之后的 \"nodes\"",
    imp_want_raw_node_start: "\"id\"（每个节点以它开头）",
    imp_want_raw_last_slot: "下一行上范围的最后一个槽",
    imp_want_raw_port: "地址之后的节点端口",
    imp_want_raw_id: "端口之后的节点 ID",
    imp_found_text: "“{0}”",
    imp_found_fields: "只有 {0} 个：“{1}”",
    imp_found_list: "一个列表",
    imp_found_end_of_list: "列表的结尾",
    imp_found_end_of_paste: "粘贴内容的结尾",
    imp_found_missing: "没有",
    imp_found_only_replicas: "只有副本",
    reshard_cli_target_is_source: "目标节点不能同时作为源节点，redis-cli 拒绝执行：{0}",
    reshard_cli_no_sources: "没有给出源节点，redis-cli 中止了操作：{0}",
    reshard_cli_not_known: "redis-cli 不认识这个节点，或它不是主节点（已故障的主节点不会被加载）：{0}",
    reshard_cli_check: "集群检查发现问题（有打开的槽，或有槽无人负责），redis-cli 要求先修复：{0}",
    reshard_cli_assertion: "redis-cli 的内部断言失败（分片表与槽数不符）：{0}",
    reshard_cli_not_empty: "这个主节点仍负责一些槽，redis-cli 拒绝删除它：{0}",
    reshard_cli_no_such_node: "redis-cli 不认识这个节点 ID（已故障的主节点不会被加载）：{0}",
    // state
    plan_showing_generated: "下方规划的是 {0} 个生成的键；粘贴的内容暂时搁置。",
    plan_show_pasted: "重新规划粘贴的内容",
    // diagrams-tour
    redir_replies_wire: "目前为止的应答，按 RESP 线路字节显示（\\r\\n 以转义形式显示）",
    seq_owner: "负责 {0}",
    seq_migrating: "MIGRATING {0} → {1}",
    seq_importing: "IMPORTING {0} ← {1}",
    seq_no_keys: "这里没有键",
    seq_key_on: "{0} 在 {1} 上",
    redir_operator: "显示运维",
};

#[cfg(test)]
mod tests {
    use super::super::messages::{fill, EN};
    use super::*;

    /// Fields whose English text is code or symbols, so the Chinese text is the same.
    const SAME_IN_BOTH: &[&str] = &[
        "title",
        "stage_crc",
        "stage_slot",
        "crc_cols[0]",
        "lab_import_placeholder",
    ];

    /// The `{n}` holes [`fill`] would replace in `template`, sorted (a multiset).
    fn holes(template: &str) -> Vec<usize> {
        let mut out = Vec::new();
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            let after = &rest[open + 1..];
            if let Some(close) = after.find('}')
                && let Ok(n) = after[..close].parse::<usize>()
            {
                out.push(n);
                rest = &after[close + 1..];
                continue;
            }
            rest = after;
        }
        out.sort_unstable();
        out
    }

    #[test]
    fn holes_finds_numbered_holes_only() {
        assert_eq!(holes("a {1} {} {tag} {{0} {0}"), vec![0, 0, 1]);
        assert_eq!(holes(EN.rule_empty_tag), vec![0]);
        assert_eq!(holes(ZH.rule_empty_tag), vec![0]);
    }

    #[test]
    fn every_field_is_listed_once_in_both_tables() {
        let (en, zh) = (EN.fields(), ZH.fields());
        assert!(en.len() > 190, "only {} texts listed", en.len());
        let en_names: Vec<&String> = en.iter().map(|(n, _)| n).collect();
        let zh_names: Vec<&String> = zh.iter().map(|(n, _)| n).collect();
        assert_eq!(en_names, zh_names);
        let mut unique = en_names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), en_names.len());
        for name in SAME_IN_BOTH {
            assert!(en_names.iter().any(|n| n == name), "{name} is not a field");
        }
    }

    #[test]
    fn chinese_has_the_same_holes_as_english() {
        for ((name, en), (_, zh)) in EN.fields().into_iter().zip(ZH.fields()) {
            assert_eq!(holes(en), holes(zh), "{name}: {en:?} vs {zh:?}");
        }
    }

    #[test]
    fn chinese_translates_every_field_that_is_not_code() {
        for ((name, en), (_, zh)) in EN.fields().into_iter().zip(ZH.fields()) {
            if SAME_IN_BOTH.contains(&name.as_str()) {
                assert_eq!(en, zh, "{name} is listed as code, so it should not change");
            } else {
                assert_ne!(en, zh, "{name} is not translated");
                assert!(!zh.trim().is_empty(), "{name} is empty");
            }
        }
    }

    #[test]
    fn chinese_keeps_code_and_escapes_verbatim() {
        for ((name, en), (_, zh)) in EN.fields().into_iter().zip(ZH.fields()) {
            for code in [
                "\\x",
                "\\\\",
                "\\\"",
                "0x3FFF",
                "0x1021",
                "CLUSTERDOWN",
                "--cluster",
                "CROSSSLOT",
                "@host:port",
                "%d",
                "{tag}:rest",
            ] {
                assert_eq!(
                    en.matches(code).count(),
                    zh.matches(code).count(),
                    "{name}: {code:?} in {zh:?}"
                );
            }
        }
    }

    #[test]
    fn chinese_prose_uses_full_width_punctuation() {
        for (name, zh) in ZH.fields() {
            let prose = zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
            if prose {
                for ascii in [", ", ". ", "; ", ": "] {
                    assert!(!zh.contains(ascii), "{name}: {ascii:?} in {zh:?}");
                }
            }
        }
        assert_eq!(
            fill(ZH.master_rule, &[&1, &"0-5460", &"127.0.0.1:7000"]),
            "槽 1 位于 0-5460，由 127.0.0.1:7000 负责。"
        );
    }
}
