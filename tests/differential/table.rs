//! Redis 7.0.15's own command table, read from the fixture `commands/command_info.json` (the
//! reply to `COMMAND`): which names exist (every generated command must be one of them) and
//! each one's `tips`, which choose how its replies are compared (see `compare.rs`). A minimal
//! JSON reader, because the test needs nothing else from JSON.

use std::collections::BTreeMap;

/// A JSON value.
#[derive(Debug)]
enum Json {
    Null,
    Bool,
    Num,
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

struct Reader<'a> {
    s: &'a [u8],
    i: usize,
}

impl Reader<'_> {
    fn ws(&mut self) {
        while self.s.get(self.i).is_some_and(|c| c.is_ascii_whitespace()) {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> Result<(), String> {
        self.ws();
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            Ok(())
        } else {
            Err(format!("expected {:?} at byte {}", c as char, self.i))
        }
    }

    fn string(&mut self) -> Result<String, String> {
        self.eat(b'"')?;
        let mut out = Vec::new();
        loop {
            let c = *self.s.get(self.i).ok_or("unterminated string")?;
            self.i += 1;
            match c {
                b'"' => break,
                b'\\' => {
                    let e = *self.s.get(self.i).ok_or("bad escape")?;
                    self.i += 1;
                    match e {
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'u' => {
                            let hex = self.s.get(self.i..self.i + 4).ok_or("bad \\u")?;
                            let code = u32::from_str_radix(
                                std::str::from_utf8(hex).map_err(|e| e.to_string())?,
                                16,
                            )
                            .map_err(|e| e.to_string())?;
                            self.i += 4;
                            let ch = char::from_u32(code).unwrap_or('\u{fffd}');
                            out.extend_from_slice(ch.to_string().as_bytes());
                        }
                        other => out.push(other),
                    }
                }
                c => out.push(c),
            }
        }
        String::from_utf8(out).map_err(|e| e.to_string())
    }

    fn value(&mut self) -> Result<Json, String> {
        self.ws();
        match self.s.get(self.i).copied() {
            Some(b'"') => self.string().map(Json::Str),
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.s.get(self.i) == Some(&b']') {
                    self.i += 1;
                    return Ok(Json::Arr(items));
                }
                loop {
                    items.push(self.value()?);
                    self.ws();
                    if self.s.get(self.i) == Some(&b',') {
                        self.i += 1;
                    } else {
                        self.eat(b']')?;
                        return Ok(Json::Arr(items));
                    }
                }
            }
            Some(b'{') => {
                self.i += 1;
                let mut fields = Vec::new();
                self.ws();
                if self.s.get(self.i) == Some(&b'}') {
                    self.i += 1;
                    return Ok(Json::Obj(fields));
                }
                loop {
                    let k = self.string()?;
                    self.eat(b':')?;
                    fields.push((k, self.value()?));
                    self.ws();
                    if self.s.get(self.i) == Some(&b',') {
                        self.i += 1;
                    } else {
                        self.eat(b'}')?;
                        return Ok(Json::Obj(fields));
                    }
                }
            }
            Some(b't') | Some(b'f') => {
                let word: &[u8] = if self.s.get(self.i) == Some(&b't') {
                    b"true"
                } else {
                    b"false"
                };
                self.i += word.len();
                Ok(Json::Bool)
            }
            Some(b'n') => {
                self.i += 4;
                Ok(Json::Null)
            }
            Some(c) if c == b'-' || c.is_ascii_digit() => {
                while self
                    .s
                    .get(self.i)
                    .is_some_and(|c| matches!(c, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
                {
                    self.i += 1;
                }
                Ok(Json::Num)
            }
            _ => Err(format!("unexpected byte at {}", self.i)),
        }
    }
}

fn field<'a>(obj: &'a Json, name: &str) -> Option<&'a Json> {
    match obj {
        Json::Obj(fields) => fields.iter().find(|(k, _)| k == name).map(|(_, v)| v),
        _ => None,
    }
}

/// Every command and subcommand name (`get`, `cluster|keyslot`) with its tips.
pub struct Table {
    tips: BTreeMap<String, Vec<String>>,
}

impl Table {
    /// Reads `command_info.json` from the fixtures.
    pub fn load(fixtures: &std::path::Path) -> Table {
        let path = fixtures.join("commands/command_info.json");
        let text =
            std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let json = Reader { s: &text, i: 0 }
            .value()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut tips = BTreeMap::new();
        fn walk(list: Option<&Json>, tips: &mut BTreeMap<String, Vec<String>>) {
            let Some(Json::Arr(list)) = list else { return };
            for c in list {
                let Some(Json::Str(name)) = field(c, "name") else {
                    continue;
                };
                let t = match field(c, "tips") {
                    Some(Json::Arr(t)) => t
                        .iter()
                        .filter_map(|x| match x {
                            Json::Str(s) => Some(s.clone()),
                            _ => None,
                        })
                        .collect(),
                    _ => Vec::new(),
                };
                tips.insert(name.clone(), t);
                walk(field(c, "subcommands"), tips);
            }
        }
        walk(field(&json, "commands"), &mut tips);
        assert_eq!(
            tips.len(),
            240 + 126,
            "command_info.json: 240 commands and 126 subcommands"
        );
        Table { tips }
    }

    /// The table's name for `args` (`get`, `cluster|keyslot`), if the command exists there.
    pub fn name_of(&self, args: &[Vec<u8>]) -> Option<String> {
        let first = String::from_utf8_lossy(args.first()?).to_ascii_lowercase();
        if let Some(sub) = args.get(1) {
            let full = format!(
                "{first}|{}",
                String::from_utf8_lossy(sub).to_ascii_lowercase()
            );
            if self.tips.contains_key(&full) {
                return Some(full);
            }
        }
        self.tips.contains_key(&first).then_some(first)
    }

    /// Whether the named command carries `tip`.
    pub fn has_tip(&self, name: &str, tip: &str) -> bool {
        self.tips
            .get(name)
            .is_some_and(|t| t.iter().any(|x| x == tip))
    }
}
