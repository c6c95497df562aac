//! The cluster-bus section's words, in English and 简体中文 (branch `bus-view`): labels, the
//! scenarios' titles and the narration of each event. Addresses, epochs, flags and replies are
//! passed in and never translated. Every core enum is matched arm by arm (no wildcard).

use crate::core::bus::{BusEvent, EventKind, FailoverMode, MsgType, Opinion, Process};
use crate::ui::lang::Lang;
use crate::ui::messages::fill;

/// Every text of the bus section.
pub struct BusWords {
    /// Section title.
    pub title: &'static str,
    /// One paragraph under the title.
    pub help: &'static str,
    /// Label of the scenario select.
    pub scenario: &'static str,
    /// The free-play entry of the select.
    pub free_play: &'static str,
    /// Play / pause / step buttons.
    pub play: &'static str,
    /// Pause.
    pub pause: &'static str,
    /// Previous event (aria).
    pub prev: &'static str,
    /// Next event (aria).
    pub next: &'static str,
    /// Next notable event.
    pub next_notable: &'static str,
    /// To the start (aria).
    pub to_start: &'static str,
    /// Slower / faster (aria).
    pub slower: &'static str,
    /// Faster.
    pub faster: &'static str,
    /// The timeline (aria).
    pub timeline: &'static str,
    /// What the player's keys do (aria).
    pub keys: &'static str,
    /// `{0}` ms since the start, event `{1}` of `{2}`.
    pub clock: &'static str,
    /// Speed: `{0}` simulated seconds per second.
    pub speed: &'static str,
    /// The pace reached when the simulator cannot keep up with the speed: `{0}` (e.g. 14.8).
    pub pace: &'static str,
    /// Knobs' legend.
    pub knobs: &'static str,
    /// `cluster-node-timeout` label.
    pub node_timeout: &'static str,
    /// Masters.
    pub masters: &'static str,
    /// Replicas per master.
    pub replicas: &'static str,
    /// Seed.
    pub seed: &'static str,
    /// `cluster-require-full-coverage`.
    pub full_coverage: &'static str,
    /// `cluster-allow-replica-migration`.
    pub replica_migration: &'static str,
    /// Apply the knobs.
    pub apply: &'static str,
    /// A knob that is not a number.
    pub bad_knob: &'static str,
    /// The settings ask for a busy cluster: `{0}` nodes, node timeout `{1}` ms, a ping to each
    /// peer about every `{2}` ms, about `{3}` PINGs per simulated second in all.
    pub busy_run: &'static str,
    /// The actions' legend: `{0}` is the node.
    pub actions_on: &'static str,
    /// Crash / hang / resume / restart / cut off / reconnect.
    pub crash: &'static str,
    /// Hang.
    pub hang: &'static str,
    /// Resume.
    pub resume: &'static str,
    /// Restart.
    pub restart: &'static str,
    /// Cut off.
    pub isolate: &'static str,
    /// Reconnect.
    pub reconnect: &'static str,
    /// The failover reply's caption.
    pub reply: &'static str,
    /// Click a node (help).
    pub pick_node: &'static str,
    /// Whose view.
    pub observer: &'static str,
    /// Open in the topology lab.
    pub open_lab: &'static str,
    /// Log pane title.
    pub log_title: &'static str,
    /// Every node (filter).
    pub all_nodes: &'static str,
    /// Level filter label.
    pub level: &'static str,
    /// Level choices: all, notice and warnings, warnings.
    pub levels: [&'static str; 3],
    /// No line yet.
    pub no_lines: &'static str,
    /// Matrix title.
    pub matrix_title: &'static str,
    /// Matrix help.
    pub matrix_help: &'static str,
    /// Legend: ok, fail?, fail, unknown.
    pub legend: [&'static str; 4],
    /// Roles: master, replica.
    pub roles: [&'static str; 2],
    /// Processes: running, hung, crashed.
    pub processes: [&'static str; 3],
    /// `{0}` reports.
    pub reports: &'static str,
    /// Election countdown: `{0}` ms, rank `{1}`.
    pub election_in: &'static str,
    /// Votes: epoch `{0}`, `{1}` of `{2}` needed.
    pub votes: &'static str,
    /// Node card: `{0}` epoch.
    pub epoch: &'static str,
    /// Messages are not drawn above `{0}` nodes, and the narration's numbers not told.
    pub no_messages: &'static str,
    /// Above 1×, one ping or pong in `{0}` is drawn.
    pub sampled: &'static str,
    /// Narration before anything happened.
    pub intro: &'static str,
    /// `{0}` starts suspecting `{1}`.
    pub n_pfail: &'static str,
    /// `{0}` holds `{1}` as failed.
    pub n_fail: &'static str,
    /// `{0}` clears `{1}`.
    pub n_ok: &'static str,
    /// Cluster state ok.
    pub n_state_ok: &'static str,
    /// Cluster state fail.
    pub n_state_fail: &'static str,
    /// `{0}` is a master now.
    pub n_master: &'static str,
    /// `{0}` replicates `{1}`.
    pub n_replica: &'static str,
    /// `{0}` was killed.
    pub n_crashed: &'static str,
    /// `{0}` was stopped.
    pub n_hung: &'static str,
    /// `{0}` runs.
    pub n_running: &'static str,
    /// `{0}` schedules an election at `{1}` ms, rank `{2}`.
    pub n_scheduled: &'static str,
    /// `{0}` starts an election for epoch `{1}`.
    pub n_started: &'static str,
    /// `{0}` votes for `{1}` in epoch `{2}`.
    pub n_vote: &'static str,
    /// Partition in `{0}` sides.
    pub n_partition: &'static str,
    /// More events at the same instant.
    pub n_more: &'static str,
    /// `{0}` refuses `{1}` its vote: `{2}` (one of [`BusWords::refused_why`]).
    pub n_refused: &'static str,
    /// Why a master refuses a vote, by `clusterSendFailoverAuthIfNeeded`'s checks in order:
    /// the request's epoch `{0}` is older than the voter's `{1}`; already voted in epoch `{0}`;
    /// the asker is a master; its master is unknown; its master is not failing; a replica of
    /// the same master got its vote less than 2 × NT ago (`{0}` ms left); slot `{0}`'s owner
    /// has config epoch `{1}`, newer than the request's `{2}`.
    pub refused_why: [&'static str; 7],
    /// The clock where single messages are not events (large clusters): `{0}` ms, `{1}` of
    /// `{2}` events.
    pub clock_quiet: &'static str,
    /// A link's bus scenario is unknown: `{0}`.
    pub link_unknown: &'static str,
    /// A link's instant is past the end: shown at the end.
    pub link_past_end: &'static str,
    /// A link's spec bytes could not be read.
    pub link_bad_spec: &'static str,
    /// What a stopped node answers (nothing).
    pub no_answer: &'static str,
    /// A run being built a piece at a time: `{0}` nodes, `{1}` of `{2}` simulated seconds.
    pub building: &'static str,
    /// Drops the run being built.
    pub building_stop: &'static str,
    /// Seeking back on a cluster too big for copies of its recording: {0} the instant (s after
    /// the start), {1} nodes, {2} and {3} simulated seconds done and to do.
    pub replaying: &'static str,
    /// Scenario titles, by slug.
    pub scenarios: [(&'static str, &'static str); 15],
}

/// English.
pub const EN: BusWords = BusWords {
    title: "The cluster bus: heartbeats, failure detection, failover",
    help: "Every node pings the others over the cluster bus, holds its own opinion of each (ok, fail? when it stopped answering for node-timeout, fail once a majority of masters agree) and, when its master fails, a replica waits its turn by rank, asks the masters for votes and takes over. Simulated as Redis 7.0.15's cluster.c does it, each of its log lines as redis-server writes it; replication (the replica's link to its master, its sync) is not simulated, so its own lines, such as \"Connection with master lost.\", are not shown.",
    scenario: "Scenario",
    free_play: "Free play",
    play: "Play",
    pause: "Pause",
    prev: "Previous event",
    next: "Next event",
    next_notable: "Next notable event",
    to_start: "To the start",
    slower: "Slower",
    faster: "Faster",
    timeline: "Timeline (simulated milliseconds)",
    keys: "Cluster bus player: Space plays or pauses, arrows step by event, N jumps to the next notable event, Home and End, + and − change the speed",
    clock: "t = {0} ms · event {1} of {2}",
    speed: "{0}× real time",
    pace: "(reaching {0}×: the simulator cannot keep up)",
    knobs: "Settings (a new run)",
    node_timeout: "cluster-node-timeout (ms)",
    masters: "Masters",
    replicas: "Replicas per master",
    seed: "Seed",
    full_coverage: "cluster-require-full-coverage",
    replica_migration: "cluster-allow-replica-migration",
    apply: "Run again",
    bad_knob: "“{0}” is not a whole number: the run keeps its settings.",
    busy_run: "{0} nodes at a node timeout of {1} ms: each node pings every peer about every {2} ms, some {3} PINGs per simulated second in all, and the page simulates every one. A cluster this busy may play slower than the speed chosen; the player then says how fast it goes.",
    actions_on: "Do something to {0}",
    crash: "Crash (SIGKILL)",
    hang: "Hang (SIGSTOP)",
    resume: "Resume (SIGCONT)",
    restart: "Restart",
    isolate: "Cut off",
    reconnect: "Heal the network",
    reply: "Reply",
    pick_node: "Click a node to see its view and act on it; the future is simulated again from this instant.",
    observer: "Whose view",
    open_lab: "Open in the topology lab",
    log_title: "Cluster bus logs, as redis-server writes them",
    all_nodes: "every node",
    level: "Level",
    levels: ["verbose and up", "notice and warnings", "warnings"],
    no_lines: "No line yet at this instant.",
    matrix_title: "Who thinks what",
    matrix_help: "Row: the observer; column: the node it has an opinion about. ✓ ok, ? fail? (PFAIL), ✕ fail, with the number of failure reports the observer holds.",
    legend: ["ok", "fail? (PFAIL)", "fail", "unknown"],
    roles: ["master", "replica"],
    processes: ["running", "hung", "crashed"],
    reports: "{0} reports",
    election_in: "election in {0} ms (rank #{1})",
    votes: "epoch {0}: {1} of {2} votes",
    epoch: "epoch {0}",
    no_messages: "Messages are drawn up to {0} nodes; above that the matrix shows the spread, and the narration names each event without the numbers behind it (failure reports counted, votes received).",
    sampled: "At this speed one PING or PONG in {0} is drawn; every other message is.",
    intro: "Steady heartbeats: each node pings a few others every second and any node it has not heard from for half the node-timeout. Press play, or click a node to make something happen.",
    n_pfail: "{0} has had no PONG from {1} for node-timeout: it flags it fail? (PFAIL) and tells the others in its gossip.",
    n_fail: "{0} now holds {1} as fail: a majority of the masters reported it, or a FAIL message said so.",
    n_ok: "{0} clears its flag on {1}: it answers again (or FAIL was cleared).",
    n_state_ok: "{0} says cluster_state:ok: it serves queries again.",
    n_state_fail: "{0} says cluster_state:fail: a slot's master is failing (or it is in the minority), so it refuses queries with CLUSTERDOWN.",
    n_master: "{0} is a master now.",
    n_replica: "{0} is a replica of {1} now.",
    n_crashed: "{0} was killed (SIGKILL): connections to it are refused.",
    n_hung: "{0} was stopped (SIGSTOP): it accepts connections but reads nothing.",
    n_running: "{0} runs again.",
    n_scheduled: "{0} sees its master failing: its election starts in {1} ms (500 ms + a random 0–500 ms + 1000 ms × rank #{2}).",
    n_started: "{0} starts a failover election for epoch {1} and asks every master for its vote.",
    n_vote: "{0} grants its vote to {1} for epoch {2}.",
    n_partition: "The network is split into {0} sides.",
    n_more: " (+{0} more at this instant)",
    n_refused: "{0} refuses {1} its vote: {2}.",
    refused_why: [
        "the request is for epoch {0}, older than its current epoch {1}",
        "it already voted in epoch {0}, and a master votes once per epoch",
        "the asker is a master",
        "it does not know the asker's master",
        "it does not hold the asker's master as failed (FAIL)",
        "it voted for a replica of the same master less than 2 × cluster-node-timeout ago ({0} ms to go)",
        "slot {0} belongs to a node with config epoch {1}, newer than the request's {2}",
    ],
    clock_quiet: "t = {0} ms · event {1} of {2} (at this size single messages are not events)",
    link_unknown: "The link asks for a bus scenario “{0}” this page does not have: free play is shown.",
    link_past_end: "The link's instant is past the end of the run: the end is shown.",
    link_bad_spec: "The link's bus run is damaged (its settings or actions could not be read): the opening scenario is shown.",
    no_answer: "(no answer: the process is stopped with SIGSTOP; redis-cli waits)",
    building: "Simulating {0} nodes: {1} of {2} simulated seconds (the warm-up, then the run). The run shown stays until this one is ready.",
    building_stop: "Stop",
    replaying: "Going back to {0} s: a cluster of {1} nodes keeps no copies of its past, so it is simulated again from its creation, {2} of {3} simulated seconds. The instant shown stays until then.",
    scenarios: [
        ("steady", "Steady heartbeats"),
        ("master-crash", "A master crashes"),
        ("master-hang", "A master hangs and comes back (demoted)"),
        ("two-replicas", "Two replicas with different offsets"),
        ("majority-loss", "Two masters of three die: no failover"),
        ("manual-failover", "CLUSTER FAILOVER"),
        ("manual-force", "CLUSTER FAILOVER FORCE"),
        ("manual-takeover", "CLUSTER FAILOVER TAKEOVER"),
        ("manual-refused", "CLUSTER FAILOVER refused"),
        ("replica-migration", "Replica migration"),
        ("two-masters-die", "Two masters of five die at once"),
        ("partition", "A minority partition"),
        ("meet", "A new node MEETs one member"),
        ("no-replica", "A master without a replica dies"),
        ("nofailover", "A replica with nofailover"),
    ],
};

/// 简体中文.
pub const ZH: BusWords = BusWords {
    title: "集群总线：心跳、故障检测与故障转移",
    help: "每个节点通过集群总线 PING 其他节点，并各自维护对每个节点的看法（ok；超过 node-timeout 没有回应时为 fail?；多数主节点同意后为 fail）。主节点失效时，副本按排名等待、向主节点请求投票并接管。按 Redis 7.0.15 的 cluster.c 模拟，它的每行日志都与 redis-server 写出的一致；复制（副本与主节点的连接、同步）不在模拟之内，所以复制模块自己的日志行不会显示。",
    scenario: "场景",
    free_play: "自由操作",
    play: "播放",
    pause: "暂停",
    prev: "上一个事件",
    next: "下一个事件",
    next_notable: "下一个重要事件",
    to_start: "回到开头",
    slower: "减速",
    faster: "加速",
    timeline: "时间线（模拟毫秒）",
    keys: "集群总线播放器：空格播放或暂停，方向键逐个事件前后移动，N 跳到下一个重要事件，Home 与 End，+ 与 − 调整速度",
    clock: "t = {0} 毫秒 · 第 {1} / {2} 个事件",
    speed: "{0}× 实时",
    pace: "（实际约 {0}×：模拟器跟不上）",
    knobs: "设置（重新运行）",
    node_timeout: "cluster-node-timeout（毫秒）",
    masters: "主节点数",
    replicas: "每个主节点的副本数",
    seed: "随机种子",
    full_coverage: "cluster-require-full-coverage",
    replica_migration: "cluster-allow-replica-migration",
    apply: "重新运行",
    bad_knob: "“{0}” 不是整数：本次运行保持原设置。",
    busy_run: "{0} 个节点、节点超时 {1} 毫秒：每个节点约每 {2} 毫秒向每个对端发一次 PING，全集群每模拟秒约 {3} 个 PING，页面逐个模拟。这样繁忙的集群可能比所选速度播放得慢，届时播放器会显示实际达到的速度。",
    actions_on: "对 {0} 操作",
    crash: "崩溃（SIGKILL）",
    hang: "挂起（SIGSTOP）",
    resume: "恢复（SIGCONT）",
    restart: "重启",
    isolate: "断开网络",
    reconnect: "修复网络分区",
    reply: "回复",
    pick_node: "点击一个节点查看它的视角并对它操作；从此刻起重新模拟未来。",
    observer: "谁的视角",
    open_lab: "在拓扑实验室中打开",
    log_title: "集群总线日志（与 redis-server 写出的一致）",
    all_nodes: "所有节点",
    level: "级别",
    levels: ["verbose 及以上", "notice 与 warning", "仅 warning"],
    no_lines: "此刻还没有日志。",
    matrix_title: "谁认为谁怎样",
    matrix_help: "行：观察者；列：被观察的节点。✓ 正常（ok），? fail?（PFAIL），✕ 已故障（FAIL），数字为观察者持有的故障报告数。",
    legend: ["正常", "fail?（PFAIL）", "已故障（FAIL）", "未知"],
    roles: ["主节点", "副本"],
    processes: ["运行中", "已挂起", "已崩溃"],
    reports: "{0} 份报告",
    election_in: "{0} 毫秒后选举（排名 #{1}）",
    votes: "纪元 {0}：{1} / {2} 票",
    epoch: "纪元 {0}",
    no_messages: "节点不超过 {0} 个时绘制消息；更多节点时由矩阵显示传播，叙述只说出每个事件，不给出其背后的数字（计入的故障报告、收到的投票）。",
    sampled: "在此速度下每 {0} 条 PING 或 PONG 只绘制一条；其他消息全部绘制。",
    intro: "稳定的心跳：每个节点每秒 PING 几个其他节点，并 PING 超过半个 node-timeout 没有消息的节点。点击播放，或点击一个节点制造事件。",
    n_pfail: "{0} 超过 node-timeout 没有收到 {1} 的 PONG：把它标记为 fail?（PFAIL），并在 gossip 中告诉其他节点。",
    n_fail: "{0} 现在认为 {1} 已 fail：多数主节点报告了它，或收到了 FAIL 消息。",
    n_ok: "{0} 清除了对 {1} 的标记：它又有回应了（或 FAIL 被清除）。",
    n_state_ok: "{0} 的 cluster_state:ok：重新处理查询。",
    n_state_fail: "{0} 的 cluster_state:fail：某个槽的主节点失效（或它处于少数派），以 CLUSTERDOWN 拒绝查询。",
    n_master: "{0} 现在是主节点。",
    n_replica: "{0} 现在是 {1} 的副本。",
    n_crashed: "{0} 被杀死（SIGKILL）：连接被拒绝。",
    n_hung: "{0} 被暂停（SIGSTOP）：接受连接但不读取任何数据。",
    n_running: "{0} 重新运行。",
    n_scheduled: "{0} 发现它的主节点失效：{1} 毫秒后开始选举（500 毫秒 + 随机 0–500 毫秒 + 1000 毫秒 × 排名 #{2}）。",
    n_started: "{0} 为纪元 {1} 发起故障转移选举，向每个主节点请求投票。",
    n_vote: "{0} 在纪元 {2} 把票投给 {1}。",
    n_partition: "网络被分成 {0} 个部分。",
    n_more: "（此刻另有 {0} 个事件）",
    n_refused: "{0} 拒绝投票给 {1}：{2}。",
    refused_why: [
        "请求的纪元 {0} 早于它当前的纪元 {1}",
        "它已在纪元 {0} 投过票，主节点每个纪元只投一票",
        "请求者是主节点",
        "它不知道请求者的主节点",
        "它并不认为请求者的主节点已失效（FAIL）",
        "不到 2 × cluster-node-timeout 之前它已投票给同一主节点的一个副本（还需 {0} 毫秒）",
        "槽 {0} 属于配置纪元为 {1} 的节点，比请求中的 {2} 新",
    ],
    clock_quiet: "t = {0} 毫秒 · 第 {1} / {2} 个事件（此规模下单条消息不计为事件）",
    link_unknown: "链接要求的总线场景 “{0}” 不存在：显示自由操作。",
    link_past_end: "链接的时刻超出了运行的结尾：显示结尾。",
    link_bad_spec: "链接中的总线运行已损坏（无法读取其设置或操作）：显示默认场景。",
    no_answer: "（没有回复：进程被 SIGSTOP 暂停，redis-cli 一直等待）",
    building: "正在模拟 {0} 个节点：已模拟 {1} / {2} 秒（先预热，然后是这次运行）。新的运行准备好之前，仍显示当前的运行。",
    building_stop: "停止",
    replaying: "正在回到 {0} 秒：{1} 个节点的集群不保存过去的副本，因此从创建起重新模拟，已模拟 {2} / {3} 秒。在此之前仍显示当前时刻。",
    scenarios: [
        ("steady", "稳定的心跳"),
        ("master-crash", "主节点崩溃"),
        ("master-hang", "主节点挂起后恢复（被降级）"),
        ("two-replicas", "两个偏移量不同的副本"),
        ("majority-loss", "三个主节点中两个失效：无法故障转移"),
        ("manual-failover", "CLUSTER FAILOVER"),
        ("manual-force", "CLUSTER FAILOVER FORCE"),
        ("manual-takeover", "CLUSTER FAILOVER TAKEOVER"),
        ("manual-refused", "CLUSTER FAILOVER 被拒绝"),
        ("replica-migration", "副本迁移"),
        ("two-masters-die", "五个主节点中两个同时失效"),
        ("partition", "少数派网络分区"),
        ("meet", "新节点 MEET 一个成员"),
        ("no-replica", "没有副本的主节点失效"),
        ("nofailover", "设置了 nofailover 的副本"),
    ],
};

/// The words for `lang`.
pub fn bus_words(lang: Lang) -> &'static BusWords {
    match lang {
        Lang::En => &EN,
        Lang::Zh => &ZH,
    }
}

/// The words for the language in context.
#[yew::hook]
pub fn use_bus_words() -> &'static BusWords {
    bus_words(yew::use_context::<Lang>().unwrap_or_default())
}

/// A message type's label (Redis's own names, as `CLUSTER INFO` counts them) and the hook value.
pub fn msg_label(m: MsgType) -> &'static str {
    match m {
        MsgType::Ping => "ping",
        MsgType::Pong => "pong",
        MsgType::Meet => "meet",
        MsgType::Fail => "fail",
        MsgType::FailoverAuthRequest => "auth-req",
        MsgType::FailoverAuthAck => "auth-ack",
        MsgType::Update => "update",
        MsgType::MfStart => "mfstart",
    }
}

/// `CLUSTER FAILOVER`'s words for a mode.
pub fn failover_command(m: FailoverMode) -> &'static str {
    match m {
        FailoverMode::Default => "CLUSTER FAILOVER",
        FailoverMode::Force => "CLUSTER FAILOVER FORCE",
        FailoverMode::Takeover => "CLUSTER FAILOVER TAKEOVER",
    }
}

/// The word for a process state.
pub fn process_word(w: &BusWords, p: Process) -> &'static str {
    match p {
        Process::Running => w.processes[0],
        Process::Hung => w.processes[1],
        Process::Crashed => w.processes[2],
    }
}

/// A vote refusal in a sentence: `voter` refused `candidate` and logged `text`, Redis's
/// `Failover auth denied to <name>: <why>` (cluster.c, `clusterSendFailoverAuthIfNeeded`).
/// A reason this page does not know is quoted as Redis wrote it.
pub fn narrate_refusal(w: &BusWords, voter: &str, candidate: &str, text: &str) -> String {
    let raw = text.split_once(": ").map_or(text, |(_, why)| why);
    let nums = |s: &str| -> Vec<String> {
        s.split(|c: char| !c.is_ascii_digit())
            .filter(|x| !x.is_empty())
            .map(str::to_string)
            .collect()
    };
    let n = nums(raw);
    let args: Vec<&dyn core::fmt::Display> =
        n.iter().map(|x| x as &dyn core::fmt::Display).collect();
    let why = |i: usize, k: usize| (args.len() == k).then(|| fill(w.refused_why[i], &args));
    let why = if raw.starts_with("reqEpoch (") {
        why(0, 2)
    } else if raw.starts_with("already voted for epoch ") {
        why(1, 1)
    } else if raw == "it is a master node" {
        why(2, 0)
    } else if raw == "I don't know its master" {
        why(3, 0)
    } else if raw == "its master is up" {
        why(4, 0)
    } else if raw.starts_with("can't vote about this master before ") {
        why(5, 1)
    } else if raw.starts_with("slot ") {
        why(6, 3)
    } else {
        None
    };
    let why = why.unwrap_or_else(|| format!("“{raw}”"));
    fill(w.n_refused, &[&voter, &candidate, &why])
}

/// One event in a sentence; `name` gives a node's address.
pub fn narrate(w: &BusWords, ev: &BusEvent, name: &dyn Fn(u32) -> String) -> String {
    match &ev.kind {
        EventKind::Sent { msg, from, to, .. } | EventKind::Delivered { msg, from, to } => {
            format!("{} → {}: {}", name(*from), name(*to), msg_label(*msg))
        }
        EventKind::LinkFreed { observer, subject } => {
            format!("{} × {}", name(*observer), name(*subject))
        }
        EventKind::Opinion {
            observer,
            subject,
            opinion,
        } => {
            let tpl = match opinion {
                Opinion::Ok => w.n_ok,
                Opinion::Pfail => w.n_pfail,
                Opinion::Fail => w.n_fail,
            };
            fill(tpl, &[&name(*observer), &name(*subject)])
        }
        EventKind::State { node, ok } => fill(
            if *ok { w.n_state_ok } else { w.n_state_fail },
            &[&name(*node)],
        ),
        EventKind::Role { node, master } => match master {
            None => fill(w.n_master, &[&name(*node)]),
            Some(m) => fill(w.n_replica, &[&name(*node), &name(*m)]),
        },
        EventKind::Process { node, process } => fill(
            match process {
                Process::Running => w.n_running,
                Process::Hung => w.n_hung,
                Process::Crashed => w.n_crashed,
            },
            &[&name(*node)],
        ),
        EventKind::ElectionScheduled { node, at, rank } => fill(
            w.n_scheduled,
            &[&name(*node), &at.saturating_sub(ev.t), rank],
        ),
        EventKind::ElectionStarted { node, epoch } => fill(w.n_started, &[&name(*node), epoch]),
        EventKind::Vote {
            voter,
            candidate,
            epoch,
        } => fill(w.n_vote, &[&name(*voter), &name(*candidate), epoch]),
        EventKind::Partition { sides } => {
            let mut s = sides.clone();
            s.sort_unstable();
            s.dedup();
            fill(w.n_partition, &[&s.len()])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each of `clusterSendFailoverAuthIfNeeded`'s warnings (Redis 7.0.15 cluster.c, its
    /// `serverLog` formats filled in) is worded with its numbers in both languages; a line
    /// this page does not know is quoted as written.
    #[test]
    fn every_vote_refusal_redis_logs_is_worded() {
        let id = "e7d1eecce10fd6bb5eb35b9f99a514335d9ba9ca";
        let cases = [
            ("reqEpoch (7) < curEpoch(9)", vec!["7", "9"]),
            ("already voted for epoch 11", vec!["11"]),
            ("it is a master node", vec![]),
            ("I don't know its master", vec![]),
            ("its master is up", vec![]),
            (
                "can't vote about this master before 3512 milliseconds",
                vec!["3512"],
            ),
            (
                "slot 5461 epoch (12) > reqEpoch (11)",
                vec!["5461", "12", "11"],
            ),
        ];
        for w in [&EN, &ZH] {
            let mut seen = std::collections::HashSet::new();
            for (why, numbers) in &cases {
                let text = format!("Failover auth denied to {id}: {why}");
                let said = narrate_refusal(w, "A", "B", &text);
                assert!(!said.contains('“') && !said.contains('{'), "{said}");
                assert!(!said.contains(why), "{said}");
                for n in numbers {
                    assert!(said.contains(n), "{said} lacks {n}");
                }
                assert!(seen.insert(said), "two reasons worded alike");
            }
            let odd = narrate_refusal(
                w,
                "A",
                "B",
                &format!("Failover auth denied to {id}: new reason 5"),
            );
            assert!(odd.contains("“new reason 5”"), "{odd}");
        }
    }

    #[test]
    fn both_tables_have_every_scenario_in_the_same_order() {
        let en: Vec<_> = EN.scenarios.iter().map(|s| s.0).collect();
        let zh: Vec<_> = ZH.scenarios.iter().map(|s| s.0).collect();
        assert_eq!(en, zh);
        assert!(ZH.scenarios.iter().all(|s| !s.1.is_empty()));
    }
}
