//! The Lua subset EVAL runs: `return` of `redis.call(…)`, `{…}` tables, `KEYS[n]`,
//! `ARGV[n]`, strings and integers, read by a small parser; `redis.call` is Redis 7.0's
//! `scriptCall` (only the declared KEYS are routed; a key this node does not serve raises).

use super::command::{engine_lookup, parse_i64, CommandError};
use super::reply::{ErrorReply, NotRun, Reply, ScriptCallError, ScriptNotRun, ScriptSyntax};
use super::route::Session;
use super::sha1::sha1_hex;
use super::Cluster;

impl Cluster {
    pub(super) fn eval(
        &mut self,
        node: usize,
        args: &[Vec<u8>],
        session: &Session,
        by_sha: bool,
        read_only: bool,
    ) -> Reply {
        let arg = |i: usize| args.get(i).map(Vec::as_slice).unwrap_or(&[]);
        if by_sha && arg(1).len() != 40 {
            return ErrorReply::NoScript.into();
        }
        let Some(numkeys) = parse_i64(arg(2)) else {
            return ErrorReply::NotInteger.into();
        };
        let available = args.len().saturating_sub(3);
        if numkeys > available as i64 {
            return ErrorReply::TooManyKeys.into();
        }
        let Ok(numkeys) = usize::try_from(numkeys) else {
            return ErrorReply::NegativeKeys.into();
        };
        let (sha, body) = if by_sha {
            let sha = String::from_utf8_lossy(arg(1)).to_ascii_lowercase();
            let body = self
                .nodes
                .get(node)
                .and_then(|n| n.scripts.get(&sha))
                .cloned();
            match body {
                Some(body) => (sha, body),
                None => return ErrorReply::NoScript.into(),
            }
        } else {
            (sha1_hex(arg(1)), arg(1).to_vec())
        };
        let script = match parse_script(&body) {
            Ok(script) => script,
            Err(why) => return NotRun::Script(why).into(),
        };
        if let Some(n) = self.nodes.get_mut(node) {
            n.scripts.insert(sha.clone(), body.clone());
        }
        let rest = args.get(3..).unwrap_or(&[]);
        let (keys, argv) = rest.split_at(numkeys.min(rest.len()));
        let mut ctx = ScriptRun {
            read_only,
            sha: &sha,
            keys,
            argv,
            session: Session {
                readonly: session.readonly,
                asking: session.asking,
                ..Session::default()
            },
        };
        match self.eval_expr(node, &script, &mut ctx) {
            Ok(Lua::Nil) => Reply::Bulk(None),
            Ok(Lua::Value(r)) => through_lua_number(r),
            Err(r) => r,
        }
    }

    fn eval_expr(
        &mut self,
        node: usize,
        expr: &Expr,
        ctx: &mut ScriptRun<'_>,
    ) -> Result<Lua, Reply> {
        let index = |list: &[Vec<u8>], n: i64| {
            usize::try_from(n)
                .ok()
                .and_then(|n| n.checked_sub(1))
                .and_then(|n| list.get(n))
                .map_or(Lua::Nil, |v| Lua::Value(Reply::Bulk(Some(v.clone()))))
        };
        let all = |list: &[Vec<u8>]| {
            Lua::Value(Reply::Array(
                list.iter().map(|v| Reply::Bulk(Some(v.clone()))).collect(),
            ))
        };
        Ok(match expr {
            Expr::Str(s) => Lua::Value(Reply::Bulk(Some(s.clone()))),
            Expr::Int(n) => Lua::Value(Reply::Int(*n)),
            Expr::Key(n) => index(ctx.keys, *n),
            Expr::Arg(n) => index(ctx.argv, *n),
            Expr::Keys => all(ctx.keys),
            Expr::Argv => all(ctx.argv),
            Expr::Table(items) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    match self.eval_expr(node, item, ctx)? {
                        Lua::Value(v) => out.push(v),
                        Lua::Nil => {
                            return Err(
                                NotRun::Script(ScriptNotRun::NilInTable { element: i + 1 }).into()
                            )
                        }
                    }
                }
                Lua::Value(Reply::Array(out))
            }
            Expr::Call { args, line } => {
                let mut call_args = Vec::with_capacity(args.len());
                for (i, a) in args.iter().enumerate() {
                    match self.eval_expr(node, a, ctx)? {
                        Lua::Value(Reply::Bulk(Some(b))) => call_args.push(b),
                        Lua::Value(Reply::Int(n)) => call_args.push(lua_number_arg(n).into_bytes()),
                        _ => {
                            return Err(NotRun::Script(ScriptNotRun::NotStringArgument {
                                argument: i + 1,
                                line: *line,
                            })
                            .into())
                        }
                    }
                }
                Lua::Value(self.script_call(node, &call_args, *line, ctx)?)
            }
        })
    }

    /// `redis.call` from a script (Redis 7.0's `scriptCall`); an error is raised, so it ends the
    /// script with the error and where it happened.
    fn script_call(
        &mut self,
        node: usize,
        args: &[Vec<u8>],
        line: usize,
        ctx: &mut ScriptRun<'_>,
    ) -> Result<Reply, Reply> {
        let raise = |error: ScriptCallError| {
            Reply::Error(ErrorReply::Script {
                error,
                sha: ctx.sha.to_owned(),
                line,
            })
        };
        let info = match engine_lookup(args) {
            Ok(info) => info,
            Err(CommandError::Empty) => return Err(raise(ScriptCallError::NoArguments)),
            Err(CommandError::WrongArity { .. }) => return Err(raise(ScriptCallError::WrongArity)),
            Err(_) => return Err(raise(ScriptCallError::UnknownCommand)),
        };
        if info.noscript {
            return Err(raise(ScriptCallError::NotAllowed));
        }
        if info.write && ctx.read_only {
            return Err(raise(ScriptCallError::Reply(Box::new(ErrorReply::Other(
                "ERR Write commands are not allowed from read-only scripts.".to_owned(),
            )))));
        }
        if info.write && self.is_replica(node) {
            return Err(raise(ScriptCallError::Reply(Box::new(
                ErrorReply::ReadonlyReplica,
            ))));
        }
        if info.is_routed()
            && self
                .route_command(node, info, args, &ctx.session)
                .error()
                .is_some()
        {
            return Err(raise(ScriptCallError::NonLocalKey));
        }
        match self.call(node, info, args, &mut ctx.session) {
            Reply::Error(e) => Err(raise(ScriptCallError::Reply(Box::new(e)))),
            reply => Ok(reply),
        }
    }
}

/// Every integer of a script's reply as Redis 7.0 returns it: Lua holds numbers as doubles
/// (`lua_pushnumber` of a `redis.call` integer, or a literal), and the reply casts them back
/// with C's `(long long)`, which on x86-64 gives the smallest integer for 2^63 and above.
/// Recorded on redis-server 7.0.15: `EVAL "return 9223372036854775806" 0` answers
/// `-9223372036854775808`; `EVAL "return 9007199254740993" 0` answers `9007199254740992`.
fn through_lua_number(reply: Reply) -> Reply {
    match reply {
        Reply::Int(n) => {
            let d = n as f64;
            Reply::Int(if d >= 9_223_372_036_854_775_808.0 {
                i64::MIN
            } else {
                d as i64
            })
        }
        Reply::Array(items) => Reply::Array(items.into_iter().map(through_lua_number).collect()),
        other => other,
    }
}

/// A Lua number passed to `redis.call`, as Redis 7.0 writes it (`"%.17g"` of the double):
/// integers below 10^17 in full, larger ones as `1.2345678901234568e+17`. Recorded on
/// redis-server 7.0.15: `redis.call('SET', KEYS[1], 99999999999999999)` stores `1e+17`.
fn lua_number_arg(n: i64) -> String {
    let d = n as f64;
    if d.abs() < 1e17 {
        return (d as i64).to_string();
    }
    let text = format!("{d:.16e}");
    let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
    let mantissa = if mantissa.contains('.') {
        mantissa.trim_end_matches('0').trim_end_matches('.')
    } else {
        mantissa
    };
    format!("{mantissa}e+{exponent}")
}

struct ScriptRun<'a> {
    /// EVAL_RO / EVALSHA_RO: a write command raises.
    read_only: bool,
    sha: &'a str,
    keys: &'a [Vec<u8>],
    argv: &'a [Vec<u8>],
    /// The script's own client: READONLY and ASKING copied from the caller.
    session: Session,
}

/// A Lua value as the subset sees it: nil, or a value that converts to a reply.
enum Lua {
    Nil,
    Value(Reply),
}

/// An expression of the script subset.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Expr {
    Str(Vec<u8>),
    Int(i64),
    Key(i64),
    Arg(i64),
    Keys,
    Argv,
    Table(Vec<Expr>),
    Call { args: Vec<Expr>, line: usize },
}

const MAX_DEPTH: usize = 32;

struct Parser<'a> {
    src: &'a [u8],
    pos: usize,
    /// Byte offsets of the script's line breaks, so a position's line is a binary search.
    newlines: Vec<usize>,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.src.get(self.pos).copied()
    }

    fn line(&self) -> usize {
        self.newlines.partition_point(|&p| p < self.pos) + 1
    }

    fn fail<T>(&self, problem: ScriptSyntax) -> Result<T, ScriptNotRun> {
        let line = self.line();
        // The line break before this line (line n follows break n - 1, counted from 1).
        let line_start = match line.checked_sub(2) {
            Some(i) => self.newlines.get(i).map_or(0, |p| p + 1),
            None => 0,
        };
        let column = self
            .src
            .get(line_start..self.pos)
            .map_or(0, |s| String::from_utf8_lossy(s).chars().count())
            + 1;
        Err(ScriptNotRun::Syntax {
            line,
            column,
            problem,
        })
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, token: &[u8]) -> bool {
        self.skip_space();
        let end = self.pos + token.len();
        if self.src.get(self.pos..end) == Some(token) {
            self.pos = end;
            true
        } else {
            false
        }
    }

    fn word(&mut self) -> &[u8] {
        self.skip_space();
        let start = self.pos;
        while self
            .peek()
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
        {
            self.pos += 1;
        }
        self.src.get(start..self.pos).unwrap_or(&[])
    }

    fn expect(&mut self, token: &[u8], problem: ScriptSyntax) -> Result<(), ScriptNotRun> {
        if self.eat(token) {
            Ok(())
        } else {
            self.fail(problem)
        }
    }

    fn script(&mut self) -> Result<Expr, ScriptNotRun> {
        if self.word() != b"return" {
            return self.fail(ScriptSyntax::MustStartWithReturn);
        }
        let expr = self.expr(0)?;
        self.eat(b";");
        self.skip_space();
        if self.pos < self.src.len() {
            return self.fail(ScriptSyntax::TrailingText);
        }
        Ok(expr)
    }

    fn list(&mut self, close: u8, depth: usize) -> Result<Vec<Expr>, ScriptNotRun> {
        let mut items = Vec::new();
        if self.eat(&[close]) {
            return Ok(items);
        }
        loop {
            items.push(self.expr(depth + 1)?);
            if self.eat(&[close]) {
                return Ok(items);
            }
            self.expect(b",", ScriptSyntax::ExpectedComma)?;
            if close == b'}' && self.eat(b"}") {
                return Ok(items);
            }
        }
    }

    fn expr(&mut self, depth: usize) -> Result<Expr, ScriptNotRun> {
        if depth > MAX_DEPTH {
            return self.fail(ScriptSyntax::TooDeep);
        }
        self.skip_space();
        match self.peek() {
            Some(b'{') => {
                self.pos += 1;
                Ok(Expr::Table(self.list(b'}', depth)?))
            }
            Some(q @ (b'\'' | b'"')) => {
                self.pos += 1;
                self.string(q).map(Expr::Str)
            }
            Some(b'-' | b'0'..=b'9') => self.integer().map(Expr::Int),
            _ => {
                let start = self.pos;
                match self.word() {
                    b"redis.call" => {
                        self.skip_space();
                        let line = self.line();
                        self.expect(b"(", ScriptSyntax::ExpectedOpenParen)?;
                        let args = self.list(b')', depth)?;
                        Ok(Expr::Call { args, line })
                    }
                    name @ (b"KEYS" | b"ARGV") => {
                        let keys = name == b"KEYS";
                        if !self.eat(b"[") {
                            return Ok(if keys { Expr::Keys } else { Expr::Argv });
                        }
                        let n = self.integer()?;
                        self.expect(b"]", ScriptSyntax::ExpectedCloseBracket)?;
                        Ok(if keys { Expr::Key(n) } else { Expr::Arg(n) })
                    }
                    _ => {
                        self.pos = start;
                        self.fail(ScriptSyntax::ExpectedExpression)
                    }
                }
            }
        }
    }

    fn integer(&mut self) -> Result<i64, ScriptNotRun> {
        self.skip_space();
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.pos += 1;
        }
        let text = self.src.get(start..self.pos).unwrap_or(&[]);
        match std::str::from_utf8(text).ok().and_then(|t| t.parse().ok()) {
            Some(n) => Ok(n),
            None => {
                self.pos = start;
                self.fail(ScriptSyntax::ExpectedInteger)
            }
        }
    }

    /// A Lua short string after its opening quote `q`.
    fn string(&mut self, q: u8) -> Result<Vec<u8>, ScriptNotRun> {
        let mut out = Vec::new();
        loop {
            let Some(b) = self.peek() else {
                return self.fail(ScriptSyntax::UnfinishedString);
            };
            self.pos += 1;
            match b {
                b'\n' => return self.fail(ScriptSyntax::UnfinishedString),
                b'\\' => {
                    let Some(e) = self.peek() else {
                        return self.fail(ScriptSyntax::UnfinishedString);
                    };
                    self.pos += 1;
                    match e {
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'a' => out.push(0x07),
                        b'b' => out.push(0x08),
                        b'f' => out.push(0x0c),
                        b'v' => out.push(0x0b),
                        b'\\' | b'"' | b'\'' | b'\n' => out.push(e),
                        b'0'..=b'9' => {
                            let mut value = u32::from(e - b'0');
                            for _ in 0..2 {
                                match self.peek() {
                                    Some(d @ b'0'..=b'9') => {
                                        value = value * 10 + u32::from(d - b'0');
                                        self.pos += 1;
                                    }
                                    _ => break,
                                }
                            }
                            match u8::try_from(value) {
                                Ok(v) => out.push(v),
                                Err(_) => return self.fail(ScriptSyntax::EscapeTooLarge),
                            }
                        }
                        _ => return self.fail(ScriptSyntax::UnknownEscape),
                    }
                }
                _ if b == q => return Ok(out),
                _ => out.push(b),
            }
        }
    }
}

/// Whether `body` is in the page's Lua subset, and where the reading stopped if not.
pub(super) fn check_script(body: &[u8]) -> Result<(), ScriptNotRun> {
    parse_script(body).map(|_| ())
}

fn parse_script(body: &[u8]) -> Result<Expr, ScriptNotRun> {
    let newlines = body
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b == b'\n')
        .map(|(i, _)| i)
        .collect();
    Parser {
        src: body,
        pos: 0,
        newlines,
    }
    .script()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_subset_parses() {
        let e = parse_script(b"return {redis.call('GET', KEYS[1]), redis.call(\"GET\", 'bar')}")
            .unwrap();
        assert!(matches!(e, Expr::Table(ref items) if items.len() == 2));
        assert!(parse_script(b"local x = 1 return x").is_err());
        assert!(parse_script(b"return redis.call('GET', 'a') .. 'b'").is_err());
        let err = parse_script(b"return {\n  KEYS[1],\n  nope}").unwrap_err();
        assert_eq!(
            err,
            ScriptNotRun::Syntax {
                line: 3,
                column: 3,
                problem: ScriptSyntax::ExpectedExpression
            }
        );
        let deep = format!("return {}{}", "{".repeat(1000), "}".repeat(1000));
        assert!(matches!(
            parse_script(deep.as_bytes()),
            Err(ScriptNotRun::Syntax {
                problem: ScriptSyntax::TooDeep,
                ..
            })
        ));
    }
}
