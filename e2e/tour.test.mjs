//! The guided tour, walked from start to end with the keyboard only, against the fixtures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sharedBrowser, openPage, fixtures } from './harness.mjs';

const env = sharedBrowser();

/** Presses Tab until the focused element has test id `id`; fails after `max` presses. */
async function tabTo(page, id, max = 40, key = 'Tab') {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    const at = await page.evaluate(() => document.activeElement?.dataset?.testid ?? '');
    if (at === id) return i + 1;
  }
  throw new Error(`${key} never reached ${id} in ${max} presses`);
}

const focused = (page) => page.evaluate(() => document.activeElement?.dataset?.testid ?? document.activeElement?.tagName);

/** Whether the element the tour marks is on screen. */
const spotInView = (page) => page.evaluate(() => {
  const el = document.querySelector('[data-tour-spot]');
  if (!el) return false;
  const r = el.getBoundingClientRect();
  return r.bottom > 0 && r.top < window.innerHeight;
});

test('the tour runs from the first stop to the last by keyboard alone', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const start = await tabTo(page, 'tour-start');
  assert.ok(start <= 3, `the tour button is among the first things Tab reaches (took ${start})`);
  await page.keyboard.press('Enter');
  const tour = page.getByTestId('tour');
  await tour.waitFor();
  assert.equal(await focused(page), 'tour-next', 'focus lands on Next, so Enter walks the tour');

  const seen = [];
  const buttonBoxes = new Set();
  for (let i = 1; i <= 6; i++) {
    assert.equal(await page.getByTestId('tour-progress').textContent(), `Stop ${i} of 6`);
    const stop = await tour.getAttribute('data-stop');
    seen.push(stop);
    assert.ok(await spotInView(page), `stop ${stop}: the part of the page it talks about is on screen`);
    // Back and Next do not move between stops.
    const b = await page.getByTestId('tour-next').boundingBox();
    buttonBoxes.add(`${Math.round(b.x)},${Math.round(b.y)}`);
    // Every quoted fact is in the fixture it names.
    for (const f of await page.getByTestId('tour-fact').evaluateAll((els) => els.map((e) => ({ file: e.dataset.file, quote: e.querySelector('pre').textContent })))) {
      const text = await readFile(join(fixtures, f.file), 'utf8');
      assert.ok(text.replaceAll('\t', '    ').includes(f.quote), `${stop}: ${JSON.stringify(f.quote)} not in ${f.file}`);
    }
    if (stop === 'why-16384') {
      // The default cluster has 6 nodes: 2·6·5/7.5 = 8 heartbeats a second, 8 × 2048 bytes.
      const body = await page.getByTestId('tour-body').textContent();
      assert.match(body, /has 6 nodes/);
      assert.match(body, /at least 8 heartbeats a second/);
      assert.match(body, /16\.4 KB a second, and 65\.5 KB with 65536/);
    }
    if (stop === 'key-to-slot') {
      assert.equal(await page.getByTestId('key-input').inputValue(), 'foo');
      assert.equal(await page.getByTestId('slot').textContent(), '12182'); // transcript 02
      assert.equal(await page.getByTestId('node').first().textContent(), '127.0.0.1:7002');
    }
    if (stop === 'hash-tags') {
      assert.equal(await page.getByTestId('slot').textContent(), '3300'); // transcript 01
      assert.equal(await page.getByTestId('hashed-part').textContent(), 'b');
    }
    if (i === 3) {
      // Back once and forward again, still without the mouse.
      await page.keyboard.press('Shift+Tab');
      assert.equal(await focused(page), 'tour-back');
      await page.keyboard.press('Enter');
      assert.equal(await page.getByTestId('tour-progress').textContent(), 'Stop 2 of 6');
      assert.equal(await focused(page), 'tour-next');
      await page.keyboard.press('Enter');
      assert.equal(await page.getByTestId('tour-progress').textContent(), 'Stop 3 of 6');
    }
    if (i === 4) {
      // Escape leaves the tour with the page as it is; the tour button resumes at this stop.
      await page.keyboard.press('Escape');
      await tour.waitFor({ state: 'detached' });
      assert.equal(await focused(page), 'tour-start');
      assert.equal(await page.getByTestId('tour-start').textContent(), 'Resume tour (stop 4)');
      await page.keyboard.press('Enter');
      await tour.waitFor();
      assert.equal(await page.getByTestId('tour-progress').textContent(), 'Stop 4 of 6');
    }
    if (i < 6) assert.equal(await page.getByTestId('tour-next').textContent(), 'Next');
    else assert.equal(await page.getByTestId('tour-next').textContent(), 'Finish');
    await page.keyboard.press('Enter');
  }
  assert.deepEqual(seen, ['why-16384', 'key-to-slot', 'hash-tags', 'hot-spots', 'resharding', 'moved-vs-ask']);
  assert.equal(buttonBoxes.size, 1, `Next stayed in one place: ${[...buttonBoxes]}`);
  await tour.waitFor({ state: 'detached' });
  assert.equal(await page.getByTestId('tour-start').textContent(), 'Guided tour');
  assert.equal(await page.locator('[data-tour-spot]').count(), 0, 'the mark is cleared');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the tour speaks Chinese when the page does, and counts the nodes of the cluster shown', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.getByTestId('cluster-select').selectOption('create');
  await page.getByTestId('n-masters').fill('10');
  await page.getByTestId('tour-start').click();
  // 10 masters, no replicas: 2·10·9/7.5 = 24 heartbeats a second.
  assert.match(await page.getByTestId('tour-body').textContent(), /has 10 nodes.*at least 24 heartbeats/);
  await page.getByTestId('lang-select').selectOption('zh');
  assert.equal(await page.getByTestId('tour-progress').textContent(), '第 1 站，共 6 站');
  assert.equal(await page.getByTestId('tour-next').textContent(), '下一站');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-Hans');
  assert.deepEqual(problems, []);
  await context.close();
});
