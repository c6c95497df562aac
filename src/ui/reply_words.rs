//! The page's wording of the engine's replies. Redis's own errors (MOVED, CROSSSLOT, …) are
//! printed exactly as Redis sends them and never translated; the page's notes for what it does
//! not run (commands and scripts, [`NotRun`]) are worded here in the reader's language.

use crate::core::server::reply::{ErrorReply, NotRun, Reply, ScriptNotRun, ScriptSyntax};
use crate::ui::messages::{fill, Messages};

/// The page's note a reply carries, if it is one (a command or script the page does not run,
/// also when a script's `redis.call` met one).
pub fn note_of(reply: &Reply) -> Option<&NotRun> {
    reply.error().and_then(ErrorReply::note)
}

/// A reply as redis-cli prints it, with the page's notes inside it (an EXEC's array) worded in
/// the reader's language; Redis's own errors are printed as Redis sends them.
pub fn reply_text(t: &Messages, reply: &Reply) -> String {
    reply.to_cli_noting(&|note| note_text(t, note))
}

/// A command name as the reader typed it (`cluster|info` → `CLUSTER INFO`).
fn command_name(name: &str) -> String {
    name.replace('|', " ").to_uppercase()
}

/// The page's note, in the reader's language.
pub fn note_text(t: &Messages, note: &NotRun) -> String {
    match note {
        NotRun::Unsimulated { name } => fill(t.note_unsimulated, &[&command_name(name)]),
        NotRun::OnlyStrings { name } => fill(t.note_only_strings, &[&command_name(name)]),
        NotRun::Script(why) => script_text(t, why),
        NotRun::NoSuchNode { addr } => fill(t.note_no_node, &[addr]),
        NotRun::ConsumerGroups { name } => fill(t.note_consumer_groups, &[&command_name(name)]),
        NotRun::BlocksForever { name } => fill(t.note_blocks_forever, &[&command_name(name)]),
        NotRun::Serialized { name } => fill(t.note_serialized, &[&command_name(name)]),
        NotRun::TooLarge { name } => fill(t.note_too_large, &[&command_name(name)]),
        NotRun::NotSimulated { name } => fill(t.note_not_simulated, &[&command_name(name)]),
        NotRun::Subscribe { name } => fill(t.note_subscribe, &[&command_name(name)]),
        NotRun::Topology { name } => fill(t.note_topology, &[&command_name(name)]),
        NotRun::WaitsForever { name } => fill(t.note_waits_forever, &[&command_name(name)]),
        NotRun::NodeDown { addr, hung: false } => fill(t.note_node_crashed, &[addr]),
        NotRun::NodeDown { addr, hung: true } => fill(t.note_node_hung, &[addr]),
    }
}

/// Why the page does not run a script, in the reader's language.
pub fn script_text(t: &Messages, why: &ScriptNotRun) -> String {
    match why {
        ScriptNotRun::Syntax {
            line,
            column,
            problem,
        } => fill(
            t.note_script_syntax,
            &[line, column, &script_problem(t, *problem)],
        ),
        ScriptNotRun::NilInTable { element } => fill(t.note_script_nil, &[element]),
        ScriptNotRun::NotStringArgument { argument, line } => {
            fill(t.note_script_argument, &[argument, line])
        }
    }
}

/// What the script reader found wrong, in the reader's language.
fn script_problem(t: &Messages, problem: ScriptSyntax) -> &'static str {
    let i = match problem {
        ScriptSyntax::MustStartWithReturn => 0,
        ScriptSyntax::TrailingText => 1,
        ScriptSyntax::ExpectedComma => 2,
        ScriptSyntax::ExpectedOpenParen => 3,
        ScriptSyntax::ExpectedCloseBracket => 4,
        ScriptSyntax::ExpectedExpression => 5,
        ScriptSyntax::ExpectedInteger => 6,
        ScriptSyntax::TooDeep => 7,
        ScriptSyntax::UnfinishedString => 8,
        ScriptSyntax::EscapeTooLarge => 9,
        ScriptSyntax::UnknownEscape => 10,
    };
    t.script_problems.get(i).copied().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::server::route::Session;
    use crate::core::server::Cluster;
    use crate::core::SlotMap;
    use crate::ui::messages::{EN, ZH};

    fn reply(line: &str) -> Reply {
        let args = crate::core::key::args::split_args(line).unwrap();
        Cluster::new(SlotMap::fixture_cluster()).exec("127.0.0.1:7000", &args, &mut Session::new())
    }

    /// The example: an EVAL the page does not run is a note worded in the reader's
    /// language, with the line and column where the reading stopped; Redis's own text is
    /// still what the engine replies.
    #[test]
    fn a_script_the_page_does_not_run_is_worded_in_chinese() {
        let r = reply("EVAL \"return x\" 0");
        let note = note_of(&r).expect("a note");
        assert_eq!(
            note_text(&ZH, note),
            "slotscope 不运行这个脚本：第 1 行第 8 列，应为 redis.call(…)、{…}、KEYS[n]、ARGV[n]、字符串或整数。它只运行 `return` 后接 redis.call(…)、由它们组成的 {…} 表、KEYS[n]、ARGV[n]、字符串或整数的脚本。"
        );
        assert!(note_text(&EN, note).starts_with(
            "slotscope does not run this script: at line 1, column 8, expected redis.call(…)"
        ));
        assert!(r
            .to_cli()
            .starts_with("(error) ERR slotscope does not run this script (line 1, column 8: "));
    }

    /// Inside MULTI … EXEC the page's note is one reply of the array, worded; Redis's replies
    /// around it stay verbatim.
    #[test]
    fn notes_inside_an_exec_array_are_worded() {
        let mut cluster = Cluster::new(SlotMap::fixture_cluster());
        let mut session = Session::new();
        let mut last = Reply::Ok;
        for line in ["MULTI", "INFO", "SET hello 1", "EXEC"] {
            let args = crate::core::key::args::split_args(line).unwrap();
            last = cluster.exec("127.0.0.1:7000", &args, &mut session);
        }
        assert_eq!(
            reply_text(&ZH, &last),
            "1) (error) slotscope 不模拟 INFO：它的真实输出含有每次运行都会变化的 id、时间戳和计数器。\n2) OK\n"
        );
        assert!(last
            .to_cli()
            .starts_with("1) (error) ERR slotscope does not simulate 'info'"));
    }

    #[test]
    fn redis_errors_are_not_notes() {
        assert_eq!(note_of(&reply("MSET hello 1 bar 2")), None);
        assert_eq!(note_of(&reply("GET foo")), None);
        assert_eq!(note_of(&reply("HSET hello f v")), None);
        assert!(note_of(&reply("INFO")).is_some());
    }

    /// The data helpers' notes (a pop that would block for ever, DUMP, a value too large for
    /// the page) are worded in both languages, naming the command as typed.
    #[test]
    fn data_notes_are_worded_in_both_languages() {
        let blpop = reply("BLPOP hello 0");
        let note = note_of(&blpop).expect("a note");
        assert!(note_text(&EN, note).starts_with("BLPOP with timeout 0 waits"));
        assert!(note_text(&ZH, note).starts_with("超时为 0 的 BLPOP"));
        for (note, en, zh) in [
            (
                NotRun::Serialized {
                    name: "dump".into(),
                },
                "slotscope does not simulate DUMP",
                "slotscope 不模拟 DUMP",
            ),
            (
                NotRun::TooLarge {
                    name: "setrange".into(),
                },
                "SETRANGE would make",
                "SETRANGE 产生",
            ),
        ] {
            assert!(
                note_text(&EN, &note).starts_with(en),
                "{}",
                note_text(&EN, &note)
            );
            assert!(
                note_text(&ZH, &note).starts_with(zh),
                "{}",
                note_text(&ZH, &note)
            );
        }
    }
}
