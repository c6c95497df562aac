//! Finding one's way: the sticky section bar (its links scroll to their sections and mark the
//! one being read), the sticky `key → slot → master` read-out, share links that open at a
//! section, no layout shift while a selection is dragged on the map, the phone's first screen,
//! and the smaller things (the CRC register under its card, long keys shortened, the slot
//! card's title).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedBrowser, openPage, typeKey, fillKey, redisSlot, linkSaved } from './harness.mjs';

const env = sharedBrowser();

const PLACES = ['key', 'map', 'planner', 'tags', 'redirections', 'bus', 'why'];
// The fixtures' cluster (cluster_nodes.txt): who serves which slots.
const OWNERS = [[0, 5460, '127.0.0.1:7000'], [5461, 10922, '127.0.0.1:7001'], [10923, 16383, '127.0.0.1:7002']];
const ownerOf = (slot) => OWNERS.find(([a, b]) => slot >= a && slot <= b)[2];

/** Where a section and the bar are, and which link is marked current. */
function where(page, id) {
  return page.evaluate((id) => {
    const bar = document.querySelector('.wayfinder').getBoundingClientRect();
    const el = document.getElementById(id);
    const current = [...document.querySelectorAll('[data-testid=section-nav] [aria-current]')].map((a) => a.dataset.section);
    const atBottom = Math.ceil(window.scrollY + window.innerHeight) >= document.documentElement.scrollHeight - 2;
    return { barTop: bar.top, barBottom: bar.bottom, top: el ? el.getBoundingClientRect().top : null, current, atBottom, y: window.scrollY };
  }, id);
}

/** Waits until section `id` sits just under the bar (or the page cannot scroll further). */
async function landed(page, id) {
  await page.waitForFunction((id) => {
    const bar = document.querySelector('.wayfinder').getBoundingClientRect();
    const top = document.getElementById(id).getBoundingClientRect().top;
    const atBottom = Math.ceil(window.scrollY + window.innerHeight) >= document.documentElement.scrollHeight - 2;
    return (top >= bar.bottom - 1 && top <= bar.bottom + 40) || (atBottom && top < window.innerHeight * 0.35);
  }, id, { timeout: 10000 }).catch(async (e) => {
    throw new Error(`#${id} did not land: ${JSON.stringify(await where(page, id))} (${e.message})`);
  });
  // Let the scroll events of the last frames be handled.
  await page.waitForTimeout(150);
}

test('each link of the section bar scrolls to its section and marks it as the one being read', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  const links = await page.getByTestId('section-nav').locator('a[data-section]').evaluateAll((as) =>
    as.map((a) => ({ section: a.dataset.section, href: a.getAttribute('href') })));
  assert.deepEqual(links.map((l) => l.section), PLACES);
  assert.deepEqual(links.map((l) => l.href), PLACES.map((p) => `#${p}`));
  // At the top, the first section is the current one.
  assert.deepEqual((await where(page, 'key')).current, ['key']);
  for (const id of PLACES.filter((p) => p !== 'key').concat(['key'])) {
    const exists = await page.evaluate((id) => document.getElementById(id) !== null, id);
    const before = await where(page, 'key');
    await page.getByTestId('section-nav').locator(`a[data-section="${id}"]`).click();
    if (!exists) {
      // The cluster bus's section is another branch's: without it the link does nothing.
      await page.waitForTimeout(300);
      assert.equal((await where(page, 'key')).y, before.y, `#${id} is missing, the page stays`);
      continue;
    }
    await landed(page, id);
    const got = await where(page, id);
    assert.equal(got.barTop, 0, 'the bar sticks to the top of the window');
    assert.deepEqual(got.current, [id], `after the link to #${id}`);
    // The address keeps the state and names the section (the top of the page is not named).
    await page.waitForFunction((id) => id === 'key' ? !location.hash.includes('&at=') : location.hash.endsWith(`&at=${id}`), id);
  }
  // Scrolling by hand moves the mark too.
  await page.evaluate(() => document.getElementById('planner').scrollIntoView());
  await page.waitForFunction(() => document.querySelector('[data-testid=section-nav] [aria-current]')?.dataset.section === 'planner');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the read-out follows the key, stays in view while scrolling, and leads back to the field', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  const readout = page.getByTestId('key-readout');
  for (const key of ['{user1}:profile', 'foo', '{user:1001}:orders']) {
    await typeKey(page, key);
    const slot = redisSlot(key);
    await page.waitForFunction((s) => document.querySelector('[data-testid=key-readout]').dataset.slot === String(s), slot);
    assert.equal(await readout.getAttribute('data-master'), ownerOf(slot));
    const text = await readout.textContent();
    assert.ok(text.includes(String(slot)) && text.includes(ownerOf(slot)), text);
    // The pipeline says the same.
    assert.equal(await page.getByTestId('slot').textContent(), String(slot));
  }
  for (const id of ['planner', 'why']) {
    await page.evaluate((id) => document.getElementById(id).scrollIntoView(), id);
    const box = await readout.boundingBox();
    assert.ok(box.y >= 0 && box.y + box.height <= 900, `read-out in view at #${id}: ${JSON.stringify(box)}`);
  }
  // The bar hides what scrolls under it with an opaque background, not a backdrop filter: the
  // compositor redrew a filter's backdrop in every frame that changed the read-out, each
  // keystroke's (issue 17).
  const bar = await page.locator('.wayfinder').evaluate((b) => {
    const s = getComputedStyle(b);
    return { backdrop: s.backdropFilter, background: s.backgroundColor };
  });
  assert.equal(bar.backdrop, 'none');
  assert.match(bar.background, /^rgb\(\d+, \d+, \d+\)$/, `the bar's background is opaque: ${bar.background}`);
  await readout.click();
  await landed(page, 'key');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'key-input');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a share link opens at the section it names, with its state; links without one open at the top', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await typeKey(page, '{user42}:cart');
  await page.getByTestId('scenario-select').selectOption('live-migration');
  await page.getByTestId('step-next').click();
  await page.getByTestId('step-next').click();
  await page.getByTestId('section-nav').locator('a[data-section="redirections"]').click();
  await landed(page, 'redirections');
  await page.waitForFunction(() => location.hash.startsWith('#s=1.') && location.hash.endsWith('&at=redirections'));
  await linkSaved(page);
  const link = await page.evaluate(() => location.href);
  // The Share button's link is the address.
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(env.server.url).origin });
  await page.getByTestId('share').click();
  await page.getByTestId('share-status').waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);

  // A fresh browser (no saved state) opens the link there, with its state.
  const { page: p2, context: c2, problems: pr2 } = await openPage(env.browser, link);
  await landed(p2, 'redirections');
  assert.deepEqual((await where(p2, 'redirections')).current, ['redirections']);
  assert.equal(await p2.getByTestId('key-input').inputValue(), '{user42}:cart');
  assert.equal(await p2.getByTestId('scenario-select').inputValue(), 'live-migration');
  assert.equal(await p2.getByTestId('timeline').getAttribute('data-step'), '2');
  assert.equal(await p2.getByTestId('restore-error').count(), 0);
  assert.deepEqual(pr2, []);
  await c2.close();

  // The same link without the section opens at the top; a bare #planner opens there.
  const { page: p3, context: c3, problems: pr3 } = await openPage(env.browser, link.replace('&at=redirections', ''));
  await p3.waitForTimeout(300);
  assert.equal(await p3.evaluate(() => window.scrollY), 0);
  assert.equal(await p3.getByTestId('scenario-select').inputValue(), 'live-migration');
  assert.deepEqual(pr3, []);
  await c3.close();
  const { page: p4, context: c4, problems: pr4 } = await openPage(env.browser, `${env.server.url}#planner`);
  await landed(p4, 'planner');
  assert.equal(await p4.getByTestId('restore-error').count(), 0);
  assert.deepEqual(pr4, []);
  await c4.close();
  // An old `#redirect=` link still opens its scenario.
  const { page: p5, context: c5, problems: pr5 } = await openPage(env.browser, `${env.server.url}#redirect=live-migration:3`);
  await p5.waitForFunction(() => document.querySelector('[data-testid=scenario-select]')?.value === 'live-migration');
  assert.equal(await p5.getByTestId('timeline').getAttribute('data-step'), '3');
  assert.deepEqual(pr5, []);
  await c5.close();
  assert.deepEqual(problems, []);
  await context.close();
});

test('dragging a selection on the map moves nothing on the page', async () => {
  for (const viewport of [{ width: 1280, height: 900 }, { width: 800, height: 900 }]) {
    const { page, context, problems } = await openPage(env.browser, env.server.url, viewport);
    const map = page.getByTestId('slot-map');
    await map.scrollIntoViewIfNeeded();
    const before = await map.boundingBox();
    const list = await page.locator('[data-testid=node-row]').first().boundingBox();
    await page.mouse.move(before.x + before.width * 0.2, before.y + before.height * 0.3);
    await page.mouse.down();
    await page.getByTestId('selection').waitFor();
    const during = await map.boundingBox();
    await page.mouse.move(before.x + before.width * 0.6, before.y + before.height * 0.5, { steps: 5 });
    const moved = await map.boundingBox();
    await page.mouse.up();
    assert.deepEqual(during, before, `map after pointer down at ${viewport.width} px`);
    assert.deepEqual(moved, before, `map while dragging at ${viewport.width} px`);
    // The masters' list (under the selection row) does not jump either.
    assert.deepEqual(await page.locator('[data-testid=node-row]').first().boundingBox(), list);
    assert.match(await page.getByTestId('selection').textContent(), /selected/);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('on a 390 px phone the first screen shows the slot and the master, and the map comes before the lab', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url, { width: 390, height: 844 });
  const readout = page.getByTestId('key-readout');
  const box = await readout.boundingBox();
  assert.ok(box.y >= 0 && box.y + box.height <= 844, `read-out on the first screen: ${JSON.stringify(box)}`);
  assert.equal(await readout.getAttribute('data-slot'), '8106');
  assert.equal(await readout.getAttribute('data-master'), '127.0.0.1:7001');
  // Its slot and master are drawn inside the screen, not cut off.
  for (const part of ['.key-readout__slot', '.key-readout__master']) {
    const b = await readout.locator(part).boundingBox();
    assert.ok(b.x >= 0 && b.x + b.width <= 390 && b.y + b.height <= 844, `${part}: ${JSON.stringify(b)}`);
  }
  // The key keeps room for several characters (the master's host gives way to it).
  const keyBox = await readout.locator('.key-readout__key').boundingBox();
  assert.ok(keyBox.width >= 60, `the key in the read-out is ${keyBox.width}px wide`);
  const mapTop = (await page.getByTestId('slot-map').boundingBox()).y;
  const labTop = (await page.getByTestId('add-master').boundingBox()).y;
  assert.ok(mapTop < labTop, `map at ${mapTop}, lab at ${labTop}`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the register opens under the CRC card, long keys are shortened, and the slot card is titled Slot', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  const titles = await page.locator('.stage__title').allTextContents();
  assert.equal(titles[3], 'Slot');
  await page.locator('.stage__more button').click();
  const reg = await page.locator('#crc-register').boundingBox();
  const crc = await page.locator('.stage').nth(2).boundingBox();
  const bytes = await page.locator('.stage').nth(0).boundingBox();
  assert.ok(reg.y >= crc.y + crc.height, 'below the CRC card');
  assert.ok(Math.abs(reg.x - crc.x) < 2, `starts under the CRC card (${reg.x} vs ${crc.x})`);
  assert.ok(reg.x > bytes.x + bytes.width, 'not under the Bytes card');
  await page.locator('.stage__more button').click();

  // A 64 KB key (pasted): every card keeps a reasonable height; "Show all" shows every byte.
  const long = 'k'.repeat(32 * 1024) + '{tag}' + 'v'.repeat(32 * 1024 - 5);
  await page.getByTestId('key-input').fill(long);
  await page.waitForFunction((s) => document.querySelector('[data-testid=slot]')?.textContent === String(s), redisSlot('{tag}'));
  const heights = await page.locator('.stage').evaluateAll((ss) => ss.map((s) => s.getBoundingClientRect().height));
  assert.ok(Math.max(...heights) < 420, `card heights ${heights}`);
  const shown = await page.getByTestId('key-bytes').textContent();
  assert.ok(shown.length < 80 && shown.includes('…'), shown);
  await page.locator('.stage').nth(0).getByRole('button').click();
  assert.equal((await page.getByTestId('key-bytes').textContent()).length, long.length);
  const after = await page.locator('.stage').nth(0).boundingBox();
  assert.ok(after.height < 600, `the opened card scrolls instead of growing: ${after.height}`);
  assert.equal(await page.getByTestId('hashed-part').textContent(), 'tag');
  assert.deepEqual(problems, []);
  await context.close();
});

// map18: the read-out gives way to the section links, and names masters that share a port.

/** Each section link: how much of it the bar shows (its box clipped by the link row's). */
function linksShown(page) {
  return page.evaluate(() => {
    const row = document.querySelector('.section-nav__list').getBoundingClientRect();
    return [...document.querySelectorAll('[data-testid=section-nav] a[data-section]')].map((a) => {
      const r = a.getBoundingClientRect();
      return { section: a.dataset.section, whole: r.left >= row.left - 0.5 && r.right <= row.right + 0.5 && a.scrollWidth <= a.clientWidth + 0.5 };
    });
  });
}

for (const lang of ['en', 'zh']) {
  test(`a long key is cut short in the read-out and the bar's links all show whole at 1280 (${lang})`, async () => {
    const { page, context, problems } = await openPage(env.browser, env.server.url);
    if (lang === 'zh') {
      await page.getByTestId('lang-select').selectOption('zh');
      await page.waitForFunction(() => document.documentElement.lang === 'zh-Hans');
    }
    const readout = page.getByTestId('key-readout');
    // Keys of bytes redis-cli prints as \xNN are the widest: 4 characters a byte.
    for (const key of ['{user1}:profile', 'k'.repeat(200), '\\xff'.repeat(300), 'k'.repeat(64 * 1024)]) {
      await fillKey(page, key);
      const shown = await linksShown(page);
      assert.deepEqual(shown.filter((l) => !l.whole), [], `links cut with a ${key.length}-character key`);
      const box = await readout.boundingBox();
      assert.ok(box.x + box.width <= 1280, `read-out inside the window: ${JSON.stringify(box)}`);
      // The key itself is cut with an ellipsis, never the slot or the master.
      const parts = await readout.evaluate((r) => [...r.querySelectorAll('.key-readout__slot, .key-readout__master code')]
        .map((e) => e.scrollWidth <= e.clientWidth + 0.5 || getComputedStyle(e).display === 'inline'));
      assert.ok(parts.every(Boolean), `slot and master drawn whole: ${parts}`);
    }
    // The tooltip and the accessible name carry the whole key (up to 1 KB).
    await page.getByTestId('key-input').fill('k'.repeat(200));
    await page.waitForFunction(() => document.querySelector('[data-testid=key-readout]').title.includes('k'.repeat(200)));
    assert.ok((await readout.getAttribute('aria-label')).includes('k'.repeat(200)));
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('on a phone the read-out names masters that share a port by their host, and still fits', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url, { width: 390, height: 844 });
  const readout = page.getByTestId('key-readout');
  // The fixtures' cluster: the ports differ, so the port names the master and the key keeps the room.
  assert.equal(await readout.locator('.key-readout__host').evaluate((h) => getComputedStyle(h).display), 'none');
  // Three masters on 10.0.0.1-3, all on port 6379 (CLUSTER NODES as Redis 7.0.15 writes it).
  const ids = ['a', 'b', 'c'].map((c) => c.repeat(40));
  const ranges = ['0-5460', '5461-10922', '10923-16383'];
  const text = ids.map((id, i) => `${id} 10.0.0.${i + 1}:6379@16379 ${i === 0 ? 'myself,' : ''}master - 0 1700000000000 ${i + 1} connected ${ranges[i]}`).join('\n') + '\n';
  await page.locator('.lab__import summary').click();
  await page.getByTestId('topology-input').fill(text);
  await page.getByTestId('topology-apply').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=key-readout]').dataset.master === '10.0.0.2:6379');
  for (const [key, host] of [['{user1}:profile', '10.0.0.2'], ['foo', '10.0.0.3'], ['hello', '10.0.0.1']]) {
    await typeKey(page, key);
    await page.waitForFunction((s) => document.querySelector('[data-testid=key-readout]').dataset.slot === String(s), redisSlot(key));
    // The port is the same for all three: the host is what tells them apart.
    const seen = await readout.locator('.key-readout__master').evaluate((m) => m.innerText);
    assert.equal(seen.trim(), host, `the read-out names ${key}'s master`);
    assert.equal(await readout.getAttribute('title'), `Your key ${key} is in slot ${redisSlot(key)}, served by ${host}:6379. Go to the key field.`);
    const b = await readout.locator('.key-readout__master').boundingBox();
    const r = await readout.boundingBox();
    assert.ok(b.x >= r.x && b.x + b.width <= r.x + r.width + 0.5 && r.x + r.width <= 390, `the master fits: ${JSON.stringify([b, r])}`);
  }
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
  assert.deepEqual(problems, []);
  await context.close();
});
