//! The page's one reducer: what the reader typed, the last key that parsed, and the cluster.
//!
//! Components dispatch [`Action`]s and read [`AppState`]; none of them computes a slot.

use crate::core::escape::{parse_key, EscapeError};
use crate::core::{explain, Explanation, SlotMap};
use std::rc::Rc;
use yew::Reducible;

/// The key the page opens with: a hash tag, so the first thing a reader sees is the rule at work.
pub const DEFAULT_KEY: &str = "{user1}:profile";

/// The largest cluster the picker builds (`redis-cli --cluster create` has no limit, the page does).
pub const MAX_MASTERS: usize = 1000;

/// The longest key the page explains, in bytes. Redis takes keys up to 512 MB, but showing a
/// longer one would freeze the tab; 1 MiB is sixteen times the longest fixture key.
pub const MAX_KEY_BYTES: usize = 1 << 20;

/// Why the text in the key field is not explained.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyProblem {
    /// It is not valid redis-cli escape syntax.
    Escape(EscapeError),
    /// It is longer than [`MAX_KEY_BYTES`] (`bytes` is a lower bound when not parsed at all).
    TooLong {
        /// How many bytes the key has (or at least has).
        bytes: usize,
    },
}

impl KeyProblem {
    /// The column the problem points at, if any.
    pub fn column(&self) -> Option<usize> {
        match self {
            KeyProblem::Escape(e) => Some(e.column()),
            KeyProblem::TooLong { .. } => None,
        }
    }
}

/// Reads the key field: its bytes, or why the page will not explain it.
pub fn read_key(input: &str) -> Result<Vec<u8>, KeyProblem> {
    // Each byte takes at most four characters (\xNN), so longer text cannot be a short key:
    // refuse it before parsing, so a 10 MB paste costs nothing.
    if input.len() > 4 * MAX_KEY_BYTES + 2 {
        return Err(KeyProblem::TooLong {
            bytes: input.len() / 4,
        });
    }
    let bytes = parse_key(input).map_err(KeyProblem::Escape)?;
    if bytes.len() > MAX_KEY_BYTES {
        return Err(KeyProblem::TooLong { bytes: bytes.len() });
    }
    Ok(bytes)
}

/// Which cluster the map shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClusterChoice {
    /// The cluster the fixtures were recorded on.
    Fixture,
    /// `redis-cli --cluster create` with this many masters on 127.0.0.1:7000….
    Created(usize),
}

/// Everything the page shows.
#[derive(Clone, Debug, PartialEq)]
pub struct AppState {
    /// Exactly what is in the key field.
    pub input: String,
    /// The last key that parsed, explained.
    pub explained: Rc<Explanation>,
    /// Why `input` is not explained, if it is not.
    pub error: Option<KeyProblem>,
    /// The cluster.
    pub cluster: ClusterChoice,
    /// Its slot map.
    pub map: Rc<SlotMap>,
    /// A bad master count the reader typed (the cluster is kept as it was).
    pub cluster_error: Option<String>,
}

impl Default for AppState {
    fn default() -> Self {
        AppState {
            input: DEFAULT_KEY.to_string(),
            explained: Rc::new(explain(DEFAULT_KEY.as_bytes())),
            error: None,
            cluster: ClusterChoice::Fixture,
            map: Rc::new(SlotMap::fixture_cluster()),
            cluster_error: None,
        }
    }
}

/// What a reader can do.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// The key field now holds this text.
    SetKey(String),
    /// Show the fixtures' cluster.
    UseFixtureCluster,
    /// Show a created cluster with the master count as typed.
    CreateCluster(String),
}

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            Action::SetKey(input) => {
                match read_key(&input) {
                    Ok(bytes) => {
                        if bytes != self.explained.key {
                            next.explained = Rc::new(explain(&bytes));
                        }
                        next.error = None;
                    }
                    // Keep the last good explanation: the page dims it instead of blanking.
                    Err(e) => next.error = Some(e),
                }
                next.input = input;
            }
            Action::UseFixtureCluster => {
                next.cluster = ClusterChoice::Fixture;
                next.map = Rc::new(SlotMap::fixture_cluster());
                next.cluster_error = None;
            }
            Action::CreateCluster(text) => match text.trim().parse::<usize>() {
                Ok(n) if (1..=MAX_MASTERS).contains(&n) => {
                    match SlotMap::created(n, "127.0.0.1", 7000) {
                        Ok(map) => {
                            next.cluster = ClusterChoice::Created(n);
                            next.map = Rc::new(map);
                            next.cluster_error = None;
                        }
                        Err(e) => next.cluster_error = Some(e.to_string()),
                    }
                }
                _ => next.cluster_error = Some(text),
            },
        }
        Rc::new(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(actions: &[Action]) -> Rc<AppState> {
        actions
            .iter()
            .fold(Rc::new(AppState::default()), |s, a| s.reduce(a.clone()))
    }

    #[test]
    fn a_bad_key_keeps_the_last_good_explanation() {
        let s = run(&[
            Action::SetKey("foo".into()),
            Action::SetKey(r"foo\x4".into()),
        ]);
        assert_eq!(s.input, r"foo\x4");
        assert_eq!(s.explained.key, b"foo");
        assert_eq!(s.error.as_ref().and_then(|e| e.column()), Some(4));
        let s = s.reduce(Action::SetKey(r"foo\x41".into()));
        assert_eq!(s.error, None);
        assert_eq!(s.explained.key, b"fooA");
    }

    #[test]
    fn a_huge_paste_is_refused_and_the_last_key_kept() {
        let huge = "a".repeat(10 << 20);
        let s = run(&[Action::SetKey("foo".into()), Action::SetKey(huge)]);
        assert!(matches!(s.error, Some(KeyProblem::TooLong { bytes }) if bytes > MAX_KEY_BYTES));
        assert_eq!(s.explained.key, b"foo");
        // Just over the limit after parsing, though short enough to parse.
        let s = s.reduce(Action::SetKey("b".repeat(MAX_KEY_BYTES + 1)));
        assert_eq!(
            s.error,
            Some(KeyProblem::TooLong {
                bytes: MAX_KEY_BYTES + 1
            })
        );
        let s = s.reduce(Action::SetKey("c".repeat(MAX_KEY_BYTES)));
        assert_eq!(s.error, None);
        assert_eq!(s.explained.key.len(), MAX_KEY_BYTES);
    }

    #[test]
    fn a_bad_master_count_keeps_the_cluster() {
        let s = run(&[Action::CreateCluster("7".into())]);
        assert_eq!(s.cluster, ClusterChoice::Created(7));
        let s = s.reduce(Action::CreateCluster("0".into()));
        assert_eq!(s.cluster, ClusterChoice::Created(7));
        assert_eq!(s.map.n_masters(), 7);
        assert_eq!(s.cluster_error.as_deref(), Some("0"));
        let s = s.reduce(Action::CreateCluster("1001".into()));
        assert_eq!(s.map.n_masters(), 7);
        let s = s.reduce(Action::UseFixtureCluster);
        assert_eq!(s.cluster, ClusterChoice::Fixture);
        assert_eq!(s.cluster_error, None);
    }
}
