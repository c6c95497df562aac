//! The lines of a paste: what to skip (blanks, comments, prompts), where the reply is, which
//! command printed it, and the small helpers every reader's errors use.

use super::error::{Expected, Found, ImportError, ImportErrorKind};
use super::tree::split_prefixes;
use super::{Format, QUOTE_CHARS};

/// One line of the paste: its 1-based number and its text without the line end and trailing
/// blanks. Leading blanks stay: in `redis-cli`'s nested arrays they carry the structure.
#[derive(Clone, Copy, Debug)]
pub(super) struct Line<'a> {
    pub(super) no: usize,
    pub(super) text: &'a str,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum LineKind {
    /// Blank, or a `#` comment.
    Skip,
    /// A shell or redis-cli prompt, with or without a command after it.
    Prompt,
    /// Part of the reply.
    Content,
}

pub(super) fn lines(text: &str) -> impl Iterator<Item = (Line<'_>, LineKind)> {
    // Split on '\n' only: trim_end then drops the '\r' of CR LF line ends.
    text.split('\n').enumerate().map(|(i, raw)| {
        let text = raw.trim_end();
        (Line { no: i + 1, text }, line_kind(text))
    })
}

fn line_kind(text: &str) -> LineKind {
    let t = text.trim_start();
    if t.is_empty() || t.starts_with('#') {
        return LineKind::Skip;
    }
    let first = t.split_whitespace().next().unwrap_or_default();
    // `$ redis-cli ...`, or `user@host:~$ redis-cli ...`.
    if first == "$" || (first.len() > 1 && first.ends_with('$')) {
        return LineKind::Prompt;
    }
    // redis-cli's own prompt: `127.0.0.1:7000>`, `127.0.0.1:7000[1]>`, `127.0.0.1:7000(TX)>`,
    // `not connected>`. No reply line starts with a word ending in '>' (the `->` inside
    // `[5712->-id]` is never in the first field); `>>> Performing ...` is not a prompt.
    if (first.len() > 1 && first.ends_with('>') && !first.starts_with('>'))
        || t.starts_with("not connected>")
    {
        return LineKind::Prompt;
    }
    LineKind::Content
}

/// The reply's lines. A prompt after the reply has begun ends it; output after such a prompt is
/// a second reply, refused rather than merged or guessed at. A trailing bare prompt is fine.
pub(super) fn content_lines(text: &str) -> Result<Vec<Line<'_>>, ImportError> {
    let mut out = Vec::new();
    let mut ended_at = None;
    for (line, kind) in lines(text) {
        match kind {
            LineKind::Skip => {}
            LineKind::Prompt => {
                if !out.is_empty() && ended_at.is_none() {
                    ended_at = Some(line.no);
                }
            }
            LineKind::Content => {
                if let Some(at) = ended_at {
                    return Err(ImportError::at(at, ImportErrorKind::SeveralReplies));
                }
                out.push(line);
            }
        }
    }
    Ok(out)
}

pub(super) fn detect_line(text: &str) -> Option<Format> {
    let (prefixes, leaf) = split_prefixes(text);
    if !prefixes.is_empty() {
        // Terminal form: SHARDS opens with the field name "slots", SLOTS with a slot number.
        return if leaf == "\"slots\"" {
            Some(Format::Shards)
        } else if leaf.starts_with("(integer) ") {
            Some(Format::Slots)
        } else {
            None
        };
    }
    let t = text.trim();
    let mut fields = t.split_whitespace();
    let (first, second) = (fields.next()?, fields.next());
    if is_node_id(first) || second.is_some_and(|s| s.contains(':') && s.contains('@')) {
        return Some(Format::Nodes);
    }
    // `--raw` form: the same values without numbers, quotes or `(integer)`.
    if t == "slots" {
        Some(Format::Shards)
    } else if !t.is_empty() && t.len() <= 5 && t.bytes().all(|b| b.is_ascii_digit()) {
        Some(Format::Slots)
    } else {
        None
    }
}

pub(super) fn unrecognised(first: &Line<'_>, n_lines: usize) -> ImportError {
    let (_, leaf) = split_prefixes(first.text);
    let kind = if let Some(message) = leaf.strip_prefix("(error) ") {
        ImportErrorKind::RedisError {
            message: shorten(message),
        }
    } else if n_lines == 1 && is_empty_array(leaf) {
        // What SLOTS and SHARDS print for a cluster with no slots and no nodes.
        ImportErrorKind::NoMasters
    } else {
        ImportErrorKind::Unrecognised {
            found: shorten(first.text.trim()),
        }
    };
    ImportError::at(first.no, kind)
}

pub(super) fn is_node_id(s: &str) -> bool {
    s.len() == 40 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Redis accepts only letters, digits, `-` and `.` in `cluster-announce-hostname`.
pub(super) fn is_hostname(h: &str) -> bool {
    !h.is_empty()
        && h.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.')
}

/// An IP (or endpoint) from SHARDS or SLOTS must fit in one `ip:port@cport` field of
/// `CLUSTER NODES`, so that the map can be exported and read back.
pub(super) fn is_host(h: &str) -> bool {
    !h.chars().any(|c| c.is_whitespace() || c == ',' || c == '@')
}

pub(super) fn is_empty_array(leaf: &str) -> bool {
    matches!(
        leaf,
        "(empty array)" | "(empty list or set)" | "(empty set)" | "(empty hash)"
    )
}

pub(super) fn shorten(s: &str) -> String {
    let mut chars = s.chars();
    let mut out: String = chars.by_ref().take(QUOTE_CHARS).collect();
    if chars.next().is_some() {
        out.push('…');
    }
    out
}

/// A piece of the paste as what was found, shortened.
pub(super) fn text(s: &str) -> Found {
    Found::Text(shorten(s))
}

/// The error "expected this, found that" on `line`.
pub(super) fn expected(line: usize, expected: Expected, found: Found) -> ImportError {
    ImportError::at(line, ImportErrorKind::Expected { expected, found })
}
