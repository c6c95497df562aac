//! The released page runs under a strict Content-Security-Policy: checked in the built HTML,
//! then in the browser (the page works with zero violations; inline script, eval and HTML
//! sinks are refused).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sharedBrowser, openPage, typeKey, dist } from './harness.mjs';

const env = sharedBrowser();

/** The policy as a Map from directive to its sources. */
function parsePolicy(html) {
  const m = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]*)"/);
  assert.ok(m, 'index.html carries a Content-Security-Policy meta element');
  assert.ok(html.indexOf(m[0]) < html.indexOf('<script'), 'the policy comes before any script');
  return new Map(m[1].split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
}

test('the built page declares a strict policy that hashes exactly its inline scripts', async () => {
  const html = await readFile(join(dist, 'index.html'), 'utf8');
  const policy = parsePolicy(html);
  assert.deepEqual(policy.get('default-src'), ["'none'"]);
  assert.deepEqual(policy.get('object-src'), ["'none'"]);
  assert.deepEqual(policy.get('base-uri'), ["'none'"]);
  // The stylesheets are inline (scripts/prerender.py: no render-blocking request), each
  // <style> allowed by its hash and nothing else inline.
  const styles = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]);
  assert.equal(styles.length, 1, 'one inlined <style>');
  assert.deepEqual(policy.get('style-src'),
    ["'self'", ...styles.map((body) => `'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`)]);
  assert.doesNotMatch(html, /<link rel="stylesheet"/, 'no stylesheet to wait for');
  assert.deepEqual(policy.get('connect-src'), ["'self'"]);
  const scripts = policy.get('script-src');
  for (const s of scripts) {
    assert.ok(["'self'", "'wasm-unsafe-eval'"].includes(s) || /^'sha256-[A-Za-z0-9+/]+=*'$/.test(s),
      `script-src allows only self, wasm and hashes, not ${s}`);
  }
  const text = [...policy.values()].flat().join(' ');
  assert.doesNotMatch(text, /unsafe-inline|'unsafe-eval'|https?:|\*/, 'no inline, eval or other origin anywhere');
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
  assert.ok(inline.length >= 1, "Trunk's start-up script is inline");
  const hashes = inline.map((body) => `'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  assert.deepEqual(scripts.filter((s) => s.startsWith("'sha256-")).sort(), hashes.sort());
  assert.doesNotMatch(html, /\sstyle=|\son[a-z]+=/i, 'no inline style or event-handler attribute');
});

test('the page works under the policy with no violation, and refuses inline script, string code, HTML and other origins', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.evaluate(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__violations.push(`${e.effectiveDirective} ${e.blockedURI}`));
  });
  // Exercise what draws styles and SVG: the pipeline's swatch, the map's tooltip, the planner,
  // the hot spot bars, the comparison bars and a sequence diagram playing.
  await typeKey(page, '{user1000}.following');
  const map = page.getByTestId('slot-map');
  await map.scrollIntoViewIfNeeded();
  const box = await map.boundingBox();
  await page.mouse.move(box.x + box.width * 0.7, box.y + box.height * 0.4);
  await page.locator('.slot-map__tip').waitFor();
  const tip = await page.locator('.slot-map__tip').evaluate((el) => el.style.left);
  assert.match(tip, /%$/, 'the tooltip is placed through the CSSOM');
  const swatch = await page.locator('.pipeline .swatch, [data-testid=node] ~ .swatch, .swatch--large').first()
    .evaluate((el) => getComputedStyle(el).backgroundColor);
  assert.notEqual(swatch, 'rgba(0, 0, 0, 0)', 'the master swatch has its colour');
  await page.locator('button', { hasText: /^Play$/ }).first().click().catch(() => {});
  await page.waitForTimeout(400);
  assert.deepEqual(await page.evaluate(() => window.__violations), [], 'no violation while the page works');

  // Page-world attempts (Playwright's own evaluate is exempt from the policy, so each attempt
  // goes through a DOM sink the policy guards, and the test checks that nothing ran).
  const refused = await page.evaluate(async () => {
    const out = {};
    const attempt = (name, f) => { try { f(); out[name] = 'allowed'; } catch (e) { out[name] = e.name; } };
    attempt('timer', () => setTimeout('window.__ran = "timer"', 0));
    attempt('html', () => document.body.insertAdjacentHTML('beforeend', '<img src=x onerror="window.__ran=1">'));
    attempt('handler', () => { const i = document.createElement('img'); i.setAttribute('onerror', 'window.__ran = "handler"'); i.src = 'data:,x'; document.body.append(i); });
    attempt('script', () => { const s = document.createElement('script'); s.textContent = 'window.__ran = "script"'; document.head.append(s); });
    attempt('src', () => { const s = document.createElement('script'); s.src = 'data:text/javascript,window.__ran="src"'; document.head.append(s); });
    // A <style> other than the page's own: added, but its rules never apply.
    const style = document.createElement('style');
    style.textContent = 'body { outline: 7px solid rgb(1, 2, 3) }';
    document.head.append(style);
    out.style = getComputedStyle(document.body).outlineColor === 'rgb(1, 2, 3)' ? 'applied' : 'refused';
    out.fetch = await fetch('http://127.0.0.2:9/').then(() => 'allowed', (e) => e.name);
    await new Promise((r) => setTimeout(r, 200));
    out.ran = window.__ran ?? 'nothing';
    return out;
  });
  assert.equal(refused.ran, 'nothing', `nothing injected ran: ${JSON.stringify(refused)}`);
  for (const k of ['timer', 'html', 'script', 'src']) assert.equal(refused[k], 'TypeError', `${k} refused by trusted types`);
  assert.equal(refused.fetch, 'TypeError', 'a request to another origin is refused');
  const violations = await page.evaluate(() => window.__violations);
  assert.ok(violations.some((v) => v.startsWith('connect-src')), `connect-src reported: ${violations}`);
  assert.equal(refused.style, 'refused', 'an injected <style> does not apply');
  assert.ok(violations.some((v) => v.startsWith('style-src')), `style-src reported: ${violations}`);
  // The refusals above are the only console errors, and the page is still alive.
  assert.deepEqual(problems.filter((p) => !/Content Security Policy|Trusted ?Type|TrustedHTML|TrustedScript|127\.0\.0\.2/i.test(p)), []);
  await typeKey(page, 'foo');
  assert.equal(await page.getByTestId('slot').textContent(), '12182');
  await context.close();
});

test('loading the page logs no warning, and fetches each wasm module once (its preload is the same request)', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  const warnings = [];
  const wasm = [];
  page.on('console', (m) => { if (m.type() === 'warning' || m.type() === 'error') warnings.push(m.text()); });
  page.on('request', (r) => { if (new URL(r.url()).pathname.endsWith('.wasm')) wasm.push(new URL(r.url()).pathname); });
  await page.goto(env.server.url);
  await page.locator('[data-testid=node-row]').first().waitFor();
  await page.waitForFunction(() => window.wasmBindings !== undefined);
  await page.waitForTimeout(500);
  // Chromium warned at every load of the `integrity` on Trunk's preload of the app's wasm,
  // which it does not apply to a preload `as="fetch"` (scripts/first.py takes it off).
  assert.deepEqual(warnings, []);
  assert.equal(wasm.length, 2, wasm.join(', '));
  assert.equal(new Set(wasm).size, 2, wasm.join(', '));
  await context.close();
});
