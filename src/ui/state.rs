//! The page's reducers for the key field and the cluster, each owning its own concern (the
//! planner's and the player's live in `planner_state` and `player`).
//!
//! Components dispatch actions and read the states; none of them computes a slot, and the
//! cluster's operations themselves are the core's (`core::cluster::lab`): this only keeps history and
//! words outcomes as [`Note`]s.

use crate::core::cluster::failover::FailoverOutcome;
use crate::core::cluster::lab::{self, CreateError, DrainError, Edit, WeightError};
use crate::core::cluster::topology::{diff, OwnerChange};
use crate::core::cluster::{import, rebalance};
use crate::core::{explain, Explanation, SlotMap, N_SLOTS};
use crate::persist::Cluster;
use crate::ui::localize::Note;
use crate::ui::palette::ColourBook;
use std::rc::Rc;
use yew::{AttrValue, Reducible};

/// How many earlier clusters undo remembers.
pub const MAX_UNDO: usize = 100;

/// The key the page opens with: a hash tag, so the first thing a reader sees is the rule at work.
pub const DEFAULT_KEY: &str = "{user1}:profile";

/// The largest cluster the picker builds (`redis-cli --cluster create` has no limit, the page does).
pub const MAX_MASTERS: usize = 1000;

pub use crate::core::key::field::{read_key, KeyProblem, MAX_KEY_BYTES};

/// The key field: exactly what it holds, the last key that parsed, and why the text is not
/// explained if it is not.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyState {
    /// The key field's text (shared: a render never copies it). Text refused as too long is
    /// not stored: this keeps the last text that was read.
    pub input: AttrValue,
    /// The last key that parsed, explained.
    pub explained: Rc<Explanation>,
    /// Why the field's text is not explained, if it is not.
    pub error: Option<KeyProblem>,
}

impl Default for KeyState {
    fn default() -> Self {
        KeyState {
            input: AttrValue::Static(DEFAULT_KEY),
            explained: Rc::new(explain(DEFAULT_KEY.as_bytes())),
            error: None,
        }
    }
}

impl KeyState {
    /// The state after the field holds `input`.
    pub fn read(&self, input: String) -> KeyState {
        match read_key(&input) {
            Ok(bytes) => KeyState {
                explained: if bytes == self.explained.key {
                    self.explained.clone()
                } else {
                    Rc::new(explain(&bytes))
                },
                error: None,
                input: AttrValue::from(input),
            },
            // Refused unread (or too long once read): the text is dropped, the last key kept.
            Err(e @ KeyProblem::TooLong { .. }) => KeyState {
                input: self.input.clone(),
                explained: self.explained.clone(),
                error: Some(e),
            },
            // Keep the last good explanation: the page dims it instead of blanking.
            Err(e) => KeyState {
                input: AttrValue::from(input),
                explained: self.explained.clone(),
                error: Some(e),
            },
        }
    }
}

impl Reducible for KeyState {
    /// The field's new text.
    type Action = String;

    fn reduce(self: Rc<Self>, input: String) -> Rc<Self> {
        Rc::new(self.read(input))
    }
}

/// Which cluster the map shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClusterChoice {
    /// The cluster the fixtures were recorded on.
    Fixture,
    /// `redis-cli --cluster create` with this many masters on 127.0.0.1:7000….
    Created(usize),
}

/// Why a master count was not made into a cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CountRefused {
    /// Not a whole number from 1 to [`MAX_MASTERS`], as typed.
    NotACount(String),
    /// redis-cli refuses to create a cluster of so few masters.
    ByCli(lab::CreateRefused),
}

/// The last change to the cluster: what the map animates and the moves list shows.
#[derive(Debug, PartialEq)]
pub struct Change {
    /// What was done, in the reader's words (e.g. "Reshard 1000 slots to 127.0.0.1:7006").
    pub label: Note,
    /// The cluster before it.
    pub before: Rc<SlotMap>,
    /// The colours of `before`'s masters.
    pub before_colours: Rc<Vec<String>>,
    /// Every run of slots that changed owner.
    pub moves: Vec<OwnerChange>,
    /// redis-cli commands that would make the same change on a real cluster.
    pub commands: Vec<String>,
    /// Counts changes, so two equal changes in a row still animate twice.
    pub serial: u32,
    /// True when a new cluster replaced the old one (create, import, the fixtures' cluster, or
    /// the undo or redo of one): its masters got their slots when it was made, so no slot and no
    /// key moved, and `moves` is empty.
    pub replaced: bool,
}

impl Change {
    /// How many slots changed owner.
    pub fn n_slots(&self) -> usize {
        self.moves.iter().map(|m| m.range.len()).sum()
    }
}

/// A cluster in the undo or redo history, and whether the step between it and the cluster
/// after it replaced the whole cluster (then undoing or redoing it moves no slot either).
#[derive(Clone, Debug, PartialEq)]
pub struct Earlier {
    /// The cluster.
    pub map: Rc<SlotMap>,
    /// The step from it was a new cluster, not a move of slots.
    pub replaced: bool,
}

/// The cluster and what the topology lab says about it.
#[derive(Clone, Debug, PartialEq)]
pub struct ClusterState {
    /// The cluster.
    pub cluster: ClusterChoice,
    /// Its slot map.
    pub map: Rc<SlotMap>,
    /// A master count refused (the cluster is kept as it was).
    pub cluster_error: Option<CountRefused>,
    /// Colour of each master of `map`, by index (stable per node id across changes).
    pub colours: Rc<Vec<String>>,
    /// Which colour each node id has had.
    pub book: ColourBook,
    /// Earlier clusters, most recent last.
    pub undo: Vec<Earlier>,
    /// Clusters undone, most recent last.
    pub redo: Vec<Earlier>,
    /// The last change, if any.
    pub change: Option<Rc<Change>>,
    /// Why the last topology action was refused (the cluster is unchanged).
    pub topology_error: Option<Note>,
    /// A master whose removal was just refused (it owns slots): the page offers to drain it.
    pub refused_removal: Option<usize>,
    /// Something worth saying about the last action that is not an error
    /// (e.g. "No rebalancing needed", or warnings of an import).
    pub notice: Option<Note>,
}

impl Default for ClusterState {
    fn default() -> Self {
        ClusterState::with_map(ClusterChoice::Fixture, SlotMap::fixture_cluster())
    }
}

impl ClusterState {
    fn with_map(cluster: ClusterChoice, map: SlotMap) -> Self {
        let book = ColourBook::for_map(&map);
        ClusterState {
            cluster,
            colours: Rc::new(book.colours(&map)),
            map: Rc::new(map),
            cluster_error: None,
            book,
            undo: Vec::new(),
            redo: Vec::new(),
            change: None,
            topology_error: None,
            refused_removal: None,
            notice: None,
        }
    }

    /// The cluster a shared state describes, with no history. A cluster that cannot be built
    /// (a created count past what a slot map numbers) gives the fixtures' cluster.
    pub fn restored(cluster: &Cluster) -> Self {
        match cluster.to_map() {
            Ok(map) => {
                // A map of one or two masters laid out as a created one (a link may carry
                // it) is shown as any other map: redis-cli creates no such cluster.
                let choice = match cluster {
                    Cluster::Created(n) if lab::create_refused(*n).is_none() => {
                        ClusterChoice::Created(*n)
                    }
                    Cluster::Created(_) | Cluster::Fixture | Cluster::Custom(_) => {
                        ClusterChoice::Fixture
                    }
                };
                ClusterState::with_map(choice, map)
            }
            Err(_) => ClusterState::default(),
        }
    }

    /// Makes the edit's cluster current, remembering this one for undo and describing the change.
    fn commit(&mut self, edit: Edit, label: Note) {
        self.commit_as(edit, label, false);
    }

    /// As [`Self::commit`], for a new cluster that replaces this one (nothing moves).
    fn replace(&mut self, edit: Edit, label: Note) {
        self.commit_as(edit, label, true);
    }

    fn commit_as(&mut self, edit: Edit, label: Note, replaced: bool) {
        let before = self.map.clone();
        self.undo.push(Earlier {
            map: before.clone(),
            replaced,
        });
        if self.undo.len() > MAX_UNDO {
            self.undo.remove(0);
        }
        self.redo.clear();
        self.show(before, Rc::new(edit.after), label, edit.commands, replaced);
    }

    /// Shows `after` as the cluster and `before → after` as the last change.
    fn show(
        &mut self,
        before: Rc<SlotMap>,
        after: Rc<SlotMap>,
        label: Note,
        commands: Vec<String>,
        replaced: bool,
    ) {
        let before_colours = self.colours.clone();
        self.book.learn(&after);
        self.colours = Rc::new(self.book.colours(&after));
        let serial = self.change.as_ref().map_or(0, |c| c.serial + 1);
        self.change = Some(Rc::new(Change {
            label,
            // A new cluster is not a reshard: its slots were assigned, none moved.
            moves: if replaced {
                Vec::new()
            } else {
                diff(&before, &after)
            },
            before,
            before_colours,
            commands,
            serial,
            replaced,
        }));
        self.map = after;
        self.topology_error = None;
    }

    /// The address of master `idx` as it is now (empty if there is none).
    fn addr(&self, idx: usize) -> String {
        self.map
            .masters()
            .get(idx)
            .map(|m| m.addr.clone())
            .unwrap_or_default()
    }

    fn reshard(&mut self, from: &[usize], target: usize, n_slots: &str) {
        let n = match n_slots.trim().parse::<usize>() {
            Ok(n) if (1..=N_SLOTS).contains(&n) => n,
            _ => {
                self.topology_error = Some(Note::BadSlotCount(n_slots.to_string()));
                return;
            }
        };
        match lab::reshard(&self.map, from, target, n) {
            Ok((edit, n_slots)) => {
                let to = self.addr(target);
                let became = became_replica(&self.map, &edit.after);
                self.commit(
                    edit,
                    Note::Resharded {
                        n_slots,
                        asked: n,
                        to,
                    },
                );
                self.notice = became;
            }
            Err(e) => self.topology_error = Some(Note::Reshard(e)),
        }
    }

    fn rebalance(&mut self, use_empty_masters: bool, threshold: &str, weights: &str) {
        let weights = match lab::parse_weights(&self.map, weights) {
            Ok(w) => w,
            Err(e) => {
                self.topology_error = Some(weight_note(e));
                return;
            }
        };
        let threshold = match threshold.trim().parse::<f64>() {
            Ok(t) if (0.0..=100.0).contains(&t) => t,
            _ => {
                self.topology_error = Some(Note::BadThreshold(threshold.to_string()));
                return;
            }
        };
        let opts = rebalance::RebalanceOptions {
            threshold,
            use_empty_masters,
            weights,
        };
        match lab::rebalance(&self.map, &opts) {
            Ok(lab::Rebalanced {
                edit: Some(edit),
                lines,
            }) => {
                self.commit(edit, Note::Rebalanced);
                self.notice = Some(Note::RedisCli {
                    lines,
                    empty_masters_hint: false,
                });
            }
            Ok(lab::Rebalanced { edit: None, lines }) => {
                let has_empty = self.map.slot_counts().contains(&0);
                self.notice = Some(Note::RedisCli {
                    lines,
                    empty_masters_hint: has_empty && !use_empty_masters,
                });
            }
            Err(e) => self.topology_error = Some(Note::Reshard(e)),
        }
    }

    fn failover(&mut self, idx: usize) {
        match lab::failover(&self.map, idx) {
            Ok((edit, outcome)) => {
                let label = match outcome {
                    FailoverOutcome::Promoted {
                        promoted,
                        failed,
                        epoch,
                        ..
                    } => Note::Promoted {
                        failed,
                        promoted,
                        epoch,
                    },
                    FailoverOutcome::ClusterDown { master, slots } => Note::FailedClusterDown {
                        master: self.addr(master),
                        slots,
                    },
                    FailoverOutcome::NoSlots { master } => Note::FailedNoSlots(self.addr(master)),
                };
                self.commit(edit, label);
            }
            Err(e) => self.topology_error = Some(Note::Reshard(e)),
        }
    }
}

/// The first master of `before` that is a replica in `after` (it lost its last slot), and the
/// master it now replicates, as a notice.
fn became_replica(before: &SlotMap, after: &SlotMap) -> Option<Note> {
    // Each replica's id in `after` to the first master listing it: one pass, not a scan of
    // `after` per master of `before` (a million id compares at 1000 masters, issue 17).
    let mut master_of = std::collections::HashMap::new();
    for a in after.masters() {
        for r in &a.replicas {
            master_of.entry(r.id.as_str()).or_insert(a);
        }
    }
    before.masters().iter().find_map(|m| {
        let of = master_of.get(m.id.as_str())?;
        Some(Note::BecameReplica {
            node: m.addr.clone(),
            of: of.addr.clone(),
        })
    })
}

/// A weight list's error as the lab words it.
fn weight_note(e: WeightError) -> Note {
    match e {
        WeightError::NotPair(pair) => Note::WeightNotPair(pair),
        WeightError::NoMaster { who, pair } => Note::WeightNoMaster { who, pair },
        WeightError::NotNumber(w) => Note::WeightNotNumber(w),
    }
}

/// What a reader can do to the cluster.
#[derive(Clone, Debug, PartialEq)]
pub enum ClusterAction {
    /// Show the fixtures' cluster.
    UseFixtureCluster,
    /// Show a created cluster with the master count as typed.
    CreateCluster(String),
    /// Add a master with no slots (`redis-cli --cluster add-node`).
    AddMaster,
    /// Remove a master; refused while it owns slots.
    RemoveMaster(usize),
    /// Give the slots `first..=last` to a master.
    MoveRange {
        /// First slot.
        first: u16,
        /// Last slot (inclusive).
        last: u16,
        /// Index of the master that gets them.
        target: usize,
    },
    /// `redis-cli --cluster reshard`: move `n_slots` (as typed) to `target`, from one master
    /// (`from`) or from all.
    Reshard {
        /// The source masters (`--cluster-from id,id`), or none for `--cluster-from all`.
        from: Vec<usize>,
        /// The master that gets the slots.
        target: usize,
        /// How many slots, as typed.
        n_slots: String,
    },
    /// `redis-cli --cluster rebalance`.
    Rebalance {
        /// `--cluster-use-empty-masters`.
        use_empty_masters: bool,
        /// `--cluster-threshold`, in percent, as typed.
        threshold: String,
        /// `--cluster-weight`, as typed: `addr=weight` pairs separated by spaces or commas.
        weights: String,
    },
    /// Move every slot of a master to the others (a rebalance with its weight at 0), then
    /// remove it: what the reader is offered when a removal is refused.
    DrainAndRemove(usize),
    /// The master fails: its first replica takes over (or, with none, the cluster is down).
    Failover(usize),
    /// Show the cluster in a pasted CLUSTER NODES / SHARDS / SLOTS output.
    Import(String),
    /// Go back to the cluster before the last change.
    Undo,
    /// Redo the change last undone.
    Redo,
}

impl Reducible for ClusterState {
    type Action = ClusterAction;

    fn reduce(self: Rc<Self>, action: ClusterAction) -> Rc<Self> {
        // The reducer's handle usually holds the state too, so this is one clone per action
        // (never per keystroke elsewhere on the page: the key has its own reducer).
        let mut next = Rc::unwrap_or_clone(self);
        // An action replaces the last one's error and notice with its own, if any.
        next.topology_error = None;
        next.refused_removal = None;
        next.notice = None;
        match action {
            ClusterAction::UseFixtureCluster => {
                next.cluster = ClusterChoice::Fixture;
                next.cluster_error = None;
                next.book = ColourBook::default();
                let edit = Edit {
                    after: SlotMap::fixture_cluster(),
                    commands: Vec::new(),
                };
                next.replace(edit, Note::Fixture);
            }
            ClusterAction::CreateCluster(text) => match text.trim().parse::<usize>() {
                Ok(n) if (1..=MAX_MASTERS).contains(&n) => match lab::create(n) {
                    Ok(edit) => {
                        next.cluster = ClusterChoice::Created(n);
                        next.cluster_error = None;
                        next.book = ColourBook::default();
                        next.replace(edit, Note::Created(n));
                    }
                    Err(CreateError::Refused(refused)) => {
                        next.cluster_error = Some(CountRefused::ByCli(refused))
                    }
                    Err(CreateError::Topology(_)) => {
                        next.cluster_error = Some(CountRefused::NotACount(text))
                    }
                },
                _ => next.cluster_error = Some(CountRefused::NotACount(text)),
            },
            ClusterAction::AddMaster => match lab::add_master(&next.map) {
                Ok((edit, addr)) => next.commit(edit, Note::AddedMaster(addr)),
                Err(e) => next.topology_error = Some(Note::Topology(e)),
            },
            ClusterAction::RemoveMaster(idx) => match lab::remove_master(&next.map, idx) {
                Ok((edit, gone)) => next.commit(edit, Note::RemovedMaster(gone.addr)),
                Err(e) => {
                    next.topology_error = Some(Note::Topology(e));
                    next.refused_removal = Some(idx);
                }
            },
            ClusterAction::MoveRange {
                first,
                last,
                target,
            } => match lab::move_range(&next.map, first, last, target) {
                Some((edit, range)) => {
                    let to = next.addr(target);
                    let became = became_replica(&next.map, &edit.after);
                    next.commit(edit, Note::Moved { range, to });
                    next.notice = became;
                }
                None => next.topology_error = Some(Note::NoMasterNumber(target)),
            },
            ClusterAction::Reshard {
                from,
                target,
                n_slots,
            } => next.reshard(&from, target, &n_slots),
            ClusterAction::Rebalance {
                use_empty_masters,
                threshold,
                weights,
            } => next.rebalance(use_empty_masters, &threshold, &weights),
            ClusterAction::DrainAndRemove(idx) => match lab::drain_and_remove(&next.map, idx) {
                Ok((edit, gone)) => next.commit(edit, Note::Drained(gone.addr)),
                Err(DrainError::Reshard(e)) => next.topology_error = Some(Note::Reshard(e)),
                Err(DrainError::Topology(e)) => next.topology_error = Some(Note::Topology(e)),
            },
            ClusterAction::Failover(idx) => next.failover(idx),
            ClusterAction::Import(text) => match import::import(&text) {
                Ok(imported) => {
                    let warnings = imported.warnings;
                    next.book = ColourBook::default();
                    let edit = Edit {
                        after: imported.map,
                        commands: Vec::new(),
                    };
                    next.replace(edit, Note::Imported(imported.format));
                    if !warnings.is_empty() {
                        next.notice = Some(Note::ImportWarnings(warnings));
                    }
                }
                Err(e) => next.topology_error = Some(Note::Import(e)),
            },
            ClusterAction::Undo => {
                if let Some(prev) = next.undo.pop() {
                    let current = next.map.clone();
                    next.redo.push(Earlier {
                        map: current.clone(),
                        replaced: prev.replaced,
                    });
                    next.show(current, prev.map, Note::Undone, Vec::new(), prev.replaced);
                }
            }
            ClusterAction::Redo => {
                if let Some(again) = next.redo.pop() {
                    let current = next.map.clone();
                    next.undo.push(Earlier {
                        map: current.clone(),
                        replaced: again.replaced,
                    });
                    next.show(current, again.map, Note::Redone, Vec::new(), again.replaced);
                }
            }
        }
        Rc::new(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::messages::EN;

    #[test]
    fn a_restore_opens_the_cluster_with_no_history() {
        let s = ClusterState::restored(&Cluster::Created(5));
        assert_eq!(s.cluster, ClusterChoice::Created(5));
        assert_eq!(s.map.n_masters(), 5);
        assert!(s.undo.is_empty() && s.change.is_none());
        let s = ClusterState::restored(&Cluster::Created(2));
        assert_eq!(
            s.cluster,
            ClusterChoice::Fixture,
            "redis-cli creates no 2-master cluster"
        );
        assert_eq!(s.map.n_masters(), 2, "the map is the link's");
        let s = ClusterState::restored(&Cluster::Created(70_000));
        assert_eq!(
            *s.map,
            SlotMap::fixture_cluster(),
            "an unbuildable count keeps the default"
        );
        // Links leave out what equals the opening state, so both sides must agree on it.
        assert_eq!(DEFAULT_KEY, crate::persist::DEFAULT_KEY);
        assert_eq!(
            Cluster::from_map(&ClusterState::default().map),
            Cluster::Fixture
        );
    }

    fn key(inputs: &[&str]) -> KeyState {
        inputs
            .iter()
            .fold(KeyState::default(), |s, i| s.read(i.to_string()))
    }

    fn run(actions: &[ClusterAction]) -> Rc<ClusterState> {
        actions
            .iter()
            .fold(Rc::new(ClusterState::default()), |s, a| s.reduce(a.clone()))
    }

    #[test]
    fn a_bad_key_keeps_the_last_good_explanation() {
        let s = key(&["foo", r"foo\x4"]);
        assert_eq!(&*s.input, r"foo\x4");
        assert_eq!(s.explained.key, b"foo");
        assert_eq!(s.error.as_ref().and_then(|e| e.column()), Some(4));
        let s = s.read(r"foo\x41".into());
        assert_eq!(s.error, None);
        assert_eq!(s.explained.key, b"fooA");
    }

    #[test]
    fn a_huge_paste_is_refused_and_not_stored() {
        let huge = "a".repeat(10 << 20);
        let s = key(&["foo"]).read(huge);
        assert_eq!(
            s.error,
            Some(KeyProblem::TooLong {
                bytes: 10 << 20,
                at_least: false
            }),
            "text with no escape is its own bytes: the count is exact"
        );
        assert_eq!(s.explained.key, b"foo");
        assert_eq!(&*s.input, "foo", "the refused text is not kept");
        // Just over the limit after parsing, though short enough to parse.
        let s = s.read("b".repeat(MAX_KEY_BYTES + 1));
        assert_eq!(
            s.error,
            Some(KeyProblem::TooLong {
                bytes: MAX_KEY_BYTES + 1,
                at_least: false
            })
        );
        assert_eq!(&*s.input, "foo");
        // Escaped text too long to parse: a lower bound, a quarter of its length.
        let escaped = format!("\\x41{}", "\\x41".repeat(MAX_KEY_BYTES + 1));
        let s = s.read(escaped.clone());
        assert_eq!(
            s.error,
            Some(KeyProblem::TooLong {
                bytes: escaped.len() / 4,
                at_least: true
            })
        );
        let s = s.read("c".repeat(MAX_KEY_BYTES));
        assert_eq!(s.error, None);
        assert_eq!(s.explained.key.len(), MAX_KEY_BYTES);
        assert_eq!(s.input.len(), MAX_KEY_BYTES);
    }

    #[test]
    fn the_same_key_keeps_its_explanation() {
        let s = key(&["foo"]);
        let again = s.read("foo".into());
        assert!(Rc::ptr_eq(&s.explained, &again.explained));
    }

    #[test]
    fn a_new_master_owns_nothing_and_cannot_leave_once_it_owns_slots() {
        let s = run(&[ClusterAction::AddMaster]);
        assert_eq!(s.map.n_masters(), 4);
        assert_eq!(s.map.masters()[3].addr, "127.0.0.1:7006");
        assert_eq!(s.map.slot_counts()[3], 0);
        assert_eq!(s.change.as_ref().unwrap().n_slots(), 0);
        let s = s.reduce(ClusterAction::MoveRange {
            first: 10,
            last: 0,
            target: 3,
        });
        assert_eq!(s.map.ranges_of(3), vec![crate::core::SlotRange::new(0, 10)]);
        assert_eq!(s.change.as_ref().unwrap().n_slots(), 11);
        let s = s.reduce(ClusterAction::RemoveMaster(3));
        assert!(s
            .topology_error
            .as_ref()
            .unwrap()
            .text(&EN)
            .contains("not empty"));
        assert_eq!(s.refused_removal, Some(3));
        assert_eq!(s.map.n_masters(), 4, "the refused removal changes nothing");
        // Undo twice: back to the fixture cluster; redo once: the empty new master again.
        let s = s.reduce(ClusterAction::Undo).reduce(ClusterAction::Undo);
        assert_eq!(*s.map, SlotMap::fixture_cluster());
        let s = s.reduce(ClusterAction::Redo);
        assert_eq!(s.map.n_masters(), 4);
        assert_eq!(s.map.slot_counts()[3], 0);
        let s = s.reduce(ClusterAction::RemoveMaster(3));
        assert_eq!(s.topology_error, None);
        assert_eq!(*s.map, SlotMap::fixture_cluster());
        // Colours follow node ids: 7001 keeps its colour throughout.
        assert_eq!(s.colours[1], run(&[]).colours[1]);
    }

    #[test]
    fn a_new_cluster_moves_nothing_and_neither_does_undoing_it() {
        // The fixtures' cluster gives 7002 slot 8106; a created one of 8 gives it to the fourth
        // master. That is a new cluster, not slots moved from 7002 to 7003.
        let s = run(&[ClusterAction::CreateCluster("8".into())]);
        let c = s.change.as_ref().unwrap();
        assert!(c.replaced);
        assert!(c.moves.is_empty());
        assert_eq!(c.n_slots(), 0);
        let s = s.reduce(ClusterAction::Undo);
        assert!(s.change.as_ref().unwrap().replaced);
        assert_eq!(*s.map, SlotMap::fixture_cluster());
        let s = s.reduce(ClusterAction::Redo);
        assert!(s.change.as_ref().unwrap().replaced);
        assert_eq!(s.map.n_masters(), 8);
        // A reshard after it does move slots, and so does its undo.
        let s = s.reduce(ClusterAction::Reshard {
            from: vec![0],
            target: 1,
            n_slots: "10".into(),
        });
        let c = s.change.as_ref().unwrap();
        assert!(!c.replaced);
        assert_eq!(c.n_slots(), 10);
        let s = s.reduce(ClusterAction::Undo);
        let c = s.change.as_ref().unwrap();
        assert!(!c.replaced);
        assert_eq!(c.n_slots(), 10);
        let s = s.reduce(ClusterAction::UseFixtureCluster);
        assert!(s.change.as_ref().unwrap().replaced);
    }

    #[test]
    fn a_master_resharded_empty_is_said_to_become_a_replica() {
        // As fixtures/failover/del_node recorded: 7000 gives all 5461 slots to 7001.
        let s = run(&[
            ClusterAction::CreateCluster("3".into()),
            ClusterAction::Reshard {
                from: vec![0],
                target: 1,
                n_slots: "5461".into(),
            },
        ]);
        assert_eq!(s.map.n_masters(), 2);
        assert_eq!(s.map.masters()[0].replicas[0].addr, "127.0.0.1:7000");
        assert_eq!(
            s.notice,
            Some(Note::BecameReplica {
                node: "127.0.0.1:7000".into(),
                of: "127.0.0.1:7001".into()
            })
        );
    }

    #[test]
    fn a_refused_removal_can_be_drained_first() {
        let s = run(&[
            ClusterAction::AddMaster,
            ClusterAction::MoveRange {
                first: 0,
                last: 99,
                target: 3,
            },
            ClusterAction::DrainAndRemove(3),
        ]);
        assert_eq!(s.topology_error, None);
        assert_eq!(s.map.n_masters(), 3);
        assert_eq!(s.map.n_unowned(), 0);
        let commands = &s.change.as_ref().unwrap().commands;
        assert!(commands
            .last()
            .unwrap()
            .starts_with("redis-cli --cluster del-node 127.0.0.1:7000 "));
    }

    #[test]
    fn a_master_without_replicas_failing_keeps_its_slots_and_the_cluster_is_down() {
        let s = run(&[
            ClusterAction::CreateCluster("3".into()),
            ClusterAction::Failover(0),
        ]);
        // Redis keeps the slots with the FAIL master (fixtures/failover/majority_loss).
        assert_eq!(s.map.n_unowned(), 0);
        assert_eq!(s.map.slot_counts()[0], 5461);
        assert!(s.map.masters()[0].is_failed());
        assert!(s
            .change
            .as_ref()
            .unwrap()
            .label
            .text(&EN)
            .contains("CLUSTERDOWN The cluster is down"));
        // With a failed master's slots unreachable, redis-cli refuses to reshard or rebalance; so does the page.
        let s = s.reduce(ClusterAction::Rebalance {
            use_empty_masters: false,
            threshold: "2".into(),
            weights: String::new(),
        });
        assert!(s.topology_error.is_some());
    }

    #[test]
    fn a_bad_weight_is_refused_in_the_readers_words() {
        let s = run(&[ClusterAction::Rebalance {
            use_empty_masters: false,
            threshold: "2".into(),
            weights: "127.0.0.1:7000".into(),
        }]);
        assert_eq!(
            s.topology_error,
            Some(Note::WeightNotPair("127.0.0.1:7000".into()))
        );
        assert_eq!(*s.map, SlotMap::fixture_cluster());
    }

    #[test]
    fn a_bad_master_count_keeps_the_cluster() {
        let s = run(&[ClusterAction::CreateCluster("7".into())]);
        assert_eq!(s.cluster, ClusterChoice::Created(7));
        let s = s.reduce(ClusterAction::CreateCluster("0".into()));
        assert_eq!(s.cluster, ClusterChoice::Created(7));
        assert_eq!(s.map.n_masters(), 7);
        assert_eq!(s.cluster_error, Some(CountRefused::NotACount("0".into())));
        // One or two masters: redis-cli refuses (tests/lab_transcripts.rs has its words).
        for n in ["1", "2"] {
            let refused = s.clone().reduce(ClusterAction::CreateCluster(n.into()));
            assert!(
                matches!(&refused.cluster_error, Some(CountRefused::ByCli(r)) if !r.output.is_empty())
            );
            assert_eq!(refused.map.n_masters(), 7);
            assert_eq!(refused.cluster, ClusterChoice::Created(7));
        }
        let s = s.reduce(ClusterAction::CreateCluster("1001".into()));
        assert_eq!(s.map.n_masters(), 7);
        let s = s.reduce(ClusterAction::UseFixtureCluster);
        assert_eq!(s.cluster, ClusterChoice::Fixture);
        assert_eq!(s.cluster_error, None);
    }
}
