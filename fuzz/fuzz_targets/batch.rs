//! Fuzz target `batch`: the kernel's batch paths, which the page's `SlotBatch` calls with
//! whatever JavaScript wrote into wasm memory. `line_slots_into` on any bytes and any capacity
//! gives the slots of the `str::lines`-style lines (checked against a plain split and a bitwise
//! CRC), and continuing from the bytes it says it read covers the rest exactly once;
//! `key_slots_into` with offsets taken from the input (past the end, backwards, anything) never
//! panics and gives each in-range key's slot, and slot 0 for the others.
//!
//! Input: byte 0 = capacity (0-255 slots); byte 1 = how many of the following bytes are
//! offsets (two bytes each, little-endian); the rest is the text and the packed keys' buffer.
#![no_main]

mod reference;

use libfuzzer_sys::fuzz_target;
use slotscope::core::key::slot::{key_slots_into, line_slots_into};

/// Lines as `str::lines` cuts them, on bytes: at `\n`, minus a `\r` before it; a last line
/// without `\n` counts, `\r` and all.
fn reference_lines(text: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
    if text.is_empty() || text.ends_with(b"\n") {
        lines.pop();
    }
    let n = lines.len();
    for (i, line) in lines.iter_mut().enumerate() {
        let ended = i + 1 < n || text.ends_with(b"\n");
        if ended {
            *line = line.strip_suffix(b"\r").unwrap_or(line);
        }
    }
    lines
}

fuzz_target!(|data: &[u8]| {
    let [capacity, n_offsets, rest @ ..] = data else {
        return;
    };
    let n_offsets = usize::from(*n_offsets).min(rest.len() / 2);
    let (offset_bytes, text) = rest.split_at(n_offsets * 2);

    // Lines, in batches of `capacity` slots, each starting where the last one stopped.
    let want: Vec<u16> = reference_lines(text)
        .into_iter()
        .map(reference::slot)
        .collect();
    let mut out = vec![u16::MAX; usize::from(*capacity)];
    let mut got = Vec::new();
    let mut from = 0;
    loop {
        let (lines, read) = line_slots_into(&text[from..], &mut out);
        assert!(lines <= out.len() && from + read <= text.len());
        assert!(
            out[lines..].iter().all(|&s| s == u16::MAX),
            "wrote past its lines"
        );
        got.extend_from_slice(&out[..lines]);
        out.fill(u16::MAX);
        from += read;
        if from == text.len() || out.is_empty() {
            // Only a batch that is full may leave bytes unread.
            assert!(from == text.len() || lines == out.len());
            break;
        }
        assert_eq!(
            lines,
            out.len(),
            "stopped early at byte {from} of {}",
            text.len()
        );
    }
    if !out.is_empty() {
        assert_eq!(got, want, "line slots of {text:?}");
    }

    // Packed keys with offsets from the input.
    let offsets: Vec<u32> = offset_bytes
        .chunks_exact(2)
        .map(|c| u32::from(u16::from_le_bytes([c[0], c[1]])))
        .collect();
    let mut slots = vec![u16::MAX; usize::from(*capacity)];
    let n = key_slots_into(text, &offsets, &mut slots);
    assert_eq!(n, offsets.len().saturating_sub(1).min(slots.len()));
    for (i, (pair, &slot)) in offsets.windows(2).zip(&slots[..n]).enumerate() {
        let key = text
            .get(pair[0] as usize..pair[1] as usize)
            .unwrap_or_default();
        assert_eq!(slot, reference::slot(key), "key {i} at {pair:?}");
    }
    assert!(slots[n..].iter().all(|&s| s == u16::MAX));
});
