//! The page's JavaScript API for batches: slots of many keys across the JS ↔ wasm boundary in
//! one call, through buffers that live in wasm memory and are reused.
//!
//! From JavaScript (Trunk exposes the exports as `window.wasmBindings`):
//!
//! ```text
//! const { SlotBatch, wasm_memory } = window.wasmBindings;
//! const batch = new SlotBatch(4096, 1 << 20);          // up to 4096 keys, 1 MiB of key bytes
//! const mem = () => wasm_memory().buffer;              // re-read after memory grows
//! const bytes = new Uint8Array(mem(), batch.bytes_ptr(), batch.max_bytes());
//! const offsets = new Uint32Array(mem(), batch.offsets_ptr(), batch.max_keys() + 1);
//! // write keys into `bytes` (TextEncoder.encodeInto), key i = bytes[offsets[i]..offsets[i+1]]
//! const n = batch.run(count);                          // slots of the first `count` keys
//! const slots = new Uint16Array(mem(), batch.slots_ptr(), n);
//! // or keys as text, one per line: encodeInto the text into `bytes`, then
//! const lines = batch.run_lines(written, isLastChunk); // batch.lines_read() bytes consumed
//! ```
//!
//! `run` never panics: bad offsets read as the empty key (see
//! [`crate::core::key::slot::key_slots_into`]), and a count beyond the capacity is clamped.

use crate::core::key::slot::{key_slots_into, line_slots_into};
use wasm_bindgen::prelude::*;

/// Reusable buffers for one batch of keys: bytes, offsets (one more than keys) and slots.
#[wasm_bindgen]
pub struct SlotBatch {
    bytes: Vec<u8>,
    offsets: Vec<u32>,
    slots: Vec<u16>,
    /// Bytes read by the last `run_lines`.
    lines_read: u32,
}

#[wasm_bindgen]
impl SlotBatch {
    /// Buffers for up to `max_keys` keys holding `max_bytes` bytes in all (each at least 1).
    #[wasm_bindgen(constructor)]
    pub fn new(max_keys: u32, max_bytes: u32) -> SlotBatch {
        let keys = max_keys.clamp(1, 1 << 20) as usize;
        let bytes = max_bytes.clamp(1, 64 << 20) as usize;
        SlotBatch {
            bytes: vec![0; bytes],
            offsets: vec![0; keys + 1],
            slots: vec![0; keys],
            lines_read: 0,
        }
    }

    /// Capacity in keys.
    pub fn max_keys(&self) -> u32 {
        self.slots.len() as u32
    }

    /// Capacity in key bytes.
    pub fn max_bytes(&self) -> u32 {
        self.bytes.len() as u32
    }

    /// Where the key bytes start in wasm memory.
    pub fn bytes_ptr(&self) -> u32 {
        self.bytes.as_ptr() as u32
    }

    /// Where the `max_keys + 1` offsets start in wasm memory.
    pub fn offsets_ptr(&self) -> u32 {
        self.offsets.as_ptr() as u32
    }

    /// Where the slots start in wasm memory.
    pub fn slots_ptr(&self) -> u32 {
        self.slots.as_ptr() as u32
    }

    /// Computes the slots of the first `n` keys (clamped to the capacity); returns how many.
    pub fn run(&mut self, n: u32) -> u32 {
        let n = (n as usize).min(self.slots.len());
        key_slots_into(&self.bytes, &self.offsets[..=n], &mut self.slots[..n]) as u32
    }

    /// Computes the slots of the lines of the first `n_bytes` key bytes (clamped to the
    /// capacity): keys that arrive as text, one per line, written with one `encodeInto` and
    /// no offsets (see [`crate::core::key::slot::line_slots_into`]). Unless `last` is set, a line
    /// the bytes cut off (no `\n` after it) is left for the next batch. Fills at most
    /// `max_keys` slots and returns how many; [`SlotBatch::lines_read`] then says how many
    /// bytes those lines took, so the next batch starts there. A line longer than the
    /// buffer cannot be read in batches (0 lines, 0 bytes read).
    pub fn run_lines(&mut self, n_bytes: u32, last: bool) -> u32 {
        let n = (n_bytes as usize).min(self.bytes.len());
        let mut text = &self.bytes[..n];
        if !last {
            let whole_lines = text.iter().rposition(|&b| b == b'\n').map_or(0, |e| e + 1);
            text = &text[..whole_lines];
        }
        let (lines, read) = line_slots_into(text, &mut self.slots);
        self.lines_read = read as u32;
        lines as u32
    }

    /// How many bytes the lines of the last [`SlotBatch::run_lines`] took, line ends included.
    pub fn lines_read(&self) -> u32 {
        self.lines_read
    }
}

/// The module's memory, for typed-array views on a [`SlotBatch`]'s buffers.
#[wasm_bindgen]
pub fn wasm_memory() -> JsValue {
    wasm_bindgen::memory()
}

/// Generates the benchmark's keys `0..n` inside wasm (never as JavaScript strings) and returns
/// the sum of their slots, so the result can be checked against the other paths.
#[wasm_bindgen]
pub fn bench_generated_slot_sum(n: u32) -> f64 {
    slotscope_kernel::bench::slot_sum(n) as f64
}

/// The cluster-bus simulator's speed in the browser (`e2e/bench_bus.mjs`): a cluster of
/// `nodes` nodes (half masters, half replicas, `cluster-node-timeout` 15000, per-message events
/// off) runs `warm_ms` simulated ms, then `sim_ms` more are timed. Returns
/// `[simulated s per wall s, wall ms, simulated ms, messages sent per simulated s]`.
#[wasm_bindgen]
pub fn bench_bus(nodes: u32, warm_ms: u32, sim_ms: u32) -> Vec<f64> {
    use crate::core::bus::{Config, Sim, MAX_NODES};
    let n = (nodes as usize).clamp(2, MAX_NODES);
    let masters = n / 2;
    let replica_of: Vec<usize> = (0..n - masters).map(|i| i % masters).collect();
    let cfg = Config {
        record_messages: false,
        ..Config::default()
    };
    let mut sim = Sim::create(cfg, 7, masters, &replica_of, 7000, u64::from(warm_ms));
    let msgs0 = sim.messages_sent;
    let start = js_sys::Date::now();
    sim.run_for(u64::from(sim_ms));
    let wall = (js_sys::Date::now() - start).max(0.001);
    let sim_s = f64::from(sim_ms) / 1000.0;
    let msgs = (sim.messages_sent - msgs0) as f64 / sim_s.max(0.001);
    vec![sim_s / (wall / 1000.0), wall, f64::from(sim_ms), msgs]
}
