//! A stable sort that is small in wasm: the page's sorts all go through here instead of
//! `slice::sort_by`.
//!
//! The standard library's stable sort (driftsort with its quicksort and small-sort networks)
//! is fast, but it is instantiated whole for every element type and comparator: ten call
//! sites cost the page about 44 KB of wasm before compression. Here the sorting is a plain
//! bottom-up merge sort of `u32` positions, and only the comparison is generic, so each call
//! site adds a few hundred bytes. It is O(n log n) in time and takes 8 bytes of scratch per
//! element; the page sorts masters, nodes, open slots and short key lists, never millions.

use core::cmp::Ordering;

/// Sorts `v` by `cmp`, keeping elements that compare equal in their order (like
/// `slice::sort_by`).
///
/// ```
/// use slotscope::core::sort::sort_by;
/// let mut v = [(2, 'a'), (1, 'b'), (2, 'c'), (1, 'd')];
/// sort_by(&mut v, |a, b| a.0.cmp(&b.0));
/// assert_eq!(v, [(1, 'b'), (1, 'd'), (2, 'a'), (2, 'c')]);
/// ```
pub fn sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    let n = v.len();
    if n < 2 || n > u32::MAX as usize {
        return;
    }
    // `order[k]` is the position in `v` of the element that belongs at `k`.
    let mut order: Vec<u32> = (0..n as u32).collect();
    let mut merged = vec![0u32; n];
    let mut width = 1;
    while width < n {
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut i, mut j) = (start, mid);
            for slot in &mut merged[start..end] {
                // Take from the left run unless the right one's head is strictly smaller:
                // that is what keeps equal elements in order.
                let take_left = i < mid
                    && (j >= end
                        || cmp(&v[order[j] as usize], &v[order[i] as usize]) != Ordering::Less);
                if take_left {
                    *slot = order[i];
                    i += 1;
                } else {
                    *slot = order[j];
                    j += 1;
                }
            }
            start = end;
        }
        core::mem::swap(&mut order, &mut merged);
        width *= 2;
    }
    permute(v, &mut order);
}

/// Sorts `v` by the key `f` gives, keeping equal keys in their order (like
/// `slice::sort_by_key`).
pub fn sort_by_key<T, K: Ord>(v: &mut [T], mut f: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| f(a).cmp(&f(b)));
}

/// Sorts `v` in ascending order, keeping equal elements in their order (like `slice::sort`).
pub fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, T::cmp);
}

/// Rearranges `v` so that what was at `order[k]` is at `k`, following each cycle of the
/// permutation with swaps; `order` is used up (each visited entry is set to its own index).
fn permute<T>(v: &mut [T], order: &mut [u32]) {
    for first in 0..order.len() {
        let mut at = first;
        loop {
            let from = order[at] as usize;
            order[at] = at as u32;
            if from == first || from == at {
                break;
            }
            // `at` takes its element; the element that started the cycle moves on to `from`.
            v.swap(at, from);
            at = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small LCG, so the test needs no generator crate.
    fn numbers(seed: u64, n: usize, below: u64) -> Vec<u64> {
        let mut x = seed;
        (0..n)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (x >> 33) % below
            })
            .collect()
    }

    #[test]
    fn agrees_with_the_standard_stable_sort() {
        for (seed, n, below) in [
            (1, 0, 1),
            (2, 1, 1),
            (3, 2, 2),
            (4, 3, 2),
            (5, 17, 3),
            (6, 64, 1000),
            (7, 1000, 10),
            (8, 1023, 1 << 40),
            (9, 4097, 50),
        ] {
            // Pairs (key, original position): equal keys must keep their positions' order.
            let mut ours: Vec<(u64, usize)> = numbers(seed, n, below)
                .into_iter()
                .enumerate()
                .map(|(i, k)| (k, i))
                .collect();
            let mut std = ours.clone();
            sort_by_key(&mut ours, |p| p.0);
            std.sort_by_key(|p| p.0);
            assert_eq!(ours, std, "n {n}, keys below {below}");
        }
    }

    #[test]
    fn sorts_owned_strings_and_reversed_input() {
        let mut names: Vec<String> = ["c:3", "a:1", "b:2", "a:1", ""]
            .into_iter()
            .map(String::from)
            .collect();
        sort(&mut names);
        assert_eq!(names, ["", "a:1", "a:1", "b:2", "c:3"]);
        let mut down: Vec<u32> = (0..100).rev().collect();
        sort(&mut down);
        assert!(down.iter().copied().eq(0..100));
    }
}
