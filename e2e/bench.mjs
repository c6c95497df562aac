//! Browser timings of the release build (not a test: it asserts nothing, it measures).
//! `node e2e/bench.mjs` after `trunk build --release`. Prints medians in milliseconds of:
//!  - cluster switch: typing a master count until the next frame has painted (reducer, node
//!    list DOM and the full 16384-slot canvas repaint), for 3 and 1000 masters;
//!  - hover: a pointer move over the map until the next frame (overlay repaint + readout);
//!  - keystroke: typing one character into the key field until the next frame;
//!  - redirections playing at 4x: frame times from requestAnimationFrame (median, p95, slow);
//!  - map repaint: the time the page spends repainting all 16384 slots of the base canvas
//!    (from its clearRect to its last fillRect in the same task), for 3 and 1000 masters;
//!  - a 64 KB pasted key: one more keystroke until the next frame (p50, p95);
//!  - the hot-spot recompute of 100,000 keys as the page itself times it;
//!  - slots of 1,000,000 short keys in the same page: the wasm batch path (keys packed into
//!    wasm memory, slots read from a Uint16Array view), the same keys as one text with a key
//!    per line (`SlotBatch.run_lines`), `cluster-key-slot` 1.1.2 (ioredis's, from npm, served
//!    from the page's own origin), a hand-written JavaScript CRC16, keys generated inside
//!    wasm, and the kernel alone on keys already packed as bytes. All must agree on every
//!    slot, or the run fails;
//!  - interaction to next paint (Event Timing API, trusted input) for typing in the key field
//!    and pasting a 64 KB key, beside a plain page (`bench/plain.html`) measured the same way
//!    in the same run, and the heavy interactions of issue 17 (`bench/inp.mjs`);
//!  - the cold load under throttling, if `bench_load.mjs` is there (its `measureLoad`).
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { serveDist, launch, here } from './harness.mjs';
import { measureInp, measureHeavy, measureFirstSwitch, printInp, printHeavy } from './bench/inp.mjs';
import { measureBusHeavy } from './bench/bus_heavy.mjs';

const RUNS = 9;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// cluster-key-slot is CommonJS: wrap it as an ES module the page can import from its origin.
const cksSource = await readFile(join(here, 'node_modules', 'cluster-key-slot', 'lib', 'index.js'), 'utf8');
const server = await serveDist({
  '/__bench/cluster-key-slot.mjs': {
    type: 'text/javascript; charset=utf-8',
    body: `const module = { exports: {} };\n${cksSource}\nexport default module.exports;\n`,
  },
  '/__bench/plain.html': { type: 'text/html; charset=utf-8', body: await readFile(join(here, 'bench', 'plain.html'), 'utf8') },
  '/__bench/plain.js': { type: 'text/javascript; charset=utf-8', body: await readFile(join(here, 'bench', 'plain.js'), 'utf8') },
});
const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  // Record when the base canvas starts (clearRect) and ends (last fillRect) each repaint.
  await page.addInitScript(() => {
    window.__paints = [];
    const proto = CanvasRenderingContext2D.prototype;
    const clear = proto.clearRect;
    const fill = proto.fillRect;
    proto.clearRect = function (...a) {
      if (this.canvas.dataset.testid === 'slot-map') window.__paints.push([performance.now(), performance.now()]);
      return clear.apply(this, a);
    };
    proto.fillRect = function (...a) {
      const r = fill.apply(this, a);
      if (this.canvas.dataset.testid === 'slot-map' && window.__paints.length) window.__paints[window.__paints.length - 1][1] = performance.now();
      return r;
    };
  });
  // Reduced motion: each change repaints once, so a repaint is one task to time.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(server.url);
  await page.getByTestId('key-input').waitFor();
  await page.getByTestId('cluster-select').selectOption('create');
  const n = page.getByTestId('n-masters');

  // Time from an input event to the frame after it (two rAFs: the effects have run and painted).
  const timeInput = (selector, value) => page.evaluate(({ selector, value }) => new Promise((done) => {
    const el = document.querySelector(selector);
    const t0 = performance.now();
    el.value = value;
    el.dispatchEvent(new Event('input', { bubbles: true }));
    requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now() - t0)));
  }), { selector, value });

  const rows = [];
  for (const masters of [3, 1000]) {
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      await timeInput('[data-testid=n-masters]', String(masters - 1));
      times.push(await timeInput('[data-testid=n-masters]', String(masters)));
    }
    rows.push([`cluster switch to ${masters} masters`, median(times)]);
    const paints = await page.evaluate(() => window.__paints.splice(0).map(([a, b]) => b - a));
    rows.push([`map repaint, ${masters} masters (${paints.length} repaints)`, median(paints)]);

    const canvas = page.getByTestId('slot-map');
    await canvas.scrollIntoViewIfNeeded();
    const box = await canvas.boundingBox();
    const hover = [];
    for (let i = 0; i < RUNS * 3; i++) {
      const x = box.x + ((i * 37) % 120 + 4) / 128 * box.width;
      const y = box.y + ((i * 53) % 120 + 4) / 128 * box.height;
      const t0 = await page.evaluate(() => performance.now());
      await page.mouse.move(x, y);
      const t1 = await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now())))));
      hover.push(t1 - t0);
    }
    rows.push([`hover over the map, ${masters} masters (incl. protocol round trip)`, median(hover)]);

    const keys = [];
    for (let i = 0; i < RUNS; i++) keys.push(await timeInput('[data-testid=key-input]', `user:${i}:{tag${i}}`));
    rows.push([`keystroke in the key field, ${masters} masters`, median(keys)]);
  }
  // The planner's cards, with 1000 masters: 16 tags per master, and the hot-spot recompute.
  await timeInput('[data-testid=n-masters]', '1000');
  const tagTimes = [];
  for (let i = 0; i < RUNS; i++) {
    await timeInput('[data-testid=tags-per-master]', '15');
    tagTimes.push(await timeInput('[data-testid=tags-per-master]', '16'));
  }
  rows.push(['16 tags per master for 1000 masters, input to painted frame', median(tagTimes)]);
  await timeInput('[data-testid=n-masters]', '3');
  const hot = [];
  for (let i = 0; i < RUNS; i++) hot.push(await timeInput('[data-testid=hotspot-k]', String(60 + i)));
  rows.push(['hot spot, 100,000 keys recomputed for a new k, input to painted frame', median(hot)]);
  // Frame times while the redirections view plays at 4x, with the travel animation on.
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await page.getByTestId('scenario-select').selectOption('live-migration');
  await page.locator('#redirections .redir__player').focus();
  for (let i = 0; i < 2; i++) await page.keyboard.press('+');
  const frames = await page.evaluate(() => new Promise((done) => {
    const times = [];
    let last = performance.now();
    document.querySelector('[data-testid=play]').click();
    const tick = (now) => {
      times.push(now - last);
      last = now;
      if (times.length < 240) requestAnimationFrame(tick); else done(times);
    };
    requestAnimationFrame(tick);
  }));
  const sortedFrames = [...frames].sort((a, b) => a - b);
  rows.push(['redirections playing: median frame', median(frames)]);
  rows.push(['redirections playing: 95th percentile frame', sortedFrames[Math.floor(frames.length * 0.95)]]);
  const slow = frames.filter((f) => f > 20).length;
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await n.fill('3');

  // The hot spot as the page times its own recompute (no frame floor in this figure).
  const hotMs = [];
  for (let i = 0; i < RUNS; i++) {
    await timeInput('[data-testid=hotspot-k]', String(40 + i));
    hotMs.push(Number(await page.getByTestId('hotspot-ms').getAttribute('data-ms')));
  }
  rows.push(['hot spot, 100,000 keys, recompute as timed by the page (k sub-tags)', median(hotMs)]);
  await page.getByTestId('hotspot-untagged').check();
  const hotUntagged = [];
  for (let i = 0; i < RUNS; i++) {
    await page.getByTestId('hotspot-untagged').uncheck();
    await page.getByTestId('hotspot-untagged').check();
    hotUntagged.push(Number(await page.getByTestId('hotspot-ms').getAttribute('data-ms')));
  }
  rows.push(['hot spot, 100,000 untagged keys, each hashed, as timed by the page', median(hotUntagged)]);
  await page.getByTestId('hotspot-untagged').uncheck();

  // A 64 KB pasted key, then one more character typed at its end.
  const big = 'k'.repeat(64 * 1024);
  await timeInput('[data-testid=key-input]', big);
  const bigKeys = [];
  for (let i = 0; i < 21; i++) bigKeys.push(await timeInput('[data-testid=key-input]', big + String.fromCharCode(97 + (i % 26))));
  const sortedBig = [...bigKeys].sort((a, b) => a - b);
  rows.push(['keystroke after a 64 KB pasted key, p50', median(bigKeys)]);
  rows.push(['keystroke after a 64 KB pasted key, p95', sortedBig[Math.floor(bigKeys.length * 0.95)]]);

  // Slots of 1,000,000 keys, four ways, in this page.
  const crc = await page.evaluate(async ({ runs }) => {
    const N = 1_000_000;
    const keys = Array.from({ length: N }, (_, i) => (i % 3 === 0 ? `{user${i % 1000}}:item:${i}` : `user:${i}:profile`));
    const cks = (await import('/__bench/cluster-key-slot.mjs')).default;
    const { SlotBatch, wasm_memory, bench_generated_slot_sum } = window.wasmBindings;

    // Hand-written JavaScript: a 256-entry table, the tag scan on UTF-16 code units (the keys
    // are ASCII, so code units are bytes).
    const T = new Uint16Array(256);
    for (let i = 0; i < 256; i++) {
      let c = i << 8;
      for (let b = 0; b < 8; b++) c = c & 0x8000 ? ((c << 1) ^ 0x1021) & 0xffff : (c << 1) & 0xffff;
      T[i] = c;
    }
    const jsSlot = (k) => {
      let s = 0, e = k.length;
      const o = k.indexOf('{');
      if (o >= 0) {
        const c = k.indexOf('}', o + 1);
        if (c > o + 1) { s = o + 1; e = c; }
      }
      let crc = 0;
      for (let i = s; i < e; i++) crc = ((crc << 8) & 0xffff) ^ T[((crc >> 8) ^ k.charCodeAt(i)) & 0xff];
      return crc & 0x3fff;
    };

    // The wasm batch path: chunks of 4096 keys packed into wasm memory, slots read in place.
    const CHUNK = 4096;
    const batch = new SlotBatch(CHUNK, CHUNK * 256);
    const enc = new TextEncoder();
    let buffer, bytes, offsets, slots;
    const views = () => {
      buffer = wasm_memory().buffer;
      bytes = new Uint8Array(buffer, batch.bytes_ptr(), batch.max_bytes());
      offsets = new Uint32Array(buffer, batch.offsets_ptr(), batch.max_keys() + 1);
      slots = new Uint16Array(buffer, batch.slots_ptr(), batch.max_keys());
    };
    views();
    // Per chunk: the keys concatenated into one string (with their offsets, from their
    // lengths) and encoded in one encodeInto call; a chunk with a non-ASCII key (its UTF-8 is
    // longer than its UTF-16 length) is encoded key by key instead.
    const wasmSlots = (out) => {
      let start = 0;
      while (start < N) {
        if (wasm_memory().buffer !== buffer) views();
        const end = Math.min(N, start + CHUNK);
        let joined = '';
        let pos = 0;
        offsets[0] = 0;
        for (let i = start; i < end; i++) {
          const k = keys[i];
          joined += k;
          pos += k.length;
          offsets[i - start + 1] = pos;
        }
        const { read, written } = pos * 3 <= bytes.length ? enc.encodeInto(joined, bytes) : { read: -1, written: -1 };
        if (read !== joined.length || written !== pos) {
          pos = 0;
          for (let i = start; i < end; i++) {
            pos += enc.encodeInto(keys[i], bytes.subarray(pos)).written;
            offsets[i - start + 1] = pos;
          }
        }
        batch.run(end - start);
        out.set(slots.subarray(0, end - start), start);
        start = end;
      }
    };

    // The same keys as text, one per line (a paste, a file): no string per key, no offsets.
    // The text goes in pieces of whole lines of about 64K characters: each is encoded with one
    // encodeInto into the batch's bytes while they are still in cache, and its lines are split
    // and hashed inside wasm. Building the text is not timed: it is the input.
    const text = keys.join('\n');
    const PIECE = 1 << 16;
    const lined = new SlotBatch(PIECE + 1, 3 * PIECE + 3);
    const textSlots = (out) => {
      let start = 0;
      let done = 0;
      while (start < text.length) {
        // End after the last line break within the piece (or after the next one, for a line
        // longer than the piece, which then must fit the batch's 3 bytes per character).
        let end = text.lastIndexOf('\n', start + PIECE - 1) + 1;
        if (end <= start) end = text.indexOf('\n', start) + 1 || text.length;
        const mem = wasm_memory().buffer;
        const { written } = enc.encodeInto(text.substring(start, end), new Uint8Array(mem, lined.bytes_ptr(), lined.max_bytes()));
        const n = lined.run_lines(written, true);
        out.set(new Uint16Array(wasm_memory().buffer, lined.slots_ptr(), n), done);
        done += n;
        start = end;
      }
    };

    // The kernel alone: all keys already packed as bytes (as a file or a socket gives them).
    const whole = new SlotBatch(N, 64 << 20);
    {
      const mem = wasm_memory().buffer;
      const wb = new Uint8Array(mem, whole.bytes_ptr(), whole.max_bytes());
      const wo = new Uint32Array(mem, whole.offsets_ptr(), N + 1);
      let pos = 0;
      for (let i = 0; i < N; i++) {
        pos += enc.encodeInto(keys[i], wb.subarray(pos)).written;
        wo[i + 1] = pos;
      }
    }
    views();

    const outs = { wasm: new Uint16Array(N), cks: new Uint16Array(N), js: new Uint16Array(N), text: new Uint16Array(N) };
    const ways = {
      wasm: () => wasmSlots(outs.wasm),
      text: () => textSlots(outs.text),
      cks: () => { const o = outs.cks; for (let i = 0; i < N; i++) o[i] = cks(keys[i]); },
      js: () => { const o = outs.js; for (let i = 0; i < N; i++) o[i] = jsSlot(keys[i]); },
      generated: () => { outs.generatedSum = bench_generated_slot_sum(N); },
      packed: () => { whole.run(N); },
    };
    const times = { wasm: [], text: [], cks: [], js: [], generated: [], packed: [] };
    for (let r = 0; r < runs; r++) {
      for (const [name, f] of Object.entries(ways)) {
        const t0 = performance.now();
        f();
        times[name].push(performance.now() - t0);
      }
    }
    let sum = 0, mismatches = 0;
    const packed = new Uint16Array(wasm_memory().buffer, whole.slots_ptr(), N);
    for (let i = 0; i < N; i++) {
      sum += outs.wasm[i];
      const w = outs.wasm[i];
      if (w !== outs.cks[i] || w !== outs.js[i] || w !== packed[i] || w !== outs.text[i]) mismatches++;
    }
    batch.free();
    whole.free();
    lined.free();
    return { N, times, mismatches, sum, generatedSum: outs.generatedSum };
  }, { runs: 5 });
  if (crc.mismatches !== 0 || crc.sum !== crc.generatedSum) {
    throw new Error(`the slot paths disagree: ${crc.mismatches} mismatches, sums ${crc.sum} vs ${crc.generatedSum}`);
  }
  const nsPerKey = (name) => (median(crc.times[name]) * 1e6) / crc.N;
  const crcRows = [
    ['cluster-key-slot 1.1.2 (ioredis), JS strings', nsPerKey('cks')],
    ['hand-written JavaScript CRC16, JS strings', nsPerKey('js')],
    ['slotscope wasm batch path, JS strings packed into wasm memory', nsPerKey('wasm')],
    ['slotscope wasm batch path, the same keys as text, one per line', nsPerKey('text')],
    ['slotscope wasm, keys generated inside wasm', nsPerKey('generated')],
    ['slotscope wasm, keys already packed as bytes (the kernel alone)', nsPerKey('packed')],
  ];
  console.log('median of', RUNS, 'runs, Chromium', browser.version());
  for (const [what, ms] of rows) console.log(`${ms.toFixed(1).padStart(8)} ms  ${what}`);
  console.log(`${String(slow).padStart(8)}     redirections playing: frames over 20 ms, of ${frames.length}`);
  console.log(`\nslots of ${crc.N.toLocaleString('en')} short keys, median of 5 runs, all paths agree:`);
  const base = nsPerKey('cks');
  for (const [what, ns] of crcRows) {
    console.log(`${ns.toFixed(1).padStart(8)} ns/key  ${(base / ns).toFixed(1).padStart(5)}x cluster-key-slot  ${what}`);
  }
  await page.close();

  // Interaction to next paint, slotscope beside the plain page, in this run; then the heavy
  // interactions, each dispatched to the frame after it.
  printInp(await measureInp(browser, server.url, `${server.url}__bench/plain.html`));
  printHeavy([...await measureHeavy(browser, server.url), ...await measureFirstSwitch(browser, server.url), ...await measureBusHeavy(browser, server.url)]);
  // The cold load (issue 17 goal 3), measured by bench_load.mjs when it is there.
  let load = null;
  try {
    if (await stat(join(here, 'bench_load.mjs')).catch(() => null)) load = await import('./bench_load.mjs');
  } catch (e) {
    console.log(`\nthe cold load was not measured: ${e?.message ?? e}`);
  }
  const loadRows = load?.measureLoad ? await load.measureLoad({ browser, server, url: server.url }) : null;
  if (Array.isArray(loadRows)) for (const row of loadRows) console.log(...[row].flat());
} finally {
  await browser.close();
  await server.close();
}
