//! The topology lab as a reader uses it: import real CLUSTER NODES output, add a master and
//! reshard through the page, and check the result against what redis-cli 7.0.15 recorded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sharedBrowser, openPage, nodeRows, masterRows, fixtures } from './harness.mjs';

const env = sharedBrowser();

/** The nodes of a CLUSTER NODES fixture as the file itself lists them (the truth to compare with). */
async function nodesFixture(name) {
  const text = await readFile(join(fixtures, 'transcripts', name), 'utf8');
  const lines = text.split('\n').filter((l) => /^[0-9a-f]{40} /.test(l));
  return lines.map((l) => {
    const f = l.split(' ');
    const role = f[2].includes('master') ? 'master' : 'replica';
    const ranges = f.slice(8).filter((x) => !x.startsWith('['));
    const slots = ranges.reduce((n, r) => {
      const [a, b = a] = r.split('-').map(Number);
      return n + b - a + 1;
    }, 0);
    return { text, addr: f[1].split('@')[0], role, slots, ranges: ranges.join(',') };
  });
}

async function importText(page, text) {
  await page.locator('.lab__import summary').click();
  await page.getByTestId('topology-input').fill(text);
  await page.getByTestId('topology-apply').click();
}

const byAddr = (a, b) => a.addr.localeCompare(b.addr);

/** Picks `redis-cli --cluster create` with `n` masters and waits until the node list shows
 * them, 127.0.0.1:7000 first. */
async function createMasters(page, n) {
  await page.getByTestId('cluster-select').selectOption('create');
  await page.getByTestId('n-masters').fill(String(n));
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=node-row][data-role=master]').length === n
    && document.querySelector('[data-testid=node-row]')?.dataset.addr === '127.0.0.1:7000', n);
}

test('pasting CLUSTER NODES after the reshard shows exactly its nodes and ranges', async () => {
  const want = await nodesFixture('14_after_reshard_cluster_nodes.txt');
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await importText(page, want[0].text);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=node-row][data-role=master]').length === 4);
  const got = await nodeRows(page);
  assert.deepEqual(got.sort(byAddr), want.map(({ text, ...r }) => r).sort(byAddr));
  assert.equal(await page.getByTestId('topology-error').count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('adding a master and resharding 1000 slots from all gives the ranges redis-cli gave', async () => {
  const want = (await nodesFixture('14_after_reshard_cluster_nodes.txt')).filter((r) => r.role === 'master');
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.getByTestId('add-master').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=node-row][data-role=master]').length === 4);
  // The new master joins with no slots: the classic surprise.
  const fresh = (await masterRows(page)).find((r) => r.addr === '127.0.0.1:7006');
  assert.deepEqual(fresh, { addr: '127.0.0.1:7006', slots: '0', ranges: '' });
  await page.getByTestId('reshard-slots').fill('1000');
  // Every source fits in the list without scrolling: "all masters" and the four masters.
  const list = await page.getByTestId('reshard-from').evaluate((s) => ({ options: s.options.length, scrolls: s.scrollHeight > s.clientHeight }));
  assert.deepEqual(list, { options: 5, scrolls: false });
  await page.getByTestId('reshard-from').selectOption('all');
  await page.getByTestId('reshard-to').selectOption({ label: '127.0.0.1:7006' });
  await page.getByTestId('reshard').click();
  await page.waitForFunction(() => document.querySelector('[data-addr="127.0.0.1:7006"]')?.dataset.slots === '1000');
  const got = (await masterRows(page)).map(({ addr, slots, ranges }) => ({ addr, role: 'master', slots: Number(slots), ranges }));
  assert.deepEqual(got.sort(byAddr), want.map(({ text, ...r }) => r).sort(byAddr));
  assert.match(await page.getByTestId('last-change').textContent(), /1000 slots moved/);
  // Undo brings the empty master back; redo the reshard again.
  await page.getByTestId('undo').click();
  await page.waitForFunction(() => document.querySelector('[data-addr="127.0.0.1:7006"]')?.dataset.slots === '0');
  await page.getByTestId('redo').click();
  await page.waitForFunction(() => document.querySelector('[data-addr="127.0.0.1:7006"]')?.dataset.slots === '1000');
  assert.deepEqual(problems, []);
  await context.close();
});

test('then a rebalance gives the ranges of 16_after_rebalance', async () => {
  const want = (await nodesFixture('16_after_rebalance_cluster_nodes.txt')).filter((r) => r.role === 'master');
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.getByTestId('add-master').click();
  await page.getByTestId('reshard-to').selectOption({ label: '127.0.0.1:7006' });
  await page.getByTestId('reshard').click();
  await page.waitForFunction(() => document.querySelector('[data-addr="127.0.0.1:7006"]')?.dataset.slots === '1000');
  await page.getByTestId('rebalance').click();
  await page.waitForFunction(() => document.querySelector('[data-addr="127.0.0.1:7006"]')?.dataset.slots === '4096');
  const got = (await masterRows(page)).map(({ addr, slots, ranges }) => ({ addr, role: 'master', slots: Number(slots), ranges }));
  assert.deepEqual(got.sort(byAddr), want.map(({ text, ...r }) => r).sort(byAddr));
  assert.deepEqual(problems, []);
  await context.close();
});

test('garbage pasted gets topology-error naming the line, and the cluster stays as it was', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  const before = await nodeRows(page);
  for (const garbage of ['hello world\nthis is not a cluster', 'd3bede0cd4ba07708f552c2e44e8211e0d571a39 127.0.0.1:7000@17000 myself,master - 0 0 1 connected 5-3']) {
    await importText(page, garbage);
    const error = page.getByTestId('topology-error');
    await error.waitFor();
    assert.match(await error.textContent(), /line \d/i);
    // Beside the paste box the reader is looking at, not above the map.
    assert.equal(await page.locator('.lab__import [data-testid=topology-error]').count(), 1);
    assert.ok(await error.isVisible());
    assert.deepEqual(await nodeRows(page), before);
    await page.locator('.lab__import summary').click();
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('removing a master that owns slots is refused, then offered as drain-and-remove', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.locator('[data-testid=node-row][data-addr="127.0.0.1:7000"] button', { hasText: 'remove' }).click();
  const error = page.getByTestId('topology-error');
  await error.waitFor();
  assert.match(await error.textContent(), /not empty/);
  assert.equal((await masterRows(page)).length, 3);
  await page.getByTestId('drain-and-remove').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=node-row][data-role=master]').length === 2);
  const rows = await masterRows(page);
  assert.deepEqual(rows.map((r) => r.addr), ['127.0.0.1:7001', '127.0.0.1:7002']);
  assert.equal(rows.reduce((n, r) => n + Number(r.slots), 0), 16384);
  // 7000's replica stays, following the master that took 7000's last slot (failover/del_node).
  assert.equal((await nodeRows(page)).find((r) => r.addr === '127.0.0.1:7004')?.role, 'replica');
  const change = page.getByTestId('last-change');
  await change.getByRole('button', { name: /redis-cli commands/ }).click();
  assert.equal(await page.getByTestId('change-commands').inputValue(), [
    'redis-cli --cluster rebalance 127.0.0.1:7000 --cluster-weight d3bede0cd4ba07708f552c2e44e8211e0d571a39=0 --cluster-use-empty-masters',
    'redis-cli --cluster del-node 127.0.0.1:7001 d3bede0cd4ba07708f552c2e44e8211e0d571a39',
  ].join('\n'));
  assert.deepEqual(problems, []);
  await context.close();
});

test('failing over a master promotes its replica, which keeps the slots', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.locator('[data-testid=node-row][data-addr="127.0.0.1:7001"] button', { hasText: 'fail over' }).click();
  await page.waitForFunction(() => document.querySelector('[data-testid=node-row][data-addr="127.0.0.1:7005"]')?.dataset.role === 'master');
  const rows = await nodeRows(page);
  assert.deepEqual(rows.find((r) => r.addr === '127.0.0.1:7005'), { addr: '127.0.0.1:7005', role: 'master', slots: 5462, ranges: '5461-10922' });
  // As Redis lists it until it comes back (fixtures/failover/raw/crash_cluster_nodes.txt): a
  // failed master with no slots, not a replica.
  assert.deepEqual(rows.find((r) => r.addr === '127.0.0.1:7001'), { addr: '127.0.0.1:7001', role: 'master', slots: 0, ranges: '' });
  assert.ok(await page.locator('[data-testid=node-row][data-addr="127.0.0.1:7001"]').evaluate((r) => r.classList.contains('is-failed')));
  assert.match(await page.getByTestId('last-change').textContent(), /new highest config epoch, 9/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a CLUSTER NODES taken mid-migration shows slot 5712 migrating 7001 → 7002', async () => {
  const text = await readFile(join(fixtures, 'transcripts', '07_slot_migration_ask_tryagain.txt'), 'utf8');
  // The first CLUSTER NODES of the file, as redis-cli -p 7001 printed it (prompt line included).
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l === '$ redis-cli -p 7001 CLUSTER NODES');
  const end = lines.findIndex((l, i) => i > start && l.startsWith('$ '));
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await importText(page, lines.slice(start, end).join('\n'));
  const source = page.locator('[data-testid=node-row][data-addr="127.0.0.1:7001"]');
  await source.locator('.node-row__open').waitFor();
  assert.match(await source.textContent(), /migrating 5712 → 127\.0\.0\.1:7002/);
  assert.equal(await source.getAttribute('data-ranges'), '5461-10922');
  // The map's readout names the migration on that slot (5712 = row 44, column 80).
  const canvas = page.getByTestId('slot-map');
  await canvas.focus();
  await page.keyboard.press('Home');
  for (let i = 0; i < 44; i++) await page.keyboard.press('ArrowDown');
  for (let i = 0; i < 80; i++) await page.keyboard.press('ArrowRight');
  assert.match(await page.locator('.slot-map__readout').textContent(), /Slot 5712 .*migrating 127\.0\.0\.1:7001 → 127\.0\.0\.1:7002/);
  // Resharding a cluster with an open slot is refused, as redis-cli refuses it.
  await page.getByTestId('reshard').click();
  await page.getByTestId('topology-error').waitFor();
  assert.deepEqual(problems, []);
  await context.close();
});

test('the last change lists its moves and the redis-cli commands, which copy without errors', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.getByTestId('add-master').click();
  await page.getByTestId('reshard-slots').fill('100');
  await page.getByTestId('reshard-to').selectOption({ label: '127.0.0.1:7006' });
  await page.getByTestId('reshard').click();
  const change = page.getByTestId('last-change');
  await page.waitForFunction(() => /100 slots moved/.test(document.querySelector('[data-testid=last-change]')?.textContent ?? ''));
  // The same split redis-cli made in reshard_cases/a_from_all_100: 34 from the 5462-slot master, 33 from each other.
  const moves = await change.locator('li').allTextContents();
  assert.deepEqual(moves.sort(), [
    '127.0.0.1:7000 → 127.0.0.1:7006: 0-32 (33)',
    '127.0.0.1:7001 → 127.0.0.1:7006: 5461-5494 (34)',
    '127.0.0.1:7002 → 127.0.0.1:7006: 10923-10955 (33)',
  ]);
  await change.getByRole('button', { name: /redis-cli commands/ }).click();
  const commands = await page.getByTestId('change-commands').inputValue();
  // The one command that was run (as transcript 13 ran it), not one per source master; 7006 has
  // the id it had in transcript 11.
  assert.equal(commands, 'redis-cli --cluster reshard 127.0.0.1:7000 --cluster-from all --cluster-to 2d5df5ae37ad6494038d3c6164be00382e79eb5a --cluster-slots 100 --cluster-yes');
  await change.getByRole('button', { name: 'Copy' }).click();
  await change.getByRole('button', { name: 'Copied' }).waitFor();
  assert.deepEqual(problems, []);
  await context.close();
});

test('slots vs ring vs mod N: mod N moves about N/(N+1) of the keys, slots about 1/(N+1)', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  const table = page.getByTestId('compare-table');
  await table.scrollIntoViewIfNeeded();
  const pcts = async () => (await table.locator('tbody tr td:nth-child(2)').allTextContents()).map((t) => parseFloat(t));
  let [slots, ring, modN] = await pcts();
  assert.ok(Math.abs(slots - 25) < 1, `slots ${slots}`);
  assert.ok(Math.abs(modN - 75) < 1, `mod N ${modN}`);
  assert.ok(ring < 40, `ring ${ring}`);
  await page.locator('#cmp-n').fill('9');
  await page.waitForFunction(() => parseFloat(document.querySelector('[data-testid=compare-table] tbody tr:nth-child(3) td:nth-child(2)').textContent) > 85);
  [slots, ring, modN] = await pcts();
  assert.ok(Math.abs(modN - 90) < 1, `mod N ${modN}`);
  assert.ok(Math.abs(slots - 10) < 1, `slots ${slots}`);
  await page.locator('#cmp-n').fill('0');
  await page.locator('.compare [role=alert]').waitFor();
  assert.deepEqual(problems, []);
  await context.close();
});

test('resharding 1500 slots from two chosen masters splits them as redis-cli did (case d)', async () => {
  // reshard_cases/moves.tsv: what each source gave in case d, mapped onto the page's ports.
  const tsv = await readFile(join(fixtures, 'reshard_cases', 'moves.tsv'), 'utf8');
  const port = (addr) => `127.0.0.1:${Number(addr.split(':')[1]) - 100}`;
  const want = tsv.trim().split('\n').slice(1).map((l) => l.split('\t'))
    .filter(([c]) => c === 'd_from_two_sources_1500')
    .map(([, , source, , first, last, slots]) => `${port(source)} → 127.0.0.1:7003: ${first}-${last} (${slots})`);
  assert.equal(want.length, 2);
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  // The same cluster as case d: --cluster create of 3 masters, then one empty master added.
  await createMasters(page, 3);
  await page.getByTestId('add-master').click();
  await page.getByTestId('reshard-slots').fill('1500');
  await page.getByTestId('reshard-from').selectOption(['0', '1']);
  await page.getByTestId('reshard-to').selectOption({ label: '127.0.0.1:7003' });
  await page.getByTestId('reshard').click();
  await page.waitForFunction(() => document.querySelector('[data-addr="127.0.0.1:7003"]')?.dataset.slots === '1500');
  const moves = await page.getByTestId('last-change').locator('li').allTextContents();
  assert.deepEqual(moves.sort(), want.sort());
  assert.deepEqual(problems, []);
  await context.close();
});

test('a weighted rebalance (--cluster-weight master0=2) gives what redis-cli gave in case f', async () => {
  const tsv = await readFile(join(fixtures, 'reshard_cases', 'summary.tsv'), 'utf8');
  const port = (addr) => `127.0.0.1:${Number(addr.split(':')[1]) - 100}`;
  const want = tsv.trim().split('\n').map((l) => l.split('\t'))
    .filter(([c, state]) => c === 'f_rebalance_weight_threshold' && state === '05_nodes_after_weighted_rebalance')
    .map(([, , node, , , slots, , ranges]) => ({ addr: port(node), slots, ranges }));
  assert.equal(want.length, 3);
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await createMasters(page, 3);
  await page.getByTestId('weights').fill('127.0.0.1:7000=2');
  await page.getByTestId('rebalance').click();
  await page.waitForFunction(() => document.querySelector('[data-addr="127.0.0.1:7000"]')?.dataset.slots === '8192');
  assert.deepEqual(await masterRows(page), want);
  // What redis-cli printed for it is shown too.
  assert.match(await page.getByTestId('topology-notice').textContent(), /Moving \d+ slots from 127\.0\.0\.1:700\d to 127\.0\.0\.1:7000/);
  await page.getByTestId('weights').fill('127.0.0.1:9999=2');
  await page.getByTestId('rebalance').click();
  await page.getByTestId('topology-error').waitFor();
  assert.deepEqual(problems, []);
  await context.close();
});

// bus-engine: the instant failover says how long a real one takes (the bus simulator's figures
// for Redis's default cluster-node-timeout, 15 s).
test('after a failover the lab says how long a real one takes', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.locator('[data-testid=node-row][data-addr="127.0.0.1:7001"] button', { hasText: 'fail over' }).click();
  const note = page.getByTestId('lab-real-failover');
  await note.waitFor();
  const text = await note.textContent();
  assert.match(text, /a real failover takes ≈ \d+\.\d s/);
  assert.match(text, /cluster-node-timeout 15\.0 s/);
  assert.match(text, /cluster bus/);
  assert.deepEqual(problems, []);
  await context.close();
});

// map18: a new cluster is no reshard; a reshard's trails have a direction and named ends; on a
// phone the map's changed part comes into view.

/** Adds the empty 127.0.0.1:7006 and reshards 1000 slots from all masters to it. */
async function reshardToNewMaster(page) {
  await page.getByTestId('add-master').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=node-row][data-role=master]').length === 4);
  await page.getByTestId('reshard-slots').fill('1000');
  await page.getByTestId('reshard-from').selectOption('all');
  await page.getByTestId('reshard-to').selectOption({ label: '127.0.0.1:7006' });
  await page.getByTestId('reshard').click();
  await page.waitForFunction(() => document.querySelector('[data-addr="127.0.0.1:7006"]')?.dataset.slots === '1000');
}

test('creating a cluster of 8 masters is a new cluster: no trail, no moved keys, and it says so', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await createMasters(page, 8);
  // The page's key {user1}:profile (slot 8106) was 7001's in the fixtures' cluster and is
  // 7003's in the new one: that is not a move, nothing was carried anywhere.
  assert.equal(await page.getByTestId('key-readout').getAttribute('data-master'), '127.0.0.1:7003');
  const after = async () => ({
    trails: await page.getByTestId('reshard-trail').count(),
    moved: await page.getByTestId('moved-key').count(),
    count: await page.getByTestId('reshard-count').count(),
    moves: await page.getByTestId('last-change').locator('li').count(),
  });
  assert.deepEqual(await after(), { trails: 0, moved: 0, count: 0, moves: 0 });
  assert.match(await page.getByTestId('new-cluster').textContent(), /--cluster create, 8 masters: a new cluster, not a reshard/);
  assert.match(await page.getByTestId('last-change').textContent(), /a new cluster, nothing moved/);
  assert.doesNotMatch(await page.getByTestId('last-change').textContent(), /slots moved/);
  // Undoing it is no reshard either: back to the picker's first create (6 masters), then to
  // the fixtures' cluster.
  await page.getByTestId('undo').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=node-row][data-role=master]').length === 6);
  assert.deepEqual(await after(), { trails: 0, moved: 0, count: 0, moves: 0 });
  await page.getByTestId('undo').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=node-row][data-role=master]').length === 3);
  assert.deepEqual(await after(), { trails: 0, moved: 0, count: 0, moves: 0 });
  // A reshard still shows what moved.
  await reshardToNewMaster(page);
  assert.ok(await page.getByTestId('reshard-trail').count() > 0);
  assert.equal(await page.getByTestId('new-cluster').count(), 0);
  assert.match(await page.getByTestId('last-change').textContent(), /1000 slots moved/);
  assert.deepEqual(problems, []);
  await context.close();
});

for (const colorScheme of ['light', 'dark']) {
  test(`a reshard's trails point at the moved slots and name both ends (${colorScheme})`, async () => {
    const { page, context, problems } = await openPage(env.browser, env.server.url);
    await page.emulateMedia({ colorScheme });
    await reshardToNewMaster(page);
    const owners = await masterRows(page);
    const ownerOf = (slot) => owners.find((r) => r.ranges.split(',').some((x) => {
      const [a, b = a] = x.split('-').map(Number);
      return slot >= a && slot <= b;
    }))?.addr;
    const trails = await page.getByTestId('reshard-trail').evaluateAll((gs) => gs.map((g) => {
      const line = g.querySelector('line');
      const head = line.getAttribute('marker-end')?.match(/^url\(#(.+)\)$/)?.[1];
      const marker = head ? document.getElementById(head) : null;
      const n = (a) => Number(line.getAttribute(a));
      return { from: g.dataset.from, to: g.dataset.to, head: marker?.tagName === 'marker' && marker.querySelector('path') !== null,
        start: [n('x1'), n('y1')], end: [n('x2'), n('y2')] };
    }));
    assert.equal(trails.length, 3);
    for (const t of trails) {
      assert.ok(t.head, `an arrowhead at the target end: ${JSON.stringify(t)}`);
      assert.equal(t.to, '127.0.0.1:7006');
      // The head sits on a slot the target owns now; the tail on one its source kept.
      const slotAt = ([x, y]) => Math.floor(y) * 128 + Math.floor(x);
      assert.equal(ownerOf(slotAt(t.end)), '127.0.0.1:7006', `head at slot ${slotAt(t.end)}`);
      assert.equal(ownerOf(slotAt(t.start)), t.from, `tail at slot ${slotAt(t.start)}`);
    }
    // The ends are named in words, on chips that read in either scheme, inside the map.
    const ends = await page.getByTestId('trail-ends').locator('.trail__end').evaluateAll((ls) => ls.map((l) => {
      const s = getComputedStyle(l);
      const r = l.getBoundingClientRect();
      const frame = l.closest('.slot-map__frame').getBoundingClientRect();
      return { text: l.textContent, fg: s.color, bg: s.backgroundColor, inside: r.left >= frame.left - 1 && r.right <= frame.right + 1 };
    }));
    assert.deepEqual([...new Set(ends.map((e) => e.text))].sort(), ['from :7000', 'from :7001', 'from :7002', 'to :7006']);
    const lum = (c) => {
      const [r, g, b] = c.match(/[\d.]+/g).map(Number).map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    for (const e of ends) {
      const [a, b] = [lum(e.fg), lum(e.bg)].sort((x, y) => y - x);
      assert.ok((a + 0.05) / (b + 0.05) >= 4.5, `label ${e.text} contrast ${(a + 0.05) / (b + 0.05)}`);
      assert.ok(e.inside, `label ${e.text} inside the map`);
    }
    assert.deepEqual(problems, []);
    await context.close();
  });
}

for (const reducedMotion of ['no-preference', 'reduce']) {
  test(`on a phone, Reshard brings the map's changed rows into view under the bar (motion: ${reducedMotion})`, async () => {
    const { page, context, problems } = await openPage(env.browser, env.server.url, { width: 390, height: 844 });
    await page.emulateMedia({ reducedMotion });
    await page.getByTestId('add-master').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=node-row][data-role=master]').length === 4);
    await page.getByTestId('reshard-slots').fill('1000');
    await page.getByTestId('reshard-from').selectOption('all');
    await page.getByTestId('reshard-to').selectOption({ label: '127.0.0.1:7006' });
    await page.getByTestId('reshard').scrollIntoViewIfNeeded();
    // Where the reader is: the map is out of sight above the lab.
    const mapBefore = await page.getByTestId('slot-map').boundingBox();
    assert.ok(mapBefore.y + mapBefore.height < 200, `the map starts out of sight: ${JSON.stringify(mapBefore)}`);
    await page.getByTestId('reshard').click();
    await page.waitForFunction(() => document.querySelector('[data-addr="127.0.0.1:7006"]')?.dataset.slots === '1000');
    // Every moved range's outline ends up between the sticky bar's real bottom and the window's.
    await page.waitForFunction(() => {
      const bar = document.querySelector('.wayfinder').getBoundingClientRect().bottom;
      const rs = [...document.querySelectorAll('.trail__range')].map((r) => r.getBoundingClientRect());
      return rs.length > 0 && rs.every((r) => r.top >= bar - 1 && r.bottom <= window.innerHeight + 1);
    }, null, { timeout: reducedMotion === 'reduce' ? 1000 : 3000 });
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('creating 1 or 2 masters is refused with redis-cli\'s own words, in both languages, and the cluster shown stays', async () => {
  // What redis-cli 7.0.15 printed, below each recording's `$ command` line.
  const printed = async (path) => {
    const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
    return lines.slice(lines.findIndex((l) => l.startsWith('$ ')) + 1);
  };
  const two = await printed(join(fixtures, 'create_outputs', 'create_2_refused.txt'));
  const one = await printed(new URL('../tests/data/create_1_refused.txt', import.meta.url));
  assert.equal(two.length, 4);
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await createMasters(page, 6);
  const before = await masterRows(page);
  const refusal = page.getByTestId('cluster-refusal');
  for (const [n, want] of [['2', two], ['1', one]]) {
    await page.getByTestId('n-masters').fill(n);
    await refusal.waitFor();
    await page.waitForFunction((n) => document.querySelector('[data-testid=cluster-refusal]')?.textContent.includes(`7000${n === '2' ? ' 127.0.0.1:7001' : ''} --cluster-replicas`), n);
    const [command, ...out] = (await refusal.textContent()).split('\n');
    assert.equal(command, `$ redis-cli --cluster create ${n === '2' ? '127.0.0.1:7000 127.0.0.1:7001' : '127.0.0.1:7000'} --cluster-replicas 0`);
    assert.deepEqual(out, want);
    assert.match(await page.getByTestId('cluster-error').textContent(), /at least 3 masters/);
    assert.deepEqual(await masterRows(page), before, 'the cluster shown stays');
  }
  await page.getByTestId('lang-select').selectOption('zh');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-Hans');
  assert.match(await page.getByTestId('cluster-error').textContent(), /至少需要 3 个主节点/);
  assert.deepEqual((await refusal.textContent()).split('\n').slice(1), one, 'redis-cli\'s words stay as it prints them');
  await page.getByTestId('lang-select').selectOption('en');
  await page.getByTestId('n-masters').fill('3');
  await refusal.waitFor({ state: 'detached' });
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=node-row][data-role=master]').length === 3);
  assert.deepEqual(problems, []);
  await context.close();
});

test('resharding 5000 from all moves the 4999 redis-cli moved in case b, and the change says both numbers', async () => {
  const tsv = await readFile(join(fixtures, 'reshard_cases', 'summary.tsv'), 'utf8');
  const port = (addr) => `127.0.0.1:${Number(addr.split(':')[1]) - 100}`;
  const want = tsv.trim().split('\n').map((l) => l.split('\t'))
    .filter(([c, state]) => c === 'b_from_all_5000' && state === '07_nodes_after')
    .map(([, , node, , , slots, , ranges]) => ({ addr: port(node), slots, ranges }));
  assert.equal(want.find((r) => r.addr === '127.0.0.1:7003').slots, '4999');
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await createMasters(page, 3);
  await page.getByTestId('add-master').click();
  await page.getByTestId('reshard-slots').fill('5000');
  await page.getByTestId('reshard-from').selectOption('all');
  await page.getByTestId('reshard-to').selectOption({ label: '127.0.0.1:7003' });
  await page.getByTestId('reshard').click();
  await page.waitForFunction(() => document.querySelector('[data-addr="127.0.0.1:7003"]')?.dataset.slots === '4999');
  assert.deepEqual((await masterRows(page)).sort(byAddr), want.sort(byAddr));
  const title = await page.getByTestId('last-change').locator('h4').textContent();
  assert.match(title, /^Reshard 5000 slots to 127\.0\.0\.1:7003: redis-cli moves 4999, as it rounds each source's share down/);
  await page.getByTestId('lang-select').selectOption('zh');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-Hans');
  assert.match(await page.getByTestId('last-change').locator('h4').textContent(), /5000.*4999/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('on a phone, redis-cli\'s refusal of 2 masters scrolls inside its box and does not widen the page', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url, { width: 390, height: 844 });
  await page.getByTestId('cluster-select').selectOption('create');
  await page.getByTestId('n-masters').fill('2');
  await page.getByTestId('cluster-refusal').waitFor();
  const [page_, view] = await page.evaluate(() => [document.documentElement.scrollWidth, innerWidth]);
  assert.ok(page_ <= view, `the page is ${page_} px wide in a ${view} px window`);
  const box = await page.getByTestId('cluster-refusal').evaluate((el) => ({ scrolls: el.scrollWidth > el.clientWidth, right: el.getBoundingClientRect().right }));
  assert.ok(box.scrolls && box.right <= 390, JSON.stringify(box));
  assert.deepEqual(problems, []);
  await context.close();
});
