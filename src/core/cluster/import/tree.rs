//! `CLUSTER SHARDS` and `CLUSTER SLOTS` replies as a tree of values, read from redis-cli's
//! numbered terminal form (the `--raw` form is rebuilt by each format's own reader), and the
//! checked reads of one value (a slot, a port, an id, ...) both formats share.

use super::error::{Expected as E, Found, ImportError, ImportErrorKind};
use super::lines::{expected, is_empty_array, is_hostname, is_node_id, shorten, text, Line};
use super::MAX_DEPTH;
use crate::core::cluster::topology::SlotRange;
use crate::core::key::escape::parse_key;
use crate::core::key::slot::N_SLOTS;

#[derive(Clone, Debug)]
pub(super) struct Node {
    /// Where the value (for an array: its first item) is written.
    pub(super) line: usize,
    pub(super) value: Value,
}

#[derive(Clone, Debug)]
pub(super) enum Value {
    Str(String),
    Int(i64),
    Nil,
    Array(Vec<Node>),
}

impl Node {
    pub(super) fn items(&self) -> Option<&[Node]> {
        match &self.value {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    /// A string, or an integer as text (`--raw` output does not tell them apart).
    pub(super) fn text(&self) -> Option<String> {
        match &self.value {
            Value::Str(s) => Some(s.clone()),
            Value::Int(n) => Some(n.to_string()),
            _ => None,
        }
    }

    /// An integer, or a string of digits (`--raw` output does not tell them apart).
    pub(super) fn int(&self) -> Option<i64> {
        match &self.value {
            Value::Int(n) => Some(*n),
            Value::Str(s) => s.parse().ok(),
            _ => None,
        }
    }

    /// What this is, for an error.
    pub(super) fn describe(&self) -> Found {
        match &self.value {
            Value::Str(s) => text(s),
            Value::Int(n) => Found::Integer(*n),
            Value::Nil => Found::Nil,
            Value::Array(items) if items.is_empty() => Found::EmptyArray,
            Value::Array(_) => Found::List,
        }
    }
}

/// Item `i` of a list that starts on line `line`, or an error, on the line where the list
/// ends, saying what is missing.
pub(super) fn item(items: &[Node], i: usize, line: usize, what: E) -> Result<&Node, ImportError> {
    items
        .get(i)
        .ok_or_else(|| expected(end_line(items, line), what, Found::EndOfList))
}

/// The line of the last value in `items` (nested lists included), or `line` if there is none.
/// Recursion is bounded: the tree is at most `MAX_DEPTH` deep.
fn end_line(items: &[Node], line: usize) -> usize {
    match items.last() {
        Some(Node {
            line,
            value: Value::Array(inner),
        }) => end_line(inner, *line),
        Some(node) => node.line,
        None => line,
    }
}

pub(super) fn list(node: &Node, what: E) -> Result<&[Node], ImportError> {
    node.items()
        .ok_or_else(|| expected(node.line, what, node.describe()))
}

/// The reply as a tree: parsed from the numbered terminal form, or rebuilt from `--raw` lines by
/// the format's own rule.
pub(super) fn tree(
    content: &[Line<'_>],
    raw: fn(&[Line<'_>]) -> Result<Node, ImportError>,
) -> Result<Node, ImportError> {
    let numbered = content
        .first()
        .is_some_and(|l| !split_prefixes(l.text).0.is_empty());
    if numbered {
        nested(content)
    } else {
        raw(content)
    }
}

/// Splits `   4) 1)  1) "id"` into its item numbers and the value. Each number comes with the
/// column of its `)`: redis-cli right-aligns the numbers of one array (` 9)`, `10)`), so the
/// `)` column, not the first digit, is what all items of one array share.
pub(super) fn split_prefixes(text: &str) -> (Vec<(usize, u64)>, &str) {
    let bytes = text.as_bytes();
    let mut prefixes = Vec::new();
    let mut pos = 0;
    loop {
        let mut p = pos;
        while bytes.get(p) == Some(&b' ') {
            p += 1;
        }
        let digits = p;
        while bytes.get(p).is_some_and(u8::is_ascii_digit) {
            p += 1;
        }
        let closes = bytes.get(p) == Some(&b')') && matches!(bytes.get(p + 1), None | Some(b' '));
        if p == digits || !closes {
            break;
        }
        let number = text
            .get(digits..p)
            .and_then(|d| d.parse().ok())
            .unwrap_or(u64::MAX);
        prefixes.push((p, number));
        pos = p + 1;
    }
    (prefixes, text.get(pos..).unwrap_or_default().trim())
}

fn leaf(no: usize, line: &str) -> Result<Node, ImportError> {
    let value = if line.starts_with('"') {
        // A quoted string in redis-cli's escapes (`\"`, `\xNN`, ...), the same syntax keys use.
        let bytes = parse_key(line).map_err(|_| expected(no, E::QuotedString, text(line)))?;
        Value::Str(String::from_utf8_lossy(&bytes).into_owned())
    } else if let Some(n) = line.strip_prefix("(integer) ") {
        Value::Int(
            n.parse()
                .map_err(|_| expected(no, E::Integer, text(line)))?,
        )
    } else if line == "(nil)" {
        Value::Nil
    } else if is_empty_array(line) {
        Value::Array(Vec::new())
    } else if let Some(message) = line.strip_prefix("(error) ") {
        return Err(ImportError::at(
            no,
            ImportErrorKind::RedisError {
                message: shorten(message),
            },
        ));
    } else {
        return Err(expected(no, E::Value, text(line)));
    };
    Ok(Node { line: no, value })
}

/// An array being filled: the column of its items' `)`, the line of its first item, its items.
struct Frame {
    col: usize,
    line: usize,
    items: Vec<Node>,
}

/// Parses redis-cli's terminal form. Item numbers must run 1, 2, 3, ... within each array and
/// line up under each other, which is how shuffled or missing lines are caught.
fn nested(content: &[Line<'_>]) -> Result<Node, ImportError> {
    let Some(first) = content.first() else {
        return Err(ImportError::whole(ImportErrorKind::Empty));
    };
    let Some(&(root_col, _)) = split_prefixes(first.text).0.first() else {
        // A one-line reply such as `(empty array)`: nothing may follow it.
        if let Some(next) = content.get(1) {
            return Err(expected(
                next.no,
                E::NothingAfterOneLineReply,
                text(next.text.trim()),
            ));
        }
        return leaf(first.no, first.text.trim());
    };
    let mut stack = vec![Frame {
        col: root_col,
        line: first.no,
        items: Vec::new(),
    }];
    for line in content {
        let (prefixes, value) = split_prefixes(line.text);
        let Some(&(col, _)) = prefixes.first() else {
            return Err(expected(line.no, E::NumberedItem, text(line.text.trim())));
        };
        // Close the arrays this line is outside of.
        while stack.len() > 1 && stack.last().is_some_and(|f| f.col > col) {
            close(&mut stack);
        }
        if stack.last().map(|f| f.col) != Some(col) {
            return Err(expected(line.no, E::AlignedItem, text(line.text.trim())));
        }
        for (j, &(col, number)) in prefixes.iter().enumerate() {
            if j > 0 {
                // `2) 1) ...`: item 2 of the outer array is an array whose item 1 is here.
                if stack.len() >= MAX_DEPTH {
                    return Err(ImportError::at(line.no, ImportErrorKind::TooDeep));
                }
                stack.push(Frame {
                    col,
                    line: line.no,
                    items: Vec::new(),
                });
            }
            let next = stack.last().map_or(1, |f| f.items.len() + 1);
            if number != next as u64 {
                let found = if number == u64::MAX {
                    text(line.text.trim())
                } else {
                    Found::Item(number)
                };
                return Err(expected(line.no, E::ItemNumber(next), found));
            }
        }
        let node = leaf(line.no, value)?;
        if let Some(top) = stack.last_mut() {
            top.items.push(node);
        }
    }
    while stack.len() > 1 {
        close(&mut stack);
    }
    let root = stack.pop().map_or_else(Vec::new, |f| f.items);
    Ok(Node {
        line: first.no,
        value: Value::Array(root),
    })
}

/// Pops the innermost open array into its parent.
fn close(stack: &mut Vec<Frame>) {
    if let Some(done) = stack.pop()
        && let Some(parent) = stack.last_mut()
    {
        parent.items.push(Node {
            line: done.line,
            value: Value::Array(done.items),
        });
    }
}

/// A `--raw` line as a string value (raw output does not mark integers).
pub(super) fn raw_value(line: &Line<'_>) -> Node {
    Node {
        line: line.no,
        value: Value::Str(line.text.trim().to_owned()),
    }
}

pub(super) fn raw_is(line: Option<&Line<'_>>, word: &str) -> bool {
    line.is_some_and(|l| l.text.trim() == word)
}

/// A slot number in a SHARDS or SLOTS reply.
pub(super) fn slot_value(node: &Node, what: E) -> Result<u16, ImportError> {
    match node.int() {
        Some(n) if (0..N_SLOTS as i64).contains(&n) => Ok(n as u16),
        Some(n) => Err(ImportError::at(
            node.line,
            ImportErrorKind::SlotOutOfRange {
                found: n.to_string(),
            },
        )),
        None => Err(expected(node.line, what, node.describe())),
    }
}

pub(super) fn slot_range(first: &Node, last: &Node) -> Result<SlotRange, ImportError> {
    let a = slot_value(first, E::FirstSlot)?;
    let b = slot_value(last, E::LastSlot)?;
    if a > b {
        return Err(ImportError::at(
            last.line,
            ImportErrorKind::BackwardRange { first: a, last: b },
        ));
    }
    Ok(SlotRange::new(a, b))
}

/// A `hostname` value: `None` when empty (no hostname set).
pub(super) fn hostname_value(node: &Node) -> Result<Option<String>, ImportError> {
    match node.text() {
        Some(h) if h.is_empty() => Ok(None),
        Some(h) if is_hostname(&h) => Ok(Some(h)),
        _ => Err(expected(node.line, E::Hostname, node.describe())),
    }
}

pub(super) fn port_value(node: &Node) -> Result<u16, ImportError> {
    node.int()
        .and_then(|p| u16::try_from(p).ok())
        .ok_or_else(|| expected(node.line, E::Port, node.describe()))
}

pub(super) fn id_value(node: &Node) -> Result<String, ImportError> {
    node.text()
        .filter(|s| is_node_id(s))
        .ok_or_else(|| expected(node.line, E::Id, node.describe()))
}

/// A list of alternating field names and values, as SHARDS writes its maps.
pub(super) fn fields(node: &Node, what: E) -> Result<Vec<(String, &Node)>, ImportError> {
    let items = list(node, what)?;
    let mut out = Vec::with_capacity(items.len() / 2);
    for pair in items.chunks(2) {
        let Some(key) = pair.first() else { continue };
        let name = key
            .text()
            .ok_or_else(|| expected(key.line, E::FieldName, key.describe()))?;
        let Some(value) = pair.get(1) else {
            return Err(expected(
                key.line,
                E::ValueOf(shorten(&name)),
                Found::EndOfList,
            ));
        };
        out.push((name, value));
    }
    Ok(out)
}

pub(super) fn field<'n>(fields: &[(String, &'n Node)], name: &str) -> Option<&'n Node> {
    fields.iter().find(|(k, _)| k == name).map(|&(_, v)| v)
}
