//! The planner's batch, read: commands answered line by line, or keys for one command; a big
//! key list (a 4 MB paste is 100,000 keys) is read a slice per frame after the frame that
//! shows the paste, with its progress on the page (issue 17), into the same batch as a
//! reading in one piece. A key list is read once per text: another command, node, cluster or
//! language only answers its keys again.

use crate::core::key::escape::EscapeError;
use crate::core::server::route::Session;
use crate::core::server::Cluster;
use crate::core::workload::batch::{command_for_keys, run_lines, BatchError, Line, Outcome};
use crate::core::workload::{KeyLines, KeySample, MAX_KEYS};
use crate::core::SlotMap;
use crate::ui::after_paint::{for_ms, in_slices};
use crate::ui::localize::{batch_error, escape_error};
use crate::ui::messages::{count, fill, Messages};
use crate::ui::planner_state::Lines;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// Keys one command is checked with by the engine; larger batches get the plan's verdict.
pub const MAX_ENGINE_KEYS: usize = 10_000;

/// A key list longer than this is read in slices ([`use_batch`]); a shorter one (a few
/// milliseconds' reading) in the render that shows it.
pub const SLICED_BYTES: usize = 256 << 10;

/// How long one slice of the planner's work (reading, generating) runs before the page paints
/// again.
pub const SLICE_MS: f64 = 8.0;

/// Lines read between two looks at the clock.
const LINES_PER_LOOK: usize = 2048;

/// What the batch was read into: the answered lines, the keys, and what went wrong.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Batch {
    /// The answered lines. A key list has one line, the command sent with every key, when it
    /// holds from 1 to [`MAX_ENGINE_KEYS`] keys; that line's text is the command's name (the
    /// page words it, [`Batch::line_text`]).
    pub lines: Vec<Line>,
    /// Every key, in the batch's order.
    pub keys: Rc<KeySample>,
    /// Why parts of the batch were not planned.
    pub problems: Rc<Vec<Problem>>,
}

impl Batch {
    /// A line's text as the page shows it: a command as pasted, or a key list's one line
    /// (its command and how many keys it is sent with) in the reader's language.
    pub fn line_text(&self, t: &Messages, lines: Lines, line: &Line) -> String {
        match lines {
            Lines::Commands => line.text.clone(),
            Lines::KeysFor(_) => fill(
                t.plan_keys_line,
                &[&line.text, &count(t.n_keys, self.keys.len())],
            ),
        }
    }
}

/// Why part of a paste was not planned; worded only when shown, in the reader's language.
#[derive(Debug, PartialEq, Eq)]
pub enum Problem {
    /// The batch was not answered at all.
    Batch(BatchError),
    /// More than [`MAX_KEYS`] keys: the rest were dropped.
    OnlyFirst,
    /// A line (1-based) that is not a key.
    Line(usize, EscapeError),
}

impl Problem {
    /// Whether the plan leaves part of the batch out for it: more commands than are answered
    /// one by one, or more keys than are planned (a line that is not a key is only itself).
    pub fn is_partial(&self) -> bool {
        matches!(
            self,
            Problem::Batch(BatchError::TooManyLines { .. }) | Problem::OnlyFirst
        )
    }

    /// The problem in the reader's language.
    pub fn describe(&self, t: &Messages) -> String {
        match self {
            Problem::Batch(e) => batch_error(t, e),
            Problem::OnlyFirst => fill(t.plan_only_first, &[&count(t.n_keys, MAX_KEYS)]),
            Problem::Line(line, e) => fill(t.at_line, &[line, &escape_error(t, e)]),
        }
    }
}

/// A key list, read: its keys and the lines that were not keys.
#[derive(Debug, Default, PartialEq)]
pub struct KeyList {
    /// Every key, in the list's order.
    pub keys: Rc<KeySample>,
    /// Lines that are not keys, and a cut-off at [`MAX_KEYS`].
    pub problems: Rc<Vec<Problem>>,
}

impl From<KeyLines> for KeyList {
    fn from(read: KeyLines) -> Self {
        let mut problems: Vec<Problem> = read
            .problems
            .into_iter()
            .map(|(line, e)| Problem::Line(line, e))
            .collect();
        if read.only_first {
            problems.push(Problem::OnlyFirst);
        }
        KeyList {
            keys: Rc::new(read.keys),
            problems: Rc::new(problems),
        }
    }
}

/// Reads the paste in one piece: commands, or one key per line for the command `lines` names.
pub fn read_batch(map: &SlotMap, node: &str, text: &str, lines: Lines) -> Batch {
    match lines {
        Lines::KeysFor(command) => keys_batch(map, node, command, &KeyLines::read_all(text).into()),
        Lines::Commands => commands_batch(map, node, text),
    }
}

/// A batch of commands, each answered by `node` in turn.
fn commands_batch(map: &SlotMap, node: &str, text: &str) -> Batch {
    let mut keys = KeySample::new();
    let mut problems = Vec::new();
    let lines = run_lines(map, node, text).unwrap_or_else(|e| {
        problems.push(Problem::Batch(e));
        Vec::new()
    });
    for line in &lines {
        for (k, _) in &line.keys {
            keys.push(k);
        }
    }
    Batch {
        lines,
        keys: Rc::new(keys),
        problems: Rc::new(problems),
    }
}

/// The batch of a key list: its keys and problems, and, for up to [`MAX_ENGINE_KEYS`] keys,
/// `command` sent with all of them to `node`, answered by the engine.
fn keys_batch(map: &SlotMap, node: &str, command: &str, list: &KeyList) -> Batch {
    let keys = &list.keys;
    let lines = if !keys.is_empty() && keys.len() <= MAX_ENGINE_KEYS {
        let parsed: Vec<Vec<u8>> = keys.iter().map(<[u8]>::to_vec).collect();
        let args = command_for_keys(command, &parsed);
        let reply = Cluster::new(map.clone()).exec(node, &args, &mut Session::new());
        vec![Line {
            line_no: 1,
            text: command.to_string(),
            keys: Vec::new(),
            outcome: Outcome::Reply(reply),
        }]
    } else {
        Vec::new()
    };
    Batch {
        lines,
        keys: keys.clone(),
        problems: list.problems.clone(),
    }
}

/// How far a sliced reading has come: bytes of the text read, of all its bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    /// Bytes read so far.
    pub read: usize,
    /// The text's bytes.
    pub total: usize,
}

/// The batch read from the planner's text, its lines, the node it is sent to and the cluster.
/// While a big key list is being read, the batch returned is the last one read whole (the
/// page shows the progress instead of it) and the progress is `Some`.
#[hook]
pub fn use_batch(
    text: Rc<str>,
    lines: Lines,
    node: String,
    map: Rc<SlotMap>,
) -> (Rc<Batch>, Option<Reading>) {
    let is_keys = matches!(lines, Lines::KeysFor(_));
    let (list, reading) = use_key_list(is_keys.then(|| text.clone()));
    let batch = use_memo(
        ((!is_keys).then_some(text), lines, node, map, list),
        |(text, lines, node, map, list)| match (lines, text) {
            (Lines::KeysFor(command), _) => keys_batch(map, node, command, list),
            (Lines::Commands, Some(text)) => commands_batch(map, node, text),
            (Lines::Commands, None) => Batch::default(),
        },
    );
    (batch, reading)
}

/// A key list being read in slices, and the text it is read from.
struct Job {
    text: Rc<str>,
    read: KeyLines,
}

/// The last key list read whole, and its text.
type Last = RefCell<Option<(Rc<str>, Rc<KeyList>)>>;

/// The key list in `text` (none: not a key list): read in the render when it is short, else a
/// slice per frame after the frame that shows it, with how far it has come.
#[hook]
fn use_key_list(text: Option<Rc<str>>) -> (Rc<KeyList>, Option<Reading>) {
    let last = use_mut_ref(|| None::<(Rc<str>, Rc<KeyList>)>);
    let job = use_mut_ref(|| None::<Job>);
    let redraw = use_force_update();
    let unread = |t: &Rc<str>| {
        let read = last.borrow().as_ref().is_some_and(|(l, _)| l == t);
        !read && t.len() > SLICED_BYTES
    };
    let Some(text) = text.clone().filter(unread) else {
        // Not a key list, one already read, or one short enough to read now.
        let list = text.map(|text| {
            let mut last = last.borrow_mut();
            match last.as_ref().filter(|(l, _)| *l == text) {
                Some((_, list)) => list.clone(),
                None => {
                    let list = Rc::new(KeyList::from(KeyLines::read_all(&text)));
                    *last = Some((text, list.clone()));
                    list
                }
            }
        });
        use_slices(None, job, last, redraw);
        return (list.unwrap_or_default(), None);
    };
    let read = job
        .borrow()
        .as_ref()
        .filter(|j| j.text == text)
        .map_or(0, |j| j.read.bytes_read());
    let shown = last.borrow().as_ref().map(|(_, l)| l.clone());
    let reading = Reading {
        read,
        total: text.len(),
    };
    use_slices(Some(text), job, last, redraw);
    (shown.unwrap_or_default(), Some(reading))
}

/// Reads the key list in `pending` a slice per frame, from the frame after it is first asked
/// for until it is read or no longer asked for.
#[hook]
fn use_slices(
    pending: Option<Rc<str>>,
    job: Rc<RefCell<Option<Job>>>,
    last: Rc<Last>,
    redraw: UseForceUpdateHandle,
) {
    use_effect_with(pending, move |pending| {
        let slices = pending.clone().map(|text| {
            *job.borrow_mut() = Some(Job {
                text,
                read: KeyLines::new(),
            });
            in_slices(move || read_slice(&job, &last, &redraw))
        });
        move || drop(slices)
    });
}

/// One slice of a [`Job`]: reads for [`SLICE_MS`], and when the list is read, puts it where
/// [`use_key_list`] finds it. Says whether the job is over.
fn read_slice(job: &RefCell<Option<Job>>, last: &Last, redraw: &UseForceUpdateHandle) -> bool {
    let mut slot = job.borrow_mut();
    let Some(j) = slot.as_mut() else { return true };
    if !for_ms(SLICE_MS, || j.read.read(&j.text, LINES_PER_LOOK)) {
        redraw.force_update();
        return false;
    }
    let list = KeyList::from(std::mem::take(&mut j.read));
    *last.borrow_mut() = Some((j.text.clone(), Rc::new(list)));
    *slot = None;
    redraw.force_update();
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key list read in slices gives the batch read in one piece.
    #[test]
    fn slices_give_the_batch_of_one_reading() {
        let map = SlotMap::fixture_cluster();
        let text: String = (0..30_000)
            .map(|i| match i % 1000 {
                7 => "\\x4\n".to_string(),
                8 => "\n".to_string(),
                9 => "\"quoted {a}\"\r\n".to_string(),
                _ => format!("user:{i}:{{t{}}}\n", i % 97),
            })
            .collect();
        for n in [30_000, 9_000] {
            let text: String = text.lines().take(n).map(|l| format!("{l}\n")).collect();
            let whole = read_batch(&map, "127.0.0.1:7000", &text, Lines::KeysFor("MGET"));
            let mut read = KeyLines::new();
            while !read.read(&text, 333) {}
            let sliced = keys_batch(&map, "127.0.0.1:7000", "MGET", &read.into());
            assert_eq!(sliced, whole);
            assert_eq!(whole.lines.len(), usize::from(n <= MAX_ENGINE_KEYS));
            assert_eq!(whole.problems.len(), n / 1000);
        }
    }
}
