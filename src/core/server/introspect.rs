//! The commands that describe the server rather than the data: `COMMAND` (COUNT, INFO, DOCS,
//! GETKEYS, GETKEYSANDFLAGS, LIST with FILTERBY) answered from the generated table, `CONFIG GET`
//! from a default 7.0.15 node's recorded configuration, and Redis's glob (`stringmatchlen`)
//! they both match patterns with.

use super::command::{commands, find_command, flag, CommandId, CommandInfo};
use super::config_table::CONFIG;
use super::keys::{has_getkeys_proc, spec_keys};
use super::reply::{ErrorReply, Reply};
use super::table::{docs_reply, info_reply, key_flags_reply, DOCS_ORDER};

/// Redis's `stringmatchlen` (util.c, 7.0.15): the key space's port, shared.
use super::data::util::glob_match as glob;

/// Every command and subcommand, in the table's order.
fn all_commands() -> impl Iterator<Item = &'static CommandInfo> {
    commands()
        .iter()
        .flat_map(|c| std::iter::once(c).chain(c.subcommands.iter()))
}

fn bulk(s: &str) -> Reply {
    Reply::Bulk(Some(s.as_bytes().to_vec()))
}

/// Redis's `lookupCommandBySds`: `name` or `container|sub`, any case.
fn by_full_name(name: &[u8]) -> Option<&'static CommandInfo> {
    let mut parts = name.splitn(3, |&b| b == b'|');
    let first = parts.next()?.to_vec();
    let args: Vec<Vec<u8>> = match (parts.next(), parts.next()) {
        (None, _) => vec![first],
        (Some(sub), None) => vec![first, sub.to_vec()],
        (Some(_), Some(_)) => return None,
    };
    let info = find_command(&args)?;
    // `a|b` names a subcommand only: a command without subcommands is no match.
    (args.len() == 1 || info.name.contains('|')).then_some(info)
}

fn syntax() -> Reply {
    Reply::Error(ErrorReply::Syntax)
}

/// `COMMAND` and its subcommands (Redis's `commandCommand` family, RESP2). The order of a
/// full listing is the one the recorded server's command table gave (a real server's order
/// depends on its hash seed).
pub(super) fn command(info: &CommandInfo, args: &[Vec<u8>]) -> Option<Reply> {
    use CommandId as C;
    let rest = args.get(2..).unwrap_or(&[]);
    Some(match info.id {
        C::Command => Reply::Array(commands().iter().map(info_reply).collect()),
        C::CommandCount => Reply::Int(commands().len() as i64),
        C::CommandInfo => {
            if rest.is_empty() {
                Reply::Array(commands().iter().map(info_reply).collect())
            } else {
                Reply::Array(
                    rest.iter()
                        .map(|n| by_full_name(n).map_or(Reply::Bulk(None), info_reply))
                        .collect(),
                )
            }
        }
        C::CommandDocs => {
            let mut out = Vec::new();
            if rest.is_empty() {
                for c in DOCS_ORDER
                    .iter()
                    .filter_map(|&i| commands().get(usize::from(i)))
                {
                    out.push(bulk(c.name));
                    out.push(docs_reply(c));
                }
            } else {
                for c in rest.iter().filter_map(|n| by_full_name(n)) {
                    out.push(bulk(c.name));
                    out.push(docs_reply(c));
                }
            }
            Reply::Array(out)
        }
        C::CommandGetkeys | C::CommandGetkeysandflags => {
            getkeys(rest, info.id == C::CommandGetkeysandflags)
        }
        C::CommandList => list(rest),
        _ => return None,
    })
}

/// `COMMAND GETKEYS` / `GETKEYSANDFLAGS` (Redis's `getKeysSubcommandImpl`).
fn getkeys(cmd_args: &[Vec<u8>], with_flags: bool) -> Reply {
    let err = |text: &str| Reply::Error(ErrorReply::Other(text.to_owned()));
    let Some(cmd) = find_command(cmd_args) else {
        return err("ERR Invalid command specified");
    };
    if !(has_getkeys_proc(cmd.id) || cmd.has_keys()) {
        return err("ERR The command has no key arguments");
    }
    if !super::command::arity_ok(cmd, cmd_args.len()) {
        return err("ERR Invalid number of arguments specified for command");
    }
    let keys = spec_keys(cmd, cmd_args);
    if keys.is_empty() {
        return if cmd.is(flag::NO_MANDATORY_KEYS) {
            Reply::Array(Vec::new())
        } else {
            err("ERR Invalid arguments specified for command")
        };
    }
    Reply::Array(
        keys.iter()
            .map(|k| {
                let key = Reply::Bulk(Some(cmd_args.get(k.pos).cloned().unwrap_or_default()));
                if with_flags {
                    Reply::Array(vec![key, key_flags_reply(k.flags)])
                } else {
                    key
                }
            })
            .collect(),
    )
}

/// `COMMAND LIST [FILTERBY MODULE m | ACLCAT c | PATTERN p]`.
fn list(opts: &[Vec<u8>]) -> Reply {
    enum Filter<'a> {
        All,
        Module,
        AclCat(&'a [u8]),
        Pattern(&'a [u8]),
    }
    let mut filter = Filter::All;
    let mut i = 0;
    while i < opts.len() {
        let more = opts.len() - 1 - i;
        let is = |j: usize, w: &[u8]| opts.get(j).is_some_and(|a| a.eq_ignore_ascii_case(w));
        if is(i, b"filterby") && more == 2 {
            let arg = opts.get(i + 2).map(Vec::as_slice).unwrap_or(&[]);
            filter = if is(i + 1, b"module") {
                Filter::Module
            } else if is(i + 1, b"aclcat") {
                Filter::AclCat(arg)
            } else if is(i + 1, b"pattern") {
                Filter::Pattern(arg)
            } else {
                return syntax();
            };
            i += 3;
        } else {
            return syntax();
        }
    }
    let keep = |c: &CommandInfo| match filter {
        Filter::All => true,
        // No modules are loaded.
        Filter::Module => false,
        Filter::AclCat(cat) => flag::ACL_NAMES
            .iter()
            .position(|n| n.as_bytes().eq_ignore_ascii_case(cat))
            .is_some_and(|bit| c.acl & (1 << bit) != 0),
        Filter::Pattern(p) => glob(c_str(p), c.name.as_bytes(), true),
    };
    Reply::Array(
        all_commands()
            .filter(|c| keep(c))
            .map(|c| bulk(c.name))
            .collect(),
    )
}

/// C's view of an argument: up to its first NUL.
fn c_str(bytes: &[u8]) -> &[u8] {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    bytes.get(..end).unwrap_or(bytes)
}

/// `CONFIG GET parameter [parameter …]` on the node listening on `port` (Redis's
/// `configGetCommand`): exact names (aliases too) as typed, glob patterns over every
/// parameter; an unknown one adds nothing. Several matches come in the recorded server's
/// order (a real server's depends on its hash seed).
pub(super) fn config_get(port: &str, params: &[Vec<u8>]) -> Reply {
    let mut found: Vec<(Vec<u8>, usize)> = Vec::new();
    for p in params {
        let p = c_str(p);
        if !p.iter().any(|b| b"[*?".contains(b)) {
            if found.iter().any(|(k, _)| k.eq_ignore_ascii_case(p)) {
                continue;
            }
            if let Some(i) = CONFIG
                .iter()
                .position(|(name, _)| name.as_bytes().eq_ignore_ascii_case(p))
            {
                found.push((p.to_vec(), i));
            }
            continue;
        }
        for (i, (name, _)) in CONFIG.iter().enumerate() {
            if found
                .iter()
                .any(|(k, _)| k.eq_ignore_ascii_case(name.as_bytes()))
            {
                continue;
            }
            if glob(p, name.as_bytes(), true) {
                found.push((name.as_bytes().to_vec(), i));
            }
        }
    }
    let mut out = Vec::new();
    for (key, i) in found {
        let value = match CONFIG.get(i) {
            Some(("port", _)) => port,
            Some((_, v)) => v,
            None => "",
        };
        out.push(Reply::Bulk(Some(key)));
        out.push(bulk(value));
    }
    Reply::Array(out)
}

#[cfg(test)]
mod tests {
    use super::glob;

    #[test]
    fn glob_is_redis_stringmatch() {
        assert!(glob(b"cluster-*", b"cluster-node-timeout", true));
        assert!(glob(b"*TIMEOUT", b"cluster-node-timeout", true));
        assert!(!glob(b"*TIMEOUT", b"cluster-node-timeout", false));
        assert!(glob(b"h?llo", b"hello", false));
        assert!(glob(b"h[^e]llo", b"hallo", false));
        assert!(!glob(b"h[^e]llo", b"hello", false));
        assert!(glob(b"h[a-b]llo", b"hbllo", false));
        assert!(glob(b"h\\*llo", b"h*llo", false));
        assert!(!glob(b"h\\*llo", b"hello", false));
        assert!(glob(b"*", b"", false) || !glob(b"*", b"", false));
        assert!(glob(b"a*b*c", b"aXbYc", false));
        assert!(!glob(b"a*b*c", b"aXbY", false));
        assert!(glob(b"[", b"[", false) || !glob(b"[", b"[", false));
    }
}
