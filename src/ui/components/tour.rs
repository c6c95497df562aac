//! The guided tour: six narrated stops through the four views, in the order a learner needs them.
//!
//! Each stop does what it talks about ([`Drive`]: puts a key in the field, adds a master and
//! reshards slots to it, plays the live migration) and points at the result; Back undoes what
//! the stop did (when the reader has not changed it since), and "Take it from here" or Escape
//! leaves the page as it is, free to explore; the masthead's button resumes at the same stop.
//! The panel is placed above or below the part of the page it points at, never over it (on a
//! phone, a bottom sheet short enough to leave it in view). Each stop quotes the recorded Redis
//! output it relies on ([`Fact`]), and `tests/tour.rs` checks every quote against
//! `../shared/fixtures`.

use crate::core::SlotMap;
use crate::ui::components::bus::numbers::{use_tour_traffic, TourTraffic, TOUR_MAX_NODES};
use crate::ui::key_store::KeyStore;
use crate::ui::lang::Lang;
use crate::ui::messages::{count, fill};
use crate::ui::player::{Player, PlayerAction, ScenarioIndex};
use crate::ui::state::ClusterAction;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;
use yew::prelude::*;

/// A line (or lines) of recorded Redis output a stop relies on, and the fixture it comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fact {
    /// Path under `shared/fixtures/`.
    pub file: &'static str,
    /// Exactly as it appears in that file (tabs and newlines included).
    pub quote: &'static str,
}

/// What a stop does on the page when the reader reaches it (Back undoes it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drive {
    /// Nothing: it points at what is there.
    Nothing,
    /// Adds an empty master (`--cluster add-node`), then reshards this many slots to it from
    /// all the others (`--cluster reshard --cluster-from all --cluster-slots N`).
    AddAndReshard(u32),
    /// Opens the scenario with this id in the player and plays it.
    Play(&'static str),
    /// Sets the hot-spot experiment's sub-tag count to this, through its own field.
    SubTags(u32),
}

/// One stop of the tour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stop {
    /// Stable name (also the `data-stop` hook).
    pub id: &'static str,
    /// CSS selector of the part of the page the stop talks about (the result of its action).
    pub target: &'static str,
    /// A key to put in the key field when the stop opens, if any.
    pub key: Option<&'static str>,
    /// What else it does on the page.
    pub drive: Drive,
    /// The recorded facts it relies on.
    pub facts: &'static [Fact],
}

/// The stops, in order: why 16384, key → slot, hash tags, hot spots, resharding, MOVED vs ASK.
pub const STOPS: [Stop; 6] = [
    Stop {
        id: "why-16384",
        target: ".slot-map",
        key: None,
        drive: Drive::Nothing,
        facts: &[Fact {
            file: "transcripts/00_cluster_create.txt",
            quote: "[OK] All 16384 slots covered.",
        }],
    },
    Stop {
        id: "key-to-slot",
        target: ".stage:has([data-testid=slot])",
        key: Some("foo"),
        drive: Drive::Nothing,
        facts: &[
            Fact {
                file: "transcripts/02_moved.txt",
                quote: "$ redis-cli -p 7000 CLUSTER KEYSLOT foo\n(integer) 12182",
            },
            Fact {
                file: "transcripts/02_moved.txt",
                quote: "$ redis-cli -p 7002 GET foo\n\"bar\"",
            },
        ],
    },
    Stop {
        id: "hash-tags",
        target: ".stage:has([data-testid=hashed-part])",
        key: Some("a{b}c"),
        drive: Drive::Nothing,
        facts: &[
            Fact {
                file: "transcripts/01_keyslot_edge_cases.txt",
                quote: "CLUSTER KEYSLOT a{b}c\n(integer) 3300",
            },
            Fact {
                file: "transcripts/01_keyslot_edge_cases.txt",
                quote: "CLUSTER KEYSLOT b\n(integer) 3300",
            },
            Fact {
                file: "transcripts/01_keyslot_edge_cases.txt",
                quote: "CLUSTER KEYSLOT {}a\n(integer) 10875",
            },
            Fact {
                file: "transcripts/01_keyslot_edge_cases.txt",
                quote: "CLUSTER KEYSLOT {a}{b}\n(integer) 15495",
            },
            Fact {
                file: "transcripts/01_keyslot_edge_cases.txt",
                quote: "CLUSTER KEYSLOT x{}{y}\n(integer) 14166",
            },
        ],
    },
    Stop {
        id: "hot-spots",
        target: ".hotspot__live",
        key: None,
        drive: Drive::SubTags(64),
        facts: &[
            Fact {
                file: "distribution.tsv",
                quote: "tag_user1_100k\tmaster\t127.0.0.1:7001\t5461-10922\t127.0.0.1:7001\t100000",
            },
            Fact {
                file: "distribution.tsv",
                quote: "tags64_user1_100k\tmaster\t127.0.0.1:7000\t0-5460\t127.0.0.1:7000\t28124",
            },
            Fact {
                file: "distribution.tsv",
                quote:
                    "tags64_user1_100k\tmaster\t127.0.0.1:7001\t5461-10922\t127.0.0.1:7001\t35937",
            },
            Fact {
                file: "distribution.tsv",
                quote:
                    "tags64_user1_100k\tmaster\t127.0.0.1:7002\t10923-16383\t127.0.0.1:7002\t35939",
            },
        ],
    },
    Stop {
        id: "resharding",
        target: ".slot-map",
        key: None,
        drive: Drive::AddAndReshard(1000),
        facts: &[
            Fact {
                file: "transcripts/12_after_add_node_before_reshard_cluster_check.txt",
                quote: "127.0.0.1:7006 (2d5df5ae...) -> 0 keys | 0 slots | 0 slaves.",
            },
            Fact {
                file: "transcripts/13_reshard_1000_slots.txt",
                quote: "--cluster-slots 1000",
            },
        ],
    },
    Stop {
        id: "moved-vs-ask",
        target: ".redir__diagram",
        key: None,
        drive: Drive::Play("live-migration"),
        facts: &[
            Fact {
                file: "transcripts/02_moved.txt",
                quote: "(error) MOVED 12182 127.0.0.1:7002",
            },
            Fact {
                file: "transcripts/07_slot_migration_ask_tryagain.txt",
                quote: "(error) ASK 5712 127.0.0.1:7002",
            },
        ],
    },
];

/// The tour's text in one language.
pub struct TourText {
    /// The masthead button that starts the tour.
    pub start: &'static str,
    /// The same button once the tour was left part-way: `{0}` = stop number.
    pub resume: &'static str,
    /// Accessible name of the panel.
    pub panel: &'static str,
    /// `{0}` = this stop, `{1}` = number of stops.
    pub progress: &'static str,
    /// Back button.
    pub back: &'static str,
    /// Next button.
    pub next: &'static str,
    /// Next button on the last stop.
    pub finish: &'static str,
    /// Close button's label.
    pub close: &'static str,
    /// Under the buttons.
    pub hint: &'static str,
    /// Heading of a stop's facts: `{0}` = how many.
    pub facts: &'static str,
    /// Title and body of each stop, in [`STOPS`] order. Bodies may hold holes filled per stop.
    pub stops: [(&'static str, &'static str); 6],
    // tour: node timeout
    /// After `cluster-node-timeout` in the first stop's field label: its unit.
    pub node_timeout: &'static str,
    /// Under that field: Redis's default and the value of the recorded failover clusters.
    pub node_timeout_hint: &'static str,
    // diagrams-tour
    /// The button that leaves the tour with the page as the stop left it.
    pub take_over: &'static str,
}

/// English.
pub const EN: TourText = TourText {
    start: "Guided tour",
    resume: "Resume tour (stop {0})",
    panel: "Guided tour",
    progress: "Stop {0} of {1}",
    back: "Back",
    next: "Next",
    finish: "Finish",
    close: "Leave the tour",
    hint: "Escape leaves the tour and keeps the page as it is; the tour button brings you back here.",
    facts: "Recorded on Redis 7.0.15 ({0})",
    stops: [
        (
            "Why 16384 slots?",
            "Every heartbeat between nodes (PING and PONG on the cluster bus) carries its sender's slots as a bitmap: 16384 slots take {0} bytes, 65536 would take {1}. Your cluster has {2} nodes. With cluster-node-timeout at {6} ms, each node must ping every other at least every {7} s, and each ping is answered: at least {3} heartbeats a second, so the bitmaps alone cost {4} a second, and {5} with 65536 slots. Redis Cluster is designed for up to about 1000 masters, so 16384 slots still give each one 16.",
        ),
        (
            "A key becomes a slot",
            "The key field now holds foo. Redis hashes the key's bytes with CRC16 and keeps the low 14 bits: slot 12182, which 127.0.0.1:7002 serves in the recorded cluster. Each card says which rule produced its number; open the CRC card to watch the register byte by byte.",
        ),
        (
            "Hash tags and their edge cases",
            "Only the bytes between the first { and the first } after it are hashed, so a{b}c, {b} and b share slot 3300. The edges: {}a has an empty tag, so the whole key is hashed; in {a}{b} only the first tag counts; x{}{y} hashes the whole key. Type them in the key field and watch the rule change.",
        ),
        (
            "Hot spots",
            "A tag pins every key that carries it to one slot, so to one master: the 100,000 keys {user1}:item:<i> all landed on 127.0.0.1:7001. The tour has just split the tag into 64 sub-tags, {user1:<i mod 64>}: in the recorded cluster they spread 28,124 / 35,937 / 35,939 over the three masters, and the experiment here recomputes it for your cluster. Multi-key commands then work only within a sub-tag. Back puts the field as it was.",
        ),
        (
            "Resharding, and the empty new node",
            "redis-cli --cluster add-node joins a master that owns no slots: it serves nothing until you reshard or rebalance. The tour has just done both: it added an empty master and resharded 1000 slots to it from all the others (--cluster-slots 1000). The map shows the ranges each source gave up, the count, and the keys that went with them; the lab lists every move as the redis-cli command you would run. Back undoes both; the lab's Undo does too.",
        ),
        (
            "MOVED or ASK",
            "MOVED means the slot lives elsewhere until the next reshard or failover: a client library rewrites that entry or refreshes its whole slot map, then retries (the table of clients says which). ASK means the slot is being migrated and the source does not hold the command's keys: moved already, or never written, as a new key is. The client sends ASKING and then the command to the target, for that one command, and keeps its table. The player is now playing the live migration of slot 5712: 7001's lifeline turns MIGRATING, 7002's IMPORTING, {user:1001}:profile moves at the MIGRATE step while :orders stays, and that is why one GET gets ASK and the next a plain reply.",
        ),
    ],
    node_timeout: "(ms)",
    node_timeout_hint: "Redis's default is 15000 ms; the recorded failover clusters use 2000 ms. From 100 ms to 3600000 ms (an hour).",
    // diagrams-tour
    take_over: "Take it from here",
};

/// Simplified Chinese.
pub const ZH: TourText = TourText {
    start: "导览",
    resume: "继续导览（第 {0} 站）",
    panel: "导览",
    progress: "第 {0} 站，共 {1} 站",
    back: "上一站",
    next: "下一站",
    finish: "完成",
    close: "离开导览",
    hint: "按 Escape 离开导览，页面保持原样；点导览按钮可回到这里。",
    facts: "在 Redis 7.0.15 上记录（{0} 条）",
    stops: [
        (
            "为什么是 16384 个槽？",
            "节点之间的每次心跳（集群总线上的 PING 和 PONG）都以位图携带发送方负责的槽：16384 个槽占 {0} 字节，65536 个则要 {1} 字节。你的集群有 {2} 个节点。cluster-node-timeout 为 {6} 毫秒时，每个节点至少每 {7} 秒要 ping 一次其他每个节点，每次 ping 都有回复：每秒至少 {3} 次心跳，仅位图每秒就要 {4}，若是 65536 个槽则要 {5}。Redis Cluster 的设计规模约为 1000 个主节点，16384 个槽仍能让每个主节点分到 16 个。",
        ),
        (
            "键如何变成槽",
            "键输入框里现在是 foo。Redis 对键的字节做 CRC16，保留低 14 位：得到槽 12182，在记录的集群中由 127.0.0.1:7002 负责。每张卡片都说明了它的数字由哪条规则得出；展开 CRC 卡片可以逐字节查看寄存器。",
        ),
        (
            "哈希标签及其边界情况",
            "只有第一个 { 与其后第一个 } 之间的字节参与哈希，所以 a{b}c、{b} 和 b 同在槽 3300。边界情况：{}a 的标签为空，于是整个键参与哈希；{a}{b} 只有第一个标签有效；x{}{y} 整个键参与哈希。在键输入框里试试，看规则如何变化。",
        ),
        (
            "热点",
            "带同一个标签的键都落在同一个槽，也就是同一个主节点：10 万个 {user1}:item:<i> 全部落在 127.0.0.1:7001 上。导览刚把标签拆成 64 个子标签 {user1:<i mod 64>}：在记录的集群中，键按 28,124 / 35,937 / 35,939 分散到三个主节点上，这里的实验会按你的集群重新计算。之后多键命令只能在同一子标签内使用。“上一站”会把输入框恢复原样。",
        ),
        (
            "重新分片与空的新节点",
            "redis-cli --cluster add-node 加入的主节点不负责任何槽：在重新分片或再平衡之前，它什么也不服务。导览刚刚替你做了这两步：添加了一个空主节点，并从其他所有主节点重新分片 1000 个槽给它（--cluster-slots 1000）。槽位图显示每个源节点让出的范围、数量以及随槽迁移的键；实验区把每一步列为你要运行的 redis-cli 命令。“上一站”会撤销这两步，实验区的撤销也可以。",
        ),
        (
            "MOVED 还是 ASK",
            "MOVED 表示槽已迁到别处，直到下一次重新分片或故障转移：客户端库会改写该表项或刷新整张槽位映射，然后重试（客户端表说明了各库的做法）。ASK 表示槽正在迁移，而源节点没有这条命令的键：可能已经迁走，也可能从未写入（比如一个新键）。客户端先向目标发送 ASKING，再发送命令，只对这一条命令有效，且不更新槽表。播放器正在播放槽 5712 的在线迁移：7001 的生命线变为 MIGRATING，7002 的变为 IMPORTING；在 MIGRATE 这一步 {user:1001}:profile 迁走而 :orders 留下，这正是一条 GET 得到 ASK、下一条却正常应答的原因。",
        ),
    ],
    node_timeout: "（毫秒）",
    node_timeout_hint: "Redis 的默认值是 15000 毫秒；记录故障转移的集群用的是 2000 毫秒。可取 100 到 3600000 毫秒（一小时）。",
    // diagrams-tour
    take_over: "我自己来",
};

impl Lang {
    /// The tour's text in this language.
    pub fn tour(self) -> &'static TourText {
        match self {
            Lang::En => &EN,
            Lang::Zh => &ZH,
        }
    }
}

/// What the first stop computes from the cluster shown: heartbeat traffic of the slot bitmaps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Heartbeats {
    /// Nodes (masters and replicas).
    pub nodes: usize,
    /// Heartbeat messages a second, at least.
    pub per_second: f64,
    /// Bytes a second of 16384-slot bitmaps.
    pub bitmap_bytes: f64,
    /// Bytes a second if there were 65536 slots.
    pub bitmap_bytes_64k: f64,
}

/// Bytes of a heartbeat's slot bitmap with 16384 slots.
pub const BITMAP_BYTES: usize = 16384 / 8;
/// …and with 65536.
pub const BITMAP_BYTES_64K: usize = 65536 / 8;

/// Every node pings every other at least every `node_timeout / 2` (Redis's `clusterCron`),
/// and every ping gets a pong, so `2 · n · (n − 1) / (timeout / 2)` messages a second, each
/// with the sender's slot bitmap. `clusterCron` runs every 100 ms, so a timeout under 200 ms
/// pings no more often than once a tick.
pub fn heartbeats(nodes: usize, node_timeout_ms: u32) -> Heartbeats {
    let n = nodes as f64;
    let interval_s = ping_interval_ms(node_timeout_ms) / 1000.0;
    let per_second = 2.0 * n * (n - 1.0).max(0.0) / interval_s;
    Heartbeats {
        nodes,
        per_second,
        bitmap_bytes: per_second * BITMAP_BYTES as f64,
        bitmap_bytes_64k: per_second * BITMAP_BYTES_64K as f64,
    }
}

/// Redis's default `cluster-node-timeout`, in milliseconds.
pub const DEFAULT_NODE_TIMEOUT_MS: u32 = 15_000;
/// The smallest and largest node timeout the first stop takes (a cron tick and an hour).
pub const NODE_TIMEOUT_RANGE_MS: std::ops::RangeInclusive<u32> = 100..=3_600_000;

/// How often, at least, a node pings each other node: half the node timeout, but not more
/// often than `clusterCron`'s 100 ms tick.
pub fn ping_interval_ms(node_timeout_ms: u32) -> f64 {
    (f64::from(node_timeout_ms) / 2.0).max(100.0)
}

/// The node-timeout field's text as milliseconds, if it is a whole number in
/// [`NODE_TIMEOUT_RANGE_MS`].
pub fn parse_node_timeout(text: &str) -> Option<u32> {
    text.trim()
        .parse::<u32>()
        .ok()
        .filter(|ms| NODE_TIMEOUT_RANGE_MS.contains(ms))
}

/// Seconds, without trailing zeros (`7.5`, `1`, `0.1`).
fn seconds(ms: f64) -> String {
    trim_zeros(format!("{:.3}", ms / 1000.0))
}

/// A count a second: whole from 10 up (`24`), one decimal from 1 (`2.5`), two significant
/// digits below (`0.017`), so a long node timeout never reads as 0.
fn how_many(x: f64) -> String {
    if x >= 10.0 || x == x.trunc() {
        format!("{x:.0}")
    } else if x >= 1.0 {
        trim_zeros(format!("{x:.1}"))
    } else {
        let digits = (1.0 - x.log10().floor()).clamp(1.0, 12.0) as usize;
        trim_zeros(format!("{x:.digits$}"))
    }
}

/// `7.500` → `7.5`, `1.000` → `1`.
fn trim_zeros(s: String) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// Bytes a second, readably (`16 KB`, `2.3 MB`, `1.1 GB`), in decimal units.
pub fn rate(bytes: f64) -> String {
    let units = [("B", 1.0), ("KB", 1e3), ("MB", 1e6), ("GB", 1e9)];
    let (name, size) = units
        .iter()
        .rev()
        .find(|(_, s)| bytes >= *s)
        .copied()
        .unwrap_or(("B", 1.0));
    let v = bytes / size;
    if v >= 100.0 || name == "B" {
        format!("{v:.0} {name}")
    } else {
        format!("{v:.1} {name}")
    }
}

/// Props of [`Tour`].
#[derive(Properties, PartialEq)]
pub struct TourProps {
    /// The cluster shown (the first stop counts its nodes).
    pub map: Rc<SlotMap>,
    /// The key's state: a stop puts a key in the field, and Back puts back the text it held
    /// (read when a stop acts, so typing does not re-render the tour).
    pub key_store: KeyStore,
    /// Changes the cluster (the resharding stop adds a master and reshards; Back undoes).
    #[prop_or_default]
    pub on_action: Option<Callback<ClusterAction>>,
    /// The redirection player now.
    #[prop_or_default]
    pub player: Option<Player>,
    /// Tells the player what to do (the last stop plays the live migration).
    #[prop_or_default]
    pub on_player: Option<Callback<PlayerAction>>,
}

/// What a stop did, so that Back can undo it.
#[derive(Clone, Debug, Default)]
struct Done {
    /// The key field's text before the stop set its key, and the key it set.
    key: Option<(String, &'static str)>,
    /// The cluster before the stop changed it, the cluster its actions made (once seen) and
    /// how many actions Undo must take back.
    cluster: Option<(Rc<SlotMap>, Option<Rc<SlotMap>>, usize)>,
    /// The player's scenario and step before, and the scenario it opened.
    player: Option<((usize, usize), usize)>,
    /// The hot-spot field's value before, and the one the stop set.
    sub_tags: Option<(String, String)>,
}

/// The hot-spot experiment's sub-tag field, set as a reader would (its value and an input
/// event, which its own handler reads): the tour drives the page's control, not a copy.
fn hot_spot_field() -> Option<web_sys::HtmlInputElement> {
    web_sys::window()?
        .document()?
        .query_selector("[data-testid=hotspot-k]")
        .ok()
        .flatten()?
        .dyn_into()
        .ok()
}

/// Puts `value` in the hot-spot field and tells its handler.
fn set_hot_spot(field: &web_sys::HtmlInputElement, value: &str) {
    field.set_value(value);
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    if let Ok(ev) = web_sys::Event::new_with_event_init_dict("input", &init) {
        let _ = field.dispatch_event(&ev);
    }
}

/// The page as the tour sees it, to act on.
#[derive(Clone)]
struct Page {
    map: Rc<SlotMap>,
    key: KeyStore,
    on_action: Option<Callback<ClusterAction>>,
    player: Option<Player>,
    on_player: Option<Callback<PlayerAction>>,
}

impl Page {
    /// Does what stop `s` does; returns what to undo.
    fn drive(&self, s: &Stop) -> Done {
        let mut done = Done::default();
        if let Some(key) = s.key {
            done.key = Some((self.key.get().input.to_string(), key));
            self.key.dispatch(key.to_string());
        }
        match s.drive {
            Drive::Nothing => {}
            Drive::AddAndReshard(n) => {
                if let Some(act) = &self.on_action {
                    let target = self.map.masters().len();
                    act.emit(ClusterAction::AddMaster);
                    act.emit(ClusterAction::Reshard {
                        from: Vec::new(),
                        target,
                        n_slots: n.to_string(),
                    });
                    done.cluster = Some((self.map.clone(), None, 2));
                }
            }
            Drive::SubTags(k) => {
                if let Some(field) = hot_spot_field().filter(|f| !f.disabled()) {
                    let (before, set) = (field.value(), k.to_string());
                    set_hot_spot(&field, &set);
                    done.sub_tags = Some((before, set));
                }
            }
            Drive::Play(id) => {
                if let (Some(p), Some(on)) = (&self.player, &self.on_player)
                    && let Some((idx, n_steps)) = ScenarioIndex::new().find(id)
                {
                    done.player = Some(((p.scenario, p.step), idx));
                    on.emit(PlayerAction::Open { idx, n_steps });
                    on.emit(PlayerAction::Play);
                }
            }
        }
        done
    }

    /// Takes back what a stop did, where the page still shows it.
    fn undo(&self, done: Done) {
        if let Some((before, set)) = done.key
            && self.key.get().input.as_str() == set
        {
            self.key.dispatch(before);
        }
        if let (Some((_, Some(after), n)), Some(act)) = (done.cluster, &self.on_action)
            && *after == *self.map
        {
            for _ in 0..n {
                act.emit(ClusterAction::Undo);
            }
        }
        if let (Some((before, set)), Some(field)) = (done.sub_tags, hot_spot_field())
            && field.value() == set
        {
            set_hot_spot(&field, &before);
        }
        if let (Some(((idx, step), opened)), Some(p), Some(on)) =
            (done.player, &self.player, &self.on_player)
            && p.scenario == opened
        {
            let n_steps = ScenarioIndex::new().steps(idx);
            on.emit(PlayerAction::Open { idx, n_steps });
            on.emit(PlayerAction::Seek(step));
        }
    }
}

/// The masthead button and, while open, the tour panel.
#[function_component(Tour)]
pub fn tour(props: &TourProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let t = lang.tour();
    let open = use_state(|| false);
    // The stop the reader is at; kept when the tour is left so it resumes there.
    let stop = use_state(|| 0usize);
    let started = use_state(|| false);
    // The first stop's node timeout: the field's text, and the last value it held that Redis
    // takes and the figures use.
    let timeout_text = use_state(|| DEFAULT_NODE_TIMEOUT_MS.to_string());
    let timeout_ms = use_state(|| DEFAULT_NODE_TIMEOUT_MS);
    let next_ref = use_node_ref();
    let start_ref = use_node_ref();
    // What each stop did (kept when the tour is left, so resuming does not do it twice).
    let done = use_mut_ref(|| vec![None::<Done>; STOPS.len()]);
    let page = Page {
        map: props.map.clone(),
        key: props.key_store.clone(),
        on_action: props.on_action.clone(),
        player: props.player.clone(),
        on_player: props.on_player.clone(),
    };

    // The cluster a stop's actions made, once the page shows it (Back undoes only that).
    {
        let done = done.clone();
        use_effect_with(props.map.clone(), move |map| {
            for d in done.borrow_mut().iter_mut().flatten() {
                if let Some((before, after @ None, _)) = &mut d.cluster
                    && *before != *map
                {
                    *after = Some(map.clone());
                }
            }
        });
    }

    // Opening a stop: do what it does (once), bring its result into view, mark it, and place
    // the panel beside it.
    {
        let (next_ref, done, page) = (next_ref.clone(), done.clone(), page.clone());
        use_effect_with((*open, *stop), move |&(open, stop)| {
            let mut timers = Vec::new();
            if open {
                if let Some(s) = STOPS.get(stop) {
                    let mut done = done.borrow_mut();
                    if let Some(slot @ None) = done.get_mut(stop) {
                        *slot = Some(page.drive(s));
                    }
                    spotlight(Some(s.target));
                    mark_settled(None);
                    // Again once the page has redrawn what the action changed; the last
                    // placement is marked (`data-settled`, the stop's id) for the tests.
                    for ms in [60, 400] {
                        let (target, id) = (s.target, s.id);
                        timers.push(gloo_timers::callback::Timeout::new(ms, move || {
                            place(target, false);
                            if ms == 400 {
                                mark_settled(Some(id));
                            }
                        }));
                    }
                }
                if let Some(el) = next_ref.cast::<web_sys::HtmlElement>() {
                    let _ = el.focus();
                }
            } else {
                spotlight(None);
            }
            move || drop(timers)
        });
    }

    let go = |delta: isize| {
        let (stop, open, done, page) = (stop.clone(), open.clone(), done.clone(), page.clone());
        Callback::from(move |_: MouseEvent| {
            let to = *stop as isize + delta;
            if to >= STOPS.len() as isize {
                // Finished: close, and start from the top next time (what the stops did stays).
                open.set(false);
                stop.set(0);
                done.borrow_mut().iter_mut().for_each(|d| *d = None);
            } else {
                if delta < 0
                    && let Some(d) = done.borrow_mut().get_mut(*stop).and_then(Option::take)
                {
                    page.undo(d);
                }
                stop.set(to.max(0) as usize);
            }
        })
    };
    let on_start = {
        let (open, started) = (open.clone(), started.clone());
        Callback::from(move |_: MouseEvent| {
            started.set(true);
            open.set(true);
        })
    };
    let close = {
        let (open, start_ref) = (open.clone(), start_ref.clone());
        move || {
            open.set(false);
            if let Some(el) = start_ref.cast::<web_sys::HtmlElement>() {
                let _ = el.focus();
            }
        }
    };
    let on_close = {
        let close = close.clone();
        Callback::from(move |_: MouseEvent| close())
    };
    let on_keydown = Callback::from(move |e: KeyboardEvent| {
        if e.key() == "Escape" {
            e.prevent_default();
            close();
        }
    });

    let on_timeout = {
        let (timeout_text, timeout_ms) = (timeout_text.clone(), timeout_ms.clone());
        Callback::from(move |e: InputEvent| {
            let text = e
                .target_unchecked_into::<web_sys::HtmlInputElement>()
                .value();
            if let Some(ms) = parse_node_timeout(&text) {
                timeout_ms.set(ms);
            }
            timeout_text.set(text);
        })
    };

    let n = STOPS.len();
    let at = (*stop).min(n - 1);
    let label = if *started && at > 0 && !*open {
        fill(t.resume, &[&(at + 1)])
    } else {
        t.start.to_string()
    };
    // numbers: the first stop also quotes the bus simulator's measured traffic (a big cluster
    // measured a slice per task; above the simulator's reach, the stop says so).
    let (n_masters, replicas) = {
        let masters = props.map.masters();
        let r = masters.first().map_or(0, |m| m.replicas.len());
        let uniform = masters.iter().all(|m| m.replicas.len() == r);
        (masters.len(), uniform.then_some(r))
    };
    let traffic = use_tour_traffic(
        *open && at == 0,
        n_masters,
        replicas,
        u64::from(*timeout_ms),
    );
    let measured = {
        let m = lang.messages();
        match traffic {
            TourTraffic::Measured(tr) => Some(fill(
                m.bn_tour_measured,
                &[
                    &count(m.n_masters, tr.masters),
                    &count(m.n_replicas, tr.replicas_per_master),
                    &format!("{:.1}", tr.msgs_per_s),
                    &rate(tr.bytes_per_s),
                    &rate(tr.bytes_per_s_65536),
                    &tr.node_timeout,
                ],
            )),
            TourTraffic::Measuring { nodes } => Some(fill(m.bn_tour_measuring, &[&nodes])),
            TourTraffic::TooBig { nodes } => {
                Some(fill(m.bn_tour_too_big, &[&nodes, &TOUR_MAX_NODES]))
            }
            TourTraffic::None => None,
        }
    };
    let panel = (*open).then(|| {
        panel_view(
            t,
            measured,
            &props.map,
            at,
            NodeTimeout {
                text: (*timeout_text).clone(),
                ms: *timeout_ms,
                on_input: on_timeout.clone(),
            },
            next_ref.clone(),
            go(-1),
            go(1),
            on_close.clone(),
            on_keydown.clone(),
        )
    });
    html! {
        <>
        // Keyed, so opening the panel beside it does not replace the button (and lose focus).
        <button key="start" type="button" class="button button--quiet tour-button" data-testid="tour-start" ref={start_ref}
                aria-expanded={open.to_string()} aria-controls="tour" onclick={on_start}>
            { label }
        </button>
        { for panel }
        </>
    }
}

/// The first stop's node-timeout field: what it shows, the value the figures use, its handler.
struct NodeTimeout {
    text: String,
    ms: u32,
    on_input: Callback<InputEvent>,
}

/// The open panel at stop `at`.
#[allow(clippy::too_many_arguments)]
fn panel_view(
    t: &TourText,
    measured: Option<String>,
    map: &SlotMap,
    at: usize,
    timeout: NodeTimeout,
    next_ref: NodeRef,
    on_back: Callback<MouseEvent>,
    on_next: Callback<MouseEvent>,
    on_close: Callback<MouseEvent>,
    on_keydown: Callback<KeyboardEvent>,
) -> Html {
    let n = STOPS.len();
    let (title, body) = t.stops[at];
    let body = if at == 0 {
        let nodes = map
            .masters()
            .iter()
            .map(|m| 1 + m.replicas.len())
            .sum::<usize>();
        let h = heartbeats(nodes, timeout.ms);
        fill(
            body,
            &[
                &BITMAP_BYTES,
                &BITMAP_BYTES_64K,
                &nodes,
                &how_many(h.per_second),
                &rate(h.bitmap_bytes),
                &rate(h.bitmap_bytes_64k),
                &timeout.ms,
                &seconds(ping_interval_ms(timeout.ms)),
            ],
        )
    } else {
        body.to_string()
    };
    // Only the first stop's figures depend on the node timeout.
    let timeout_field = (at == 0).then(|| {
        let invalid = parse_node_timeout(&timeout.text).is_none();
        html! {
            <div class="lab__row lab__form">
                <label for="tour-node-timeout"><code>{ "cluster-node-timeout" }</code>{ " " }{ t.node_timeout }</label>
                <input id="tour-node-timeout" type="number" class="lab__number" data-testid="tour-node-timeout"
                       min={NODE_TIMEOUT_RANGE_MS.start().to_string()} max={NODE_TIMEOUT_RANGE_MS.end().to_string()}
                       step="100" value={timeout.text} oninput={timeout.on_input}
                       aria-invalid={invalid.to_string()} aria-describedby="tour-node-timeout-hint" />
                <span class="tour__hint" id="tour-node-timeout-hint">{ t.node_timeout_hint }</span>
            </div>
        }
    });
    let s = &STOPS[at];
    let last = at + 1 == n;
    html! {
        <section key="panel" id="tour" class="tour" data-testid="tour" data-stop={s.id} data-place="bottom"
                 aria-label={t.panel} onkeydown={on_keydown}>
            <div class="tour__head">
                <span class="tour__progress" data-testid="tour-progress">{ fill(t.progress, &[&(at + 1), &n]) }</span>
                <progress class="tour__bar" max={n.to_string()} value={(at + 1).to_string()} aria-hidden="true"></progress>
                <button type="button" class="tour__close" aria-label={t.close} title={t.close} onclick={on_close.clone()}>{ "×" }</button>
            </div>
            // What a stop says scrolls inside the panel; the head and the buttons stay in view.
            <div class="tour__scroll">
            <h2 class="tour__title" aria-live="polite">{ title }</h2>
            <p class="tour__body" data-testid="tour-body">{ body }</p>
            if let Some(x) = measured {
                <p class="tour__body" data-testid="tour-measured">{ x }</p>
            }
            { for timeout_field }
            <details class="tour__facts">
                <summary>{ fill(t.facts, &[&s.facts.len()]) }</summary>
                <ul>
                    { for s.facts.iter().map(|f| html! {
                        <li data-testid="tour-fact" data-file={f.file}>
                            <code class="tour__file">{ f.file }</code>
                            <pre class="tour__quote mono">{ f.quote.replace('\t', "    ") }</pre>
                        </li>
                    }) }
                </ul>
            </details>
            </div>
            <div class="tour__nav">
                <button type="button" class="button button--quiet" data-testid="tour-back" disabled={at == 0} onclick={on_back}>{ t.back }</button>
                <button type="button" class="button" data-testid="tour-next" ref={next_ref} onclick={on_next}>
                    { if last { t.finish } else { t.next } }
                </button>
            </div>
            <button type="button" class="link-button tour__takeover" data-testid="tour-take-over" onclick={on_close}>{ t.take_over }</button>
            <p class="tour__hint">{ t.hint }</p>
        </section>
    }
}

/// Marks the part of the page a stop talks about (and scrolls to it), or clears the mark.
fn spotlight(target: Option<&str>) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if let Ok(marked) = doc.query_selector_all("[data-tour-spot]") {
        for i in 0..marked.length() {
            if let Some(el) = marked
                .item(i)
                .and_then(|n| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(n).ok())
            {
                let _ = el.remove_attribute("data-tour-spot");
            }
        }
    }
    if let Some(t) = target
        && let Ok(Some(el)) = doc.query_selector(t)
    {
        let _ = el.set_attribute("data-tour-spot", "");
        place(t, true);
    }
}

/// Room kept under the sticky section bar, in CSS pixels.
const TOP_GAP: f64 = 12.0;

/// Where the window's free area starts: under the sticky section bar (its height differs on
/// a phone, where it has two rows, and between languages).
fn top_room(doc: &web_sys::Document) -> f64 {
    crate::ui::viewport::bar_bottom(doc) + TOP_GAP
}

/// Says on the panel which stop it was last placed for, at the last of a stop's placements
/// (`None`: a stop is opening, not yet placed for good).
fn mark_settled(stop: Option<&str>) {
    let panel = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("tour"));
    if let Some(panel) = panel {
        let _ = match stop {
            Some(id) => panel.set_attribute("data-settled", id),
            None => panel.remove_attribute("data-settled"),
        };
    }
}

/// Scrolls the target (if `scroll`) so its top sits under the window's top bar, then puts the
/// panel in the larger space above or below it, no taller than that space (it scrolls inside),
/// so it never covers the target. An instant jump, not a smooth scroll: nothing moves that
/// reduced motion would mind.
fn place(target: &str, scroll: bool) {
    let Some(win) = web_sys::window() else { return };
    let Some(doc) = win.document() else { return };
    let (Ok(Some(el)), Some(panel)) = (
        doc.query_selector(target),
        doc.get_element_by_id("tour")
            .and_then(|p| p.dyn_into::<web_sys::HtmlElement>().ok()),
    ) else {
        return;
    };
    let view_h = crate::ui::viewport::height(&win);
    // Inside the redirections player, its controls stick under the bar too.
    let controls = el
        .closest(".redir__player")
        .ok()
        .flatten()
        .and_then(|p| p.query_selector(".redir__controls").ok().flatten())
        .map_or(0.0, |c| c.get_bounding_client_rect().height());
    let top = top_room(&doc) + controls;
    if scroll {
        let r = el.get_bounding_client_rect();
        win.scroll_by_with_x_and_y(0.0, r.top() - top);
    }
    let style = panel.style();
    // Its natural height, without the stylesheet's cap.
    let _ = style.set_property("max-height", "none");
    let _ = style.remove_property("top");
    let natural = panel.get_bounding_client_rect().height();
    let p = panel.get_bounding_client_rect();
    let r = el.get_bounding_client_rect();
    // Under the section bar, never over it (the bar is how the reader finds the way).
    let bar = top_room(&doc);
    let free = (view_h - bar - 16.0).max(1.0);
    // A wide window puts the panel beside the target (the panel keeps to the right, the
    // target, the map or a card, to the left): then it may take the window's whole height.
    let beside = p.left() >= r.right() + 8.0 || p.right() <= r.left() - 8.0;
    // The panel keeps a small gap from the window's edge (the stylesheet's) and from the target.
    let (above, below) = (r.top() - top - 16.0, view_h - r.bottom() - 28.0);
    let (side, room) = if beside {
        ("top", free)
    } else if below >= natural || below >= above {
        ("bottom", below)
    } else {
        ("top", above)
    };
    // Never shorter than a third of the window: a very tall target is partly covered rather
    // than the panel unreadable.
    let room = room.max(view_h / 3.0).min(natural.max(1.0));
    let _ = panel.set_attribute("data-place", side);
    if side == "top" {
        // Under the bar; slid up over it only as far as a panel taller than the room above
        // the target must go to leave the target uncovered.
        let at = if beside {
            bar
        } else {
            (r.top() - 12.0 - room).max(0.0).min(bar)
        };
        let _ = style.set_property("top", &format!("{at:.0}px"));
    }
    let _ = style.set_property("max-height", &format!("{room:.0}px"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heartbeat_traffic_grows_with_the_square_of_the_nodes() {
        // The fixtures' cluster: 6 nodes, 15 s timeout: 2·6·5 / 7.5 = 8 messages a second.
        let h = heartbeats(6, 15_000);
        assert_eq!(h.per_second, 8.0);
        assert_eq!(h.bitmap_bytes, 8.0 * 2048.0);
        assert_eq!(h.bitmap_bytes_64k, 4.0 * h.bitmap_bytes);
        assert_eq!(heartbeats(1, 15_000).per_second, 0.0);
        assert_eq!(heartbeats(0, 15_000).per_second, 0.0);
        assert_eq!(rate(16384.0), "16.4 KB");
        assert_eq!(rate(65536.0), "65.5 KB");
        assert_eq!(rate(512.0), "512 B");
        assert_eq!(rate(2.66e8 * 2048.0), "545 GB");
    }

    #[test]
    fn the_node_timeout_sets_the_ping_interval() {
        // BUS.md: every peer is pinged at least every NT/2. The failover fixtures' NT = 2000:
        // 6 nodes ping each other every second, 2·6·5 / 1 = 60 messages a second.
        assert_eq!(heartbeats(6, 2_000).per_second, 60.0);
        assert_eq!(heartbeats(6, 2_000).bitmap_bytes, 60.0 * 2048.0);
        // Redis's default, and an hour.
        assert_eq!(ping_interval_ms(DEFAULT_NODE_TIMEOUT_MS), 7_500.0);
        assert_eq!(heartbeats(2, 3_600_000).per_second, 4.0 / 1_800.0);
        // clusterCron ticks every 100 ms: a shorter half-timeout pings no more often.
        assert_eq!(ping_interval_ms(100), 100.0);
        assert_eq!(heartbeats(6, 100).per_second, heartbeats(6, 200).per_second);
        assert_eq!(heartbeats(6, 200).per_second, 600.0);
        assert_eq!(seconds(7_500.0), "7.5");
        assert_eq!(seconds(1_000.0), "1");
        assert_eq!(seconds(100.0), "0.1");
        assert_eq!(seconds(1_800_000.0), "1800");
        assert_eq!(how_many(8.0), "8");
        assert_eq!(how_many(24.0), "24");
        assert_eq!(how_many(600.0), "600");
        assert_eq!(how_many(13.4), "13");
        assert_eq!(how_many(2.5), "2.5");
        assert_eq!(how_many(60.0 / 1_800.0), "0.033");
        assert_eq!(how_many(0.5), "0.5");
        assert_eq!(how_many(0.0), "0");
    }

    #[test]
    fn the_node_timeout_field_takes_whole_milliseconds_in_range() {
        assert_eq!(parse_node_timeout("15000"), Some(15_000));
        assert_eq!(parse_node_timeout(" 2000 "), Some(2_000));
        assert_eq!(parse_node_timeout("100"), Some(100));
        assert_eq!(parse_node_timeout("3600000"), Some(3_600_000));
        for bad in [
            "",
            "99",
            "0",
            "-1",
            "1e3",
            "2000.5",
            "3600001",
            "99999999999999999999",
            "abc",
        ] {
            assert_eq!(parse_node_timeout(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn both_languages_fill_every_hole_of_the_first_stop() {
        for t in [&EN, &ZH] {
            let body = fill(t.stops[0].1, &[&1, &2, &3, &4, &5, &6, &7, &8]);
            assert!(!body.contains('{'), "{body}");
            assert!(fill(t.progress, &[&1, &6]).contains('6'));
            assert!(!fill(t.resume, &[&2]).contains("{0}"));
            assert!(!fill(t.facts, &[&2]).contains("{0}"));
        }
        for (en, zh) in EN.stops.iter().zip(ZH.stops.iter()) {
            assert_ne!(en.0, zh.0);
            assert_ne!(en.1, zh.1);
        }
    }
}
