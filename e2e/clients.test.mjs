//! "When clients disagree" as a reader uses it: the slot the page shows for cluster-key-slot's
//! rule is compared with the real npm `cluster-key-slot` 1.1.2 run here in node, Redis's slot
//! with the fixtures; each rule's link opens its own MOVED loop in the redirections view.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { sharedBrowser, openPage, keyslotByDisplay, typeKey, redisSlot as slotByRule } from './harness.mjs';

const require = createRequire(import.meta.url);
const generate = require('cluster-key-slot');

const env = sharedBrowser();
let fixture;
before(async () => {
  fixture = await keyslotByDisplay();
});

const OWNERS = [[0, 5460, '127.0.0.1:7000'], [5461, 10922, '127.0.0.1:7001'], [10923, 16383, '127.0.0.1:7002']];
const ownerOf = (slot) => OWNERS.find(([a, b]) => slot >= a && slot <= b)[2];

/** Types `key`, waits for the pipeline to show it, and reads Redis's slot and the rule rows. */
async function show(page, key, redisSlot) {
  await typeKey(page, key);
  await page.waitForFunction((s) => document.querySelector('[data-testid=slot]')?.textContent === String(s), redisSlot);
  // The panel (or its quiet line) follows the same render.
  await page.locator('[data-testid=client-rules], [data-testid=client-rules-agree]').first().waitFor();
  const rows = await page.locator('[data-testid=client-rule]').evaluateAll((rs) => rs.map((r) => ({
    rule: r.dataset.rule,
    slot: r.dataset.slot,
    node: r.querySelector('[data-testid=client-rule-node]')?.textContent ?? null,
    text: r.textContent,
  })));
  return new Map(rows.map((r) => [r.rule, r]));
}

/** The cluster-key-slot slot the page shows: its row, or Redis's slot when it has no row. */
function pageCks(rows, redisSlot) {
  const row = rows.get('cluster-key-slot');
  return row ? Number(row.slot) : redisSlot;
}

test('the cluster-key-slot slot the page shows is what the npm module computes', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  // Keys typed as they are (all ASCII here, so the typed text is the key's bytes), with
  // Redis's slot from the fixtures where recorded.
  const keys = ['foo{}{bar}', '{}}', 'a{}b}c', 'x{}{y}', '{a}{b}', 'foo', '{}a', '{}{}}', 'user:{}{1001}:x', '{{a}}'];
  let differing = 0;
  for (const key of keys) {
    const redisSlot = fixture.get(key) ?? slotByRule(key);
    const rows = await show(page, key, redisSlot);
    const npm = generate(key);
    assert.equal(pageCks(rows, redisSlot), npm, `cluster-key-slot of ${key}`);
    assert.equal(generate(Buffer.from(key)), npm);
    const row = rows.get('cluster-key-slot');
    if (npm !== redisSlot) {
      differing += 1;
      assert.ok(row, `a row for ${key}`);
      assert.equal(row.node, ownerOf(npm), `master of slot ${npm}`);
      if (ownerOf(npm) !== ownerOf(redisSlot)) {
        assert.ok(row.text.includes(`MOVED ${redisSlot} ${ownerOf(redisSlot)}`), row.text);
      }
    } else {
      assert.equal(row, undefined, `no cluster-key-slot row for ${key}`);
    }
  }
  assert.ok(differing >= 5, `${differing} keys differ`);
  // The example, to the number.
  const rows = await show(page, 'foo{}{bar}', 8363);
  assert.equal(rows.get('cluster-key-slot').slot, '4015');
  assert.equal(rows.get('cluster-key-slot').node, '127.0.0.1:7000');
  assert.match(rows.get('cluster-key-slot').text, /127\.0\.0\.1:7000.*MOVED 8363 127\.0\.0\.1:7001/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('UTF-16 code units: the charCodeAt bug, computed by the npm module on code units', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  const key = '用户:1001';
  const redisSlot = fixture.get('\\xe7\\x94\\xa8\\xe6\\x88\\xb7:1001');
  assert.equal(redisSlot, 12170);
  const rows = await show(page, key, redisSlot);
  // No brace in the key: generate() over the code units is exactly "charCodeAt as a byte".
  const units = Array.from({ length: key.length }, (_, i) => key.charCodeAt(i));
  const buggy = generate(units);
  assert.notEqual(buggy, redisSlot);
  assert.equal(rows.get('utf16')?.slot, String(buggy));
  // The empty key: Redis says 0, a random node is not a slot.
  const empty = await show(page, '', fixture.get(''));
  assert.equal(empty.get('empty-random')?.slot, 'any');
  // A plain key: every rule agrees, and the page says so quietly.
  await typeKey(page, 'foo');
  await page.getByTestId('client-rules-agree').waitFor();
  assert.equal(await page.getByTestId('client-rules').count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the panel opens the MOVED loop: every GET pays a MOVED, 4015 stays on 7000', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await show(page, 'foo{}{bar}', 8363);
  await page.getByTestId('client-rule-watch').first().click();
  await page.waitForFunction(() => document.querySelector('[data-testid=scenario-select]').value === 'client-disagrees');
  const timeline = page.getByTestId('timeline');
  const n = Number(await timeline.getAttribute('data-steps'));
  await page.locator('#redirections .redir__player').focus();
  await page.keyboard.press('End');
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid=timeline]').dataset.step) === n, n);
  const lines = await page.getByTestId('wire-line').allTextContents();
  const moved = lines.filter((l) => l === '(error) MOVED 8363 127.0.0.1:7001');
  const values = lines.filter((l) => l === '"hello"');
  assert.ok(values.length >= 3, lines.join('\n'));
  assert.equal(moved.length, values.length, 'one MOVED per command');
  const node = (slot) => page.locator(`[data-testid=client-slot-table] tr[data-slot="${slot}"]`).getAttribute('data-node');
  assert.equal(await node(4015), '127.0.0.1:7000');
  assert.equal(await node(8363), '127.0.0.1:7001');
  assert.match(await page.getByTestId('narration').textContent(), /\S/);
  assert.deepEqual(problems, []);
  await context.close();
});

test("each rule's link plays that rule's own MOVED loop, with its own key", async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  const watch = (rule) => page.locator(`[data-testid=client-rule][data-rule="${rule}"] [data-testid=client-rule-watch]`);
  // `{a}{b}`: Redis hashes `a` (7002's), the last brace pair `b` (7000's).
  const redisSlot = fixture.get('{a}{b}');
  const lastSlot = fixture.get('b');
  assert.notEqual(ownerOf(redisSlot), ownerOf(lastSlot));
  const rows = await show(page, '{a}{b}', redisSlot);
  assert.equal(rows.get('last-brace-pair')?.slot, String(lastSlot));
  assert.equal(await watch('last-brace-pair').getAttribute('href'), '#redirect=client-last-brace:0');
  // 用户:1001 in UTF-16 code units lands on the same master as Redis's slot: nothing to watch.
  await show(page, '用户:1001', fixture.get('\\xe7\\x94\\xa8\\xe6\\x88\\xb7:1001'));
  assert.equal(ownerOf(generate([...'用户:1001'].map((c) => c.charCodeAt(0)))), ownerOf(12170));
  assert.equal(await watch('utf16').count(), 0);
  // naïve: the UTF-16 rule sends it to another master, and its link plays that loop.
  const naive = slotByRule('naïve');
  await show(page, 'naïve', naive);
  await watch('utf16').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=scenario-select]').value === 'client-utf16');
  await page.locator('#redirections .redir__player').focus();
  await page.keyboard.press('End');
  const n = Number(await page.getByTestId('timeline').getAttribute('data-steps'));
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid=timeline]').dataset.step) === n, n);
  const lines = await page.getByTestId('wire-line').allTextContents();
  const moved = lines.filter((l) => l === `(error) MOVED ${naive} ${ownerOf(naive)}`);
  const values = lines.filter((l) => l === '"hello"');
  assert.ok(values.length >= 3, lines.join('\n'));
  assert.equal(moved.length, values.length, 'one MOVED per command');
  // The last-brace scenario, opened from its link, routes `{a}{b}` by `b` first.
  await page.evaluate(() => { location.hash = '#redirect=client-last-brace:0'; });
  await page.waitForFunction(() => document.querySelector('[data-testid=scenario-select]').value === 'client-last-brace');
  await page.locator('#redirections .redir__player').focus();
  await page.keyboard.press('End');
  await page.waitForFunction(() => {
    const t = document.querySelector('[data-testid=timeline]');
    return Number(t.dataset.step) === Number(t.dataset.steps);
  });
  const last = await page.getByTestId('wire-line').allTextContents();
  assert.ok(last.includes(`(error) MOVED ${redisSlot} ${ownerOf(redisSlot)}`), last.join('\n'));
  const node = (slot) => page.locator(`[data-testid=client-slot-table] tr[data-slot="${slot}"]`).getAttribute('data-node');
  assert.equal(await node(lastSlot), ownerOf(lastSlot));
  assert.equal(await node(redisSlot), ownerOf(redisSlot));
  assert.deepEqual(problems, []);
  await context.close();
});
