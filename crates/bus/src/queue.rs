//! The simulator's event queue: a timing wheel over integer milliseconds (one FIFO bucket per
//! ms for the next `WHEEL` ms, where nearly every event lands: crons 100 ms ahead, messages a
//! link's latency ahead, wakes 1 ms ahead) beside a binary heap for the rest (slow links,
//! `u64::MAX`). It pops in exactly the order of a min-heap on (time, push sequence): the
//! earliest time first, and among equal times the one pushed first.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Milliseconds the wheel covers ahead of its cursor (a power of two).
const WHEEL: usize = 1024;
const MASK: u64 = WHEEL as u64 - 1;
const WORDS: usize = WHEEL / 64;
/// No entry (end of a bucket's list, or of the free list).
const NIL: u32 = u32::MAX;

/// An event at a time, with its push sequence (the tie-break).
#[derive(Clone)]
struct Far<T> {
    t: u64,
    seq: u64,
    ev: T,
}
impl<T> PartialEq for Far<T> {
    fn eq(&self, o: &Self) -> bool {
        self.t == o.t && self.seq == o.seq
    }
}
impl<T> Eq for Far<T> {}
impl<T> PartialOrd for Far<T> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl<T> Ord for Far<T> {
    fn cmp(&self, o: &Self) -> Ordering {
        (o.t, o.seq).cmp(&(self.t, self.seq))
    }
}

/// One wheel entry in the shared slab: its sequence, its event, the next entry of its bucket
/// (or of the free list).
#[derive(Clone)]
struct Entry<T> {
    seq: u64,
    ev: Option<T>,
    next: u32,
}

/// A bucket: the first and last entry of its list (`NIL` when empty).
#[derive(Clone, Copy)]
struct Bucket {
    head: u32,
    tail: u32,
}

/// Events ordered by (time, push sequence).
#[derive(Clone)]
pub(super) struct Queue<T> {
    /// Every entry in the wheel has a time in `cur..cur + WHEEL`; bucket `t & MASK` holds
    /// those at `t`, oldest first. No wheel entry is earlier than `cur`.
    cur: u64,
    buckets: Box<[Bucket; WHEEL]>,
    /// Which buckets are not empty.
    occupied: [u64; WORDS],
    /// Entries in the wheel.
    in_wheel: usize,
    /// The entries' storage (one allocation, reused through the free list, so its size is
    /// the most events ever waiting at once, as a heap's would be).
    slab: Vec<Entry<T>>,
    free: u32,
    /// Events outside the wheel's window when pushed (later than it, or earlier than `cur`).
    far: BinaryHeap<Far<T>>,
    seq: u64,
}

impl<T> Queue<T> {
    /// An empty queue.
    pub fn new() -> Self {
        Queue {
            cur: 0,
            buckets: Box::new(
                [Bucket {
                    head: NIL,
                    tail: NIL,
                }; WHEEL],
            ),
            occupied: [0; WORDS],
            in_wheel: 0,
            slab: Vec::new(),
            free: NIL,
            far: BinaryHeap::new(),
            seq: 0,
        }
    }

    /// Schedule `ev` at `t` (after every event already scheduled at `t`).
    pub fn push(&mut self, t: u64, ev: T) {
        self.seq += 1;
        let seq = self.seq;
        if t < self.cur || t - self.cur >= WHEEL as u64 {
            self.far.push(Far { t, seq, ev });
            return;
        }
        let entry = Entry {
            seq,
            ev: Some(ev),
            next: NIL,
        };
        let i = if self.free != NIL {
            let i = self.free;
            let slot = &mut self.slab[i as usize];
            self.free = slot.next;
            *slot = entry;
            i
        } else {
            let i = self.slab.len() as u32;
            self.slab.push(entry);
            i
        };
        let b = (t & MASK) as usize;
        let bucket = &mut self.buckets[b];
        if bucket.tail == NIL {
            bucket.head = i;
            self.occupied[b / 64] |= 1 << (b % 64);
        } else {
            self.slab[bucket.tail as usize].next = i;
        }
        bucket.tail = i;
        self.in_wheel += 1;
    }

    /// The time of the earliest non-empty bucket of the wheel (scanning the bitmap from the
    /// cursor), or `None` when the wheel is empty.
    fn wheel_min(&self) -> Option<u64> {
        if self.in_wheel == 0 {
            return None;
        }
        let start = (self.cur & MASK) as usize;
        let (w0, b0) = (start / 64, start % 64);
        // The first word from the cursor's bit on, then the following words round the wheel,
        // then the first word's bits before the cursor.
        let first = self.occupied[w0] >> b0;
        if first != 0 {
            return Some(self.cur + u64::from(first.trailing_zeros()));
        }
        let mut dist = 64 - b0 as u64;
        for k in 1..=WORDS {
            let w = (w0 + k) % WORDS;
            let word = self.occupied[w];
            if word != 0 {
                return Some(self.cur + dist + u64::from(word.trailing_zeros()));
            }
            dist += 64;
        }
        None
    }

    /// The earliest event's time, if any.
    pub fn peek_time(&self) -> Option<u64> {
        let w = self.wheel_min();
        let f = self.far.peek().map(|x| x.t);
        match (w, f) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Take the earliest event if its time is at most `limit`. The cursor moves on to it
    /// (never past `limit`), so later pushes at or after `limit` still land in the wheel.
    pub fn pop_until(&mut self, limit: u64) -> Option<(u64, T)> {
        let w = self.wheel_min();
        let f = self.far.peek().map(|f| (f.t, f.seq));
        let from_far = match (w, f) {
            (None, None) => return None,
            (None, Some(_)) => true,
            (Some(_), None) => false,
            (Some(tw), Some(f)) => {
                let seq = self.slab[self.buckets[(tw & MASK) as usize].head as usize].seq;
                f < (tw, seq)
            }
        };
        let t = if from_far { f?.0 } else { w? };
        // Nothing in the wheel is earlier than `t` (nor than `tw`): move the cursor on.
        self.cur = self.cur.max(t.min(limit));
        if t > limit {
            return None;
        }
        if from_far {
            return self.far.pop().map(|f| (f.t, f.ev));
        }
        let b = (t & MASK) as usize;
        let i = self.buckets[b].head;
        let entry = &mut self.slab[i as usize];
        let ev = entry.ev.take();
        let next = entry.next;
        entry.next = self.free;
        self.free = i;
        let bucket = &mut self.buckets[b];
        bucket.head = next;
        if next == NIL {
            bucket.tail = NIL;
            self.occupied[b / 64] &= !(1 << (b % 64));
        }
        self.in_wheel -= 1;
        ev.map(|ev| (t, ev))
    }

    /// Take the earliest event, whatever its time.
    pub fn pop(&mut self) -> Option<(u64, T)> {
        self.pop_until(u64::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference order: a binary heap on (time, push sequence).
    #[test]
    fn pops_as_a_heap_on_time_then_push_order() {
        let mut q: Queue<u32> = Queue::new();
        let mut reference: BinaryHeap<Far<u32>> = BinaryHeap::new();
        let mut seq = 0u64;
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut now = 0u64;
        let mut id = 0u32;
        for round in 0..200_000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if x % 5 < 3 {
                let ahead = match x % 11 {
                    0 => 0,
                    1..=5 => 1,
                    6 | 7 => 100,
                    8 => (x >> 20) % 3000,
                    9 => WHEEL as u64 - 1 + (x >> 30) % 3,
                    _ => u64::MAX - now,
                };
                let t = now.saturating_add(ahead);
                id += 1;
                seq += 1;
                q.push(t, id);
                reference.push(Far { t, seq, ev: id });
            } else {
                let limit = if round % 7 == 0 {
                    now + (x >> 40) % 50
                } else {
                    u64::MAX
                };
                let want = match reference.peek() {
                    Some(top) if top.t <= limit => reference.pop().map(|f| (f.t, f.ev)),
                    _ => None,
                };
                let got = q.pop_until(limit);
                assert_eq!(got, want, "round {round}");
                if let Some((t, _)) = got {
                    if t != u64::MAX {
                        now = now.max(t);
                    }
                } else if limit != u64::MAX {
                    now = now.max(limit);
                }
                assert_eq!(q.peek_time(), reference.peek().map(|f| f.t));
            }
        }
        while let Some(f) = reference.pop() {
            assert_eq!(q.pop(), Some((f.t, f.ev)));
        }
        assert_eq!(q.pop(), None);
    }
}
