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
    /// Why `input` does not parse, if it does not.
    pub error: Option<EscapeError>,
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
                match parse_key(&input) {
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
        assert_eq!(s.error.as_ref().map(|e| e.column()), Some(4));
        let s = s.reduce(Action::SetKey(r"foo\x41".into()));
        assert_eq!(s.error, None);
        assert_eq!(s.explained.key, b"fooA");
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
