//! Long lists render only the rows in view (issue 17): the node list at 1000 masters and the
//! planner's 2,000 verdicts (its line limit), answered a task after the frame that shows their text. Scrolled anywhere, the rows shown are the right ones — every
//! master once, with the slots the cluster gives it; every pasted line with its own slot,
//! checked with the tests' own `redisSlot`. The masters' `<select>`s at 1000 masters hold their whole list only
//! while the reader is at them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedBrowser, openPage, redisSlot } from './harness.mjs';

const env = sharedBrowser();

/**
 * The slots `redis-cli --cluster create` gives each of `n` masters, written from its source
 * (redis-cli.c 7.0, clusterManagerCommandCreate: single-precision `float` slots per node and
 * cursor, `last = lround(cursor + slots_per_node - 1)`), not from the page's code: [first,
 * last] per master.
 */
function createAllocation(n) {
  const f = Math.fround;
  const per = f(16384 / n);
  const out = [];
  let first = 0;
  let cursor = f(0);
  for (let j = 0; j < n; j++) {
    let last = Math.round(f(f(cursor + per) - 1));
    if (last > 16384 || j === n - 1) last = 16383;
    out.push([first, last]);
    first = last + 1;
    cursor = f(cursor + per);
  }
  return out;
}

/** Scrolls the list to `top` and waits until its rendered rows cover the whole of its box. */
async function scrollTo(page, testid, top) {
  await page.evaluate(({ testid, top }) => { document.querySelector(`[data-testid=${testid}]`).scrollTop = top; }, { testid, top });
  await page.waitForFunction((testid) => {
    const list = document.querySelector(`[data-testid=${testid}]`);
    const box = list.getBoundingClientRect();
    const rows = [...list.children].filter((row) => !row.classList.contains('window-spacer'));
    if (rows.length === 0) return false;
    const first = rows[0].getBoundingClientRect();
    const last = rows[rows.length - 1].getBoundingClientRect();
    const atEnd = list.lastElementChild === rows[rows.length - 1] || list.lastElementChild.getBoundingClientRect().height === 0;
    return first.top <= box.top + 16 && (last.bottom >= box.bottom - 16 || atEnd);
  }, testid);
}

test('the node list at 1000 masters: fewer rows in the DOM, and scrolling through shows every master once', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.getByTestId('cluster-select').selectOption('create');
  await page.getByTestId('n-masters').fill('1000');
  const list = page.getByTestId('node-list');
  await page.waitForFunction(() => document.querySelector('[data-testid=node-list]')?.dataset.rows === '1000');
  await list.scrollIntoViewIfNeeded();
  const rendered = await list.locator('[data-testid=node-row]').count();
  assert.ok(rendered > 0 && rendered < 300, `${rendered} rows rendered of 1000`);
  // The first rows are the first masters, in order.
  const first = await list.locator('[data-testid=node-row]').evaluateAll((rows) => rows.slice(0, 3).map((r) => r.dataset.addr));
  assert.deepEqual(first, ['127.0.0.1:7000', '127.0.0.1:7001', '127.0.0.1:7002']);
  // Page through the list: each view's rows are consecutive masters; together, all of them.
  const seen = new Map();
  const { height, total } = await list.evaluate((l) => ({ height: l.clientHeight, total: l.scrollHeight }));
  for (let top = 0; top < total + height; top += Math.floor(height * 0.8)) {
    await scrollTo(page, 'node-list', top);
    const rows = await list.locator('[data-testid=node-row][data-role=master]').evaluateAll((rs) => rs.map((r) => [r.dataset.addr, Number(r.dataset.slots)]));
    const ports = rows.map(([a]) => Number(a.split(':')[1]));
    for (let i = 1; i < ports.length; i++) assert.equal(ports[i], ports[i - 1] + 1, `rows not consecutive at scrollTop ${top}`);
    for (const [a, s] of rows) seen.set(a, s);
  }
  const want = createAllocation(1000);
  assert.equal(seen.size, 1000);
  for (let i = 0; i < 1000; i++) {
    assert.equal(seen.get(`127.0.0.1:${7000 + i}`), want[i][1] - want[i][0] + 1, `127.0.0.1:${7000 + i}`);
  }
  // The last row is reached by scrolling to the end.
  await scrollTo(page, 'node-list', total);
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=node-list] [data-testid=node-row]')].at(-1)?.dataset.addr === '127.0.0.1:7999');
  assert.equal(await list.locator('[data-testid=node-row]').last().getAttribute('data-addr'), '127.0.0.1:7999');
  assert.deepEqual(problems, []);
  await context.close();
});

test('2,000 pasted commands (the line limit): the verdicts rendered are the lines in view, each with its own slot', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  const N = 2000;
  const key = (i) => `item:${i}:{t${i % 101}}`;
  // Pasted as a paste lands: the field's whole value at once, then one input event.
  await page.getByTestId('batch-input').evaluate((el, text) => {
    el.value = text;
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, Array.from({ length: N }, (_, i) => `GET ${key(i + 1)}`).join('\n'));
  const list = page.getByTestId('verdicts');
  await page.waitForFunction((n) => document.querySelector('[data-testid=verdicts]')?.dataset.rows === String(n), N);
  await list.scrollIntoViewIfNeeded();
  const rendered = await list.locator('.verdict').count();
  assert.ok(rendered > 0 && rendered < 500, `${rendered} verdicts rendered of ${N}`);
  const lineNumbers = [];
  for (const at of [0, 0.25, 0.5, 0.77, 1]) {
    // The list's height is read each time: it is estimated until the first rows are measured.
    const total = await list.evaluate((l) => l.scrollHeight);
    await scrollTo(page, 'verdicts', Math.floor(total * at));
    // Scrolled to the end, the last line comes into view.
    if (at === 1) {
      await page.waitForFunction((n) => [...document.querySelectorAll('[data-testid=verdicts] .verdict .verdict__line')].at(-1)?.textContent.startsWith(`${n}: `), N);
    }
    const rows = await list.locator('.verdict').evaluateAll((rs) => rs.map((r) => [r.querySelector('.verdict__line').textContent, r.querySelector('.verdict__slots')?.textContent]));
    let prev = null;
    for (const [line, slots] of rows) {
      const m = line.match(/^(\d+): GET (\S+)$/);
      assert.ok(m, line);
      const n = Number(m[1]);
      assert.equal(m[2], key(n));
      assert.equal(slots, `${key(n)} → ${redisSlot(key(n))}`);
      if (prev !== null) assert.equal(n, prev + 1, 'verdicts not consecutive');
      prev = n;
    }
    lineNumbers.push(Number(rows[0][0].split(':')[0]), prev);
  }
  // The views moved through the list, and the end shows the last line.
  assert.equal(lineNumbers[0], 1);
  assert.equal(lineNumbers.at(-1), N, `views: ${lineNumbers}`);
  assert.ok(lineNumbers[4] > 500 && lineNumbers[5] < 1500, `middle view at lines ${lineNumbers[4]}-${lineNumbers[5]}`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('many commands are answered a task after the frame that shows their text, the replies before kept meanwhile (busy, Copy disabled); a few in that frame', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  const field = page.getByTestId('batch-input');
  // What the first frame after the text is set shows (an animation frame callback runs
  // before that frame's style, layout and paint).
  const firstFrame = (text) => field.evaluate((el, text) => new Promise((done) => {
    el.value = text;
    el.dispatchEvent(new Event('input', { bubbles: true }));
    requestAnimationFrame(() => {
      const results = document.querySelector('[data-testid=batch-results]');
      const list = document.querySelector('[data-testid=verdicts]');
      done({
        field: el.value.length,
        rows: list.dataset.rows,
        busy: results.getAttribute('aria-busy'),
        grey: getComputedStyle(results).animationName,
        copy: [...results.querySelectorAll('button')].filter((b) => b.textContent === 'Copy').map((b) => (b.disabled ? 'disabled' : 'enabled')).join(),
        first: list.querySelector('.verdict__line').textContent,
      });
    });
  }), text);
  const lines = (n, name) => Array.from({ length: n }, (_, i) => `GET ${name}:${i}`).join('\n');
  // 200 lines, with a line break after the last or not: answered in the frame that shows them.
  const few = lines(200, 'few');
  assert.deepEqual(await firstFrame(`${few}\n`), { field: few.length + 1, rows: '200', busy: null, grey: 'none', copy: 'enabled', first: '1: GET few:0' });
  assert.deepEqual(await firstFrame(few), { field: few.length, rows: '200', busy: null, grey: 'none', copy: 'enabled', first: '1: GET few:0' });
  // 2,000 lines: the field shows them, the replies to the 200 stay, marked busy, and their
  // plan's Copy is disabled.
  const many = lines(2000, 'many');
  assert.deepEqual(await firstFrame(many), { field: many.length, rows: '200', busy: 'true', grey: 'behind', copy: 'disabled', first: '1: GET few:0' });
  await page.waitForFunction(() => document.querySelector('[data-testid=verdicts]').dataset.rows === '2000');
  assert.equal(await page.getByTestId('batch-results').getAttribute('aria-busy'), null);
  const list = page.getByTestId('verdicts');
  assert.equal(await list.locator('.verdict__line').first().textContent(), '1: GET many:0');
  assert.equal(await list.locator('.verdict__slots').first().textContent(), `many:0 → ${redisSlot('many:0')}`);
  assert.equal(await page.getByTestId('batch-results').getByRole('button', { name: 'Copy', exact: true }).isEnabled(), true);
  // Back to a few: at once.
  assert.deepEqual(await firstFrame('GET x\nGET y'), { field: 11, rows: '2', busy: null, grey: 'none', copy: 'enabled', first: '1: GET x' });
  assert.deepEqual(problems, []);
  await context.close();
});

test('the slot map\'s text alternative of 1000 masters is built when opened, with every master', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.getByTestId('cluster-select').selectOption('create');
  await page.getByTestId('n-masters').fill('1000');
  await page.waitForFunction(() => document.querySelector('[data-testid=node-list]')?.dataset.rows === '1000');
  const details = page.getByTestId('map-ranges');
  assert.equal(await details.locator('li').count(), 0);
  await details.locator('summary').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=map-ranges] li').length === 1000);
  const items = await details.locator('li').allTextContents();
  const want = createAllocation(1000).map(([a, b], i) => `127.0.0.1:${7000 + i}, ${b - a + 1} slots: ${a}-${b}`);
  assert.deepEqual(items, want);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the masters\' lists at 1000 masters are whole only while the reader is at them, and keep their choice', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.getByTestId('cluster-select').selectOption('create');
  await page.getByTestId('n-masters').fill('1000');
  await page.waitForFunction(() => document.querySelector('[data-testid=node-list]')?.dataset.rows === '1000');
  const count = (id) => page.getByTestId(id).evaluate((s) => s.options.length);
  // Left alone: the target's selected master (the last), the sources' "all masters" and the
  // four rows the listbox shows, the planner's selected node.
  assert.equal(await count('reshard-to'), 1);
  assert.equal(await page.getByTestId('reshard-to').inputValue(), '999');
  assert.equal(await count('reshard-from'), 5);
  assert.equal(await count('plan-node'), 1);
  // Focused (as a click or Tab does), the whole list comes, a piece a task; the keys move
  // through it.
  const to = page.getByTestId('reshard-to');
  await to.focus();
  await page.waitForFunction(() => document.querySelector('[data-testid=reshard-to]').options.length === 1000);
  const values = await to.evaluate((s) => [...s.options].map((o) => [o.value, o.textContent]));
  assert.deepEqual(values, Array.from({ length: 1000 }, (_, i) => [String(i), `127.0.0.1:${7000 + i}`]));
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => document.querySelector('[data-testid=reshard-to]').value === '1');
  // Left: back to the chosen option alone, still chosen.
  await to.evaluate((el) => el.blur());
  await page.waitForFunction(() => document.querySelector('[data-testid=reshard-to]').options.length === 1);
  assert.equal(await to.inputValue(), '1');
  assert.equal(await to.locator('option').textContent(), '127.0.0.1:7001');
  // The pointer over the sources' listbox brings all of them; sources picked stay selected
  // once it leaves, after the rows it shows.
  await page.getByTestId('reshard-from').hover();
  await page.waitForFunction(() => document.querySelector('[data-testid=reshard-from]').options.length === 1001);
  await page.getByTestId('reshard-from').selectOption(['500', '2']);
  await page.mouse.move(0, 0);
  await page.waitForFunction(() => document.querySelector('[data-testid=reshard-from]').options.length === 6);
  const from = await page.getByTestId('reshard-from').evaluate((s) => [...s.options].map((o) => [o.value, o.selected]));
  assert.deepEqual(from, [['all', false], ['0', false], ['1', false], ['2', true], ['3', false], ['500', true]]);
  // A reshard from those two to 127.0.0.1:7001 does what the lists say.
  await page.getByTestId('reshard-slots').fill('10');
  await page.getByTestId('reshard').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=last-change]')?.textContent.includes('10 slots moved'));
  const trails = await page.getByTestId('reshard-trail').evaluateAll((gs) => gs.map((g) => [g.dataset.from, g.dataset.to]));
  assert.ok(trails.length > 0);
  for (const [f, t] of trails) {
    assert.ok(['127.0.0.1:7002', '127.0.0.1:7500'].includes(f), f);
    assert.equal(t, '127.0.0.1:7001');
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('a new cluster reaches the tags and hot-spot section out of view after the frame that shows the map, and the section then matches it', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.getByTestId('cluster-select').selectOption('create');
  const n = page.getByTestId('n-masters');
  await n.scrollIntoViewIfNeeded();
  assert.equal(await page.locator('#tags').evaluate((s) => s.getBoundingClientRect().top > innerHeight), true, 'the tags section is below the screen');
  // In the task that sets 1000 masters, the map's node list has them and the section below
  // still shows the cluster before; after the next frames it has 64 groups, like the map.
  const seen = await n.evaluate((el) => new Promise((done) => {
    el.value = '1000';
    el.dispatchEvent(new Event('input', { bubbles: true }));
    requestAnimationFrame(() => done({
      nodes: document.querySelectorAll('[data-testid=node-row][data-role=master]').length,
      groups: document.querySelectorAll('#tags .tags__master').length,
    }));
  }));
  assert.ok(seen.nodes > 8, `node list at the first frame: ${seen.nodes}`);
  assert.ok(seen.groups < 64, `tag groups at the first frame: ${seen.groups}`);
  await page.waitForFunction(() => document.querySelectorAll('#tags .tags__master').length === 64);
  // Each tag shown lands on the master it is listed under: the section speaks of this cluster.
  const tags = await page.getByTestId('tag-row').evaluateAll((ts) => ts.slice(0, 200).map((t) => ({ tag: t.dataset.tag, addr: t.dataset.addr })));
  const rows = await page.locator('[data-testid=node-row][data-role=master]').evaluateAll((rs) => rs.map((r) => ({ addr: r.dataset.addr, ranges: r.dataset.ranges })));
  let checked = 0;
  for (const { tag, addr } of tags) {
    const row = rows.find((r) => r.addr === addr);
    if (!row) continue;
    const slot = redisSlot(tag);
    assert.ok(row.ranges.split(',').some((r) => { const [a, b] = r.split('-').map(Number); return slot >= a && slot <= (b ?? a); }), `${tag} (slot ${slot}) is not on ${addr}: ${row.ranges}`);
    checked++;
  }
  assert.ok(checked > 10, `${checked} tags checked`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a new cluster reaches the planner out of view a frame after the map, and the tags a frame after the planner', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.getByTestId('cluster-select').selectOption('create');
  const n = page.getByTestId('n-masters');
  await n.fill('6');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=node-row][data-role=master]').length === 6);
  await n.scrollIntoViewIfNeeded();
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 50)))));
  for (const id of ['planner', 'tags']) {
    assert.equal(await page.locator(`#${id}`).evaluate((s) => s.getBoundingClientRect().top > innerHeight), true, `#${id} is below the screen`);
  }
  // Frame by frame from the task that sets 1000 masters: the masters in the map's node list,
  // the planner's replies (their MOVED name the new cluster's masters) and the tag groups.
  const frames = await n.evaluate((el) => new Promise((done) => {
    const read = () => ({
      nodes: document.querySelectorAll('[data-testid=node-row][data-role=master]').length,
      planner: document.querySelector('#planner [data-testid=verdicts]').innerText,
      groups: document.querySelectorAll('#tags .tags__master').length,
    });
    const seen = [read()];
    el.value = '1000';
    el.dispatchEvent(new Event('input', { bubbles: true }));
    const next = () => {
      seen.push(read());
      if (seen.length > 8) done(seen);
      else requestAnimationFrame(next);
    };
    requestAnimationFrame(next);
  }));
  const planned = frames.findIndex((f) => f.planner !== frames[0].planner);
  const tagged = frames.findIndex((f) => f.groups === 64);
  assert.ok(frames[1].nodes > 8, `node list at the first frame: ${frames[1].nodes}`);
  assert.equal(frames[1].planner, frames[0].planner, 'the planner, out of view, keeps the cluster before at the first frame');
  assert.ok(planned >= 2 && planned <= 4, `the planner follows a frame or so after the first (frame ${planned})`);
  assert.ok(tagged > planned, `the tags follow after the planner (frames ${planned}, ${tagged})`);
  assert.match(frames[planned].planner, /MOVED \d+ 127\.0\.0\.1:7(0[6-9]\d|[1-9]\d\d)\b/, 'the planner speaks of the 1000 masters');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the hot spot at 1000 masters lists the busiest 64, the master with every key first; the tag search\'s counts are grouped', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.getByTestId('cluster-select').selectOption('create');
  await page.getByTestId('n-masters').fill('1000');
  await page.waitForFunction(() => document.querySelector('[data-testid=node-list]')?.dataset.rows === '1000');
  // k = 1: all 100,000 keys are {user1}'s, in its slot, on the master createAllocation gives it.
  const slot = redisSlot('user1');
  const owner = createAllocation(1000).findIndex(([a, b]) => slot >= a && slot <= b);
  await page.waitForFunction(() => document.querySelector('[data-testid=hotspot-more]')?.textContent === 'and 999 more masters with no keys');
  const rows = await page.getByTestId('hotspot-master').evaluateAll((rs) => rs.map((r) => ({ addr: r.dataset.addr, count: r.dataset.count, shown: r.querySelector('.hotspot__count').textContent })));
  assert.deepEqual(rows, [{ addr: `127.0.0.1:${7000 + owner}`, count: '100000', shown: '100,000' }]);
  // 64 sub-tags: the masters that hold them, most keys first; none left out holds a key.
  await page.getByTestId('hotspot-k').fill('64');
  await page.waitForFunction(() => document.querySelector('[data-testid=hotspot-master]')?.dataset.count !== '100000');
  const counts = (await page.getByTestId('hotspot-master').evaluateAll((rs) => rs.map((r) => Number(r.dataset.count))));
  assert.deepEqual(counts, [...counts].sort((a, b) => b - a));
  assert.ok(counts.every((n) => n > 0));
  assert.equal(counts.reduce((a, b) => a + b, 0), 100_000, 'at most 64 masters hold the 64 sub-tags\' keys');
  assert.equal(await page.getByTestId('hotspot-more').textContent(), `and ${1000 - counts.length} more masters with no keys`);
  // No tag: every master holds keys; the busiest 64 are listed, and the rest hold no more.
  await page.getByTestId('hotspot-untagged').check();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=hotspot-master]').length === 64);
  const spread = await page.getByTestId('hotspot-master').evaluateAll((rs) => rs.map((r) => Number(r.dataset.count)));
  assert.deepEqual(spread, [...spread].sort((a, b) => b - a));
  assert.equal(await page.getByTestId('hotspot-more').textContent(), 'and 936 more masters, none with more keys than the last one listed');
  assert.match(await page.getByTestId('tags-tried').textContent(), /^\d{1,3}(,\d{3})+ integers tried, 4,000 tags kept/);
  assert.deepEqual(problems, []);
  await context.close();
});
