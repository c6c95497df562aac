//! A seeded "monkey": hundreds of random but reproducible clicks, selections and typed strings
//! (escapes, braces, huge numbers, garbage pastes) all over the page. The page must never
//! panic (a Rust panic aborts the wasm: a page error) nor log a console error.
//! Seeds 1-3 run in the suite; `MONKEY_SEEDS=4,5,6 node --test monkey.test.mjs` tries others.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedBrowser, openPage } from './harness.mjs';

const env = sharedBrowser();

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
    for (let i = 0; i < 150 && problems.length === 0; i++) {
      const kind = r();
      try {
        if (kind < 0.35) {
          const buttons = await page.locator('button:visible').all();
          if (buttons.length) await pick(buttons).click({ timeout: 2000 });
        } else if (kind < 0.7) {
          const fields = await page.locator('input[type=text]:visible, input[type=number]:visible, textarea:visible:not([readonly])').all();
          if (fields.length) await pick(fields).fill(pick(NASTY), { timeout: 2000 });
        } else if (kind < 0.85) {
          const selects = await page.locator('select:visible').all();
          if (selects.length) {
            const s = pick(selects);
            const values = await s.locator('option').evaluateAll((os) => os.map((o) => o.value));
            if (values.length) await s.selectOption(pick(values), { timeout: 2000 });
          }
        } else {
          const canvas = page.getByTestId('slot-map');
          await canvas.focus();
          await page.keyboard.press(pick(['ArrowRight', 'ArrowDown', 'Shift+ArrowRight', 'End', 'Home', 'Escape', 'PageDown']));
        }
      } catch (e) {
        // An element that moved or disappeared between finding and acting is not a bug; a
        // page error or console error is, and is collected in `problems`.
        if (!/Timeout|detached|not attached|not visible|outside of the viewport|not an HTMLSelectElement|disabled|Cannot type text into input\[type=number\]|Malformed value/i.test(String(e))) throw e;
      }
    }
    assert.deepEqual(problems, [], `seed ${seed}`);
    // Still alive: typing a key still answers.
    await page.getByTestId('key-input').fill('foo');
    assert.equal(await page.getByTestId('slot').textContent(), '12182');
    await context.close();
  });
}
