//! Accessibility: axe-core (WCAG 2.x A and AA, plus a few best-practice rules) finds nothing on
//! any view in either language and either colour scheme; the keyboard reaches every control with
//! a visible focus ring; the slot map has a complete text alternative; the pipeline's result is
//! announced; reduced motion stops every animation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { sharedBrowser, openPage, typeKey, masterRows } from './harness.mjs';

const env = sharedBrowser();
const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** WCAG 2.0-2.2 A and AA, and the best-practice rules about structure a screen reader relies on. */
const AXE_OPTIONS = {
  runOnly: {
    type: 'tag',
    values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa', 'best-practice'],
  },
  resultTypes: ['violations'],
};

/**
 * Runs axe on the whole page. Its source is evaluated through the DevTools protocol, which the
 * page's CSP does not govern; nothing is added to the document.
 */
async function axe(page) {
  // Colours ease between schemes and states (CSS transitions): measure contrast only once they
  // have arrived, or a half-way background reads as a violation.
  await page.waitForFunction(() => document.getAnimations()
    .every((a) => !(a instanceof CSSTransition) || a.playState !== 'running'), null, { timeout: 10_000 });
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(axeSource);
  return page.evaluate(async (options) => {
    const r = await window.axe.run(document, options);
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary })),
    }));
  }, AXE_OPTIONS);
}

function report(where, violations) {
  return `${where}: ${violations.length} axe violation(s)\n` + violations.map((v) =>
    `- ${v.id} (${v.impact}): ${v.help}\n` + v.nodes.slice(0, 8).map((n) =>
      `    ${n.target}\n      ${(n.summary ?? '').replace(/\n/g, '\n      ')}`).join('\n') +
    (v.nodes.length > 8 ? `\n    … and ${v.nodes.length - 8} more` : '')).join('\n');
}

/** Waits for the slot map's change animation (and any CSS transition) to finish. */
const settle = (page) => page.waitForTimeout(1800);

/** Adds an empty master (127.0.0.1:7006) and reshards 1000 slots to it from all masters. */
async function addMasterAndReshard(page) {
  await page.getByTestId('add-master').click();
  await page.getByTestId('reshard-slots').fill('1000');
  await page.getByTestId('reshard-from').selectOption('all');
  await page.getByTestId('reshard-to').selectOption({ label: '127.0.0.1:7006' });
  await page.getByTestId('reshard').click();
  await page.getByTestId('last-change').waitFor();
}

/** Every view state the issue names, in one walk; `check(name)` runs axe at each. */
async function walk(page, check) {
  await check('initial page');
  await typeKey(page, 'a\\xZZ');
  await page.getByRole('alert').first().waitFor();
  await check('pipeline with a malformed key');
  await typeKey(page, '{user1}:profile');
  await page.locator('.stage__more button').click();
  await check('pipeline with the CRC register open');
  await addMasterAndReshard(page);
  await settle(page);
  await check('topology lab after adding a master and a reshard');
  await page.getByTestId('map-ranges').locator('summary').click();
  await page.getByTestId('slot-map').focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowRight');
  await page.getByTestId('selection').waitFor();
  await check('map focused with a selection and its text alternative open');
  await page.locator('[data-testid=node-row][data-addr="127.0.0.1:7001"] button').first().click();
  await settle(page);
  await check('after a failover');
  await page.locator('.lab__import summary').click();
  await page.getByTestId('topology-input').fill('not cluster nodes output');
  await page.getByTestId('topology-apply').click();
  await page.getByTestId('topology-error').waitFor();
  await check('topology lab with an import error');
  await page.getByTestId('command-select').selectOption('MGET');
  await page.getByTestId('batch-input').fill('{user1}:a\n{user1}:b\nfoo');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=plan]').length === 4);
  await check('planner with a result');
  await page.getByTestId('tag-template').fill('routing:v1:%d');
  await page.getByTestId('tags-per-master').fill('4');
  await page.getByTestId('hotspot-k').fill('64');
  await page.waitForTimeout(300);
  await check('tag generator and hot spot');
  await page.getByTestId('scenario-select').selectOption('live-migration');
  for (let i = 0; i < 3; i++) await page.getByTestId('step-next').click();
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=timeline]').dataset.step) === 3);
  await settle(page);
  await check('redirections mid-scenario');
  await page.getByTestId('free-command-input').fill('SET foo bar');
  await page.getByTestId('free-send').click();
  await page.getByTestId('free-replies').waitFor();
  await check('free mode after a command');
  await page.locator('#cmp-n').fill('9');
  await page.waitForTimeout(300);
  await check('compare view');
  await page.locator('#cmp-n').fill('0');
  await page.locator('.compare [role=alert]').waitFor();
  await check('compare view with an error');
  await page.getByTestId('cluster-select').selectOption('create');
  await page.getByTestId('n-masters').fill('20');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=node-row][data-role=master]').length === 20);
  await settle(page);
  await check('a created cluster of 20 masters (the legend scrolls)');
  await page.getByTestId('n-masters').fill('0');
  await page.locator('.cluster-picker [role=alert]').waitFor();
  await check('a refused master count');
  await page.getByTestId('n-masters').fill('2');
  await page.getByTestId('cluster-refusal').waitFor();
  await check('redis-cli refusing a cluster of 2 masters');
}

for (const colorScheme of ['light', 'dark']) {
  for (const lang of ['en', 'zh']) {
    test(`axe finds no violations: ${colorScheme} scheme, ${lang}`, async () => {
      const { page, context, problems } = await openPage(env.browser, env.server.url);
      await page.emulateMedia({ colorScheme });
      if (lang !== 'en') {
        await page.getByTestId('lang-select').selectOption(lang);
        await page.waitForFunction((l) => document.documentElement.lang.startsWith(l), lang);
      }
      const failures = [];
      await walk(page, async (where) => {
        const v = await axe(page);
        if (v.length > 0) failures.push(report(`${colorScheme}/${lang}: ${where}`, v));
      });
      assert.equal(failures.length, 0, '\n' + failures.join('\n\n'));
      assert.deepEqual(problems, []);
      await context.close();
    });
  }
}

/** sRGB relative luminance and WCAG contrast of two `rgb(…)` strings. */
function contrast(a, b) {
  const lum = (c) => {
    const [r, g, bl] = c.match(/[\d.]+/g).slice(0, 3).map(Number).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

/** What has the focus, and its focus ring as computed. */
const focused = (page) => page.evaluate(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const cs = getComputedStyle(el);
  const card = el.closest('.card, .stage') ?? document.body;
  const bg = getComputedStyle(card).backgroundColor;
  return {
    key: el.dataset.testid ?? (el.id || `${el.tagName.toLowerCase()}.${el.className}`),
    tag: el.tagName.toLowerCase(),
    outlineStyle: cs.outlineStyle,
    outlineWidth: parseFloat(cs.outlineWidth),
    outlineColor: cs.outlineColor,
    // Cards are opaque; an element outside one sits on the page's paper.
    background: bg === 'rgba(0, 0, 0, 0)' ? getComputedStyle(document.documentElement).backgroundColor : bg,
  };
});

for (const colorScheme of ['light', 'dark']) {
  test(`keyboard (${colorScheme}): Tab reaches every part of the page, each stop with a visible focus ring`, async () => {
    const { page, context, problems } = await openPage(env.browser, env.server.url);
    await page.emulateMedia({ colorScheme });
    const seen = [];
    for (let i = 0; i < 400; i++) {
      await page.keyboard.press('Tab');
      const f = await focused(page);
      if (f === null) break;
      if (seen.length > 0 && f.key === seen[0].key && f.tag === seen[0].tag) break;
      seen.push(f);
    }
    const keys = seen.map((f) => f.key);
    for (const want of ['lang-select', 'key-input', 'slot-map', 'cluster-select', 'add-master', 'reshard',
      'batch-input', 'tag-template', 'hotspot-k', 'scenario-select', 'step-next', 'timeline',
      'free-command-input', 'cmp-n']) {
      assert.ok(keys.includes(want), `Tab never reached ${want}; reached: ${keys.join(', ')}`);
    }
    assert.ok(keys.some((k) => k.startsWith('div.redir__player')), 'Tab reaches the redirection player');
    const bad = seen.filter((f) => f.outlineStyle === 'none' || f.outlineWidth < 2 ||
      contrast(f.outlineColor, f.background) < 3);
    assert.deepEqual(bad, [], 'every focus stop has a 2px+ outline with 3:1 contrast against its background');
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('keyboard: the map\'s arrow keys move the readout; Space on a player button presses only it', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await typeKey(page, '{user1}:profile');
  const slot = Number(await page.getByTestId('slot').textContent());
  const readout = page.locator('#slot-map-readout');
  const readSlot = async () => Number((await readout.textContent()).match(/Slot (\d+)/)[1]);
  await page.getByTestId('slot-map').focus();
  assert.equal(await readSlot(), slot, 'focus puts the cursor on the key\'s slot');
  const moves = [['ArrowRight', slot + 1], ['ArrowDown', slot + 1 + 128], ['ArrowLeft', slot + 128],
    ['ArrowUp', slot], ['PageDown', slot + 8 * 128], ['End', 16383], ['Home', 0], ['ArrowUp', 0]];
  for (const [key, want] of moves) {
    await page.keyboard.press(key);
    assert.equal(await readSlot(), want, `after ${key}`);
  }
  assert.match(await readout.textContent(), /^Slot 0 · 127\.0\.0\.1:7000 · 0-5460/);
  // The player's own keys must not steal a key from a button inside it.
  const step = async () => Number(await page.getByTestId('timeline').getAttribute('data-step'));
  await page.getByTestId('step-next').focus();
  await page.keyboard.press('Space');
  await page.waitForFunction(() => document.querySelector('[data-testid=timeline]').dataset.step === '1');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=timeline]').dataset.step === '2');
  assert.equal(await page.getByTestId('pause').count(), 0, 'Space pressed the button; it did not start playing');
  assert.equal(await step(), 2);
  // Each step is narrated in a polite live region.
  const narration = page.getByTestId('narration');
  assert.equal(await narration.getAttribute('aria-live'), 'polite');
  const said = await narration.textContent();
  await page.getByTestId('step-next').click();
  await page.waitForFunction((s) => document.querySelector('[data-testid=narration]').textContent !== s, said);
  assert.deepEqual(problems, []);
  await context.close();
});

/** The text alternative's items: address → ranges as listed ("0-5460, 5461" → ['0-5460', '5461']). */
async function listedRanges(page) {
  const details = page.getByTestId('map-ranges');
  if (!(await details.evaluate((d) => d.open))) await details.locator('summary').click();
  return details.locator('li').evaluateAll((items) => items.map((li) => li.textContent));
}

test('the slot map\'s text alternative lists every range of every master, before and after a reshard', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  const map = page.getByTestId('slot-map');
  assert.equal(await map.getAttribute('aria-details'), 'slot-map-ranges');
  assert.equal(await page.locator('#slot-map-ranges').getAttribute('data-testid'), 'map-ranges');
  assert.deepEqual(await listedRanges(page), [
    '127.0.0.1:7000, 5461 slots: 0-5460',
    '127.0.0.1:7001, 5462 slots: 5461-10922',
    '127.0.0.1:7002, 5461 slots: 10923-16383',
  ]);
  await addMasterAndReshard(page);
  const items = await listedRanges(page);
  // The legend's rows carry every range as data; the text alternative says the same in words.
  const rows = await masterRows(page);
  assert.equal(items.length, 4);
  assert.deepEqual(items, rows.map((r) => `${r.addr}, ${r.slots} slots: ${r.ranges.split(',').join(', ')}`));
  // Together they cover 0-16383 once.
  const covered = new Uint8Array(16384);
  for (const item of items) {
    for (const r of item.split(': ')[1].split(', ')) {
      const [a, b = a] = r.split('-').map(Number);
      for (let s = a; s <= b; s++) covered[s]++;
    }
  }
  assert.ok(covered.every((c) => c === 1), 'every slot listed exactly once');
  assert.equal(rows.find((r) => r.addr === '127.0.0.1:7006').slots, '1000');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the pipeline\'s result is announced once typing pauses, as one short sentence', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  const live = page.getByTestId('pipeline-summary');
  assert.equal(await live.getAttribute('aria-live'), 'polite');
  await page.evaluate(() => {
    window.__changes = 0;
    new MutationObserver(() => window.__changes++).observe(
      document.querySelector('[data-testid=pipeline-summary]'), { childList: true, characterData: true, subtree: true });
  });
  const before = await live.textContent();
  const key = 'session:2026-11-30:abcdef';
  await typeKey(page, key);
  const { slot, node } = { slot: await page.getByTestId('slot').textContent(), node: await page.getByTestId('node').textContent() };
  await page.waitForFunction((want) => document.querySelector('[data-testid=pipeline-summary]').textContent === want,
    `Slot ${slot}, master ${node}`);
  assert.notEqual(await live.textContent(), before, 'the new key lands in another slot');
  const changes = await page.evaluate(() => window.__changes);
  assert.ok(changes >= 1 && changes <= 3, `${key.length} keystrokes made ${changes} announcements`);
  // The summary is for screen readers only: clipped to one pixel.
  const box = await live.boundingBox();
  assert.ok(box.width <= 1 && box.height <= 1);
  assert.deepEqual(problems, []);
  await context.close();
});

/** Colours of the base canvas at the centre of each of `slots`, as `r,g,b`. */
const pixels = (page, slots) => page.evaluate(async (slots) => {
  await new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)));
  const canvas = document.querySelector('[data-testid=slot-map]');
  const ctx = canvas.getContext('2d');
  const cell = canvas.width / 128;
  return slots.map((s) => Array.from(ctx.getImageData(Math.floor((s % 128 + 0.5) * cell), Math.floor((Math.floor(s / 128) + 0.5) * cell), 1, 1).data.slice(0, 3)).join(','));
}, slots);

/** A CSS colour as the canvas paints it, `r,g,b`. */
const painted = (page, colour) => page.evaluate((colour) => {
  const c = document.createElement('canvas');
  c.width = c.height = 1;
  const ctx = c.getContext('2d');
  ctx.fillStyle = colour;
  ctx.fillRect(0, 0, 1, 1);
  return Array.from(ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)).join(',');
}, colour);

/** Adds a master, reshards 1000 slots to it; returns the moved slots and its colour as painted. */
async function reshardToNewMaster(page) {
  await addMasterAndReshard(page);
  const row = page.locator('[data-testid=node-row][data-addr="127.0.0.1:7006"]');
  const slots = [];
  for (const r of (await row.getAttribute('data-ranges')).split(',')) {
    const [a, b = a] = r.split('-').map(Number);
    for (let s = a; s <= b; s++) slots.push(s);
  }
  const colour = await row.locator('.swatch').evaluate((s) => getComputedStyle(s).backgroundColor);
  return { slots, colour: await painted(page, colour) };
}

for (const reducedMotion of ['reduce', 'no-preference']) {
  test(`reduced motion = ${reducedMotion}: ${reducedMotion === 'reduce' ? 'nothing moves; the map and the arrows jump to their end' : 'the control: the same checks see motion'}`, async () => {
    const { page, context, problems } = await openPage(env.browser, env.server.url);
    await page.emulateMedia({ reducedMotion });
    const reduce = reducedMotion === 'reduce';
    const durations = await page.evaluate(() => {
      const moving = [];
      for (const el of document.querySelectorAll('*')) {
        for (const pseudo of [null, '::before', '::after']) {
          const cs = getComputedStyle(el, pseudo);
          const ds = [...cs.transitionDuration.split(','), ...cs.animationDuration.split(',')].map(parseFloat);
          if (ds.some((d) => d > 0)) moving.push(`${el.tagName.toLowerCase()}.${el.className}${pseudo ?? ''}`);
        }
      }
      return moving;
    });
    if (reduce) assert.deepEqual(durations, [], 'no transition or animation has a duration');
    else assert.ok(durations.length > 0, 'without the preference some elements do transition');

    const { slots, colour } = await reshardToNewMaster(page);
    const now = await pixels(page, slots);
    const repainted = now.filter((p) => p === colour).length;
    if (reduce) assert.equal(repainted, slots.length, 'every moved slot is in its new colour at once');
    else assert.ok(repainted < slots.length, `the change animates (${repainted} of ${slots.length} repainted two frames in)`);

    await page.getByTestId('scenario-select').selectOption('live-migration');
    await page.getByTestId('step-next').click();
    await page.locator('.seq__arrow--current .seq__shaft').waitFor({ state: 'attached' });
    const arrow = await page.locator('.seq__arrow--current .seq__shaft').evaluate((s) => ({
      duration: parseFloat(getComputedStyle(s).animationDuration),
    }));
    if (reduce) {
      assert.equal(arrow.duration, 0);
      const offset = await page.locator('.seq__arrow--current .seq__shaft').evaluate((s) => getComputedStyle(s).strokeDashoffset);
      assert.equal(offset, '0px', 'the current arrow is drawn whole');
      const running = await page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running').length);
      assert.equal(running, 0);
    } else {
      assert.ok(arrow.duration > 0);
    }
    assert.deepEqual(problems, []);
    await context.close();
  });
}
