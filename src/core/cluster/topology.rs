//! The cluster's shape: masters, their replicas, and which master owns each of the 16384 slots.
//!
//! A [`SlotMap`] is a flat table, one entry per slot, so "who owns slot s" is one load and the
//! page can colour all 16384 slots without searching. Ranges are derived from it on demand.

use crate::core::key::slot::N_SLOTS;
use core::fmt;

/// A replica of a master.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replica {
    /// Address as redis-cli prints it, e.g. `127.0.0.1:7004`.
    pub addr: String,
    /// The 40-hex-digit node id.
    pub id: String,
    /// `CLUSTER NODES` flags other than the role (`myself`, `fail`, `noaddr`, …).
    pub flags: Vec<String>,
}

impl Replica {
    /// A replica with no flags.
    pub fn new(addr: impl Into<String>, id: impl Into<String>) -> Self {
        Replica {
            addr: addr.into(),
            id: id.into(),
            flags: Vec::new(),
        }
    }
}

/// A master node of the cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Master {
    /// The node's address as redis-cli prints it, e.g. `127.0.0.1:7001`.
    pub addr: String,
    /// The 40-hex-digit node id (as in `CLUSTER NODES`).
    pub id: String,
    /// The hostname the node announces, if any (`CLUSTER NODES` 7.0 `ip:port@cport,hostname`).
    pub hostname: Option<String>,
    /// `CLUSTER NODES` flags other than the role (`myself`, `fail`, `noaddr`, …).
    pub flags: Vec<String>,
    /// The replicas of this master.
    pub replicas: Vec<Replica>,
    /// Slots this master is migrating away, with the id of the node they go to (`[slot->-id]`).
    pub migrating: Vec<(u16, String)>,
    /// Slots this master is importing, with the id of the node they come from (`[slot-<-id]`).
    pub importing: Vec<(u16, String)>,
    /// Its config epoch (`CLUSTER NODES` field 7; its replicas' lines show the same). A node
    /// that has just joined has 0.
    pub epoch: u64,
}

impl Master {
    /// A master with no replicas, flags or open slots, and config epoch 0 (a node that has just
    /// joined).
    pub fn new(addr: impl Into<String>, id: impl Into<String>) -> Self {
        Master {
            addr: addr.into(),
            id: id.into(),
            hostname: None,
            flags: Vec::new(),
            replicas: Vec::new(),
            migrating: Vec::new(),
            importing: Vec::new(),
            epoch: 0,
        }
    }

    /// The replicas' addresses, comma-separated (for display).
    pub fn replica_addrs(&self) -> String {
        self.replicas
            .iter()
            .map(|r| r.addr.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Whether the master is flagged as failed (`fail`, or `fail?` as seen by the reporting node).
    pub fn is_failed(&self) -> bool {
        self.flags.iter().any(|f| f == "fail" || f == "fail?")
    }
}

/// An inclusive range of slots, as redis-cli writes them (`0-5460`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SlotRange {
    /// First slot of the range.
    pub first: u16,
    /// Last slot of the range (inclusive).
    pub last: u16,
}

impl SlotRange {
    /// The range `first..=last`.
    pub const fn new(first: u16, last: u16) -> Self {
        SlotRange { first, last }
    }

    /// How many slots it holds.
    pub fn len(&self) -> usize {
        (self.last - self.first) as usize + 1
    }

    /// Never true: a range holds at least one slot. (Here for clippy's `len_without_is_empty`.)
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Whether `slot` lies in the range.
    pub fn contains(&self, slot: u16) -> bool {
        (self.first..=self.last).contains(&slot)
    }
}

impl fmt::Display for SlotRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.first == self.last {
            write!(f, "{}", self.first)
        } else {
            write!(f, "{}-{}", self.first, self.last)
        }
    }
}

/// A run of consecutive slots with the same owner (`None`: nobody serves them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// The slots of the run.
    pub range: SlotRange,
    /// Index of the owning master, if any.
    pub owner: Option<usize>,
}

/// Why a slot map could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TopologyError {
    /// A range ends past slot 16383 or starts after it ends.
    BadRange {
        /// The master it was given for.
        master: String,
        /// First slot as given.
        first: u32,
        /// Last slot as given.
        last: u32,
    },
    /// Two masters claim the same slot.
    Overlap {
        /// The slot.
        slot: u16,
        /// The master that claimed it first.
        first: String,
        /// The master that claimed it again.
        second: String,
    },
    /// A range names a master index that does not exist.
    NoSuchMaster {
        /// The index given.
        master_idx: usize,
    },
    /// More masters than the map can number (65535).
    TooManyMasters {
        /// How many were given.
        n_masters: usize,
    },
    /// A master that still owns slots cannot be removed.
    NotEmpty {
        /// Its address.
        master: String,
        /// How many slots it owns.
        slots: usize,
    },
}

const UNOWNED: u16 = u16::MAX;

/// Masters and the owner of every slot.
#[derive(Clone, PartialEq, Eq)]
pub struct SlotMap {
    masters: Vec<Master>,
    /// `owner[slot]` is an index into `masters`, or `UNOWNED`.
    owner: Box<[u16]>,
    /// How many cells of `owner` are `UNOWNED`, kept by every write so that the engine's
    /// `cluster_state` check on each routed command does not scan 16384 slots.
    n_unowned: u16,
    /// The cluster's `currentEpoch` (`cluster_current_epoch` of CLUSTER INFO): never below any
    /// master's config epoch, and never lowered (a node that leaves keeps it where it was).
    current_epoch: u64,
}

impl fmt::Debug for SlotMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SlotMap")
            .field("masters", &self.masters)
            .field("runs", &self.runs().collect::<Vec<_>>())
            .finish()
    }
}

impl SlotMap {
    /// A map where `ranges` lists, for each range, the index of its master in `masters`.
    /// Slots no range mentions are left unowned; a slot claimed twice is an error.
    pub fn from_ranges(
        masters: Vec<Master>,
        ranges: &[(usize, SlotRange)],
    ) -> Result<SlotMap, TopologyError> {
        if masters.len() >= UNOWNED as usize {
            return Err(TopologyError::TooManyMasters {
                n_masters: masters.len(),
            });
        }
        let mut owner = vec![UNOWNED; N_SLOTS].into_boxed_slice();
        for &(master_idx, range) in ranges {
            let Some(master) = masters.get(master_idx) else {
                return Err(TopologyError::NoSuchMaster { master_idx });
            };
            if range.first > range.last || range.last as usize >= N_SLOTS {
                return Err(TopologyError::BadRange {
                    master: master.addr.clone(),
                    first: range.first.into(),
                    last: range.last.into(),
                });
            }
            for slot in range.first..=range.last {
                let cell = &mut owner[slot as usize];
                if *cell != UNOWNED {
                    return Err(TopologyError::Overlap {
                        slot,
                        first: masters[*cell as usize].addr.clone(),
                        second: master.addr.clone(),
                    });
                }
                *cell = master_idx as u16;
            }
        }
        let n_unowned = owner.iter().filter(|&&m| m == UNOWNED).count() as u16;
        let current_epoch = masters.iter().map(|m| m.epoch).max().unwrap_or(0);
        Ok(SlotMap {
            masters,
            owner,
            n_unowned,
            current_epoch,
        })
    }

    /// The cluster the fixtures were recorded on: `127.0.0.1:7000` 0-5460, `:7001` 5461-10922,
    /// `:7002` 10923-16383, with replicas 7004, 7005 and 7003 (as `--cluster create` paired them),
    /// config epochs 1, 8 and 7 and current epoch 8 (transcripts 10 and 12: CLUSTER NODES and
    /// CLUSTER INFO of 7000 before the add-node).
    pub fn fixture_cluster() -> SlotMap {
        let spec = [
            (
                "127.0.0.1:7000",
                "d3bede0cd4ba07708f552c2e44e8211e0d571a39",
                "127.0.0.1:7004",
            ),
            (
                "127.0.0.1:7001",
                "f7c6b5d608aefdd517b33641eb638ce56252d0b4",
                "127.0.0.1:7005",
            ),
            (
                "127.0.0.1:7002",
                "44084a172411812451c56a0a3330ec6daa733083",
                "127.0.0.1:7003",
            ),
        ];
        // Replica ids as in the fixtures' CLUSTER NODES (7004, 7005, 7003).
        let replica_ids = [
            "71fd5a01708f5b5aeee008680022eaad63c28eec",
            "3e3df1281e2f65d6e94e784173572c1b4820eccb",
            "bded1dae701c0590f42e07edd6c4f72dcd531d82",
        ];
        // Config epochs as recorded (transcript 10): 7000 has 1, 7001 has 8, 7002 has 7.
        let epochs = [1, 8, 7];
        let masters = spec
            .iter()
            .zip(replica_ids)
            .zip(epochs)
            .map(|(((addr, id, replica), replica_id), epoch)| Master {
                replicas: vec![Replica::new(*replica, replica_id)],
                epoch,
                ..Master::new(*addr, *id)
            })
            .collect();
        let ranges: Vec<_> = create_allocation(3).into_iter().enumerate().collect();
        match SlotMap::from_ranges(masters, &ranges) {
            Ok(map) => map,
            // The allocation of 3 masters is fixed and covers 0..16384 once; a test pins it.
            Err(e) => unreachable!("fixture cluster: {e:?}"),
        }
    }

    /// What `redis-cli --cluster create` builds from `n_masters` masters on `host`, ports
    /// `first_port`, `first_port + 1`, …, with no replicas. Node ids are made up but stable;
    /// config epochs are 1, 2, … in order (redis-cli's "Assign a different config epoch to each
    /// node", as `fixtures/failover/del_node` logs them).
    pub fn created(
        n_masters: usize,
        host: &str,
        first_port: u16,
    ) -> Result<SlotMap, TopologyError> {
        if n_masters >= UNOWNED as usize {
            return Err(TopologyError::TooManyMasters { n_masters });
        }
        let masters = (0..n_masters)
            .map(|i| {
                let port = first_port as usize + i;
                Master {
                    epoch: i as u64 + 1,
                    ..Master::new(format!("{host}:{port}"), format!("{:040x}", i + 1))
                }
            })
            .collect();
        let ranges: Vec<_> = create_allocation(n_masters)
            .into_iter()
            .enumerate()
            .collect();
        SlotMap::from_ranges(masters, &ranges)
    }

    /// Gives `slot` to master `owner` (or to nobody). Out-of-range arguments are ignored.
    pub fn assign(&mut self, slot: u16, owner: Option<usize>) {
        let value = match owner {
            Some(m) if m < self.masters.len() => m as u16,
            Some(_) => return,
            None => UNOWNED,
        };
        if let Some(cell) = self.owner.get_mut(slot as usize) {
            match (*cell == UNOWNED, value == UNOWNED) {
                (true, false) => self.n_unowned -= 1,
                (false, true) => self.n_unowned += 1,
                _ => {}
            }
            *cell = value;
        }
    }

    /// Adds a master that owns no slots (what `--cluster add-node` does) and returns its index.
    pub fn add_master(&mut self, master: Master) -> Result<usize, TopologyError> {
        if self.masters.len() + 1 >= UNOWNED as usize {
            return Err(TopologyError::TooManyMasters {
                n_masters: self.masters.len() + 1,
            });
        }
        self.current_epoch = self.current_epoch.max(master.epoch);
        self.masters.push(master);
        Ok(self.masters.len() - 1)
    }

    /// Removes master `master_idx` and returns it. Refused while it owns slots, as
    /// `--cluster del-node` refuses ("is not empty! Reshard data away and try again.").
    pub fn remove_master(&mut self, master_idx: usize) -> Result<Master, TopologyError> {
        if master_idx >= self.masters.len() {
            return Err(TopologyError::NoSuchMaster { master_idx });
        }
        let owned = self.slot_counts()[master_idx];
        if owned > 0 {
            return Err(TopologyError::NotEmpty {
                master: self.masters[master_idx].addr.clone(),
                slots: owned,
            });
        }
        for cell in self.owner.iter_mut() {
            if *cell != UNOWNED && *cell as usize > master_idx {
                *cell -= 1;
            }
        }
        Ok(self.masters.remove(master_idx))
    }

    /// The cluster's current epoch (`cluster_current_epoch`).
    pub fn current_epoch(&self) -> u64 {
        self.current_epoch
    }

    /// Sets the current epoch; it never goes below the masters' config epochs.
    pub fn set_current_epoch(&mut self, epoch: u64) {
        let max = self.masters.iter().map(|m| m.epoch).max().unwrap_or(0);
        self.current_epoch = epoch.max(max);
    }

    /// Gives master `master_idx` a new config epoch, `currentEpoch + 1`, which becomes the
    /// current epoch: what a replica that wins a failover election gets, and what a node bumps
    /// to without consensus. Returns the new epoch (`None`: no such master).
    pub fn new_epoch_for(&mut self, master_idx: usize) -> Option<u64> {
        let next = self.current_epoch.saturating_add(1);
        self.masters.get_mut(master_idx)?.epoch = next;
        self.current_epoch = next;
        Some(next)
    }

    /// Redis's `clusterBumpConfigEpochWithoutConsensus` on master `master_idx`, as the node that
    /// has just imported a slot runs it (`CLUSTER SETSLOT <slot> NODE <myself>` while importing):
    /// a node whose config epoch is 0 or not the greatest in the cluster (the current epoch
    /// included) takes `currentEpoch + 1`; the greatest keeps its own. Whether it bumped.
    pub fn bump_epoch_without_consensus(&mut self, master_idx: usize) -> bool {
        // The current epoch is never below a master's (every constructor and epoch setter here
        // keeps it so), which makes it the greatest: no scan per moved slot.
        let max = self.current_epoch;
        match self.masters.get(master_idx) {
            Some(m) if m.epoch == 0 || m.epoch != max => {
                self.new_epoch_for(master_idx);
                true
            }
            _ => false,
        }
    }

    /// Mutable access to the masters' details (address, flags, replicas, open slots, epoch).
    /// Slot ownership changes only through [`SlotMap::assign`]; set an epoch above the current
    /// one through [`SlotMap::new_epoch_for`] (or raise the current one after).
    pub fn master_mut(&mut self, master_idx: usize) -> Option<&mut Master> {
        self.masters.get_mut(master_idx)
    }

    /// The index of the master with node id `id`.
    pub fn master_by_id(&self, id: &str) -> Option<usize> {
        self.masters.iter().position(|m| m.id == id)
    }

    /// The address of the master with node id `id`, if this map has it.
    pub fn addr_of_id(&self, id: &str) -> Option<&str> {
        self.master_by_id(id).map(|m| self.masters[m].addr.as_str())
    }

    /// [`SlotMap::addr_of_id`], falling back to the id's first eight characters.
    pub fn name_of_id(&self, id: &str) -> String {
        self.addr_of_id(id)
            .map_or_else(|| id.chars().take(8).collect(), str::to_owned)
    }

    /// The masters, in the order they were given.
    pub fn masters(&self) -> &[Master] {
        &self.masters
    }

    /// Number of masters.
    pub fn n_masters(&self) -> usize {
        self.masters.len()
    }

    /// The index of the master that owns `slot`, or `None` if no master serves it.
    pub fn owner(&self, slot: u16) -> Option<usize> {
        match self.owner.get(slot as usize) {
            Some(&m) if m != UNOWNED => Some(m as usize),
            _ => None,
        }
    }

    /// The master that owns `slot`.
    pub fn owner_master(&self, slot: u16) -> Option<&Master> {
        self.owner(slot).map(|m| &self.masters[m])
    }

    /// All slots as runs of equal owner, in slot order (covers 0..=16383 exactly once).
    pub fn runs(&self) -> impl Iterator<Item = Run> + '_ {
        let mut slot = 0usize;
        core::iter::from_fn(move || {
            if slot >= N_SLOTS {
                return None;
            }
            let first = slot;
            let rest = self.owner.get(first..).unwrap_or_default();
            let who = rest.first().copied().unwrap_or(UNOWNED);
            // `position` over the slice compiles to a vectorised scan, without a bounds check
            // per slot; this walk is behind every CLUSTER NODES / SLOTS and every map repaint.
            slot = first + rest.iter().position(|&m| m != who).unwrap_or(rest.len());
            Some(Run {
                range: SlotRange::new(first as u16, (slot - 1) as u16),
                owner: (who != UNOWNED).then_some(who as usize),
            })
        })
    }

    /// The ranges master `master_idx` owns, ascending.
    pub fn ranges_of(&self, master_idx: usize) -> Vec<SlotRange> {
        self.runs()
            .filter(|r| r.owner == Some(master_idx))
            .map(|r| r.range)
            .collect()
    }

    /// The ranges of every master at once, by master index (one pass over the slots).
    pub fn ranges_by_master(&self) -> Vec<Vec<SlotRange>> {
        let mut out = vec![Vec::new(); self.masters.len()];
        for run in self.runs() {
            if let Some(m) = run.owner {
                out[m].push(run.range);
            }
        }
        out
    }

    /// How many slots each master owns, by master index.
    pub fn slot_counts(&self) -> Vec<usize> {
        let mut counts = vec![0; self.masters.len()];
        for &m in self.owner.iter() {
            if m != UNOWNED {
                counts[m as usize] += 1;
            }
        }
        counts
    }

    /// How many slots no master serves.
    pub fn n_unowned(&self) -> usize {
        usize::from(self.n_unowned)
    }

    /// The range of consecutive slots with the same owner that contains `slot`.
    pub fn run_containing(&self, slot: u16) -> Option<Run> {
        self.runs().find(|r| r.range.contains(slot))
    }
}

impl Default for SlotMap {
    fn default() -> Self {
        SlotMap::fixture_cluster()
    }
}

/// A run of consecutive slots that changed owner between two maps (owners named by node id, so
/// the comparison survives masters joining and leaving).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnerChange {
    /// The slots.
    pub range: SlotRange,
    /// Id of the master that owned them before (`None`: nobody).
    pub from: Option<String>,
    /// Id of the master that owns them after (`None`: nobody).
    pub to: Option<String>,
}

/// Every slot whose owner differs between `before` and `after`, as runs of equal change.
pub fn diff(before: &SlotMap, after: &SlotMap) -> Vec<OwnerChange> {
    fn id_of(map: &SlotMap, slot: u16) -> Option<&str> {
        map.owner_master(slot).map(|m| m.id.as_str())
    }
    let mut out: Vec<OwnerChange> = Vec::new();
    for slot in 0..N_SLOTS as u16 {
        let (from, to) = (id_of(before, slot), id_of(after, slot));
        if from == to {
            continue;
        }
        match out.last_mut() {
            Some(last)
                if last.range.last + 1 == slot
                    && last.from.as_deref() == from
                    && last.to.as_deref() == to =>
            {
                last.range.last = slot;
            }
            _ => out.push(OwnerChange {
                range: SlotRange::new(slot, slot),
                from: from.map(str::to_owned),
                to: to.map(str::to_owned),
            }),
        }
    }
    out
}

/// The slot ranges `redis-cli --cluster create` gives `n_masters` masters, in order.
///
/// redis-cli (7.0, `clusterManagerCommandCreate`) does this in C `float`:
/// `last = lround(cursor + slots_per_node - 1)` with `slots_per_node = 16384 / (float) n`,
/// the last master always ends at 16383, and `cursor += slots_per_node`. The arithmetic is
/// kept in `f32` on purpose: at 78, 87, 130, 177 and 1000 masters some boundaries differ by
/// one slot from double precision, and the fixtures show redis-cli's.
///
/// ```
/// use slotscope::core::cluster::topology::{create_allocation, SlotRange};
/// assert_eq!(
///     create_allocation(3),
///     vec![SlotRange::new(0, 5460), SlotRange::new(5461, 10922), SlotRange::new(10923, 16383)]
/// );
/// ```
pub fn create_allocation(n_masters: usize) -> Vec<SlotRange> {
    let n_slots = N_SLOTS as i64;
    let slots_per_node = N_SLOTS as f32 / n_masters as f32;
    let mut cursor = 0.0f32;
    let mut first: i64 = 0;
    let mut out = Vec::with_capacity(n_masters);
    for i in 0..n_masters {
        // `cursor + slots_per_node - 1` is evaluated in float, then lround() widens to double
        // and rounds half away from zero, which is what f64::round does.
        let mut last = ((cursor + slots_per_node - 1.0) as f64).round() as i64;
        if last > n_slots || i == n_masters - 1 {
            last = n_slots - 1;
        }
        if last < first {
            last = first;
        }
        // With more masters than slots redis-cli would run past the end; clamp so the map stays valid.
        let (f, l) = (first.min(n_slots - 1), last.min(n_slots - 1));
        out.push(SlotRange::new(f as u16, l as u16));
        first = last + 1;
        cursor += slots_per_node;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_unowned_count_follows_every_assignment() {
        let mut map = SlotMap::fixture_cluster();
        let scan = |m: &SlotMap| {
            (0..N_SLOTS as u16)
                .filter(|&s| m.owner(s).is_none())
                .count()
        };
        // Unassigning twice, reassigning, assigning to a missing master, past the last slot.
        let steps: [(u16, Option<usize>); 9] = [
            (0, None),
            (0, None),
            (16383, None),
            (5461, None),
            (0, Some(2)),
            (5461, Some(7)),
            (20000, None),
            (16383, Some(0)),
            (100, Some(1)),
        ];
        for (slot, owner) in steps {
            map.assign(slot, owner);
            assert_eq!(
                map.n_unowned(),
                scan(&map),
                "after assign({slot}, {owner:?})"
            );
        }
        assert_eq!(map.n_unowned(), 1);
        let empty = SlotMap::from_ranges(vec![Master::new("a:1", "1")], &[]).unwrap();
        assert_eq!(empty.n_unowned(), N_SLOTS);
    }

    #[test]
    fn fixture_cluster_covers_every_slot_once() {
        let map = SlotMap::fixture_cluster();
        assert_eq!(map.n_unowned(), 0);
        assert_eq!(map.slot_counts(), vec![5461, 5462, 5461]);
        assert_eq!(map.owner_master(8106).unwrap().addr, "127.0.0.1:7001");
        assert_eq!(map.runs().count(), 3);
        assert_eq!(map.ranges_by_master()[1], vec![SlotRange::new(5461, 10922)]);
        assert_eq!(map.ranges_of(2), vec![SlotRange::new(10923, 16383)]);
    }

    #[test]
    fn overlaps_and_bad_ranges_are_refused() {
        let m = vec![Master::new("a:1", "1"), Master::new("b:2", "2")];
        let err = SlotMap::from_ranges(
            m.clone(),
            &[(0, SlotRange::new(0, 10)), (1, SlotRange::new(10, 20))],
        )
        .unwrap_err();
        assert_eq!(
            err,
            TopologyError::Overlap {
                slot: 10,
                first: "a:1".into(),
                second: "b:2".into()
            }
        );
        assert!(SlotMap::from_ranges(m.clone(), &[(0, SlotRange::new(5, 16384))]).is_err());
        assert!(SlotMap::from_ranges(m, &[(2, SlotRange::new(0, 1))]).is_err());
    }

    #[test]
    fn unowned_slots_show_as_runs_without_owner() {
        let map = SlotMap::from_ranges(
            vec![Master::new("a:1", "1")],
            &[(0, SlotRange::new(100, 199))],
        )
        .unwrap();
        let runs: Vec<_> = map.runs().collect();
        assert_eq!(runs.len(), 3);
        assert_eq!(runs[0].owner, None);
        assert_eq!(runs[1].range, SlotRange::new(100, 199));
        assert_eq!(map.n_unowned(), 16384 - 100);
    }

    #[test]
    fn masters_join_empty_and_leave_only_when_empty() {
        let mut map = SlotMap::fixture_cluster();
        let new = map.add_master(Master::new("127.0.0.1:7006", "n")).unwrap();
        assert_eq!(map.slot_counts()[new], 0);
        assert!(matches!(
            map.remove_master(0),
            Err(TopologyError::NotEmpty { slots: 5461, .. })
        ));
        for slot in 0..=5460 {
            map.assign(slot, Some(new));
        }
        let gone = map.remove_master(0).unwrap();
        assert_eq!(gone.addr, "127.0.0.1:7000");
        // Indices shift down; every slot still has the right owner.
        assert_eq!(map.owner_master(0).unwrap().addr, "127.0.0.1:7006");
        assert_eq!(map.owner_master(5461).unwrap().addr, "127.0.0.1:7001");
        assert_eq!(map.owner_master(16383).unwrap().addr, "127.0.0.1:7002");
        assert_eq!(map.n_unowned(), 0);
    }

    #[test]
    fn ids_name_their_master_or_are_abbreviated() {
        let map = SlotMap::fixture_cluster();
        assert_eq!(
            map.name_of_id("f7c6b5d608aefdd517b33641eb638ce56252d0b4"),
            "127.0.0.1:7001"
        );
        assert_eq!(map.name_of_id("0123456789abcdef"), "01234567");
        assert_eq!(map.addr_of_id("nope"), None);
    }

    #[test]
    fn diff_names_moved_runs_by_id() {
        let before = SlotMap::fixture_cluster();
        let mut after = before.clone();
        let new = after
            .add_master(Master::new("127.0.0.1:7006", "n"))
            .unwrap();
        for slot in (0..=9).chain(5461..=5463) {
            after.assign(slot, Some(new));
        }
        after.assign(16383, None);
        let d = diff(&before, &after);
        assert_eq!(d.len(), 3);
        assert_eq!(d[0].range, SlotRange::new(0, 9));
        assert_eq!(
            d[0].from.as_deref(),
            Some("d3bede0cd4ba07708f552c2e44e8211e0d571a39")
        );
        assert_eq!(d[0].to.as_deref(), Some("n"));
        assert_eq!(d[1].range, SlotRange::new(5461, 5463));
        assert_eq!(
            (d[2].range, d[2].to.as_deref()),
            (SlotRange::new(16383, 16383), None)
        );
    }

    #[test]
    fn one_and_two_masters_follow_the_same_rule() {
        assert_eq!(create_allocation(1), vec![SlotRange::new(0, 16383)]);
        assert_eq!(
            create_allocation(2),
            vec![SlotRange::new(0, 8191), SlotRange::new(8192, 16383)]
        );
    }
}
