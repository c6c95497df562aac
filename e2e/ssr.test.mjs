//! The prerendered first screen (scripts/prerender.py, src/ui/prerender.rs): dist/index.html
//! holds the page rendered at build time by the same Yew components, the reader can type into
//! it before the wasm has started, and the app keeps and answers that key when it takes over,
//! under the same Content-Security-Policy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sharedBrowser, dist, keyslotByDisplay, readPipeline, redisSlot } from './harness.mjs';

const env = sharedBrowser();
const DEFAULT_KEY = '{user1}:profile';

/** The policy csp.py writes (scripts/csp.py's POLICY), without the start-up script's hash. */
const POLICY = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
];

test('dist/index.html holds the prerendered first screen: the key field and the slot of the default key', async () => {
  const html = await readFile(join(dist, 'index.html'), 'utf8');
  const body = html.slice(html.indexOf('<body'));
  const input = body.match(/<input [^>]*data-testid="key-input"[^>]*>/);
  assert.ok(input, 'the key field is in the built page');
  assert.match(input[0], /\svalue="\{user1\}:profile"/);
  assert.match(input[0], /\sid="key-field"/);
  const slot = body.match(/data-testid="slot"[^>]*>(\d+)</);
  assert.ok(slot, "the pipeline's slot is in the built page");
  const fixture = (await keyslotByDisplay()).get(DEFAULT_KEY);
  assert.equal(Number(slot[1]), fixture, 'the slot is keyslot.tsv\'s for the default key');
  assert.match(body, /data-testid="node"[^>]*>127\.0\.0\.1:7001</, 'and its master');
  // Headings and the rest of the first screen, in English.
  assert.match(body, /<h1 class="masthead__title">.*slotscope<\/h1>/s);
  assert.match(body, /data-testid="crc16"[^>]*>0xDFAA</);
  // Nothing the policy would refuse came with it.
  assert.doesNotMatch(body, /<script/i, 'no script in the body (Trunk\'s start-up stays the only one, in <head>)');
  assert.doesNotMatch(body, /\sstyle=|\son[a-z]+=/i, 'no inline style or handler');
  const m = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]*)"/);
  assert.ok(m, 'the policy is still there');
  const directives = m[1].split(';').map((d) => d.trim().replace(/ 'sha256-[^']+'/g, ''));
  assert.deepEqual(directives, POLICY, 'the policy is exactly as strict as before');
});

test('a key typed into the prerendered page before the wasm has started is kept and answered', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`); });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  await page.addInitScript(() => {
    window.__violations = [];
    window.__started = false;
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.effectiveDirective} ${e.blockedURI}`));
    addEventListener('TrunkApplicationStarted', () => { window.__started = true; });
  });
  // Hold the wasm until the reader has typed.
  let release;
  const held = new Promise((ok) => { release = ok; });
  await page.route('**/*.wasm', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(env.server.url, { waitUntil: 'domcontentloaded' });
  const input = page.getByTestId('key-input');
  await input.waitFor();
  // The prerendered page: the default key answered, the app not started.
  assert.equal(await input.inputValue(), DEFAULT_KEY);
  assert.equal(await page.getByTestId('slot').textContent(), String(redisSlot(DEFAULT_KEY)));
  const key = 'a{b}c';
  await input.click();
  await input.fill('');
  await input.pressSequentially(key);
  assert.equal(await page.evaluate(() => window.__started), false, 'typed before the app started');
  assert.equal(await page.getByTestId('slot').textContent(), String(redisSlot(DEFAULT_KEY)), 'nothing answers yet');
  // Until the app mounts, the sections below the key skip layout and paint; they are there,
  // and render when the reader comes near them.
  const skipped = await page.evaluate(() => [...document.querySelectorAll('[data-prerendered] > main > *')]
    .map((s) => [s.id, getComputedStyle(s).contentVisibility]));
  assert.deepEqual(skipped.map(([id]) => id), ['key', 'map', 'planner', 'tags', 'redirections', 'bus', 'why']);
  assert.ok(skipped.every(([id, cv]) => cv === (id === 'key' ? 'visible' : 'auto')), JSON.stringify(skipped));
  release();
  await page.waitForFunction(() => window.__started);
  await page.waitForFunction((want) => document.querySelector('[data-testid=slot]')?.textContent === want,
    String(redisSlot(key)));
  const p = await readPipeline(page);
  assert.deepEqual({ hashed: p.hashed, slot: p.slot }, { hashed: 'b', slot: redisSlot(key) });
  assert.equal(await input.inputValue(), key, 'the live field holds the typed key');
  // The focus and caret came along: the reader goes on typing where they were.
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'key-field');
  await page.keyboard.type('x');
  assert.equal(await input.inputValue(), `${key}x`);
  await page.waitForFunction((want) => document.querySelector('[data-testid=slot]')?.textContent === want,
    String(redisSlot(`${key}x`)));
  // One page, not two: the prerendered copy is gone.
  assert.equal(await page.locator('[data-testid=key-input]').count(), 1);
  assert.equal(await page.locator('div.page').count(), 1);
  assert.equal(await page.locator('[data-prerendered]').count(), 0, 'the live page renders every section');
  assert.deepEqual(await page.evaluate(() => window.__violations), [], 'no policy violation');
  assert.deepEqual(problems, []);
  await context.close();
});

test('left alone, the prerendered page becomes the live one with the same first screen', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`); });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  await page.addInitScript(() => {
    addEventListener('TrunkApplicationStarted', () => { window.__started = true; });
    // Before every frame once the first screen is in (a rAF callback runs just before the
    // browser paints): a frame without the key field would be a blank flash at the hand-over.
    window.__frames = { seen: 0, blank: 0 };
    const frame = () => {
      if (document.getElementById('key-field')) window.__frames.seen += 1;
      else if (window.__frames.seen > 0) window.__frames.blank += 1;
      if (!window.__started || window.__frames.after++ < 10) requestAnimationFrame(frame);
    };
    window.__frames.after = 0;
    requestAnimationFrame(frame);
  });
  // The wasm a little late, so the prerendered page has frames of its own before the app.
  await page.route('**/*.wasm', async (route) => {
    await new Promise((ok) => setTimeout(ok, 500));
    await route.continue();
  });
  await page.goto(env.server.url);
  await page.waitForFunction(() => window.__started);
  await page.waitForFunction(() => window.__frames.after >= 10);
  const frames = await page.evaluate(() => window.__frames);
  assert.ok(frames.seen > 10, `the first screen had frames before and after the app started (${frames.seen})`);
  assert.equal(frames.blank, 0, 'no frame without the page at the hand-over');
  const p = await readPipeline(page);
  assert.deepEqual({ hashed: p.hashed, slot: p.slot, node: p.node }, { hashed: 'user1', slot: 8106, node: '127.0.0.1:7001' });
  assert.equal(await page.getByTestId('key-input').inputValue(), DEFAULT_KEY);
  assert.equal(await page.locator('div.page').count(), 1);
  // The live page answers.
  await page.getByTestId('key-input').fill('foo');
  await page.waitForFunction(() => document.querySelector('[data-testid=slot]')?.textContent === '12182');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a remembered language replaces the English prerender once the app starts', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    if (!sessionStorage.getItem('seeded')) {
      localStorage.setItem('slotscope.lang', 'zh');
      sessionStorage.setItem('seeded', '1');
    }
  });
  await page.goto(env.server.url);
  await page.waitForFunction(() => document.documentElement.lang === 'zh-Hans');
  assert.equal(await page.getByTestId('lang-select').inputValue(), 'zh');
  assert.equal(await page.locator('div.page').count(), 1);
  await context.close();
});
