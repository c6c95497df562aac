//! A seeded "monkey": hundreds of random but reproducible clicks, selections and typed strings
//! (escapes, braces, huge numbers, garbage pastes) all over the page. The page must never
//! panic (a Rust panic aborts the wasm: a page error) nor log a console error.
//! Seeds 1-3 run in the suite; `MONKEY_SEEDS=4,5,6 node --test monkey.test.mjs` tries others.
//! Every action that times out must be explained: either Playwright's call log says why the
//! element could not be used (it went away, was hidden or disabled, moved, or something lay
//! over it), or the element was ready and the page was busy, in which case it must answer a
//! script within 5 s. A page that stops answering, or any other failure, fails the run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedBrowser, openPage, fillKey } from './harness.mjs';

const env = sharedBrowser();

/**
 * Why an action may time out without a fault in the page, as Playwright's call log words it:
 * the element found a moment ago was replaced, hidden, disabled, animated or covered.
 */
const EXPECTED_WAIT = /element is not attached|element was detached|not attached to the DOM|element is not visible|element is not enabled|element is not editable|element is not stable|intercepts pointer events|outside of the viewport/;

/**
 * The element was ready (visible, enabled, stable, in view) and the action itself did not
 * finish: the page's one thread was busy (a big cluster, a loaded machine). Allowed only if
 * the page answers again soon after.
 */
const BUSY = /element is visible, enabled and (stable|editable)[\s\S]*(done scrolling|performing (click|fill|select) action)/;

/** Errors Playwright throws at once (no wait) for input the element cannot take. */
const EXPECTED_REFUSAL = /not an HTMLSelectElement|Cannot type text into input\[type=number\]|Malformed value|Element is not attached to the DOM/;

/** Resolves true if the page runs a script within `ms`; a busy or dead page resolves false. */
async function answers(page, ms = 3000) {
  let timer;
  const late = new Promise((ok) => { timer = setTimeout(() => ok(false), ms); });
  try {
    return await Promise.race([page.evaluate(() => true).catch(() => false), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** mulberry32: a small seeded PRNG, so a failure can be replayed with its seed. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NASTY = ['', ' ', '0', '-1', '16384', '99999999999999999999', '1e3', 'NaN', '{', '}', '{}', '\\', '\\x', '\\xZZ',
  '"', '"unclosed', '\'', '%d', '%d%d', 'user:%d', '{a}{b}', '用户', '😀', '@', '@127.0.0.1:7001', 'MULTI', 'EXEC',
  'EVAL "return 1" 999 a', 'CLUSTER SETSLOT 5712 NODE x', 'MIGRATE', '<b>x</b>', 'x'.repeat(5000),
  'd3bede0cd4ba07708f552c2e44e8211e0d571a39 127.0.0.1:7000@17000 master - 0 0 1 connected 0-99999'];

for (const seed of (process.env.MONKEY_SEEDS ?? "1,2,3").split(",").map(Number)) {
  test(`monkey, seed ${seed}: 150 random actions, no panic, no console error`, async () => {
    const r = rng(seed);
    const pick = (xs) => xs[Math.floor(r() * xs.length)];
    const { page, context, problems } = await openPage(env.browser, env.server.url);
    page.setDefaultTimeout(5000);
    let waited = 0;
    let busy = 0;
    for (let i = 0; i < 150 && problems.length === 0; i++) {
      const kind = r();
      let action = '';
      try {
        if (kind < 0.35) {
          const buttons = await page.locator('button:visible:enabled').all();
          action = 'click a button';
          if (buttons.length) await pick(buttons).click({ timeout: 3000 });
        } else if (kind < 0.7) {
          const fields = await page.locator('input[type=text]:visible:enabled, input[type=number]:visible:enabled, textarea:visible:enabled:not([readonly])').all();
          const text = pick(NASTY);
          action = `fill a field with ${JSON.stringify(text.slice(0, 40))}`;
          if (fields.length) await pick(fields).fill(text, { timeout: 3000 });
        } else if (kind < 0.85) {
          const selects = await page.locator('select:visible:enabled').all();
          if (selects.length) {
            const s = pick(selects);
            const values = await s.locator('option').evaluateAll((os) => os.map((o) => o.value));
            const value = pick(values);
            action = `select ${JSON.stringify(value)}`;
            if (values.length) await s.selectOption(value, { timeout: 3000 });
          }
        } else {
          const canvas = page.getByTestId('slot-map');
          const key = pick(['ArrowRight', 'ArrowDown', 'Shift+ArrowRight', 'End', 'Home', 'Escape', 'PageDown']);
          action = `press ${key} on the map`;
          await canvas.focus();
          await page.keyboard.press(key);
        }
      } catch (e) {
        const text = String(e);
        // A page error or console error is collected in `problems`. An element that went
        // away, or could not take the input, between finding it and acting on it is not a
        // bug; any other failure, or a timeout with no such reason, is.
        const timeout = e?.name === 'TimeoutError';
        const explained = timeout ? EXPECTED_WAIT.test(text) || BUSY.test(text) : EXPECTED_REFUSAL.test(text);
        if (!explained) throw new Error(`seed ${seed}, action ${i} (${action}): ${text}`);
        if (timeout) {
          if (BUSY.test(text) && !EXPECTED_WAIT.test(text)) busy++; else waited++;
          assert.ok(await answers(page, 5000), `seed ${seed}, action ${i} (${action}): the page stopped answering after\n${text}`);
        }
      }
    }
    console.log(`# seed ${seed}: of 150 actions, ${waited} waited out an element that moved away, ${busy} a busy page that answered again`);
    assert.deepEqual(problems, [], `seed ${seed}`);
    // Still alive: typing a key still answers.
    await fillKey(page, 'foo');
    assert.equal(await page.getByTestId('slot').textContent(), '12182');
    await context.close();
  });
}
