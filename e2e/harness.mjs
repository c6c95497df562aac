//! Shared by the e2e tests: serves dist/ on 127.0.0.1, launches Debian's Chromium, and records
//! every console error, page error, failed or foreign request so a test can fail on them.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { before, after } from 'node:test';

export const here = fileURLToPath(new URL('.', import.meta.url));
export const root = resolve(here, '..');
export const dist = process.env.SLOTSCOPE_DIST ?? join(root, 'dist');
export const fixtures = process.env.SLOTSCOPE_FIXTURES ?? join(root, '..', 'shared', 'fixtures');

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/**
 * Serves dist/ on an ephemeral loopback port. Resolves to { url, close }. `extra` maps a path
 * to { body, type } served beside dist/ (the benchmark's same-origin copy of an npm module).
 */
export async function serveDist(extra = {}) {
  await stat(join(dist, 'index.html')).catch(() => {
    throw new Error(`no release build in ${dist}: run trunk build --release first`);
  });
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
      if (Object.hasOwn(extra, path)) {
        res.writeHead(200, { 'content-type': extra[path].type });
        res.end(extra[path].body);
        return;
      }
      const file = normalize(join(dist, path.endsWith('/') ? path + 'index.html' : path));
      if (!file.startsWith(dist)) throw new Error('outside dist');
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((ok) => server.close(ok)) };
}

/**
 * One static server and one browser for a whole test file: call at the top level; the
 * returned object's `server` and `browser` are set before the first test and closed after the
 * last.
 */
export function sharedBrowser() {
  const env = { server: null, browser: null };
  before(async () => {
    env.server = await serveDist();
    env.browser = await launch();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.close();
  });
  return env;
}

/** Debian's Chromium, never a downloaded one (`extraArgs`: more command-line switches). */
export function launch(extraArgs = []) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
      '--disable-component-update', '--no-first-run', '--disable-sync', ...extraArgs],
  });
}

/**
 * Opens the page and records problems: console errors (a missing favicon shows up here as a
 * failed resource), uncaught exceptions (a Rust panic surfaces as one), failed requests, and
 * any request that leaves the page's origin.
 */
export async function openPage(browser, url, viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const problems = [];
  const origin = new URL(url).origin;
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  // A request cut short because the page navigated (a reload, an opened link) is not a fault.
  page.on('requestfailed', (req) => {
    if (req.failure()?.errorText !== 'net::ERR_ABORTED') problems.push(`request failed: ${req.url()} (${req.failure()?.errorText})`);
  });
  page.on('request', (req) => {
    const u = req.url();
    if (!u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:')) {
      problems.push(`request left the origin: ${u}`);
    }
  });
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  await page.goto(url);
  await appReady(page);
  await quiet(page);
  return { page, context, problems };
}

/**
 * Waits until the live app has replaced the prerendered first screen (`dist/index.html` holds
 * the page rendered at build time, so the key field is there before the wasm has started, but
 * its buttons do nothing yet). Trunk sets `window.wasmBindings` once `main` has run, and Yew
 * has rendered by then.
 */
export async function appReady(page) {
  await page.waitForFunction(() => window.wasmBindings !== undefined);
  await page.getByTestId('key-input').waitFor();
}

/**
 * Waits for a frame and then for the browser to be idle. Yew's scheduler yields to the browser
 * (a `setTimeout`) once a run passes 16 ms, and the app's first effects can take that long on
 * a loaded machine: a render asked for meanwhile waits for that task, which may come after the
 * next frame. The `IntersectionObserver` that tells the page which sections are on screen also
 * first reports in a frame after the app starts. A test that reads what a frame shows after
 * an action starts from a page that has done neither.
 */
export async function quiet(page) {
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestIdleCallback(() => done(), { timeout: 5000 }))));
}

/** Reads keyslot.tsv into a Map from key_display to slot. */
export async function keyslotByDisplay() {
  const text = await readFile(join(fixtures, 'keyslot.tsv'), 'utf8');
  const rows = text.trimEnd().split('\n').slice(1).map((l) => l.split('\t'));
  return new Map(rows.map(([, display, slot]) => [display, Number(slot)]));
}

/**
 * Redis's slot of a key, written here from the rules and not from the page's code: the bytes
 * between the first `{` and the first `}` after it if that is not empty, else the whole key,
 * hashed with CRC16-XMODEM (polynomial 0x1021, initial 0) and masked to 14 bits. A string is
 * taken as its UTF-8 bytes. `keyslot.test.mjs` checks it against every row of keyslot.tsv.
 */
export function redisSlot(key) {
  const bytes = typeof key === 'string' ? Buffer.from(key, 'utf8') : key;
  let part = bytes;
  const open = bytes.indexOf(0x7b);
  if (open >= 0) {
    const close = bytes.indexOf(0x7d, open + 1);
    if (close > open + 1) part = bytes.subarray(open + 1, close);
  }
  return crc16(part) & 0x3fff;
}

/** CRC-16/XMODEM of some bytes, bit by bit: the tests' oracle, not the page's sliced table. */
export function crc16(bytes) {
  let crc = 0;
  for (const b of bytes) {
    crc ^= b << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** Types `text` into the key field as a reader would (select all, then type). */
export async function typeKey(page, text) {
  const input = page.getByTestId('key-input');
  await input.fill('');
  if (text.length > 0) await input.pressSequentially(text, { delay: 0 });
  // Every keystroke has reached the field (a loaded machine once showed a read of 22 of 28
  // typed characters): say so by name rather than as a wrong slot further on.
  await page
    .waitForFunction((want) => {
      const field = document.getElementById('key-field');
      // The field's text, and taken into the key's state (the page takes an edit a task after
      // the field has painted it: `data-pending` until then).
      return field?.value === want && !field.hasAttribute('data-pending');
    }, text, { timeout: 10_000 })
    .catch(async () => {
      throw new Error(`typed ${JSON.stringify(text)} but the field holds ${JSON.stringify(await input.inputValue())}`);
    });
}

/**
 * Sets the key field's text at once (Playwright's `fill`) and waits until the page has taken
 * it into the key's state (it does a task after the field has painted the edit).
 */
export async function fillKey(page, text) {
  await page.getByTestId('key-input').fill(text);
  await page.waitForFunction(() => !document.getElementById('key-field')?.hasAttribute('data-pending'));
}

/** The values of the pipeline's test hooks. */
export async function readPipeline(page) {
  // One snapshot of the page, so the four values come from the same render (once it has one).
  await page.getByTestId('slot').waitFor();
  return page.evaluate(() => {
    const get = (id) => document.querySelector(`[data-testid="${id}"]`)?.textContent ?? null;
    return { hashed: get('hashed-part'), crc: get('crc16'), slot: Number(get('slot')), node: get('node') };
  });
}

/** The master rows of the node list: address, slot count and every range, as data attributes. */
export async function masterRows(page) {
  return page.locator('[data-testid=node-row][data-role=master]').evaluateAll((rows) =>
    rows.map((r) => ({ addr: r.dataset.addr, slots: r.dataset.slots, ranges: r.dataset.ranges })));
}

/** Every node row: address, role, slot count, ranges. */
export async function nodeRows(page) {
  return page.locator('[data-testid=node-row]').evaluateAll((rows) =>
    rows.map((r) => ({ addr: r.dataset.addr, role: r.dataset.role, slots: Number(r.dataset.slots), ranges: r.dataset.ranges })));
}

/**
 * Waits until the cluster bus section has no build in progress. A scenario, Apply or an action
 * (crash, restart, a failover) builds the run again; a small one is built in the event's own
 * task (40 ms of wall time), but on a loaded machine it can spill over into later tasks, and
 * the old run stays on screen meanwhile (`bus-building` says so, set in the event's task).
 */
export async function busSettled(page) {
  await page.waitForFunction(() => !document.querySelector('[data-testid=bus-building]'), null, { timeout: 60_000 });
}

/**
 * Waits until the page has written its last change into the address and `localStorage`: it
 * does so after the reader pauses (the key's pause, then the link's), and marks `<html>` with
 * `data-saving` until then; an edit of the key field not yet taken is `data-pending`.
 */
export async function linkSaved(page) {
  await page.waitForFunction(() => !document.documentElement.hasAttribute('data-saving')
    && !document.getElementById('key-field')?.hasAttribute('data-pending'), null, { timeout: 30_000 });
}
