//! Chunks: how many masters each chunk of a batch touches, sorted by slot or not.

use super::*;

// ---------------------------------------------------------------------------------------------
// Chunks
// ---------------------------------------------------------------------------------------------

/// How many masters (and slots) each chunk of a batch touches.
#[derive(Clone, Debug, PartialEq)]
pub struct ChunkStats {
    /// Keys per chunk (the last chunk may hold fewer).
    pub chunk: usize,
    /// Whether the keys were sorted by slot before chunking.
    pub sorted: bool,
    /// Keys looked at (the first [`MAX_KEYS`]).
    pub n_keys: u64,
    /// Chunks.
    pub n_chunks: u64,
    /// Masters touched per chunk, on average (keys in unowned slots touch no master).
    pub mean_masters: f64,
    /// The most masters one chunk touches.
    pub max_masters: u64,
    /// Slots touched per chunk, on average.
    pub mean_slots: f64,
    /// The most slots one chunk touches.
    pub max_slots: u64,
}

/// Cuts `keys` into chunks of `chunk` consecutive keys (at least 1; the last may be shorter),
/// either in the order given or after a stable sort by slot, and counts the masters and slots
/// each chunk touches: with [`Strategy::PerSlot`] a chunk costs that many round trips and
/// commands. Only the first [`MAX_KEYS`] keys are looked at.
///
/// ```
/// use slotscope::core::workload::KeySample;
/// use slotscope::core::workload::chunk_masters;
/// use slotscope::core::cluster::topology::SlotMap;
/// let keys = KeySample::numbered(b"key:", 1000);
/// let map = SlotMap::fixture_cluster();
/// let unsorted = chunk_masters(&keys, &map, 100, false);
/// let sorted = chunk_masters(&keys, &map, 100, true);
/// assert_eq!(unsorted.max_masters, 3);
/// assert!(sorted.max_masters <= 2 && sorted.mean_masters < unsorted.mean_masters);
/// ```
pub fn chunk_masters<'a>(
    keys: impl IntoIterator<Item = &'a [u8]>,
    map: &SlotMap,
    chunk: usize,
    sorted: bool,
) -> ChunkStats {
    let (slot_of, _) = slots_of(keys);
    let order = sorted.then(|| sort_by_slot(&slot_of).1);
    chunk_stats(&slot_of, order.as_deref(), map, chunk)
}

/// [`chunk_masters`] of the keys `plan` was made for on `map`, from the slots the plan already
/// computed (the planner's chunk row: no second pass over the keys).
///
/// ```
/// use slotscope::core::workload::{chunk_masters, chunk_masters_of, plan, KeySample};
/// use slotscope::core::cluster::topology::SlotMap;
/// let keys = KeySample::numbered(b"key:", 1000);
/// let map = SlotMap::fixture_cluster();
/// let p = plan(&keys, &map);
/// for sorted in [false, true] {
///     assert_eq!(chunk_masters_of(&p, &map, 100, sorted), chunk_masters(&keys, &map, 100, sorted));
/// }
/// ```
pub fn chunk_masters_of(plan: &Plan, map: &SlotMap, chunk: usize, sorted: bool) -> ChunkStats {
    chunk_stats(
        &plan.slot_of,
        sorted.then(|| plan.keys_by_slot()),
        map,
        chunk,
    )
}

/// Chunk statistics of keys whose slots are `slot_of`, taken in `order` (indices into
/// `slot_of`: sorted by slot) or, when `None`, as given.
fn chunk_stats(slot_of: &[u16], order: Option<&[u32]>, map: &SlotMap, chunk: usize) -> ChunkStats {
    let chunk = chunk.max(1);
    let sorted = order.is_some();
    let given: Vec<u32>;
    let order = match order {
        Some(o) => o,
        None => {
            given = (0..slot_of.len() as u32).collect();
            &given
        }
    };
    // `seen_*[x] == c + 1` when chunk `c` already counted master or slot `x`.
    let mut seen_master = vec![0u32; map.n_masters()];
    let mut seen_slot = vec![0u32; N_SLOTS];
    let (mut n_chunks, mut sum_m, mut sum_s, mut max_m, mut max_s) = (0u32, 0u64, 0u64, 0, 0);
    for part in order.chunks(chunk) {
        n_chunks += 1;
        let stamp = n_chunks;
        let (mut m_count, mut s_count) = (0u64, 0u64);
        for &i in part {
            let Some(&slot) = slot_of.get(i as usize) else {
                continue;
            };
            if let Some(seen) = seen_slot.get_mut(slot as usize)
                && *seen != stamp
            {
                *seen = stamp;
                s_count += 1;
            }
            if let Some(seen) = map.owner(slot).and_then(|m| seen_master.get_mut(m))
                && *seen != stamp
            {
                *seen = stamp;
                m_count += 1;
            }
        }
        sum_m += m_count;
        sum_s += s_count;
        max_m = max_m.max(m_count);
        max_s = max_s.max(s_count);
    }
    let mean = |sum: u64| {
        if n_chunks == 0 {
            0.0
        } else {
            sum as f64 / f64::from(n_chunks)
        }
    };
    ChunkStats {
        chunk,
        sorted,
        n_keys: slot_of.len() as u64,
        n_chunks: u64::from(n_chunks),
        mean_masters: mean(sum_m),
        max_masters: max_m,
        mean_slots: mean(sum_s),
        max_slots: max_s,
    }
}
