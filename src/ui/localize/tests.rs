//! The wording tests: every core error in both languages, English as it read before, and no
//! Latin prose in Chinese outside code and redis-cli's verbatim lines.

use super::*;
use crate::core::cluster::import::{Clash, Counter, Expected, Found, ImportErrorKind};
use crate::core::cluster::reshard::{CheckProblem, OpenState, Operation};
use crate::ui::localize::import::{import_error, import_warning};
use crate::ui::messages::{EN, ZH};

/// A node id as Redis writes them.
const ID: &str = "d3bede0cd4ba07708f552c2e44e8211e0d571a39";

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
        EscapeError::UnclosedQuote {
            column: 1,
            quote: '"',
        },
        EscapeError::UnclosedQuote {
            column: 2,
            quote: '\'',
        },
        EscapeError::TextAfterQuote { column: 5 },
        EscapeError::NotHex {
            column: 2,
            found: 'g',
        },
        EscapeError::UnpairedHexDigit { column: 3 },
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
        ReshardError::NotKnown { id: ID.into() },
        ReshardError::ClusterNotOk {
            problem: CheckProblem::Uncovered,
            operation: Operation::Reshard,
        },
        ReshardError::ClusterNotOk {
            problem: CheckProblem::OpenSlots {
                master: "127.0.0.1:7000".into(),
                state: OpenState::Importing,
                slots: vec![5, 6],
            },
            operation: Operation::Rebalance,
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
        ReshardError::NoSuchNode { id: ID.into() },
        ReshardError::AlreadyFailed {
            master: "a:1".into(),
        },
    ]
}

/// Every [`Expected`] and every [`Found`], each at least once.
fn import_kinds() -> Vec<ImportErrorKind> {
    use Expected as E;
    use ImportErrorKind as K;
    let wants = [
        E::NodeIdAtStart,
        E::NodeFields,
        E::BusAddress,
        E::Flags,
        E::OneRole,
        E::MasterId,
        E::Counter(Counter::PingSent),
        E::Counter(Counter::ConfigEpoch),
        E::LinkState,
        E::NoSlotsOnReplica,
        E::OpenSlot,
        E::SlotOrRange,
        E::QuotedString,
        E::Integer,
        E::Value,
        E::NothingAfterOneLineReply,
        E::NumberedItem,
        E::AlignedItem,
        E::ItemNumber(3),
        E::ShardList,
        E::Shard,
        E::ShardField("slots"),
        E::ShardSlots,
        E::ShardNodes,
        E::ShardNode,
        E::NodeField("port"),
        E::Role,
        E::ShardMaster,
        E::RangeList,
        E::RangeEntry,
        E::FirstSlot,
        E::LastSlot,
        E::RangeMaster,
        E::RangeNode,
        E::NodeAddress,
        E::NodePort,
        E::NodeId,
        E::Metadata,
        E::Host,
        E::Ip,
        E::Hostname,
        E::Port,
        E::Id,
        E::FieldName,
        E::ValueOf("port".into()),
        E::RawShardStart,
        E::RawShardNodes,
        E::RawNodeStart,
        E::RawLastSlot,
        E::RawPort,
        E::RawId,
    ];
    let founds = [
        Found::Text("0-5460x".into()),
        Found::Fields {
            count: 2,
            line: "d3bede0cd4ba07708f552c2e44e8211e0d571a39 127.0.0.1:7000@17000".into(),
        },
        Found::Integer(7000),
        Found::Nil,
        Found::EmptyArray,
        Found::List,
        Found::Item(4),
        Found::EndOfList,
        Found::EndOfPaste,
        Found::Missing,
        Found::OnlyReplicas,
    ];
    let mut out: Vec<ImportErrorKind> = wants
        .iter()
        .zip(founds.iter().cycle())
        .map(|(w, f)| K::Expected {
            expected: w.clone(),
            found: f.clone(),
        })
        .collect();
    out.extend(founds.iter().map(|f| K::Expected {
        expected: E::Port,
        found: f.clone(),
    }));
    out.extend([
        K::TooLarge { bytes: 3_000_000 },
        K::Empty,
        K::Unrecognised {
            found: "cluster_state:ok".into(),
        },
        K::RedisError {
            message: "ERR This instance has cluster support disabled".into(),
        },
        K::SlotOutOfRange {
            found: "16384".into(),
        },
        K::BackwardRange { first: 5, last: 3 },
        K::DuplicateNode {
            id: ID.into(),
            first_line: 2,
        },
        K::Inconsistent {
            id: ID.into(),
            detail: Clash::MasterAfterReplica,
        },
        K::Inconsistent {
            id: ID.into(),
            detail: Clash::ReplicaAfterMaster,
        },
        K::Inconsistent {
            id: ID.into(),
            detail: Clash::TwoMasters,
        },
        K::SeveralReplies,
        K::NoMasters,
        K::TooDeep,
        K::TooManySlots,
        K::Topology(TopologyError::TooManyMasters { n_masters: 70000 }),
    ]);
    out
}

fn imports() -> Vec<ImportError> {
    import_kinds()
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
        .collect()
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
        CompareError::Topology(TopologyError::TooManyMasters { n_masters: 70000 }),
        CompareError::Rebalance(ReshardError::ZeroTotalWeight),
        CompareError::Rebalance(ReshardError::ClusterNotOk {
            problem: CheckProblem::Uncovered,
            operation: Operation::Rebalance,
        }),
    ]
}

fn batches() -> Vec<BatchError> {
    vec![
        BatchError::NoSuchNode { addr: "x:9".into() },
        BatchError::TooManyLines { lines: 5000 },
    ]
}

fn actions() -> Vec<ActionError> {
    [ActionError::NoCommand, ActionError::Empty]
        .into_iter()
        .chain(escapes().into_iter().map(ActionError::Args))
        .collect()
}

/// Latin words that are code, not prose, in a Chinese text: Redis's and redis-cli's
/// vocabulary (flags, roles, field names of `CLUSTER NODES` / `SHARDS`, reply notations,
/// `--cluster` subcommands), key names on a keyboard, units, and names.
#[rustfmt::skip]
const CODE_WORDS: &[&str] = &[
    // Redis and redis-cli.
    "master", "slave", "replica", "myself", "fail", "connected", "disconnected", "slots",
    "nodes", "id", "port", "ip", "role", "hostname", "integer", "nil", "empty", "array",
    "create", "rebalance", "reshard", "redis", "cli", "lua",
    // Keys on a keyboard.
    "page", "up", "down", "home", "end", "shift", "esc", "ctrl", "cmd", "enter",
    // Units and names.
    "ms", "mib", "kib", "npm", "slotscope", "ioredis",
];

/// Redis's and redis-cli's words the page quotes as they print them, and names.
const VERBATIM: &[&str] = &[
    "CLUSTERDOWN Hash slot not served",
    "CROSSSLOT Keys in request don't hash to the same slot",
    "Invalid argument(s)",
    "Redis Cluster",
];

/// The Latin prose words of a Chinese `text`: after taking out every verbatim redis-cli
/// line in `quoted` (and [`VERBATIM`]) and every quoted piece of the user's text (`“…”`,
/// `"…"`), a word is a run of ASCII letters (any other character, CJK and
/// full-width punctuation included, separates words) of two letters or more, with a
/// lower-case letter, that is not code ([`CODE_WORDS`]) and is not glued to code (digits,
/// `-`, `:`, `@`, `.`, `_`, `{`, `}`, `\`, `%`, `<`, `>`, `[`, `]`, `=`, `?`, `/`, `*`, `$`).
fn latin_prose(text: &str, quoted: &[String]) -> Vec<String> {
    let mut rest = text.to_owned();
    for q in quoted
        .iter()
        .map(String::as_str)
        .chain(VERBATIM.iter().copied())
    {
        rest = rest.replace(q, " ");
    }
    for (open, close) in [('“', '”'), ('"', '"')] {
        while let Some(a) = rest.find(open) {
            let after = a + open.len_utf8();
            let Some(b) = rest[after..].find(close) else {
                break;
            };
            rest.replace_range(a..after + b + close.len_utf8(), " ");
        }
    }
    let code = |c: char| c.is_ascii_digit() || "-:@._{}\\%<>[]=?/*$+#&|~^`".contains(c);
    let mut words = Vec::new();
    for token in rest.split(|c: char| c.is_whitespace() || !c.is_ascii()) {
        let token = token.trim_matches(|c: char| "()\"',;!…".contains(c));
        if token.is_empty() || token.chars().any(code) {
            continue;
        }
        for word in token.split(|c: char| !c.is_ascii_alphabetic()) {
            if word.len() >= 2
                && word.chars().any(|c| c.is_ascii_lowercase())
                && !CODE_WORDS.contains(&word.to_ascii_lowercase().as_str())
            {
                words.push(word.to_owned());
            }
        }
    }
    words
}

/// Checks that Chinese words every value: it differs from English, has no unfilled hole and
/// no Latin prose outside code and redis-cli's verbatim lines (`quoted`).
fn check_zh<E: std::fmt::Debug>(
    values: &[E],
    render: impl Fn(&Messages, &E) -> String,
    quoted: impl Fn(&E) -> Vec<String>,
) {
    let mut found = Vec::new();
    for e in values {
        let (en, zh) = (render(&EN, e), render(&ZH, e));
        assert_ne!(zh, en, "{e:?}");
        assert!(!zh.contains("{0}") && !zh.contains("{1}"), "{zh}");
        assert!(!en.is_empty(), "{e:?}");
        let prose = latin_prose(&zh, &quoted(e));
        if !prose.is_empty() {
            found.push(format!("{e:?}: Latin prose {prose:?} in {zh:?}"));
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

fn none<E>(_: &E) -> Vec<String> {
    Vec::new()
}

#[test]
fn chinese_words_every_error_with_no_latin_prose() {
    check_zh(&escapes(), escape_error, none);
    check_zh(&escapes(), escape_sentence, none);
    check_zh(&actions(), action_error, none);
    check_zh(&topologies(), topology_error, none);
    check_zh(&reshards(), reshard_error, |e| {
        e.redis_cli_text().into_iter().collect()
    });
    check_zh(&imports(), import_error, |e| match &e.kind {
        // Redis's own error text is quoted as it sent it.
        ImportErrorKind::RedisError { message } => vec![message.clone()],
        _ => Vec::new(),
    });
    check_zh(&warnings(), import_warning, none);
    check_zh(&templates(), template_error, none);
    check_zh(&plans(), plan_error, none);
    check_zh(&tags(), tag_error, none);
    check_zh(&compares(), compare_error, |e| match e {
        CompareError::Rebalance(e) => e.redis_cli_text().into_iter().collect(),
        _ => Vec::new(),
    });
    check_zh(&batches(), batch_error, none);
}

#[test]
fn every_chinese_template_is_free_of_latin_prose() {
    let mut found = Vec::new();
    for (name, zh) in ZH.fields() {
        // The import field's placeholder is a CLUSTER NODES line: code.
        if name == "lab_import_placeholder" {
            continue;
        }
        let prose = latin_prose(zh, &[]);
        if !prose.is_empty() {
            found.push(format!("{name}: Latin prose {prose:?} in {zh:?}"));
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_prose_detector_finds_english_and_lets_code_through() {
    // The two messages the issue quotes, as the page showed them before.
    let before = [
        "第 4 行：应为 8 fields (id, address, flags, master, ping-sent, pong-recv, config-epoch, link-state) before the slots，实际是 only 2: \"x\"",
        "应为 a node id (40 hex digits) at the start of the line",
    ];
    for text in before {
        assert!(!latin_prose(text, &[]).is_empty(), "{text}");
    }
    assert_eq!(latin_prose("Redis 把 foo bar 发往", &[]), ["foo", "bar"]);
    assert!(latin_prose("实际是“abc def”", &[]).is_empty());
    assert!(latin_prose(
        "CLUSTERDOWN 127.0.0.1:7000 {user1}:a (integer) 7000 myself,master ping-sent",
        &[]
    )
    .is_empty());
    let line = "[ERR] Not all 16384 slots are covered by nodes.".to_owned();
    assert!(!latin_prose(&format!("检查：{line}"), &[]).is_empty());
    assert!(latin_prose(&format!("检查：{line}"), &[line]).is_empty());
}

/// English is worded as the core's `Display` impls worded it before they were removed
/// (the page's English does not change).
#[test]
fn english_reads_as_before() {
    let cases: Vec<(String, &str)> = vec![
        (
            escape_error(&EN, &escapes()[1]),
            "column 3: \\x needs two hex digits (0-9, a-f), but \"zq\" follows it",
        ),
        (
            escape_sentence(&EN, &escapes()[0]),
            "Column 3: \\x needs two hex digits, but the key ends there.",
        ),
        (
            reshard_error(&EN, &reshards()[2]),
            "*** It is not possible to use the target node as source node.",
        ),
        (
            reshard_error(&EN, &reshards()[7]),
            "[ERR] Not all 16384 slots are covered by nodes.\n*** Please fix your cluster problems before resharding",
        ),
        (
            reshard_error(&EN, &reshards()[8]),
            "[WARNING] Node 127.0.0.1:7000 has slots in importing state 5,6.\n*** Please fix your cluster problems before rebalancing",
        ),
        (
            reshard_error(&EN, &reshards()[9]),
            "weight -1 for master number 2: a weight must be a number from 0 up",
        ),
        (
            import_error(
                &EN,
                &ImportError {
                    line: Some(4),
                    kind: ImportErrorKind::Expected {
                        expected: Expected::NodeFields,
                        found: Found::Fields {
                            count: 2,
                            line: "abc 127.0.0.1:7000".into(),
                        },
                    },
                },
            ),
            "line 4: expected 8 fields (id, address, flags, master, ping-sent, pong-recv, config-epoch, link-state) before the slots, found only 2: \"abc 127.0.0.1:7000\"",
        ),
        (
            import_error(
                &EN,
                &ImportError {
                    line: Some(3),
                    kind: ImportErrorKind::Expected {
                        expected: Expected::Counter(Counter::PongRecv),
                        found: Found::Text("x".into()),
                    },
                },
            ),
            "line 3: expected a number (pong-recv) in field 6, found \"x\"",
        ),
        (
            import_error(
                &EN,
                &ImportError {
                    line: Some(9),
                    kind: ImportErrorKind::Expected {
                        expected: Expected::ItemNumber(2),
                        found: Found::Item(3),
                    },
                },
            ),
            "line 9: expected item 2) here, found 3)",
        ),
        (
            import_error(
                &EN,
                &ImportError {
                    line: Some(3),
                    kind: ImportErrorKind::Unrecognised {
                        found: "hello world".into(),
                    },
                },
            ),
            "line 3: expected the output of CLUSTER NODES, CLUSTER SHARDS or CLUSTER SLOTS, found \"hello world\"",
        ),
        (
            compare_error(&EN, &compares()[4]),
            "rebalance: the weights of the masters add up to 0: there are no shares to compute",
        ),
    ];
    for (got, want) in cases {
        assert_eq!(got, want);
    }
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
        (Note::Resharded { n_slots: 1000, asked: 1000, to: "127.0.0.1:7006".into() }, "Reshard 1000 slots to 127.0.0.1:7006"),
        (Note::Resharded { n_slots: 4999, asked: 5000, to: "127.0.0.1:7006".into() }, "Reshard 5000 slots to 127.0.0.1:7006: redis-cli moves 4999, as it rounds each source's share down (the share of the source with the most slots up)"),
        (Note::Rebalanced, "Rebalance"),
        (Note::Drained("a:1".into()), "Move every slot off a:1, then remove it"),
        (Note::Promoted { failed: "a:1".into(), promoted: "b:2".into(), epoch: 9 }, "a:1 failed: its replica b:2 took over its slots with the new highest config epoch, 9; a:1 stays listed as a failed master with no slots"),
        (Note::FailedClusterDown { master: "a:1".into(), slots: 5461 }, "a:1 failed with no replica: it keeps its 5461 slots, and every node answers \"CLUSTERDOWN The cluster is down\" until it comes back"),
        (Note::FailedNoSlots("a:1".into()), "a:1 failed; it owned no slots, so no replica was promoted"),
        (Note::FailedOver, "Failover"),
        (Note::BecameReplica { node: "a:1".into(), of: "b:2".into() }, "a:1 lost its last slot and became a replica of b:2, which took it; its replicas follow b:2 too (Redis 7 does this with \"cluster-allow-replica-migration yes\", the default)"),
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
    assert_eq!(
        e.text(&EN),
        "the weights of the masters add up to 0: there are no shares to compute"
    );
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
    // redis-cli's words stay verbatim after the page's own.
    let zh = reshard_error(&ZH, &reshards()[7]);
    assert!(
        zh.ends_with("：[ERR] Not all 16384 slots are covered by nodes.\n*** Please fix your cluster problems before resharding"),
        "{zh}"
    );
    assert_eq!(
        import_error(
            &ZH,
            &ImportError {
                line: Some(4),
                kind: ImportErrorKind::Expected {
                    expected: Expected::NodeIdAtStart,
                    found: Found::Text("garbage!".into()),
                },
            },
        ),
        "第 4 行：应为行首的节点 ID（40 位十六进制数字），实际是 “garbage!”"
    );
}
