//! The guided tour, walked from start to end with the keyboard only, against the fixtures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sharedBrowser, openPage, fixtures, masterRows } from './harness.mjs';

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

/** The overlap in pixels between the tour panel and the element it marks (0: none). */
const overlap = (page) => page.evaluate(() => {
  const el = document.querySelector('[data-tour-spot]');
  const panel = document.querySelector('[data-testid=tour]');
  if (!el || !panel) return -1;
  const a = el.getBoundingClientRect();
  const b = panel.getBoundingClientRect();
  const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const h = Math.min(a.bottom, innerHeight, b.bottom) - Math.max(a.top, 0, b.top);
  return w > 0 && h > 0 ? Math.round(h) : 0;
});

/** Waits until the panel has been placed for good after a stop opened: it is placed again at
 * 60 and 400 ms, and the last placement marks the panel with the stop's id. */
const settle = (page) => page.waitForFunction(() => {
  const panel = document.querySelector('[data-testid=tour]');
  return panel && panel.dataset.settled === panel.dataset.stop;
}, null, { timeout: 10_000 });

/** Whether Back and Next are whole on screen and not hidden (inside the panel's own box). */
const buttonsReachable = (page) => page.evaluate(() => ['tour-back', 'tour-next'].every((id) => {
  const el = document.querySelector(`[data-testid=${id}]`);
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  return r.top >= 0 && r.bottom <= innerHeight && (hit === el || el.contains(hit));
}));

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
  for (let i = 1; i <= 6; i++) {
    assert.equal(await page.getByTestId('tour-progress').textContent(), `Stop ${i} of 6`);
    const stop = await tour.getAttribute('data-stop');
    seen.push(stop);
    await settle(page);
    assert.ok(await spotInView(page), `stop ${stop}: the part of the page it talks about is on screen`);
    // The panel is placed beside what it points at, never over it.
    assert.equal(await overlap(page), 0, `stop ${stop}: the panel covers its target`);
    assert.ok(await buttonsReachable(page), `stop ${stop}: Back and Next are on screen`);
    // Every quoted fact is in the fixture it names.
    for (const f of await page.getByTestId('tour-fact').evaluateAll((els) => els.map((e) => ({ file: e.dataset.file, quote: e.querySelector('pre').textContent })))) {
      const text = await readFile(join(fixtures, f.file), 'utf8');
      assert.ok(text.replaceAll('\t', '    ').includes(f.quote), `${stop}: ${JSON.stringify(f.quote)} not in ${f.file}`);
    }
    if (stop === 'why-16384') {
      // The default cluster has 6 nodes: 2·6·5/7.5 = 8 heartbeats a second, 8 × 2048 bytes.
      const body = await page.getByTestId('tour-body').textContent();
      assert.match(body, /has 6 nodes/);
      // The figures say which node timeout they assume: Redis's default, 15000 ms.
      assert.match(body, /cluster-node-timeout at 15000 ms, each node must ping every other at least every 7\.5 s/);
      assert.equal(await page.getByTestId('tour-node-timeout').inputValue(), '15000');
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
  // `<html lang>` names Chinese once every section speaks it (those out of view follow the
  // switch after its paint: src/ui/late_lang.rs).
  await page.waitForFunction(() => document.documentElement.lang === 'zh-Hans');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the first stop\'s figures follow the cluster-node-timeout the reader sets', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.getByTestId('tour-start').click();
  const body = page.getByTestId('tour-body');
  const field = page.getByTestId('tour-node-timeout');
  // The fixtures' failover clusters use 2000 ms (BUS.md): every peer pinged every NT/2 = 1 s,
  // each ping answered, 6 nodes: 2·6·5/1 = 60 heartbeats a second; 60 × 2048 B = 122,880 B
  // and 60 × 8192 B = 491,520 B.
  await field.fill('2000');
  await page.waitForFunction(() => /at least 60 heartbeats/.test(document.querySelector('[data-testid=tour-body]').textContent));
  let text = await body.textContent();
  assert.match(text, /cluster-node-timeout at 2000 ms, each node must ping every other at least every 1 s/);
  assert.match(text, /123 KB a second, and 492 KB with 65536/);
  assert.equal(await field.getAttribute('aria-invalid'), 'false');
  // Under 100 ms is refused: the field says so and the figures keep the last value Redis would take.
  await field.fill('50');
  await page.waitForFunction(() => document.querySelector('[data-testid=tour-node-timeout]').getAttribute('aria-invalid') === 'true');
  assert.equal(await body.textContent(), text);
  // An hour: every 1800 s, 2·6·5/1800 = 0.0333 heartbeats a second (68 bytes of bitmaps).
  await field.fill('3600000');
  await page.waitForFunction(() => /every 1800 s/.test(document.querySelector('[data-testid=tour-body]').textContent));
  assert.match(await body.textContent(), /at least 0\.033 heartbeats a second, so the bitmaps alone cost 68 B a second/);
  // In Chinese the figures and the value follow too; the value survives the switch.
  await field.fill('2000');
  await page.getByTestId('lang-select').selectOption('zh');
  await page.waitForFunction(() => /每秒至少 60 次心跳/.test(document.querySelector('[data-testid=tour-body]').textContent));
  text = await body.textContent();
  assert.match(text, /cluster-node-timeout 为 2000 毫秒时，每个节点至少每 1 秒/);
  assert.equal(await field.inputValue(), '2000');
  // The field belongs to the first stop only.
  await page.getByTestId('tour-next').click();
  assert.equal(await field.count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('each stop does what it describes, Back undoes it, and the reader can take over', async () => {
  for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
    const { page, context, problems } = await openPage(env.browser, env.server.url, viewport);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const before = await masterRows(page);
    assert.equal(before.length, 3);
    await page.getByTestId('tour-start').click();
    await settle(page);
    if (viewport.width === 1280) {
      // Stop 1's long text shows whole beside the map, and the panel leaves the section bar be.
      const cut = await page.locator('[data-testid=tour] .tour__scroll').evaluate((el) => el.scrollHeight - el.clientHeight);
      assert.ok(cut <= 1, `stop 1's text is cut by ${cut} px`);
      const gap = await page.evaluate(() => document.querySelector('[data-testid=tour]').getBoundingClientRect().top
        - document.querySelector('.wayfinder').getBoundingClientRect().bottom);
      assert.ok(gap >= 0, `the panel covers the section bar by ${-gap} px`);
    }
    await page.getByTestId('tour-next').click();
    // Stop 2 puts foo in the key field; Back puts the key that was there back.
    const key = await page.getByTestId('key-input').inputValue();
    assert.equal(key, 'foo');
    await page.getByTestId('tour-back').click();
    assert.notEqual(await page.getByTestId('key-input').inputValue(), 'foo');
    for (let i = 0; i < 3; i++) await page.getByTestId('tour-next').click();
    // Stop 4 splits the hot tag into 64 sub-tags through the experiment's own field: the keys
    // spread over the three masters as distribution.tsv's tags64 run recorded; Back restores.
    assert.equal(await page.getByTestId('tour').getAttribute('data-stop'), 'hot-spots');
    assert.equal(await page.getByTestId('hotspot-k').inputValue(), '64');
    const tsv = await readFile(join(fixtures, 'distribution.tsv'), 'utf8');
    const recorded = Object.fromEntries(tsv.split('\n').filter((l) => l.startsWith('tags64_user1_100k\tmaster\t'))
      .map((l) => l.split('\t')).map((c) => [c[2], c[5]]));
    const counts = await page.locator('[data-testid=hotspot-master]').evaluateAll((els) => Object.fromEntries(els.map((e) => [e.dataset.addr, e.dataset.count])));
    assert.deepEqual(counts, recorded);
    // On a wide window the panel stands beside the card, so its whole text shows.
    if (viewport.width === 1280) {
      const cut = await page.locator('[data-testid=tour] .tour__scroll').evaluate((el) => el.scrollHeight - el.clientHeight);
      assert.ok(cut <= 1, `the hot-spot stop's text is cut by ${cut} px`);
    }
    await page.getByTestId('tour-back').click();
    assert.equal(await page.getByTestId('hotspot-k').inputValue(), '1');
    await page.getByTestId('tour-next').click();
    await page.getByTestId('tour-next').click();
    assert.equal(await page.getByTestId('tour').getAttribute('data-stop'), 'resharding');
    // The resharding stop added an empty master and resharded 1000 slots to it (transcript 13).
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=node-row][data-role=master]').length === 4);
    const after = await masterRows(page);
    assert.equal(after[3].slots, '1000');
    await settle(page);
    assert.equal(await overlap(page), 0, `${viewport.width}px: the panel covers the map`);
    // The last stop opens the live migration and plays it.
    await page.getByTestId('tour-next').click();
    assert.equal(await page.getByTestId('scenario-select').inputValue(), 'live-migration');
    await page.waitForFunction(() => Number(document.querySelector('[data-testid=timeline]').dataset.step) > 0);
    await settle(page);
    assert.equal(await overlap(page), 0, `${viewport.width}px: the panel covers the diagram`);
    // Back: the player returns to where it was; the master stays (that stop is still on).
    await page.getByTestId('tour-back').click();
    assert.equal(await page.getByTestId('scenario-select').inputValue(), 'stale-route');
    assert.equal(await page.getByTestId('timeline').getAttribute('data-step'), '0');
    assert.equal((await masterRows(page)).length, 4);
    // Back again: the reshard and the added master are undone.
    await page.getByTestId('tour-back').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=node-row][data-role=master]').length === 3);
    assert.deepEqual(await masterRows(page), before);
    // Forward again does it again; "Take it from here" leaves the page as it is.
    await page.getByTestId('tour-next').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=node-row][data-role=master]').length === 4);
    await page.getByTestId('tour-take-over').click();
    await page.getByTestId('tour').waitFor({ state: 'detached' });
    assert.equal((await masterRows(page)).length, 4);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('on a 390 px phone, in both languages, every stop keeps Back and Next on screen and its target uncovered', async () => {
  for (const lang of ['en', 'zh']) {
    const { page, context, problems } = await openPage(env.browser, env.server.url, { width: 390, height: 844 });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    if (lang === 'zh') await page.getByTestId('lang-select').selectOption('zh');
    await page.getByTestId('tour-start').click();
    const tour = page.getByTestId('tour');
    await tour.waitFor();
    for (let i = 1; i <= 6; i++) {
      const stop = await tour.getAttribute('data-stop');
      await settle(page);
      assert.ok(await spotInView(page), `${lang} stop ${stop}: its target is on screen`);
      assert.equal(await overlap(page), 0, `${lang} stop ${stop}: the panel covers its target`);
      assert.ok(await buttonsReachable(page), `${lang} stop ${stop}: Back and Next are on screen`);
      if (i < 6) await page.getByTestId('tour-next').click();
    }
    assert.deepEqual(problems, []);
    await context.close();
  }
});
