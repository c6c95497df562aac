//! The first-screen module (crates/first, static/first.js): before the app has started, the
//! prerendered pipeline answers a typed key with Redis's slot (keyslot.tsv) and the same values
//! the app then shows for it; a key the page does not explain dims the cards as the app does;
//! a page opening at a saved state is left to the app; no console error, no policy violation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sharedBrowser, fixtures, redisSlot, crc16, fillKey } from './harness.mjs';

const env = sharedBrowser();
const DEFAULT_KEY = '{user1}:profile';
/** The app's wasm (Trunk's `slotscope-…_bg.wasm`), not the first-screen module. */
const APP_WASM = '**/slotscope-*_bg.wasm';

/** keyslot.tsv's rows: the key's bytes (hex), as redis-cli printed it, and Redis's slot. */
async function vectors() {
  const text = await readFile(join(fixtures, 'keyslot.tsv'), 'utf8');
  return text.trimEnd().split('\n').slice(1).map((l) => l.split('\t'))
    .map(([hex, display, slot]) => ({ bytes: Buffer.from(hex, 'hex'), display, slot: Number(slot) }));
}

/** The bytes Redis hashes (cluster.c keyHashSlot), from the rule, not from the page's code. */
function hashedPart(bytes) {
  const open = bytes.indexOf(0x7b);
  if (open < 0) return bytes;
  const close = bytes.indexOf(0x7d, open + 1);
  return close > open + 1 ? bytes.subarray(open + 1, close) : bytes;
}

/** A spread of the recorded keys: every hash-tag case, escapes, UTF-8, and long ones. */
async function sample() {
  const all = (await vectors()).filter((v) => v.bytes.length > 0);
  const pick = [];
  const want = [
    (v) => v.display.includes('{'), (v) => v.display.includes('\\x'), (v) => v.display.includes('\\"'),
    (v) => v.bytes.length > 64 && v.bytes.length <= 200, (v) => v.bytes.length > 200, () => true,
  ];
  for (const p of want) pick.push(...all.filter((v) => p(v) && !pick.includes(v)).slice(0, 6));
  return pick;
}

/** The cards' values, and whether the sentences are hidden. */
function readCards(page) {
  return page.evaluate(() => {
    const q = (s) => document.querySelector(s);
    const text = (id) => q(`[data-testid="${id}"]`)?.textContent ?? null;
    const verify = q('[data-testid=verify-command]');
    return {
      bytes: text('key-bytes'), hashed: text('hashed-part'), crc: text('crc16'), slot: text('slot'), node: text('node'),
      marked: q('.stage__key')?.textContent, mark: q('.stage__key mark')?.textContent,
      bits: q('.bits')?.getAttribute('aria-label'), tag: !!q('.stage--tag [data-testid=hashed-part]'),
      verify: verify && !verify.closest('[hidden]') ? `${verify.textContent} → ${verify.nextElementSibling?.textContent}` : null,
    };
  });
}

/** Master of a slot in the page's default cluster: the fixtures' three masters (CLUSTER SLOTS). */
const owner = (slot) => (slot <= 5460 ? '127.0.0.1:7000' : slot <= 10922 ? '127.0.0.1:7001' : '127.0.0.1:7002');

async function open({ holdApp = true, seed } = {}) {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`); });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  await page.addInitScript((seed) => {
    window.__violations = [];
    window.__started = false;
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.effectiveDirective} ${e.blockedURI}`));
    addEventListener('TrunkApplicationStarted', () => { window.__started = true; });
    if (seed && !sessionStorage.getItem('seeded')) {
      localStorage.setItem('slotscope.state', seed);
      sessionStorage.setItem('seeded', '1');
    }
  }, seed);
  let release = () => {};
  if (holdApp) {
    const held = new Promise((ok) => { release = ok; });
    await page.route(APP_WASM, async (route) => { await held; await route.continue(); });
  }
  await page.goto(env.server.url, { waitUntil: 'domcontentloaded' });
  await page.getByTestId('key-input').waitFor();
  return { context, page, problems, release };
}

test('before the app starts, the prerendered pipeline answers typed keys with Redis\'s slot, and the app then shows the same', async () => {
  const keys = await sample();
  const { context, page, problems, release } = await open();
  // The module is in when the default key's answer carries the module's mark; type the first key.
  const input = page.getByTestId('key-input');
  const early = [];
  for (const v of keys) {
    await input.fill(v.display);
    await page.waitForFunction((want) => document.querySelector('[data-testid=slot]')?.textContent === want
      && document.querySelector('.pipeline--early'), String(v.slot), { timeout: 10_000 })
      .catch(() => { throw new Error(`no early answer for ${v.display}`); });
    const c = await readCards(page);
    assert.equal(await page.evaluate(() => window.__started), false, 'answered before the app started');
    assert.equal(Number(c.slot), v.slot, `slot of ${v.display}`);
    assert.equal(c.node, owner(v.slot), `master of ${v.display}`);
    if (v.bytes.length <= 64) assert.equal(c.bytes, v.display, 'the Bytes card shows the key as redis-cli printed it');
    else assert.match(c.bytes, /…/, 'a long key is shortened');
    assert.equal(c.verify, v.bytes.length <= 200 ? `CLUSTER KEYSLOT "${v.display}" → (integer) ${v.slot}` : null);
    assert.equal(c.crc, `0x${crc16(hashedPart(v.bytes)).toString(16).toUpperCase().padStart(4, '0')}`, `CRC16 of ${v.display}`);
    assert.equal(c.tag, hashedPart(v.bytes) !== v.bytes, 'the hashed card is marked as a tag exactly when a tag chose it');
    early.push(c);
  }
  // The sentences under the values explain the default key: hidden, with the note saying why.
  const hidden = await page.evaluate(() => [...document.querySelectorAll('.pipeline .stage__rule')]
    .map((r) => getComputedStyle(r).display));
  assert.ok(hidden.length >= 5 && hidden.every((v) => v === 'none'), JSON.stringify(hidden));
  // So is the section bar's read-out, which still names the default key.
  assert.equal(await page.getByTestId('key-readout').evaluate((e) => getComputedStyle(e).visibility), 'hidden');
  assert.equal(await page.getByTestId('pipeline-early').isVisible(), true);
  release();
  await page.waitForFunction(() => window.__started);
  await page.waitForFunction(() => !document.querySelector('[data-prerendered]'));
  assert.equal(await page.locator('[data-testid=pipeline-early]').count(), 0, 'the live page has no early note');
  // The live pipeline, key by key, shows exactly what the module showed.
  for (const [i, v] of keys.entries()) {
    await fillKey(page, v.display);
    await page.waitForFunction((want) => document.querySelector('[data-testid=slot]')?.textContent === want, String(v.slot));
    assert.deepEqual(await readCards(page), early[i], `the app and the module agree on ${v.display}`);
  }
  assert.deepEqual(await page.evaluate(() => window.__violations), [], 'no policy violation');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a key the page does not explain dims the early cards, and the app then says why', async () => {
  const { context, page, problems, release } = await open();
  const input = page.getByTestId('key-input');
  await input.fill('foo');
  await page.waitForFunction(() => document.querySelector('[data-testid=slot]')?.textContent === '12182');
  await input.fill('a\\xZZ');
  await page.waitForFunction(() => document.querySelector('.pipeline--stale'));
  assert.equal(await page.locator('section.pipeline').getAttribute('aria-busy'), 'true');
  assert.equal(await page.getByTestId('slot').textContent(), '12182', 'the last answer is kept');
  // The empty key is left to the app's words too.
  await input.fill('');
  assert.equal(await page.getByTestId('slot').textContent(), '12182');
  await input.fill('bar');
  await page.waitForFunction(() => document.querySelector('[data-testid=slot]')?.textContent === '5061'
    && !document.querySelector('.pipeline--stale'));
  await input.fill('a\\xZZ');
  await page.waitForFunction(() => document.querySelector('.pipeline--stale'));
  release();
  await page.waitForFunction(() => window.__started);
  await page.getByTestId('key-error').waitFor();
  assert.equal(await input.inputValue(), 'a\\xZZ', 'the app keeps the text');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a page opening at a saved state is left to the app: the prerendered cluster is not the one it will show', async () => {
  // A state this browser saved: a cluster created with 5 masters.
  const before = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const setup = await before.newPage();
  await setup.goto(env.server.url);
  await setup.waitForFunction(() => !document.querySelector('[data-prerendered]'));
  await setup.getByTestId('cluster-select').selectOption('create');
  await setup.getByTestId('n-masters').fill('5');
  await setup.waitForFunction(() => document.querySelectorAll('[data-testid=node-row][data-role=master]').length === 5);
  await setup.waitForFunction(() => (localStorage.getItem('slotscope.state') ?? '').length > 0);
  const seed = await setup.evaluate(() => localStorage.getItem('slotscope.state'));
  await before.close();

  const { context, page, problems, release } = await open({ seed });
  const input = page.getByTestId('key-input');
  await input.fill('bar');
  // Long enough for the module (it answers within milliseconds of arriving).
  await page.waitForTimeout(1500);
  assert.equal(await page.locator('.pipeline--early').count(), 0, 'the module did not answer');
  assert.equal(await page.getByTestId('slot').textContent(), String(redisSlot(DEFAULT_KEY)));
  release();
  await page.waitForFunction(() => window.__started);
  await page.waitForFunction(() => document.querySelector('[data-testid=slot]')?.textContent === '5061'
    && !document.querySelector('[data-prerendered]'));
  // redis-cli --cluster create with 5 masters gives slot 5061 to the second (create_allocation.tsv);
  // the prerendered cluster's owner would have been 127.0.0.1:7000.
  assert.equal(await page.getByTestId('node').textContent(), '127.0.0.1:7001');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the module is small beside the app, named by its content, and its script is inline in <head>, allowed by its hash', async () => {
  const { context, page, problems } = await open({ holdApp: false });
  await page.waitForFunction(() => window.__started);
  const names = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname));
  const first = names.filter((n) => /^\/first-[0-9a-f]{16}\.wasm$/.test(n));
  assert.equal(first.length, 1, JSON.stringify(names));
  const size = await page.evaluate(async (f) => (await (await fetch(f)).arrayBuffer()).byteLength, first[0]);
  assert.ok(size < 64 * 1024, `first-screen module: ${size} bytes`);
  const html = await (await fetch(env.server.url)).text();
  const head = html.slice(0, html.indexOf('<body'));
  assert.ok(head.includes(`<link rel="preload" href="${first[0]}" as="fetch"`), 'preloaded');
  assert.ok(head.indexOf(first[0]) < head.indexOf('_bg.wasm'), "requested before the app's wasm");
  assert.deepEqual(await page.evaluate(() => window.__violations), [], 'no policy violation');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the sections below the first screen come folded in a template and join the page after the first paint', async () => {
  const html = await (await fetch(env.server.url)).text();
  const folded = html.match(/<template id="below">([\s\S]*?)<\/template><\/main>/);
  assert.ok(folded, 'dist/index.html folds the sections below the key');
  for (const id of ['map', 'planner', 'tags', 'redirections', 'bus', 'why']) assert.match(folded[1], new RegExp(`^<[a-z]+ id="${id}"|><[a-z]+ id="${id}"`), id);
  assert.doesNotMatch(folded[1], /id="key-field"/, 'the first screen is not folded');
  const { context, page, problems } = await open();
  await page.waitForFunction(() => !document.getElementById('below') && document.getElementById('why'));
  assert.equal(await page.evaluate(() => window.__started), false, 'before the app');
  const ids = await page.evaluate(() => [...document.querySelectorAll('[data-prerendered] > main > *')].map((s) => s.id));
  assert.deepEqual(ids, ['key', 'map', 'planner', 'tags', 'redirections', 'bus', 'why']);
  assert.deepEqual(problems, []);
  await context.close();
});
