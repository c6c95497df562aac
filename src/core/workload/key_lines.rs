//! Keys pasted one per line, read into a [`KeySample`] a slice at a time: the planner reads a
//! batch of 100,000 keys in pieces so the page keeps answering (issue 17), and the result is
//! the same wherever the pieces end.

use super::{KeySample, MAX_KEYS};
use crate::core::key::escape::{is_own_bytes, parse_key, EscapeError};

/// A batch of keys, one per line, being read: blank lines are skipped, each other line is
/// trimmed and read with redis-cli's escapes ([`parse_key`]); only the first [`MAX_KEYS`]
/// keys are kept.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KeyLines {
    /// The keys read so far, in the order of their lines.
    pub keys: KeySample,
    /// Lines that are not a key: the line's number (1-based) and why.
    pub problems: Vec<(usize, EscapeError)>,
    /// The batch held more than [`MAX_KEYS`] keys: the rest were not read.
    pub only_first: bool,
    /// Bytes of the text read so far (always at a line's start).
    at: usize,
    /// Lines read so far.
    lines: usize,
    done: bool,
}

impl KeyLines {
    /// Nothing read yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// All of `text` read at once.
    pub fn read_all(text: &str) -> Self {
        let mut r = Self::new();
        while !r.read(text, usize::MAX) {}
        r
    }

    /// Reads up to `max_lines` more lines of `text` (the same text at every call) and says
    /// whether the batch is read to its end.
    pub fn read(&mut self, text: &str, max_lines: usize) -> bool {
        let rest = text.get(self.at..).unwrap_or_default();
        // `str::lines`, a line at a time: a line ends at `\n`, and a `\r` before it is dropped.
        for raw in rest.split_inclusive('\n').take(max_lines) {
            if self.done {
                break;
            }
            self.at += raw.len();
            self.lines += 1;
            let line = raw
                .strip_suffix('\n')
                .map_or(raw, |l| l.strip_suffix('\r').unwrap_or(l));
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            if self.keys.len() >= MAX_KEYS {
                self.only_first = true;
                self.done = true;
                break;
            }
            // A key that is its own bytes needs no copy of its own.
            if is_own_bytes(line) {
                self.keys.push(line.as_bytes());
                continue;
            }
            match parse_key(line) {
                Ok(k) => self.keys.push(&k),
                Err(e) => self.problems.push((self.lines, e)),
            }
        }
        if self.at >= text.len() {
            self.done = true;
        }
        self.done
    }

    /// Bytes of the text read so far.
    pub fn bytes_read(&self) -> usize {
        self.at
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the planner read before it read in slices, written out: `str::lines`, blank lines
    /// skipped, trimmed, [`parse_key`], stopping after [`MAX_KEYS`] keys.
    fn reference(text: &str) -> (Vec<Vec<u8>>, Vec<(usize, EscapeError)>, bool) {
        let (mut keys, mut problems, mut only_first) = (Vec::new(), Vec::new(), false);
        for (i, l) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            if keys.len() >= MAX_KEYS {
                only_first = true;
                break;
            }
            match parse_key(l.trim()) {
                Ok(k) => keys.push(k),
                Err(e) => problems.push((i + 1, e)),
            }
        }
        (keys, problems, only_first)
    }

    fn check(text: &str) {
        let (keys, problems, only_first) = reference(text);
        for slice in [1, 2, 3, 7, 64, 1000, usize::MAX] {
            let mut r = KeyLines::new();
            let mut calls = 0;
            while !r.read(text, slice) {
                calls += 1;
                assert!(
                    calls <= text.len() + 1,
                    "reading in slices of {slice} never ends"
                );
            }
            let got: Vec<Vec<u8>> = r.keys.iter().map(<[u8]>::to_vec).collect();
            assert_eq!(got, keys, "keys, slices of {slice}: {text:?}");
            assert_eq!(r.problems, problems, "problems, slices of {slice}");
            assert_eq!(r.only_first, only_first);
        }
    }

    #[test]
    fn slices_read_what_one_pass_reads() {
        check("");
        check("\n");
        check("a");
        check("a\nb\n");
        check("a\r\nb\r\n\r\n  \n\tc \n");
        check("last\r");
        check("bare\rcr\nx");
        check("\"quoted key\"\nplain\\x41\n\"open\nok\n\\x4\nend");
        check("ключ\n{用户}:1\n\"\\xff\\x00\"\n\u{a0}nbsp\u{a0}\n");
        let many: String = (0..5000)
            .map(|i| format!("{{user{}}}:k{i}\n", i % 7))
            .collect();
        check(&many);
    }

    #[test]
    fn stops_after_max_keys() {
        let text = "k\n".repeat(MAX_KEYS + 2);
        let (keys, _, only_first) = reference(&text);
        let mut r = KeyLines::new();
        while !r.read(&text, 100_000) {}
        assert!(only_first && r.only_first);
        assert_eq!(r.keys.len(), keys.len());
        assert_eq!(r.keys.len(), MAX_KEYS);
        // Exactly MAX_KEYS keys: all read, nothing refused.
        let text = "k\n".repeat(MAX_KEYS);
        let r = KeyLines::read_all(&text);
        assert!(!r.only_first);
        assert_eq!(r.keys.len(), MAX_KEYS);
    }
}
