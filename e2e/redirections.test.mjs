//! The redirections view as a reader uses it: step through a live migration to the ASK, its
//! value and the MOVED; watch the client's table change on MOVED and not on ASK; TRYAGAIN;
//! a deep link; the keyboard; the table of client libraries and free mode with a chosen
//! library (a whole-map refresh, a split MGET). Reply texts are compared with the transcripts.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sharedBrowser, openPage, fixtures } from './harness.mjs';

const env = sharedBrowser();
let t07;
before(async () => {
  t07 = await readFile(join(fixtures, 'transcripts', '07_slot_migration_ask_tryagain.txt'), 'utf8');
});

const step = async (page) => Number(await page.getByTestId('timeline').getAttribute('data-step'));
/** Waits for the player to stand at step `n` (a key press renders on the next tick), then
 *  checks it; a wrong step fails with the step it stands at. */
async function atStep(page, n) {
  await page.waitForFunction((n) => Number(document.querySelector('#redirections [data-testid=timeline]').dataset.step) === n, n, { timeout: 5000 }).catch(() => {});
  assert.equal(await step(page), n);
}
const lines = (page) => page.getByTestId('wire-line').allTextContents();
const tableRow = (page, slot) => page.locator(`[data-testid=client-slot-table] tr[data-slot="${slot}"]`).getAttribute('data-node');

/** Steps forward until `pred(lines)` holds; fails at the end of the scenario. */
async function stepUntil(page, pred, what) {
  for (;;) {
    if (pred(await lines(page))) return;
    const s = await step(page);
    const n = Number(await page.getByTestId('timeline').getAttribute('data-steps'));
    assert.ok(s < n, `reached the end without ${what}`);
    await page.getByTestId('step-next').click();
    await page.waitForFunction((s) => Number(document.querySelector('[data-testid=timeline]').dataset.step) === s + 1, s);
  }
}

test('live migration: ASK 5712 as redis-cli printed it, then the value, and the table never changes', async () => {
  const askLine = t07.split('\n').find((l) => /^\(error\) ASK 5712 /.test(l));
  assert.ok(askLine, '07 records an ASK for slot 5712');
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.getByTestId('scenario-select').selectOption('live-migration');
  const before = await tableRow(page, 5712);
  await stepUntil(page, (ls) => ls.includes(askLine), askLine);
  assert.equal(await tableRow(page, 5712), before, 'ASK does not change the table');
  const n = (await lines(page)).length;
  await stepUntil(page, (ls) => ls.slice(n).some((l) => /^"/.test(l)), 'the value after ASKING');
  assert.equal(await tableRow(page, 5712), before);
  assert.match(await page.getByTestId('narration').textContent(), /\S/);
  // The target without ASKING sends the client back: MOVED to the source, as in 07.
  const movedBack = t07.split('\n').find((l) => /^\(error\) MOVED 5712 /.test(l));
  await stepUntil(page, (ls) => ls.includes(movedBack), movedBack);
  assert.deepEqual(problems, []);
  await context.close();
});

test('stale route: the table changes on MOVED', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.getByTestId('scenario-select').selectOption('stale-route');
  const slots = await page.locator('[data-testid=client-slot-table] tr[data-slot]').evaluateAll((r) => r.map((x) => x.dataset.slot));
  const before = await tableRow(page, slots[0]);
  await stepUntil(page, (ls) => ls.some((l) => /^\(error\) MOVED /.test(l)), 'MOVED');
  // The update is the step right after the MOVED reply.
  await page.getByTestId('step-next').click();
  await page.waitForFunction((b) => document.querySelector('[data-testid=client-slot-table] tr[data-slot]')?.dataset.node !== b, before);
  assert.notEqual(await tableRow(page, slots[0]), before);
  assert.deepEqual(problems, []);
  await context.close();
});

test('TRYAGAIN for a multi-key command split across source and target', async () => {
  const tryagain = t07.split('\n').find((l) => /^\(error\) TRYAGAIN /.test(l));
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.getByTestId('scenario-select').selectOption('tryagain');
  await stepUntil(page, (ls) => ls.includes(tryagain), tryagain);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a deep link opens a scenario at a step; keys step and play', async () => {
  const { page, context, problems } = await openPage(env.browser, `${env.server.url}#redirect=live-migration:12`);
  assert.equal(await page.getByTestId('scenario-select').inputValue(), 'live-migration');
  assert.equal(await step(page), 12);
  const player = page.locator('#redirections .redir__player');
  await player.focus();
  await page.keyboard.press('ArrowRight');
  await atStep(page, 13);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await atStep(page, 11);
  // From a focused button the arrows step as well; Space presses the button (one step).
  await page.getByTestId('step-next').focus();
  await page.keyboard.press('ArrowLeft');
  await atStep(page, 10);
  await page.keyboard.press(' ');
  await atStep(page, 11);
  assert.equal(await page.getByTestId('pause').count(), 0, 'Space on a button does not start playback');
  await player.focus();
  // The address follows the step (as a share link), so it can be shared.
  await page.waitForFunction(() => location.hash.startsWith('#s=1.'));
  // The link is written a moment after the step; wait until it has stood still for 700 ms.
  for (let last = '', same = 0; same < 7; await page.waitForTimeout(100)) {
    const h = await page.evaluate(() => location.hash);
    same = h === last ? same + 1 : 0;
    last = h;
  }
  const { page: shared, context: sc } = await openPage(env.browser, page.url());
  assert.equal(await shared.getByTestId('scenario-select').inputValue(), 'live-migration');
  await atStep(shared, 11);
  await sc.close();
  await page.keyboard.press('+');
  await page.keyboard.press('+');
  await page.keyboard.press(' ');
  await page.getByTestId('pause').waitFor();
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=timeline]').dataset.step) > 12);
  await page.getByTestId('pause').click();
  await page.getByTestId('play').waitFor();
  // A link pasted into the open page (only the hash changes) is followed too.
  await page.evaluate(() => { location.hash = '#redirect=tryagain:3'; });
  await page.waitForFunction(() => document.querySelector('[data-testid=scenario-select]').value === 'tryagain');
  await atStep(page, 3);
  // A tampered link is ignored: the first scenario opens at its start.
  const { page: p2, context: c2, problems: pr2 } = await openPage(env.browser, `${env.server.url}#redirect=nope:99999`);
  assert.equal(await step(p2), 0);
  assert.deepEqual(pr2, []);
  await c2.close();
  assert.deepEqual(problems, []);
  await context.close();
});

test('free mode: set up a migration by hand and watch ioredis follow ASK', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  const input = page.getByTestId('free-command-input');
  const send = async (line) => {
    await input.fill(line);
    await input.press('Enter');
    await page.waitForFunction(() => document.querySelector('[data-testid=free-command-input]').value === '');
  };
  await send('@127.0.0.1:7002 SET foo 1');
  await send('@127.0.0.1:7000 CLUSTER SETSLOT 12182 IMPORTING 44084a172411812451c56a0a3330ec6daa733083');
  await send('@127.0.0.1:7002 CLUSTER SETSLOT 12182 MIGRATING d3bede0cd4ba07708f552c2e44e8211e0d571a39');
  await send('@127.0.0.1:7002 MIGRATE 127.0.0.1 7000 foo 0 5000');
  await send('GET foo');
  const replies = await page.getByTestId('free-replies').locator('li').allTextContents();
  assert.deepEqual(replies.slice(-3), ['(error) ASK 12182 127.0.0.1:7000', 'OK', '"1"']);
  // A bad line is refused where the reader typed it; nothing is sent.
  await input.fill('GET "unclosed');
  await input.press('Enter');
  await page.locator('.redir__free [role=alert]').waitFor();
  assert.deepEqual(problems, []);
  await context.close();
});

test('the table of client libraries: each library with the redirect limit its source sets, in both languages', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  const rows = page.locator('[data-testid=client-table] tbody tr');
  // Budgets read from the libraries' source (docs/clients.md): ioredis maxRedirections 16,
  // go-redis MaxRedirects 3, Lettuce maxRedirects 5, Jedis maxAttempts 5 (4 followed),
  // redis-py RedisClusterRequestTTL 16 (15 followed), redis-rs retries 16.
  const got = await rows.evaluateAll((rs) => rs.map((r) => [r.dataset.library, Number(r.dataset.maxRedirects)]));
  assert.deepEqual(got, [['ioredis', 16], ['go-redis', 3], ['lettuce', 5], ['jedis', 4], ['redis-py', 15], ['redis-rs', 16]]);
  const en = await page.locator('[data-testid=client-table]').textContent();
  assert.match(en, /CLUSTER SLOTS/);
  assert.match(en, /CLUSTER NODES/);
  assert.match(en, /Keys must belong to same hashslot\./);
  assert.match(en, /v5\.11\.1/);
  await page.getByTestId('lang-select').selectOption('zh');
  await page.waitForFunction(() => /客户端库/.test(document.querySelector('[data-testid=client-table]')?.textContent ?? ''));
  const zh = await page.locator('[data-testid=client-table]').textContent();
  // Names, numbers, commands and the libraries' own messages stay as they are.
  for (const kept of ['ioredis v5.11.1', 'Lettuce 7.7.0.RELEASE', 'maxRedirections = 16', 'CLUSTER SLOTS', 'Keys must belong to same hashslot.']) {
    assert.ok(zh.includes(kept), kept);
  }
  assert.notEqual(zh, en);
  assert.deepEqual(problems, []);
  await context.close();
});

test('free mode: go-redis reloads its whole map after the ASK; Lettuce splits an MGET across slots', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  const input = page.getByTestId('free-command-input');
  const send = async (line) => {
    await input.fill(line);
    await input.press('Enter');
    await page.waitForFunction(() => document.querySelector('[data-testid=free-command-input]').value === '');
  };
  await page.getByTestId('free-policy').selectOption('go-redis');
  await send('@127.0.0.1:7002 SET foo 1');
  await send('@127.0.0.1:7000 CLUSTER SETSLOT 12182 IMPORTING 44084a172411812451c56a0a3330ec6daa733083');
  await send('@127.0.0.1:7002 CLUSTER SETSLOT 12182 MIGRATING d3bede0cd4ba07708f552c2e44e8211e0d571a39');
  await send('@127.0.0.1:7002 MIGRATE 127.0.0.1 7000 foo 0 5000');
  await send('GET foo');
  const replies = await page.getByTestId('free-replies').locator('li').allTextContents();
  const ask = replies.indexOf('(error) ASK 12182 127.0.0.1:7000');
  assert.ok(ask >= 0, replies.join(' | '));
  // The lazy reload: a CLUSTER SLOTS reply (the first range is 0-5460, as the fixtures' map).
  assert.match(replies[ask + 1], /^1\) 1\) \(integer\) 0\n/);
  assert.deepEqual(replies.slice(-2), ['OK', '"1"']);
  assert.match(await page.locator('.redir__free .redir__narration').textContent(), /\S/);
  // Lettuce: MGET over two slots, split and reassembled (transcript 04's keys).
  await page.getByTestId('free-policy').selectOption('lettuce');
  await send('@127.0.0.1:7000 SET hello 1');
  await send('@127.0.0.1:7000 SET bar 2');
  await send('MGET hello bar');
  const after = await page.getByTestId('free-replies').locator('li').allTextContents();
  assert.deepEqual(after.slice(-2), ['1) "1"', '1) "2"']);
  assert.ok(await page.locator('.redir__free svg').getByText('split by slot into 2 commands').count() > 0);
  // redis-py refuses it before sending: no reply at all.
  await page.getByTestId('free-policy').selectOption('redis-py');
  await send('MGET hello bar');
  assert.match(await page.locator('.redir__free .redir__narration').textContent(), /redis-py refuses MGET before sending anything/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the lettuce-splits scenario ends with the reassembled reply; ASK never claims the key is already on the target', async () => {
  const { page, context, problems } = await openPage(env.browser, `${env.server.url}#redirect=lettuce-splits:6`);
  assert.equal(await page.getByTestId('scenario-select').inputValue(), 'lettuce-splits');
  const ls = await lines(page);
  assert.equal(ls.at(-1), '1) "1"\n2) "2"');
  await page.getByTestId('scenario-select').selectOption('live-migration');
  await stepUntil(page, (l) => l.some((x) => /^\(error\) ASK /.test(x)), 'ASK');
  const said = await page.getByTestId('narration').textContent();
  assert.match(said, /never written/);
  assert.doesNotMatch(said, /already on the target|no longer there/);
  assert.deepEqual(problems, []);
  await context.close();
});

// bus-engine: a client during a failover. The replies are the ones a real 7.0.15 cluster gave
// (tests/bus_engine.rs records them): the killed master refuses the connection, a healthy
// master answers CLUSTERDOWN while FAIL holds the cluster down, the restarted old master
// answers MOVED to the promoted replica, and the client refreshes its table.
test('a client during a failover: refused, CLUSTERDOWN, then MOVED to the new master', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.getByTestId('scenario-select').selectOption('client-failover');
  assert.equal(await tableRow(page, 866), '127.0.0.1:7000');
  // The refused connection is the client's own note (no reply comes back): read the narration.
  for (;;) {
    const said = await page.getByTestId('narration').textContent();
    if (/127\.0\.0\.1:7000's process is dead: the connection is refused/.test(said)) break;
    assert.ok(!(await lines(page)).includes('(error) CLUSTERDOWN The cluster is down'), 'refused before CLUSTERDOWN');
    const s = await step(page);
    await page.getByTestId('step-next').click();
    await page.waitForFunction((s) => Number(document.querySelector('[data-testid=timeline]').dataset.step) === s + 1, s);
  }
  const sent = (await page.getByTestId('narration').textContent());
  assert.ok(sent.length > 0);
  await page.getByTestId('step-prev').click();
  assert.match(await page.getByTestId('narration').textContent(), /^t = \d+\.\d s after 127\.0\.0\.1:7000 was killed/);
  await page.getByTestId('step-next').click();
  await stepUntil(page, (ls) => ls.includes('(error) CLUSTERDOWN The cluster is down'), 'CLUSTERDOWN');
  await stepUntil(page, (ls) => ls.includes('(error) MOVED 866 127.0.0.1:7004'), 'MOVED to the new master');
  const seen = (await lines(page)).length;
  await stepUntil(page, (ls) => ls.slice(seen).includes('"1"'), 'the value from the new master');
  assert.equal(await tableRow(page, 866), '127.0.0.1:7004');
  assert.deepEqual(problems, []);
  await context.close();
});
