//! Page persistence: the page's state as a short, versioned link for the URL fragment, and back.
//!
//! Not domain: what a link carries (the language, the key field's text, the cluster, the
//! planner's fields as typed, the player's scenario and step) and how it is written. It uses
//! the core (slot maps, CRC16) and never yew, so it builds natively, for wasm and without the
//! `web` feature.
//!
//! A link is `s=1.` followed by a base64url payload (no padding). The payload is a list of
//! sections, each `[tag][varint length][body][CRC16 of tag, length and body]`, ended by a zero
//! byte. A section equal to its default is left out, so the default state is `s=1.AA`. Each
//! section is checked and restored on its own: a damaged planner section costs the planner
//! input and nothing else. The older form `redirect=<scenario>:<step>` (version 0) still opens.
//!
//! ```
//! use slotscope::persist::{decode, encode, SharedState};
//! let state = SharedState { key: "foo".into(), ..SharedState::default() };
//! let link = encode(&state).text;
//! assert!(link.starts_with("s=1."));
//! let back = decode(&link);
//! assert_eq!(back.state, state);
//! assert!(back.problems.is_empty());
//! ```

mod bus;
mod bytes;
mod cluster;
mod link;

pub use bus::{MAX_BUS_MS, MAX_BUS_SPEC_BYTES};

pub use link::{decode, encode};

use crate::core::cluster::topology::{create_allocation, SlotMap, TopologyError};
use std::rc::Rc;

/// The prefix of a version-1 link.
pub const PREFIX: &str = "s=1.";
/// The longest fragment [`decode`] reads; longer ones are refused unread.
pub const MAX_LINK_BYTES: usize = 64 << 10;
/// The longest batch text a link carries; a longer batch is left out (and kept in the browser).
pub const MAX_BATCH_BYTES: usize = 8 << 10;
/// The longest key-field text a link carries.
pub const MAX_KEY_TEXT_BYTES: usize = 4 << 10;
/// The longest short field (planner template, counts, node, scenario id) a link carries.
pub const MAX_FIELD_BYTES: usize = 1 << 10;
/// The most masters a `--cluster create` tag may ask for (the page's picker allows as many).
pub const MAX_CREATED_MASTERS: usize = 1000;
/// The key the page opens with.
pub const DEFAULT_KEY: &str = "{user1}:profile";
/// The batch the planner opens with.
pub const DEFAULT_BATCH: &str =
    "MSET a 1 b 2 c 3\nMGET {user1}:a {user1}:b\nMULTI\nSET hello 1\nSET foo 2\nEXEC";

/// The page's language, as a link stores it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Chinese (simplified).
    Zh,
}

/// Which cluster the page shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Cluster {
    /// [`SlotMap::fixture_cluster`].
    #[default]
    Fixture,
    /// [`SlotMap::created`] with this many masters on 127.0.0.1:7000….
    Created(usize),
    /// Any other map (after a reshard, an add, an import, …), stored in full.
    Custom(SlotMap),
}

impl Cluster {
    /// The shortest description of `map`: the fixtures' cluster, a created one, or the map itself.
    pub fn from_map(map: &SlotMap) -> Cluster {
        let n = map.n_masters();
        if n == 3 && *map == SlotMap::fixture_cluster() {
            return Cluster::Fixture;
        }
        if (1..=MAX_CREATED_MASTERS).contains(&n)
            && map.masters()[0].addr == "127.0.0.1:7000"
            && owns_created_allocation(map, n)
            && SlotMap::created(n, "127.0.0.1", 7000).is_ok_and(|c| c == *map)
        {
            return Cluster::Created(n);
        }
        Cluster::Custom(map.clone())
    }

    /// The slot map this describes.
    pub fn to_map(&self) -> Result<SlotMap, TopologyError> {
        match self {
            Cluster::Fixture => Ok(SlotMap::fixture_cluster()),
            Cluster::Created(n) => SlotMap::created(*n, "127.0.0.1", 7000),
            Cluster::Custom(map) => Ok(map.clone()),
        }
    }
}

/// Whether every slot of `map` is owned as a created cluster of `n` masters owns it: a check
/// without building that cluster, so a resharded map (which fails it) is not compared in full
/// at every change (issue 17).
fn owns_created_allocation(map: &SlotMap, n: usize) -> bool {
    create_allocation(n)
        .iter()
        .enumerate()
        .all(|(i, r)| (r.first..=r.last).all(|s| map.owner(s) == Some(i)))
}

/// What the fan-out planner holds: its fields as typed or chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlannerInput {
    /// The batch text (shared with the page, which never copies it to build a link).
    pub text: Rc<str>,
    /// `commands`, or one of [`KEY_COMMANDS`](crate::core::workload::batch::KEY_COMMANDS) (lines are keys for it).
    pub command: String,
    /// The node the batch is sent to (`None`: the first master).
    pub node: Option<String>,
    /// The generator: `template` or `h3`.
    pub gen_kind: String,
    /// The generator's template, as typed.
    pub gen_template: String,
    /// How many keys to generate, as typed.
    pub gen_count: String,
    /// The chunk size, as typed.
    pub chunk: String,
    /// The copy style: `mget`, `eval` or `tagged`.
    pub style: String,
    /// Whether generated keys stand in for the batch (they are generated again on restore).
    pub generated: bool,
}

impl Default for PlannerInput {
    fn default() -> Self {
        PlannerInput {
            text: Rc::from(DEFAULT_BATCH),
            command: "commands".to_string(),
            node: None,
            gen_kind: "template".to_string(),
            gen_template: "user:%d".to_string(),
            gen_count: "1000".to_string(),
            chunk: "100".to_string(),
            style: "mget".to_string(),
            generated: false,
        }
    }
}

/// The redirection player's scenario and step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioStep {
    /// The scenario's id (e.g. `live-migration`), as the link has it: the page checks it.
    pub scenario: String,
    /// Steps shown.
    pub step: u32,
}

/// Everything a link carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedState {
    /// The language.
    pub lang: Lang,
    /// The key field's text.
    pub key: String,
    /// The cluster.
    pub cluster: Cluster,
    /// The planner's input.
    pub planner: PlannerInput,
    /// The redirection player (`None`: the first scenario at its start).
    pub redirect: Option<ScenarioStep>,
    /// The cluster-bus player (`None`: its opening scenario at its start).
    pub bus: Option<BusState>,
}

/// The cluster-bus player as a link carries it (branch `bus-view`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BusState {
    /// The scenario's slug (`free` for free play), as the link has it: the page checks it.
    pub scenario: String,
    /// The run's `ScenarioSpec` as `ScenarioSpec::encode` writes it (empty: the scenario as
    /// catalogued); the page decodes and checks it.
    pub spec: Vec<u8>,
    /// The instant shown, ms after the timeline's start.
    pub at_ms: u64,
}

impl Default for SharedState {
    /// The page's opening state.
    fn default() -> Self {
        SharedState {
            lang: Lang::En,
            key: DEFAULT_KEY.to_string(),
            cluster: Cluster::Fixture,
            planner: PlannerInput::default(),
            redirect: None,
            bus: None,
        }
    }
}

/// One part of the state, as problems and the encoder's report name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    /// The language.
    Lang,
    /// The key field.
    Key,
    /// The cluster.
    Cluster,
    /// The planner's input.
    Planner,
    /// The redirection scenario and step.
    Scenario,
    /// The cluster-bus player.
    Bus,
}

impl Section {
    pub(crate) const ALL: [Section; 6] = [
        Section::Lang,
        Section::Key,
        Section::Cluster,
        Section::Planner,
        Section::Scenario,
        Section::Bus,
    ];

    pub(crate) fn tag(self) -> u8 {
        match self {
            Section::Lang => 1,
            Section::Key => 2,
            Section::Cluster => 3,
            Section::Planner => 4,
            Section::Scenario => 5,
            Section::Bus => 6,
        }
    }
}

/// Something a link could not restore. Everything not named is restored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// The fragment is not a slotscope link at all.
    NotALink,
    /// A link from a newer version (its version as written, cut to 12 characters).
    UnknownVersion(String),
    /// The fragment is longer than [`MAX_LINK_BYTES`]; nothing was read.
    TooLong {
        /// Its length.
        bytes: usize,
    },
    /// The payload has characters or bits base64url never produces.
    BadBase64,
    /// The link stops part-way: sections read before the cut are restored.
    Truncated,
    /// A section failed its check or does not make sense: it is left at its default.
    BadSection(Section),
    /// A text in a section is longer than a link may carry: it is left at its default.
    TextTooLong(Section),
    /// A section this version does not know (from a newer version), skipped.
    UnknownSection(u8),
    /// Bytes after the end of the link.
    Trailing,
    /// A section's head is damaged: nothing from there on can be read.
    Damaged,
}

/// What [`decode`] restored, and what it could not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// The state: every section the link restored, defaults elsewhere.
    pub state: SharedState,
    /// What could not be restored, in the order found.
    pub problems: Vec<Problem>,
    /// The link's version (0: the old `redirect=` form), `None` for an empty fragment or
    /// one that is not a link.
    pub version: Option<u32>,
    /// A version-0 link's scenario id and step exactly as written: the page checks them
    /// against its scenarios and says, in its own words, what it opened instead.
    pub old_link: Option<OldLink>,
}

/// What an old `redirect=<scenario>:<step>` link asks for, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OldLink {
    /// The scenario id.
    pub scenario: String,
    /// The step (`0` when the link has none); not necessarily a number.
    pub step: String,
}

/// A link and what it had to leave out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Encoded {
    /// The fragment, without `#`.
    pub text: String,
    /// Sections (or parts of them) left out because they are too long for a link: the batch
    /// over [`MAX_BATCH_BYTES`], a key over [`MAX_KEY_TEXT_BYTES`], a cluster too big to fit.
    pub omitted: Vec<Section>,
}
