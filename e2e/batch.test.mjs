//! The page's batch API (`window.wasmBindings.SlotBatch`) against the fixtures: every
//! CLUSTER KEYSLOT vector, binary and 64 KB keys included, packed into wasm memory in one batch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sharedBrowser, openPage, fixtures } from './harness.mjs';

const env = sharedBrowser();

async function vectors() {
  const rows = [];
  for (const name of ['keyslot.tsv', 'keyslot_64k.tsv']) {
    const text = await readFile(join(fixtures, name), 'utf8');
    const [head, ...lines] = text.trimEnd().split('\n');
    const cols = head.split('\t');
    for (const l of lines) {
      const f = l.split('\t');
      rows.push({ hex: f[cols.indexOf('key_hex')], slot: Number(f[cols.indexOf('slot')]) });
    }
  }
  return rows;
}

test('SlotBatch answers every keyslot fixture, in batches that reuse their buffers', async () => {
  const rows = await vectors();
  assert.ok(rows.length > 2000);
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  const got = await page.evaluate((hexes) => {
    const { SlotBatch, wasm_memory } = window.wasmBindings;
    const keys = hexes.map((h) => Uint8Array.from(h.match(/../g) ?? [], (b) => parseInt(b, 16)));
    // Small batches (64 keys, 1 MiB), so the buffers are reused many times.
    const batch = new SlotBatch(64, 1 << 20);
    const out = [];
    for (let start = 0; start < keys.length; start += 64) {
      const mem = wasm_memory().buffer;
      const bytes = new Uint8Array(mem, batch.bytes_ptr(), batch.max_bytes());
      const offsets = new Uint32Array(mem, batch.offsets_ptr(), batch.max_keys() + 1);
      const chunk = keys.slice(start, start + 64);
      let pos = 0;
      chunk.forEach((k, i) => { bytes.set(k, pos); pos += k.length; offsets[i + 1] = pos; });
      const n = batch.run(chunk.length);
      out.push(...new Uint16Array(wasm_memory().buffer, batch.slots_ptr(), n));
    }
    batch.free();
    return out;
  }, rows.map((r) => r.hex));
  assert.deepEqual(got, rows.map((r) => r.slot));
  assert.deepEqual(problems, []);
  await context.close();
});

test('SlotBatch never panics: offsets past the end, backwards or over capacity', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  const got = await page.evaluate(() => {
    const { SlotBatch, wasm_memory } = window.wasmBindings;
    const batch = new SlotBatch(4, 16);
    const mem = wasm_memory().buffer;
    new Uint8Array(mem, batch.bytes_ptr(), 16).set(new TextEncoder().encode('foo'));
    const offsets = new Uint32Array(mem, batch.offsets_ptr(), 5);
    offsets.set([0, 3, 1000, 2, 2]);
    const n = batch.run(1_000_000); // clamped to the capacity, 4
    const slots = [...new Uint16Array(wasm_memory().buffer, batch.slots_ptr(), n)];
    batch.free();
    return { n, slots };
  });
  // foo, then two keys whose ranges are outside the buffer or reversed (the empty key), then
  // an empty range.
  assert.deepEqual(got, { n: 4, slots: [12182, 0, 0, 0] });
  assert.deepEqual(problems, []);
  await context.close();
});

test('SlotBatch.run_lines answers the fixture keys given as text, one per line, across batches', async () => {
  // Keys without a line break, as a pasted text or a file gives them: written with one
  // encodeInto, continued from lines_read() when a batch is full.
  const rows = await vectors();
  const keyOf = (hex) => Buffer.from(hex, 'hex');
  const lines = rows.filter((r) => !keyOf(r.hex).includes(0x0a) && keyOf(r.hex).at(-1) !== 0x0d);
  assert.ok(lines.length > 2000);
  const text = Buffer.concat(lines.map((r, i) => Buffer.concat([keyOf(r.hex), Buffer.from(i % 2 ? '\r\n' : '\n')])));
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  const got = await page.evaluate((bytesB64) => {
    const { SlotBatch, wasm_memory } = window.wasmBindings;
    const all = Uint8Array.from(atob(bytesB64), (c) => c.charCodeAt(0));
    // 100 keys or 256 KiB per batch, so the text runs over many batches.
    const batch = new SlotBatch(100, 256 << 10);
    const out = [];
    let from = 0;
    let batches = 0;
    while (from < all.length) {
      const chunk = all.subarray(from, from + batch.max_bytes());
      new Uint8Array(wasm_memory().buffer, batch.bytes_ptr(), batch.max_bytes()).set(chunk);
      // The chunks cut lines in two: only the last chunk's cut-off line is a key.
      const n = batch.run_lines(chunk.length, from + chunk.length >= all.length);
      out.push(...new Uint16Array(wasm_memory().buffer, batch.slots_ptr(), n));
      from += batch.lines_read();
      batches++;
    }
    batch.free();
    return { out, batches };
  }, text.toString('base64'));
  assert.ok(got.batches > 20, `${got.batches} batches`);
  assert.deepEqual(got.out, lines.map((r) => r.slot));
  assert.deepEqual(problems, []);
  await context.close();
});
