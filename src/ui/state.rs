//! The page's one reducer: what the reader typed, the last key that parsed, and the cluster.
//!
//! Components dispatch [`Action`]s and read [`AppState`]; none of them computes a slot.

use crate::core::cluster::{cli_commands, failover, import, rebalance, reshard};
use crate::core::escape::{parse_key, EscapeError};
use crate::core::topology::{diff, OwnerChange};
use crate::core::{explain, Explanation, Master, SlotMap, SlotRange, N_SLOTS};
use crate::ui::localize::Note;
use crate::ui::palette::ColourBook;
use std::rc::Rc;
use yew::Reducible;

/// How many earlier clusters undo remembers.
pub const MAX_UNDO: usize = 100;

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
}

impl Change {
    /// How many slots changed owner.
    pub fn n_slots(&self) -> usize {
        self.moves.iter().map(|m| m.range.len()).sum()
    }
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
    /// Colour of each master of `map`, by index (stable per node id across changes).
    pub colours: Rc<Vec<String>>,
    /// Which colour each node id has had.
    pub book: ColourBook,
    /// Earlier clusters, most recent last.
    pub undo: Vec<Rc<SlotMap>>,
    /// Clusters undone, most recent last.
    pub redo: Vec<Rc<SlotMap>>,
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

impl Default for AppState {
    fn default() -> Self {
        let map = SlotMap::fixture_cluster();
        let book = ColourBook::for_map(&map);
        AppState {
            input: DEFAULT_KEY.to_string(),
            explained: Rc::new(explain(DEFAULT_KEY.as_bytes())),
            error: None,
            cluster: ClusterChoice::Fixture,
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
}

impl AppState {
    /// Makes `after` the cluster, remembering the current one for undo and describing the change.
    fn commit(&mut self, after: SlotMap, label: Note, commands: Vec<String>) {
        let before = self.map.clone();
        self.undo.push(before.clone());
        if self.undo.len() > MAX_UNDO {
            self.undo.remove(0);
        }
        self.redo.clear();
        self.show(before, Rc::new(after), label, commands);
    }

    /// Shows `after` as the cluster and `before → after` as the last change.
    fn show(
        &mut self,
        before: Rc<SlotMap>,
        after: Rc<SlotMap>,
        label: Note,
        commands: Vec<String>,
    ) {
        let before_colours = self.colours.clone();
        self.book.learn(&after);
        self.colours = Rc::new(self.book.colours(&after));
        let serial = self.change.as_ref().map_or(0, |c| c.serial + 1);
        self.change = Some(Rc::new(Change {
            label,
            moves: diff(&before, &after),
            before,
            before_colours,
            commands,
            serial,
        }));
        self.map = after;
        self.topology_error = None;
    }

    /// The next free address on 127.0.0.1 for a new master (one past the highest port in use).
    pub fn next_addr(&self) -> String {
        let port = self
            .map
            .masters()
            .iter()
            .flat_map(|m| std::iter::once(&m.addr).chain(m.replicas.iter().map(|r| &r.addr)))
            .filter_map(|a| a.rsplit(':').next()?.parse::<u32>().ok())
            .max()
            .map_or(7000, |p| p + 1)
            .min(65535);
        format!("127.0.0.1:{port}")
    }
}

impl AppState {
    fn reshard(&mut self, from: Vec<usize>, target: usize, n_slots: &str) {
        let n = match n_slots.trim().parse::<usize>() {
            Ok(n) if (1..=N_SLOTS).contains(&n) => n,
            _ => {
                self.topology_error = Some(Note::BadSlotCount(n_slots.to_string()));
                return;
            }
        };
        let sources = if from.is_empty() {
            reshard::Sources::All
        } else {
            reshard::Sources::Masters(from)
        };
        match reshard::reshard_plan(&self.map, &sources, target, n) {
            Ok(moves) => {
                let mut after = (*self.map).clone();
                let commands = cli_commands::redis_cli_commands(&self.map, &moves);
                reshard::apply(&mut after, &moves);
                let to = self
                    .map
                    .masters()
                    .get(target)
                    .map(|m| m.addr.clone())
                    .unwrap_or_default();
                let label = Note::Resharded {
                    n_slots: moves.len(),
                    to,
                };
                self.commit(after, label, commands);
            }
            Err(e) => self.topology_error = Some(Note::Reshard(e)),
        }
    }

    /// A rebalance as redis-cli plans it: the cluster after it with the commands (`None` when
    /// no rebalancing is needed), and redis-cli's own lines, which say what it did or why not.
    fn plan_rebalance(&self, opts: &rebalance::RebalanceOptions) -> Result<PlannedRebalance, Note> {
        // redis-cli takes the nodes in the entry node's order; the page's is the list's.
        let order: Vec<usize> = (0..self.map.n_masters()).collect();
        let plan = rebalance::rebalance_plan(&self.map, &order, opts).map_err(Note::Reshard)?;
        let lines = plan.redis_cli_lines(&self.map);
        if plan.moves().is_empty() {
            return Ok((None, lines));
        }
        let mut after = (*self.map).clone();
        let commands = cli_commands::redis_cli_commands(&self.map, plan.moves());
        reshard::apply(&mut after, plan.moves());
        Ok((Some((after, commands)), lines))
    }

    fn rebalance(&mut self, use_empty_masters: bool, threshold: &str, weights: &str) {
        let weights = match parse_weights(&self.map, weights) {
            Ok(w) => w,
            Err(e) => {
                self.topology_error = Some(e);
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
        match self.plan_rebalance(&opts) {
            Ok((Some((after, commands)), lines)) => {
                self.commit(after, Note::Rebalanced, commands);
                self.notice = Some(Note::RedisCli {
                    lines,
                    empty_masters_hint: false,
                });
            }
            Ok((None, lines)) => {
                let has_empty = self.map.slot_counts().contains(&0);
                self.notice = Some(Note::RedisCli {
                    lines,
                    empty_masters_hint: has_empty && !use_empty_masters,
                });
            }
            Err(e) => self.topology_error = Some(e),
        }
    }

    /// Moves every slot off master `idx` (a rebalance with its weight at 0), then removes it.
    fn drain_and_remove(&mut self, idx: usize) {
        let opts = rebalance::RebalanceOptions {
            weights: vec![(idx, 0.0)],
            use_empty_masters: true,
            ..Default::default()
        };
        let (mut after, mut commands) = match self.plan_rebalance(&opts) {
            Ok((Some(done), _)) => done,
            Ok((None, _)) => ((*self.map).clone(), Vec::new()),
            Err(e) => {
                self.topology_error = Some(e);
                return;
            }
        };
        match after.remove_master(idx) {
            Ok(gone) => {
                commands.push(del_node_command(&after, &gone.id));
                self.commit(after, Note::Drained(gone.addr), commands);
            }
            Err(e) => self.topology_error = Some(Note::Topology(e)),
        }
    }

    fn failover(&mut self, idx: usize) {
        let mut after = (*self.map).clone();
        let addr = |i: usize| {
            self.map
                .masters()
                .get(i)
                .map(|m| m.addr.clone())
                .unwrap_or_default()
        };
        let mut commands = Vec::new();
        match failover::failover(&mut after, idx) {
            Ok(outcome) => {
                let label = match outcome {
                    failover::FailoverOutcome::Promoted {
                        promoted, failed, ..
                    } => {
                        // Without a real failure, the same handover is a manual failover.
                        let (host, port) = promoted.rsplit_once(':').unwrap_or((&promoted, ""));
                        commands.push(format!(
                            "redis-cli -h {host} -p {port} CLUSTER FAILOVER   # graceful handover; a crashed master needs no command"
                        ));
                        Note::Promoted { failed, promoted }
                    }
                    failover::FailoverOutcome::Uncovered { master, slots } => {
                        Note::FailedUncovered {
                            master: addr(master),
                            slots,
                        }
                    }
                    failover::FailoverOutcome::NoSlots { master } => {
                        Note::FailedNoSlots(addr(master))
                    }
                    #[allow(unreachable_patterns)]
                    _ => Note::FailedOver,
                };
                self.commit(after, label, commands);
            }
            Err(e) => self.topology_error = Some(Note::Reshard(e)),
        }
    }
}

/// Reads `--cluster-weight` pairs (`127.0.0.1:7000=2`, or a node id, or an id's prefix as
/// redis-cli accepts) separated by spaces or commas.
pub fn parse_weights(map: &SlotMap, text: &str) -> Result<Vec<(usize, f64)>, Note> {
    let mut out = Vec::new();
    for pair in text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|p| !p.is_empty())
    {
        let Some((who, w)) = pair.split_once('=') else {
            return Err(Note::WeightNotPair(pair.to_string()));
        };
        let idx = map
            .masters()
            .iter()
            .position(|m| m.addr == who || (who.len() >= 4 && m.id.starts_with(who)))
            .ok_or_else(|| Note::WeightNoMaster {
                who: who.to_string(),
                pair: pair.to_string(),
            })?;
        match w.parse::<f64>() {
            Ok(w) if w.is_finite() && w >= 0.0 => out.push((idx, w)),
            _ => return Err(Note::WeightNotNumber(w.to_string())),
        }
    }
    Ok(out)
}

/// The cluster after a rebalance and its commands (if anything moves), and redis-cli's lines.
type PlannedRebalance = (Option<(SlotMap, Vec<String>)>, Vec<String>);

/// `redis-cli --cluster del-node <entry> <id>`, with the first remaining master as the entry.
fn del_node_command(after: &SlotMap, id: &str) -> String {
    let entry = after.masters().first().map_or("", |m| m.addr.as_str());
    format!("redis-cli --cluster del-node {entry} {id}")
}

/// A made-up but stable 40-hex-digit node id for a node the page adds (the share links'
/// codec knows it too, and writes such an id in one byte).
pub use crate::core::share::made_up_id;

/// What a reader can do.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// The key field now holds this text.
    SetKey(String),
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
    /// The master fails: its first replica takes over (or its slots go uncovered).
    Failover(usize),
    /// Show the cluster in a pasted CLUSTER NODES / SHARDS / SLOTS output.
    Import(String),
    /// Go back to the cluster before the last change.
    Undo,
    /// Redo the change last undone.
    Redo,
    /// Open a shared state: this key text and this cluster, with no history (a link or the
    /// state saved in this browser).
    Restore {
        /// The key field's text.
        key: String,
        /// The cluster.
        cluster: crate::core::share::Cluster,
    },
}

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        if !matches!(action, Action::SetKey(_)) {
            // A cluster action replaces the last one's error and notice with its own, if any.
            next.topology_error = None;
            next.refused_removal = None;
            next.notice = None;
        }
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
                next.cluster_error = None;
                next.book = ColourBook::default();
                next.commit(SlotMap::fixture_cluster(), Note::Fixture, Vec::new());
            }
            Action::CreateCluster(text) => match text.trim().parse::<usize>() {
                Ok(n) if (1..=MAX_MASTERS).contains(&n) => {
                    match SlotMap::created(n, "127.0.0.1", 7000) {
                        Ok(map) => {
                            next.cluster = ClusterChoice::Created(n);
                            next.cluster_error = None;
                            next.book = ColourBook::default();
                            let addrs: Vec<&str> =
                                map.masters().iter().map(|m| m.addr.as_str()).collect();
                            let command = format!(
                                "redis-cli --cluster create {} --cluster-replicas 0",
                                addrs.join(" ")
                            );
                            next.commit(map, Note::Created(n), vec![command]);
                        }
                        Err(e) => next.cluster_error = Some(e.to_string()),
                    }
                }
                _ => next.cluster_error = Some(text),
            },
            Action::AddMaster => {
                let addr = next.next_addr();
                let mut after = (*next.map).clone();
                let entry = after.masters().first().map(|m| m.addr.clone());
                match after.add_master(Master::new(addr.clone(), made_up_id(&addr))) {
                    Ok(_) => {
                        let command = match entry {
                            Some(entry) => format!("redis-cli --cluster add-node {addr} {entry}"),
                            None => String::new(),
                        };
                        next.commit(after, Note::AddedMaster(addr), vec![command]);
                    }
                    Err(e) => next.topology_error = Some(Note::Topology(e)),
                }
            }
            Action::RemoveMaster(idx) => {
                let mut after = (*next.map).clone();
                match after.remove_master(idx) {
                    Ok(gone) => {
                        let command = del_node_command(&after, &gone.id);
                        next.commit(after, Note::RemovedMaster(gone.addr), vec![command]);
                    }
                    Err(e) => {
                        next.topology_error = Some(Note::Topology(e));
                        next.refused_removal = Some(idx);
                    }
                }
            }
            Action::MoveRange {
                first,
                last,
                target,
            } => {
                let (first, last) = (first.min(last), first.max(last).min(16383));
                let mut after = (*next.map).clone();
                match after.masters().get(target).map(|m| m.addr.clone()) {
                    Some(addr) => {
                        let moves: Vec<reshard::SlotMove> = (first..=last)
                            .filter_map(|slot| {
                                let from = next.map.owner(slot)?;
                                (from != target).then_some(reshard::SlotMove {
                                    slot,
                                    from,
                                    to: target,
                                })
                            })
                            .collect();
                        let commands = cli_commands::redis_cli_commands(&next.map, &moves);
                        for slot in first..=last {
                            after.assign(slot, Some(target));
                        }
                        let range = SlotRange::new(first, last);
                        next.commit(after, Note::Moved { range, to: addr }, commands);
                    }
                    None => next.topology_error = Some(Note::NoMasterNumber(target)),
                }
            }
            Action::Reshard {
                from,
                target,
                n_slots,
            } => next.reshard(from, target, &n_slots),
            Action::Rebalance {
                use_empty_masters,
                threshold,
                weights,
            } => next.rebalance(use_empty_masters, &threshold, &weights),
            Action::DrainAndRemove(idx) => next.drain_and_remove(idx),
            Action::Failover(idx) => next.failover(idx),
            Action::Import(text) => match import::import(&text) {
                Ok(imported) => {
                    let warnings = imported.warnings;
                    next.book = ColourBook::default();
                    next.commit(imported.map, Note::Imported(imported.format), Vec::new());
                    if !warnings.is_empty() {
                        next.notice = Some(Note::ImportWarnings(warnings));
                    }
                }
                Err(e) => next.topology_error = Some(Note::Import(e)),
            },
            Action::Undo => {
                if let Some(prev) = next.undo.pop() {
                    let current = next.map.clone();
                    next.redo.push(current.clone());
                    next.show(current, prev, Note::Undone, Vec::new());
                }
            }
            Action::Redo => {
                if let Some(again) = next.redo.pop() {
                    let current = next.map.clone();
                    next.undo.push(current.clone());
                    next.show(current, again, Note::Redone, Vec::new());
                }
            }
            Action::Restore { key, cluster } => next = restore(key, &cluster),
        }
        Rc::new(next)
    }
}

/// The page as a shared state describes it: a fresh page with this key and cluster.
fn restore(key: String, cluster: &crate::core::share::Cluster) -> AppState {
    use crate::core::share::Cluster;
    let mut s = (*Rc::new(AppState::default()).reduce(Action::SetKey(key))).clone();
    // A cluster that cannot be built (a created count past what SlotMap numbers) keeps the default.
    if let Ok(map) = cluster.to_map() {
        s.cluster = match cluster {
            Cluster::Created(n) => ClusterChoice::Created(*n),
            _ => ClusterChoice::Fixture,
        };
        s.book = ColourBook::for_map(&map);
        s.colours = Rc::new(s.book.colours(&map));
        s.map = Rc::new(map);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::messages::EN;

    #[test]
    fn a_restore_opens_the_key_and_cluster_with_no_history() {
        use crate::core::share::Cluster;
        let s = run(&[
            Action::AddMaster,
            Action::Restore {
                key: "{a}b".into(),
                cluster: Cluster::Created(5),
            },
        ]);
        assert_eq!(s.input, "{a}b");
        assert_eq!(s.explained.key, b"{a}b");
        assert_eq!(s.cluster, ClusterChoice::Created(5));
        assert_eq!(s.map.n_masters(), 5);
        assert!(s.undo.is_empty() && s.change.is_none());
        let s = s.reduce(Action::Restore {
            key: r"bad\x4".into(),
            cluster: Cluster::Fixture,
        });
        assert!(
            s.error.is_some(),
            "a malformed key is shown as the reader would see it"
        );
        // Links leave out what equals the opening state, so both sides must agree on it.
        assert_eq!(DEFAULT_KEY, crate::core::share::DEFAULT_KEY);
        assert_eq!(*s.map, SlotMap::fixture_cluster());
    }

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
    fn a_new_master_owns_nothing_and_cannot_leave_once_it_owns_slots() {
        let s = run(&[Action::AddMaster]);
        assert_eq!(s.map.n_masters(), 4);
        assert_eq!(s.map.masters()[3].addr, "127.0.0.1:7006");
        assert_eq!(s.map.slot_counts()[3], 0);
        assert_eq!(s.change.as_ref().unwrap().n_slots(), 0);
        let s = s.reduce(Action::MoveRange {
            first: 10,
            last: 0,
            target: 3,
        });
        assert_eq!(s.map.ranges_of(3), vec![SlotRange::new(0, 10)]);
        assert_eq!(s.change.as_ref().unwrap().n_slots(), 11);
        let s = s.reduce(Action::RemoveMaster(3));
        assert!(s
            .topology_error
            .as_ref()
            .unwrap()
            .text(&EN)
            .contains("not empty"));
        assert_eq!(s.map.n_masters(), 4, "the refused removal changes nothing");
        // Undo twice: back to the fixture cluster; redo once: the empty new master again.
        let s = s.reduce(Action::Undo).reduce(Action::Undo);
        assert_eq!(*s.map, SlotMap::fixture_cluster());
        let s = s.reduce(Action::Redo);
        assert_eq!(s.map.n_masters(), 4);
        assert_eq!(s.map.slot_counts()[3], 0);
        let s = s.reduce(Action::RemoveMaster(3));
        assert_eq!(s.topology_error, None);
        assert_eq!(*s.map, SlotMap::fixture_cluster());
        // Colours follow node ids: 7001 keeps its colour throughout.
        assert_eq!(s.colours[1], run(&[]).colours[1]);
    }

    #[test]
    fn a_master_without_replicas_failing_leaves_its_slots_uncovered() {
        let s = run(&[Action::CreateCluster("3".into()), Action::Failover(0)]);
        assert_eq!(s.map.n_unowned(), 5461);
        assert!(s.map.masters()[0].is_failed());
        assert!(s
            .change
            .as_ref()
            .unwrap()
            .label
            .text(&EN)
            .contains("served by nobody"));
        // With slots uncovered, redis-cli refuses to reshard or rebalance; so does the page.
        let s = s.reduce(Action::Rebalance {
            use_empty_masters: false,
            threshold: "2".into(),
            weights: String::new(),
        });
        assert!(s.topology_error.is_some());
    }

    #[test]
    fn weights_name_masters_by_address_or_id_prefix() {
        let map = SlotMap::fixture_cluster();
        assert_eq!(
            parse_weights(&map, "127.0.0.1:7000=2, f7c6b5d6=0.5").unwrap(),
            vec![(0, 2.0), (1, 0.5)]
        );
        assert!(parse_weights(&map, "127.0.0.1:9999=2").is_err());
        assert!(parse_weights(&map, "127.0.0.1:7000").is_err());
        assert!(parse_weights(&map, "127.0.0.1:7000=-1").is_err());
        assert_eq!(parse_weights(&map, "  ").unwrap(), vec![]);
    }

    #[test]
    fn made_up_ids_look_like_node_ids_and_differ() {
        let a = made_up_id("127.0.0.1:7006");
        assert_eq!(a.len(), 40);
        assert!(a.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_ne!(a, made_up_id("127.0.0.1:7007"));
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
