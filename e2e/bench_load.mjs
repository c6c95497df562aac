//! Cold load on Lighthouse's slow-4G profile (not a test: it asserts nothing, it measures).
//! `node e2e/bench_load.mjs` after `trunk build --release` (options: `--runs N`, `--dist DIR`,
//! `--key TEXT`, `--fast-cpu`). `bench.mjs` calls `measureLoad()` for its load rows.
//!
//! Each run is a fresh browser context (cold cache) on a page served gzipped (gzip -9, as a
//! static host that precompresses), under CDP `Network.emulateNetworkConditions` (150 ms
//! latency per request, 1.6 Mbit/s down, 750 kbit/s up: Lighthouse's `mobileSlow4G`) and
//! `Emulation.setCPUThrottlingRate(4)`. Times are milliseconds from navigation start:
//!  - first contentful paint (PerformanceObserver 'paint');
//!  - slot shown: the pipeline's slot element first holds a number (prerendered or live);
//!  - app started: Trunk's `TrunkApplicationStarted` (the wasm has run `main`);
//!  - key field there: when the key field first exists (prerendered, or mounted by the app);
//!    a key is typed into it at once (before the app has started, when it is prerendered);
//!  - pipeline answering: that key's own slot shown by the pipeline, after the next paint
//!    (before the app has started, by the first-screen module: crates/first, static/first.js);
//!  - bytes transferred (CDP `encodedDataLength`, headers included) and per file.
import { createServer } from 'node:http';
import { readFile, readdir } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { launch, dist as defaultDist, redisSlot } from './harness.mjs';

/** Lighthouse's mobileSlow4G: 150 ms RTT, 1.6 Mbit/s down, 750 kbit/s up, CPU 4x slower. */
export const SLOW_4G = { latency: 150, down: (1.6 * 1024 * 1024) / 8, up: (750 * 1024) / 8, cpu: 4 };

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** Serves `dir` on 127.0.0.1, every text and wasm file gzipped once at start. */
export async function serveGzipped(dir) {
  const files = new Map();
  for (const name of await readdir(dir)) {
    const body = await readFile(join(dir, name)).catch(() => null);
    if (!body) continue;
    const type = MIME[extname(name)] ?? 'application/octet-stream';
    files.set(`/${name}`, { type, gz: gzipSync(body, { level: 9 }), raw: body.length });
  }
  const server = createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    const f = files.get(path === '/' ? '/index.html' : path);
    if (!f) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': f.type, 'content-encoding': 'gzip', 'cache-control': 'no-cache' });
    res.end(f.gz);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, files, close: () => new Promise((ok) => server.close(ok)) };
}

const median = (xs) => {
  const s = xs.filter((x) => x != null).sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : null;
};

/** Recorded in the page from its first byte: paints, the slot element, the typed key. */
function probe({ key, want }) {
  const t = (window.__load = { fcp: null, slotShown: null, started: null, typed: null, answered: null });
  // Says when all is recorded, on the console: waiting for it with Playwright's
  // `waitForFunction` would inject Playwright's own script into the loading page, about 140 ms
  // of main thread at CPU 4x, before the first paint (traced).
  const done = () => {
    if (t.fcp != null && t.started != null && t.answered != null) console.log('__load recorded');
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') t.fcp = e.startTime;
    done();
  }).observe({ type: 'paint', buffered: true });
  addEventListener('TrunkApplicationStarted', () => { t.started = performance.now(); done(); });
  // After the next frame: a rAF callback runs just before the paint, a task it queues after it.
  const painted = (field) => requestAnimationFrame(() => setTimeout(() => { t[field] = performance.now(); done(); }));
  let seen = false;
  const check = () => {
    const input = document.getElementById('key-field');
    if (input && t.typed == null) {
      // Typed as soon as the field exists: into the prerendered copy if there is one (the
      // app must keep it), else into the live field (the app answers the input event).
      t.typed = performance.now();
      input.value = key;
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }
    const slot = document.querySelector('[data-testid=slot]')?.textContent ?? '';
    if (t.slotShown == null && /^\d+$/.test(slot)) t.slotShown = performance.now();
    if (!seen && slot === String(want)) {
      seen = true;
      painted('answered');
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
}

/**
 * Loads the page `runs` times cold under `profile` and returns the medians and each run:
 * `{ rows: [[label, ms]], bytes, files, runs: [...], profile }`. Options: `runs` (5), `dist`
 * (the release build), `key` (typed before the app starts; 'foo'), `profile` (SLOW_4G),
 * `browser` (one to reuse; else one is launched and closed), `url` (a server already serving
 * dist/ gzipped; else one is started and closed).
 */
export async function measureLoad(opts = {}) {
  const runs = opts.runs ?? 5;
  const profile = { ...SLOW_4G, ...(opts.profile ?? {}) };
  const key = opts.key ?? 'foo';
  const want = redisSlot(key);
  const server = opts.url ? null : await serveGzipped(resolve(opts.dist ?? defaultDist));
  const url = opts.url ?? server.url;
  const browser = opts.browser ?? (await launch());
  const each = [];
  try {
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      const sizes = new Map();
      cdp.on('Network.responseReceived', (e) => sizes.set(e.requestId, { url: e.response.url, bytes: 0 }));
      cdp.on('Network.loadingFinished', (e) => {
        const s = sizes.get(e.requestId);
        if (s) s.bytes = e.encodedDataLength;
      });
      await cdp.send('Network.enable');
      await cdp.send('Network.clearBrowserCache');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false, latency: profile.latency, downloadThroughput: profile.down, uploadThroughput: profile.up,
      });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpu });
      await page.addInitScript(probe, { key, want });
      const recorded = page.waitForEvent('console', { predicate: (m) => m.text() === '__load recorded', timeout: 60_000 });
      await page.goto(url, { waitUntil: 'commit' });
      await recorded;
      const t = await page.evaluate(() => ({
        ...window.__load,
        // When each file had arrived (ms from navigation start).
        arrived: Object.fromEntries([...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')]
          .map((e) => [new URL(e.name).pathname, Math.round(e.responseEnd)])),
      }));
      await page.waitForTimeout(200);
      const files = [...sizes.values()].map(({ url: u, bytes }) => {
        const file = new URL(u).pathname;
        return { file, bytes, arrived: t.arrived[file] ?? null };
      });
      each.push({ ...t, bytes: files.reduce((a, f) => a + f.bytes, 0), files });
      await context.close();
    }
  } finally {
    if (!opts.browser) await browser.close();
    await server?.close();
  }
  const m = (k) => median(each.map((r) => r[k]));
  const label = `slow 4G (${profile.latency} ms, ${((profile.down * 8) / 1024 / 1024).toFixed(1)} Mbit/s, CPU ${profile.cpu}x), cold`;
  return {
    profile,
    rows: [
      [`load, ${label}: first contentful paint`, m('fcp')],
      [`load, ${label}: the pipeline's slot shown`, m('slotShown')],
      [`load, ${label}: key field there (the key is typed)`, m('typed')],
      [`load, ${label}: app started (wasm ran main)`, m('started')],
      [`load, ${label}: pipeline answering the typed key, painted`, m('answered')],
    ],
    bytes: m('bytes'),
    files: each[0]?.files ?? [],
    runs: each,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const arg = (name) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const fast = process.argv.includes('--fast-cpu');
  const r = await measureLoad({
    runs: Number(arg('--runs') ?? 5), dist: arg('--dist'), key: arg('--key'),
    profile: fast ? { cpu: 1 } : undefined,
  });
  console.log(`median of ${r.runs.length} cold loads`);
  for (const [what, ms] of r.rows) console.log(`${ms == null ? '     n/a' : ms.toFixed(0).padStart(8)} ms  ${what}`);
  console.log(`${String(r.bytes).padStart(8)} B   transferred (gzip), of which:`);
  for (const f of r.files) console.log(`${String(f.bytes).padStart(8)} B     ${f.file} (arrived at ${f.arrived} ms in the first run)`);
  console.log('each run (fcp / slot shown / typed / started / answered):');
  for (const x of r.runs) console.log(`  ${[x.fcp, x.slotShown, x.typed, x.started, x.answered].map((v) => (v == null ? 'n/a' : v.toFixed(0))).join(' / ')}`);
}
