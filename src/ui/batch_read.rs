//! The planner's batch, read: commands answered line by line, or keys for one command; a big
//! key list (a 4 MB paste is 100,000 keys) is read a slice per frame after the frame that
//! shows the paste, with its progress on the page (issue 17), into the same batch as a
//! reading in one piece.

use crate::core::key::escape::EscapeError;
use crate::core::server::route::Session;
use crate::core::server::Cluster;
use crate::core::workload::batch::{command_for_keys, run_lines, BatchError, Line, Outcome};
use crate::core::workload::{KeyLines, KeySample, MAX_KEYS};
use crate::core::SlotMap;
use crate::ui::after_paint::{in_slices, now_ms};
use crate::ui::lang::Lang;
use crate::ui::localize::{batch_error, escape_error};
use crate::ui::messages::{fill, Messages};
use crate::ui::planner_state::Lines;
use std::rc::Rc;
use yew::prelude::*;

/// Keys one command is checked with by the engine; larger batches get the plan's verdict.
const MAX_ENGINE_KEYS: usize = 10_000;

/// A key list longer than this is read in slices ([`use_batch`]); a shorter one (a few
/// milliseconds' reading) in the render that shows it.
pub const SLICED_BYTES: usize = 256 << 10;

/// How long one slice of the planner's work (reading, generating) runs before the page paints
/// again.
pub const SLICE_MS: f64 = 8.0;

/// Lines read between two looks at the clock.
const LINES_PER_LOOK: usize = 2048;

/// What the batch was read into: the answered lines, the keys, and what went wrong.
#[derive(Debug, Default, PartialEq)]
pub struct Batch {
    /// The answered lines (a key list: one line, the command sent with every key, when it
    /// holds at most [`MAX_ENGINE_KEYS`] keys).
    pub lines: Vec<Line>,
    /// Every key, in the batch's order.
    pub keys: Rc<KeySample>,
    /// Why parts of the batch were not planned.
    pub problems: Vec<Problem>,
}

/// Why part of a paste was not planned; worded only when shown, in the reader's language.
#[derive(Debug, PartialEq)]
pub enum Problem {
    /// The batch was not answered at all.
    Batch(BatchError),
    /// More than [`MAX_KEYS`] keys: the rest were dropped.
    OnlyFirst,
    /// A line (1-based) that is not a key.
    Line(usize, EscapeError),
}

impl Problem {
    /// The problem in the reader's language.
    pub fn describe(&self, t: &Messages) -> String {
        match self {
            Problem::Batch(e) => batch_error(t, e),
            Problem::OnlyFirst => fill(t.plan_only_first, &[&MAX_KEYS]),
            Problem::Line(line, e) => fill(t.at_line, &[line, &escape_error(t, e)]),
        }
    }
}

/// Reads the paste in one piece: commands, or one key per line for the command `lines` names.
pub fn read_batch(t: &Messages, map: &SlotMap, node: &str, text: &str, lines: Lines) -> Batch {
    match lines {
        Lines::KeysFor(command) => keys_batch(t, map, node, command, KeyLines::read_all(text)),
        Lines::Commands => {
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
                problems,
            }
        }
    }
}

/// The batch of a key list read whole: its problems, and, for up to [`MAX_ENGINE_KEYS`]
/// keys, `command` sent with all of them to `node`, answered by the engine.
fn keys_batch(t: &Messages, map: &SlotMap, node: &str, command: &str, read: KeyLines) -> Batch {
    let mut problems: Vec<Problem> = read
        .problems
        .into_iter()
        .map(|(line, e)| Problem::Line(line, e))
        .collect();
    if read.only_first {
        problems.push(Problem::OnlyFirst);
    }
    let keys = read.keys;
    let lines = if !keys.is_empty() && keys.len() <= MAX_ENGINE_KEYS {
        let parsed: Vec<Vec<u8>> = keys.iter().map(<[u8]>::to_vec).collect();
        let args = command_for_keys(command, &parsed);
        let reply = Cluster::new(map.clone()).exec(node, &args, &mut Session::new());
        vec![Line {
            line_no: 1,
            text: fill(t.plan_keys_line, &[&command, &keys.len()]),
            keys: Vec::new(),
            outcome: Outcome::Reply(reply),
        }]
    } else {
        Vec::new()
    };
    Batch {
        lines,
        keys: Rc::new(keys),
        problems,
    }
}

/// What a batch is read from: its text, what its lines are, the node it is sent to, the
/// cluster, and (for a key list, whose one line is worded) the reader's language.
pub type BatchInputs = (Rc<str>, Lines, String, Rc<SlotMap>, Option<Lang>);

/// How far a sliced reading has come: bytes of the text read, of all its bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    /// Bytes read so far.
    pub read: usize,
    /// The text's bytes.
    pub total: usize,
}

/// A key list being read in slices, and what it is read from.
struct Job {
    inputs: BatchInputs,
    read: KeyLines,
}

/// The batch read from `inputs`: in the render when it is small, else a slice per frame
/// after the frame that shows it. While it is being read, the batch returned is the last one
/// read whole (the page shows the progress instead of it) and the progress is `Some`.
#[hook]
pub fn use_batch(inputs: BatchInputs) -> (Rc<Batch>, Option<Reading>) {
    let last = use_mut_ref(|| None::<(BatchInputs, Rc<Batch>)>);
    let job = use_mut_ref(|| None::<Job>);
    let redraw = use_force_update();
    let sliced = matches!(inputs.1, Lines::KeysFor(_)) && inputs.0.len() > SLICED_BYTES;
    let current = last
        .borrow()
        .as_ref()
        .filter(|(i, _)| *i == inputs)
        .map(|(_, b)| b.clone());
    let (batch, reading) = match current {
        Some(b) => (b, None),
        None if !sliced => {
            let (text, lines, node, map, lang) = &inputs;
            let b = Rc::new(read_batch(
                lang.unwrap_or_default().messages(),
                map,
                node,
                text,
                *lines,
            ));
            *last.borrow_mut() = Some((inputs.clone(), b.clone()));
            (b, None)
        }
        None => {
            let read = job
                .borrow()
                .as_ref()
                .filter(|j| j.inputs == inputs)
                .map_or(0, |j| j.read.bytes_read());
            let shown = last.borrow().as_ref().map(|(_, b)| b.clone());
            let reading = Reading {
                read,
                total: inputs.0.len(),
            };
            (shown.unwrap_or_default(), Some(reading))
        }
    };
    use_effect_with(reading.is_some().then(|| inputs.clone()), move |pending| {
        let slices = pending.clone().map(|inputs| {
            *job.borrow_mut() = Some(Job {
                inputs,
                read: KeyLines::new(),
            });
            in_slices(move || read_slice(&job, &last, &redraw))
        });
        move || drop(slices)
    });
    (batch, reading)
}

/// One slice of a [`Job`]: reads for [`SLICE_MS`], and when the list is read, puts its batch
/// where [`use_batch`] finds it. Says whether the job is over.
fn read_slice(
    job: &std::cell::RefCell<Option<Job>>,
    last: &std::cell::RefCell<Option<(BatchInputs, Rc<Batch>)>>,
    redraw: &UseForceUpdateHandle,
) -> bool {
    let mut slot = job.borrow_mut();
    let Some(j) = slot.as_mut() else { return true };
    let (text, lines, node, map, lang) = &j.inputs;
    let Lines::KeysFor(command) = *lines else {
        return true;
    };
    let start = now_ms();
    while !j.read.read(text, LINES_PER_LOOK) {
        if now_ms() - start >= SLICE_MS {
            redraw.force_update();
            return false;
        }
    }
    let t = lang.unwrap_or_default().messages();
    let batch = keys_batch(t, map, node, command, std::mem::take(&mut j.read));
    *last.borrow_mut() = Some((j.inputs.clone(), Rc::new(batch)));
    *slot = None;
    redraw.force_update();
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::messages::EN;

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
            let whole = read_batch(&EN, &map, "127.0.0.1:7000", &text, Lines::KeysFor("MGET"));
            let mut read = KeyLines::new();
            while !read.read(&text, 333) {}
            let sliced = keys_batch(&EN, &map, "127.0.0.1:7000", "MGET", read);
            assert_eq!(sliced, whole);
            assert_eq!(whole.lines.len(), usize::from(n <= MAX_ENGINE_KEYS));
            assert_eq!(whole.problems.len(), n / 1000);
        }
    }
}
