//! The planner's reducer: its fields typed (what the lines are, the generator, the copy style),
//! the batch text shared (a render never copies it), generated keys, and what was refused.
//!
//! A link stores the same fields as text ([`PlannerInput`]); [`PlannerState::restored`] and
//! [`PlannerState::to_input`] translate.

use crate::core::workload::batch::KEY_COMMANDS;
use crate::core::workload::KeySample;
use crate::core::workload::{KeyMaker, PlanError, MAX_KEYS};
use crate::persist::PlannerInput;
use std::rc::Rc;
use yew::Reducible;

/// The largest paste the batch field takes (about 200,000 short keys); the generator makes up
/// to a million keys without a paste.
pub const MAX_PASTE_BYTES: usize = 4 << 20;

/// A batch pasted past this many lines, or [`FIELD_BYTES`], is held by the planner rather than
/// put into the `<textarea>`: the browser lays out every line of a text field at each change
/// (20,000 short lines set into a bare one took Chromium 0.5–1 s here), so the field shows the
/// batch's start ([`preview`]) and the plan reads all of it.
pub const FIELD_LINES: usize = 1_000;
/// See [`FIELD_LINES`].
pub const FIELD_BYTES: usize = 64 << 10;
/// The lines of a held batch the field shows.
pub const PREVIEW_LINES: usize = 200;
/// The most bytes of a held batch the field shows.
const PREVIEW_BYTES: usize = 16 << 10;

/// Whether a batch this long is held out of the text field ([`FIELD_LINES`]).
pub fn too_long_for_field(text: &str) -> bool {
    text.len() > FIELD_BYTES || text.bytes().filter(|&b| b == b'\n').count() >= FIELD_LINES
}

/// The start of a held batch, as the field shows it: its first [`PREVIEW_LINES`] lines, cut
/// at a character's end past [`PREVIEW_BYTES`]; and the number of its lines.
pub fn preview(text: &str) -> (&str, usize) {
    let mut end = text.len();
    let mut lines = 0;
    for (i, b) in text.bytes().enumerate() {
        if b == b'\n' {
            lines += 1;
            if lines == PREVIEW_LINES && end == text.len() {
                end = i;
            }
        }
    }
    let mut end = end.min(PREVIEW_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let total = lines + usize::from(!text.is_empty() && !text.ends_with('\n'));
    (&text[..end], total)
}

/// What each line of the batch is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lines {
    /// A whole command.
    Commands,
    /// A key for one command, named as in [`KEY_COMMANDS`] (e.g. `MGET`).
    KeysFor(&'static str),
}

impl Lines {
    /// Reads the select's value (`commands` or a [`KEY_COMMANDS`] name); anything else is
    /// `None`.
    pub fn from_value(v: &str) -> Option<Lines> {
        if v == "commands" {
            return Some(Lines::Commands);
        }
        KEY_COMMANDS
            .iter()
            .find(|c| **c == v)
            .map(|c| Lines::KeysFor(c))
    }

    /// The select's value, as a link stores it.
    pub fn value(self) -> &'static str {
        match self {
            Lines::Commands => "commands",
            Lines::KeysFor(c) => c,
        }
    }

    /// The command keys are sent as: the one named, or MGET when the lines are commands
    /// (generated keys, and the per-slot copy of pasted commands that are not all one key
    /// command: `core::workload::batch::common_key_command`).
    pub fn key_command(self) -> &'static str {
        match self {
            Lines::Commands => "MGET",
            Lines::KeysFor(c) => c,
        }
    }
}

/// The key generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenKind {
    /// Keys from a template with `%d`.
    Template,
    /// Route-cache keys (H3 cell pairs).
    H3,
}

impl GenKind {
    /// Reads the select's value.
    pub fn from_value(v: &str) -> Option<GenKind> {
        match v {
            "template" => Some(GenKind::Template),
            "h3" => Some(GenKind::H3),
            _ => None,
        }
    }

    /// The select's value, as a link stores it.
    pub fn value(self) -> &'static str {
        match self {
            GenKind::Template => "template",
            GenKind::H3 => "h3",
        }
    }
}

/// How the plan is copied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CopyStyle {
    /// One command per slot: the command the keys are sent as (MGET when the lines are
    /// commands). A link names it `mget`, as it did when MGET was the only one.
    PerSlot,
    /// One EVAL SET … EX per slot.
    Eval,
    /// Keys retagged per master, one EVAL per master.
    Tagged,
}

impl CopyStyle {
    /// Reads the select's value.
    pub fn from_value(v: &str) -> Option<CopyStyle> {
        match v {
            "mget" => Some(CopyStyle::PerSlot),
            "eval" => Some(CopyStyle::Eval),
            "tagged" => Some(CopyStyle::Tagged),
            _ => None,
        }
    }

    /// The select's value, as a link stores it.
    pub fn value(self) -> &'static str {
        match self {
            CopyStyle::PerSlot => "mget",
            CopyStyle::Eval => "eval",
            CopyStyle::Tagged => "tagged",
        }
    }
}

/// Why the generator made no keys.
#[derive(Clone, Debug, PartialEq)]
pub enum GenError {
    /// The count is not from 1 to [`MAX_KEYS`]: what was typed.
    Count(String),
    /// The generator refused.
    Plan(PlanError),
}

/// Generates keys as the generator row asks: `count` as typed.
pub fn generate_keys(kind: GenKind, template: &str, count: &str) -> Result<KeySample, GenError> {
    key_maker(kind, template, count).map(KeyMaker::make_all)
}

/// The generator the row asks for, no key made yet (the page makes a big batch a slice per
/// frame), or why it makes none.
pub fn key_maker(kind: GenKind, template: &str, count: &str) -> Result<KeyMaker, GenError> {
    let n = match count.trim().parse::<u64>() {
        Ok(n) if (1..=MAX_KEYS as u64).contains(&n) => n,
        _ => return Err(GenError::Count(count.to_string())),
    };
    let maker = match kind {
        GenKind::H3 => KeyMaker::h3_pairs("route:", n as u32, 1),
        GenKind::Template => KeyMaker::numbered(template, 0..n),
    };
    maker.map_err(GenError::Plan)
}

/// The planner's state.
#[derive(Clone, Debug, PartialEq)]
pub struct PlannerState {
    /// The batch text (shared, never copied per render).
    pub text: Rc<str>,
    /// What its lines are.
    pub lines: Lines,
    /// The node the batch is sent to, as chosen (`None`: the first master).
    pub node: Option<String>,
    /// The generator.
    pub gen_kind: GenKind,
    /// The generator's template, as typed.
    pub gen_template: String,
    /// How many keys to generate, as typed.
    pub gen_count: String,
    /// The chunk size, as typed.
    pub chunk: String,
    /// How the plan is copied.
    pub style: CopyStyle,
    /// Generated keys: while there are some, they are the batch shown and planned.
    pub generated: Option<Rc<KeySample>>,
    /// Why the last Generate made nothing.
    pub gen_error: Option<GenError>,
    /// The length of a paste refused as too big (the batch before it stays), until the batch
    /// changes: typed, pasted, generated, or its lines read as something else.
    pub too_big: Option<usize>,
    /// The batch is too long for the text field ([`too_long_for_field`]): the field shows its
    /// start, read-only, until the reader asks to edit it there.
    pub held: bool,
}

impl Default for PlannerState {
    fn default() -> Self {
        PlannerState::restored(&PlannerInput::default())
    }
}

impl PlannerState {
    /// The planner as a link (or the saved state) has it; generated keys are made again.
    /// A value the page does not offer keeps the default (a link's decoder refuses them too).
    pub fn restored(input: &PlannerInput) -> Self {
        let gen_kind = GenKind::from_value(&input.gen_kind).unwrap_or(GenKind::Template);
        let generated = input
            .generated
            .then(|| generate_keys(gen_kind, &input.gen_template, &input.gen_count).ok())
            .flatten()
            .map(Rc::new);
        PlannerState {
            text: input.text.clone(),
            lines: Lines::from_value(&input.command).unwrap_or(Lines::Commands),
            node: input.node.clone(),
            gen_kind,
            gen_template: input.gen_template.clone(),
            gen_count: input.gen_count.clone(),
            chunk: input.chunk.clone(),
            style: CopyStyle::from_value(&input.style).unwrap_or(CopyStyle::PerSlot),
            generated,
            gen_error: None,
            too_big: None,
            held: too_long_for_field(&input.text),
        }
    }

    /// The fields as a link stores them.
    pub fn to_input(&self) -> PlannerInput {
        PlannerInput {
            text: self.text.clone(),
            command: self.lines.value().to_string(),
            node: self.node.clone(),
            gen_kind: self.gen_kind.value().to_string(),
            gen_template: self.gen_template.clone(),
            gen_count: self.gen_count.clone(),
            chunk: self.chunk.clone(),
            style: self.style.value().to_string(),
            generated: self.generated.is_some(),
        }
    }

    /// The chunk size to plan with (100 when what was typed is not a positive number).
    pub fn chunk_size(&self) -> usize {
        self.chunk
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|&c| c >= 1)
            .unwrap_or(100)
    }
}

/// What the reader did in the planner.
#[derive(Clone, Debug, PartialEq)]
pub enum PlannerAction {
    /// The batch field now holds this text (refused, and not stored, past
    /// [`MAX_PASTE_BYTES`]); the pasted lines are the batch again.
    Text(String),
    /// A paste made the batch this text: as [`PlannerAction::Text`], and held out of the
    /// field when [`too_long_for_field`].
    Pasted(String),
    /// Put a held batch into the text field after all, to edit it there.
    EditInField,
    /// The lines are now these.
    Lines(Lines),
    /// The batch goes to this node.
    Node(String),
    /// The generator is now this one.
    GenKind(GenKind),
    /// The template, as typed.
    GenTemplate(String),
    /// The key count, as typed.
    GenCount(String),
    /// Generate keys: they replace the pasted lines in view until the reader goes back.
    Generate,
    /// Keys the generator made (a slice per frame, for a big batch): as
    /// [`PlannerAction::Generate`] once they are made.
    Generated(Rc<KeySample>),
    /// Back to the pasted lines (the generated keys are dropped).
    ShowPasted,
    /// The chunk size, as typed.
    Chunk(String),
    /// The copy style.
    Style(CopyStyle),
}

impl Reducible for PlannerState {
    type Action = PlannerAction;

    fn reduce(self: Rc<Self>, action: PlannerAction) -> Rc<Self> {
        // Cheap: the text and the generated keys are shared, the rest are short fields.
        let mut next = Rc::unwrap_or_clone(self);
        match action {
            PlannerAction::Text(text) | PlannerAction::Pasted(text)
                if text.len() > MAX_PASTE_BYTES =>
            {
                next.too_big = Some(text.len());
            }
            PlannerAction::Text(text) => {
                next.too_big = None;
                next.held = false;
                next.text = Rc::from(text);
                next.generated = None;
            }
            PlannerAction::Pasted(text) => {
                next.too_big = None;
                next.held = too_long_for_field(&text);
                next.text = Rc::from(text);
                next.generated = None;
            }
            PlannerAction::EditInField => next.held = false,
            // Generated keys stay: they are keys whatever the lines are read as, now sent as
            // the command chosen.
            PlannerAction::Lines(lines) => {
                next.lines = lines;
                next.too_big = None;
            }
            PlannerAction::Node(node) => next.node = Some(node),
            PlannerAction::GenKind(kind) => next.gen_kind = kind,
            PlannerAction::GenTemplate(t) => next.gen_template = t,
            PlannerAction::GenCount(c) => next.gen_count = c,
            PlannerAction::Generate => {
                match generate_keys(next.gen_kind, &next.gen_template, &next.gen_count) {
                    Ok(keys) => {
                        next.generated = Some(Rc::new(keys));
                        next.gen_error = None;
                        next.too_big = None;
                    }
                    Err(e) => next.gen_error = Some(e),
                }
            }
            PlannerAction::Generated(keys) => {
                next.generated = Some(keys);
                next.gen_error = None;
                next.too_big = None;
            }
            PlannerAction::ShowPasted => next.generated = None,
            PlannerAction::Chunk(c) => next.chunk = c,
            PlannerAction::Style(s) => next.style = s,
        }
        Rc::new(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_paste_is_held_out_of_the_field_and_typing_puts_it_back() {
        let long: String = (0..20_000).map(|i| format!("GET user:{i}\n")).collect();
        let s = run(&[PlannerAction::Pasted(long.clone())]);
        assert!(s.held);
        assert_eq!(&*s.text, long.as_str());
        let (start, lines) = preview(&s.text);
        assert_eq!(lines, 20_000);
        assert_eq!(start.lines().count(), PREVIEW_LINES);
        assert!(long.starts_with(start) && !start.ends_with('\n'));
        // A short paste goes into the field as typed text does.
        let s = s.reduce(PlannerAction::Pasted("GET a\nGET b".into()));
        assert!(!s.held);
        assert_eq!(preview(&s.text), ("GET a\nGET b", 2));
        // Edit in the field: the same batch, no longer held.
        let s = run(&[
            PlannerAction::Pasted(long.clone()),
            PlannerAction::EditInField,
        ]);
        assert!(!s.held && *s.text == *long);
        // Over the limit: refused, the held batch before it stays.
        let s = run(&[
            PlannerAction::Pasted(long.clone()),
            PlannerAction::Pasted("k".repeat(MAX_PASTE_BYTES + 1)),
        ]);
        assert_eq!(s.too_big, Some(MAX_PASTE_BYTES + 1));
        assert!(s.held && *s.text == *long);
        // 999 lines of short keys fit; one more line does not; nor do 64 KB and a byte.
        assert!(!too_long_for_field(&"k\n".repeat(FIELD_LINES - 1)));
        assert!(too_long_for_field(&"k\n".repeat(FIELD_LINES)));
        assert!(too_long_for_field(&"k".repeat(FIELD_BYTES + 1)));
        // A preview cut by bytes ends on a character's end.
        let wide = "键".repeat(10_000);
        let (start, lines) = preview(&wide);
        assert_eq!((lines, start.len() % 3), (1, 0));
        assert!(start.len() <= PREVIEW_BYTES);
    }

    fn run(actions: &[PlannerAction]) -> Rc<PlannerState> {
        actions
            .iter()
            .fold(Rc::new(PlannerState::default()), |s, a| s.reduce(a.clone()))
    }

    #[test]
    fn the_default_round_trips_through_a_link_input() {
        assert_eq!(PlannerState::default().to_input(), PlannerInput::default());
        let s = run(&[
            PlannerAction::Lines(Lines::KeysFor("DEL")),
            PlannerAction::Style(CopyStyle::Tagged),
            PlannerAction::GenKind(GenKind::H3),
            PlannerAction::GenCount("5".into()),
            PlannerAction::Generate,
        ]);
        let input = s.to_input();
        assert_eq!(
            (
                input.command.as_str(),
                input.style.as_str(),
                input.gen_kind.as_str()
            ),
            ("DEL", "tagged", "h3")
        );
        assert!(input.generated);
        let back = PlannerState::restored(&input);
        assert_eq!(back.generated.as_ref().map(|k| k.len()), Some(5));
        assert_eq!(back.to_input(), input);
    }

    #[test]
    fn an_oversized_paste_is_refused_and_not_stored() {
        let s = run(&[PlannerAction::Text("GET a".into())]);
        let s = s.reduce(PlannerAction::Text("k".repeat(MAX_PASTE_BYTES + 1)));
        assert_eq!(&*s.text, "GET a");
        assert_eq!(s.too_big, Some(MAX_PASTE_BYTES + 1));
        let s = s.reduce(PlannerAction::Text("GET b".into()));
        assert_eq!((&*s.text, s.too_big), ("GET b", None));
        // Gone too when the lines are read as something else, or keys are generated.
        let big = PlannerAction::Pasted("k".repeat(MAX_PASTE_BYTES + 1));
        for then in [
            PlannerAction::Lines(Lines::KeysFor("DEL")),
            PlannerAction::Generate,
        ] {
            let s = run(&[big.clone(), then]);
            assert_eq!((&s.text, s.too_big), (&PlannerState::default().text, None));
        }
    }

    #[test]
    fn generated_keys_stand_in_until_the_reader_goes_back_or_edits() {
        let s = run(&[
            PlannerAction::GenCount("10".into()),
            PlannerAction::Generate,
        ]);
        assert_eq!(s.generated.as_ref().map(|k| k.len()), Some(10));
        assert!(s
            .clone()
            .reduce(PlannerAction::ShowPasted)
            .generated
            .is_none());
        assert!(s
            .clone()
            .reduce(PlannerAction::Text("GET x".into()))
            .generated
            .is_none());
        // Another command for the lines sends the same generated keys as that command.
        let as_del = s.reduce(PlannerAction::Lines(Lines::KeysFor("DEL")));
        assert_eq!(as_del.generated.as_ref().map(|k| k.len()), Some(10));
        let s = run(&[PlannerAction::GenCount("0".into()), PlannerAction::Generate]);
        assert_eq!(s.gen_error, Some(GenError::Count("0".into())));
        assert!(s.generated.is_none());
        // Keys made a slice at a time arrive made: they stand in as Generate's do.
        let keys = Rc::new(generate_keys(GenKind::H3, "", "3").unwrap());
        let s = s.reduce(PlannerAction::Generated(keys.clone()));
        assert_eq!(
            (s.generated.clone(), s.gen_error.clone()),
            (Some(keys), None)
        );
    }

    #[test]
    fn values_outside_the_selects_are_refused() {
        assert_eq!(Lines::from_value("MGET"), Some(Lines::KeysFor("MGET")));
        assert_eq!(Lines::from_value("GET"), None);
        assert_eq!(GenKind::from_value("x"), None);
        assert_eq!(CopyStyle::from_value("EVAL"), None);
    }
}
