//! State on the sequence diagram, as a reader steps through the live migration of slot 5712:
//! MIGRATING on the source and IMPORTING on the target from the steps where transcript 07 set
//! them, the keys each node holds (the profile moves at MIGRATE, the orders stay), the reply
//! style, the RESP heading, and the current arrow kept in view on a 390 px phone.
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

const SOURCE = '127.0.0.1:7001';
const TARGET = '127.0.0.1:7002';
const step = async (page) => Number(await page.getByTestId('timeline').getAttribute('data-step'));

async function next(page) {
  const s = await step(page);
  await page.getByTestId('step-next').click();
  await page.waitForFunction((s) => Number(document.querySelector('[data-testid=timeline]').dataset.step) === s + 1, s);
}

/** The label of the current arrow. */
const current = (page) => page.getByTestId('seq-current').locator('.seq__label').textContent();

/** Steps until the current arrow's label is `text`. */
async function stepTo(page, text) {
  const n = Number(await page.getByTestId('timeline').getAttribute('data-steps'));
  for (let i = 0; i <= n; i++) {
    if ((await step(page)) > 0 && (await current(page)) === text) return;
    assert.ok((await step(page)) < n, `never reached ${text}`);
    await next(page);
  }
}

const bands = (page) => page.getByTestId('slot-state').evaluateAll((els) => els.map((e) => ({
  node: e.dataset.node, slot: e.dataset.slot, state: e.dataset.state, open: e.dataset.ends === 'open',
})));
const keysOn = (page, node) => page.locator(`[data-testid=lane-key][data-node="${node}"]`).evaluateAll((els) => els.map((e) => e.dataset.key));

test('the live migration draws MIGRATING, IMPORTING and each node\'s keys at the steps Redis reported them', async () => {
  // Recorded in transcript 07: the commands, their OK, and the two sides' CLUSTER NODES flags.
  for (const line of [
    '$ redis-cli -p 7002 CLUSTER SETSLOT 5712 IMPORTING f7c6b5d608aefdd517b33641eb638ce56252d0b4\nOK',
    '$ redis-cli -p 7001 CLUSTER SETSLOT 5712 MIGRATING 44084a172411812451c56a0a3330ec6daa733083\nOK',
    '[5712->-44084a172411812451c56a0a3330ec6daa733083]',
    '[5712-<-f7c6b5d608aefdd517b33641eb638ce56252d0b4]',
    '$ redis-cli -p 7001 MIGRATE 127.0.0.1 7002 {user:1001}:profile 0 5000\nOK',
    '$ redis-cli -p 7001 GET {user:1001}:orders\n"3"',
  ]) assert.ok(t07.includes(line), line);
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.getByTestId('scenario-select').selectOption('live-migration');
  assert.equal(await page.getByTestId('seq-current').count(), 0, 'no current arrow before the first step');
  assert.deepEqual(await bands(page), []);

  // After the two SETs, 7001 holds both keys.
  // Node ids are cut to 8 digits as redis-cli --cluster prints them; the tooltip has them whole.
  await stepTo(page, 'CLUSTER SETSLOT 5712 IMPORTING f7c6b5d6…');
  assert.equal(await page.getByTestId('seq-current').locator('title').textContent(),
    'CLUSTER SETSLOT 5712 IMPORTING f7c6b5d608aefdd517b33641eb638ce56252d0b4');
  assert.deepEqual(await bands(page), [], 'the request has not been answered yet');
  assert.deepEqual(await keysOn(page, SOURCE), ['{user:1001}:orders', '{user:1001}:profile']);
  await next(page); // OK
  assert.deepEqual(await bands(page), [{ node: TARGET, slot: '5712', state: 'importing', open: true }]);

  await stepTo(page, 'CLUSTER SETSLOT 5712 MIGRATING 44084a17…');
  await next(page);
  const both = await bands(page);
  assert.deepEqual(both.filter((b) => b.node === SOURCE), [{ node: SOURCE, slot: '5712', state: 'migrating', open: true }]);
  assert.equal(both.filter((b) => b.node === TARGET).length, 1);
  // The heads say so in words.
  assert.match(await page.locator(`.seq__lane[data-lane="${SOURCE}"] .seq__state--migrating`).textContent(), /^MIGRATING 5712 → :7002$/);
  assert.match(await page.locator(`.seq__lane[data-lane="${TARGET}"] .seq__state--importing`).textContent(), /^IMPORTING 5712 ← :7001$/);

  // The keys move at the MIGRATE step: before its OK both are on 7001, after it the profile is on 7002.
  await stepTo(page, 'MIGRATE 127.0.0.1 7002 {user:1001}:profile 0 5000');
  assert.deepEqual(await keysOn(page, TARGET), []);
  await next(page);
  assert.deepEqual(await keysOn(page, SOURCE), ['{user:1001}:orders']);
  assert.deepEqual(await keysOn(page, TARGET), ['{user:1001}:profile']);

  // A reply is dashed while it is the current arrow (its style is not overridden).
  await stepTo(page, '(error) ASK 5712 127.0.0.1:7002');
  const dash = await page.getByTestId('seq-current').locator('.seq__shaft').evaluate((e) => getComputedStyle(e).strokeDasharray);
  assert.notEqual(dash, 'none', 'the current reply is dashed');
  // Back one step: the bands stay, the diagram is one row shorter.
  const tall = await page.locator('svg.seq').first().evaluate((e) => e.viewBox.baseVal.height);
  await page.getByTestId('step-prev').click();
  const short = await page.locator('svg.seq').first().evaluate((e) => e.viewBox.baseVal.height);
  assert.ok(short < tall, `the diagram grows with its steps (${short} < ${tall})`);

  // With the wire bytes shown, the heading says RESP; redis-cli's heading never sits over \r\n.
  await page.getByLabel('show the RESP wire bytes').check();
  const heading = await page.getByTestId('replies-heading').textContent();
  assert.doesNotMatch(heading, /as redis-cli prints them/);
  assert.match(heading, /RESP/);
  assert.ok((await page.getByTestId('wire-line').allTextContents()).some((l) => l.includes('\\r\\n')));
  await page.getByLabel('show the RESP wire bytes').uncheck();
  assert.match(await page.getByTestId('replies-heading').textContent(), /as redis-cli prints them/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the operator lifeline sits on the far side, so the client\'s arrows never cross it', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.getByTestId('scenario-select').selectOption('live-migration');
  const lanes = await page.locator('svg.seq').first().locator('.seq__lane').evaluateAll((els) => els.map((e) => e.dataset.lane));
  assert.deepEqual(lanes, ['client', '127.0.0.1:7001', '127.0.0.1:7002', 'operator']);
  assert.deepEqual(problems, []);
  await context.close();
});

test('on a 390 px phone the diagram has three lanes and keeps the current arrow in view', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url, { width: 390, height: 844 });
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.getByTestId('scenario-select').selectOption('live-migration');
  const lanes = await page.locator('svg.seq').first().locator('.seq__lane').count();
  assert.equal(lanes, 3, 'client and the two nodes; the operator is optional');
  assert.equal(await page.getByTestId('show-operator').isChecked(), false);
  // The controls stand in one row.
  const tops = await page.locator('#redirections .redir__controls > *').evaluateAll((els) => els
    .filter((e) => getComputedStyle(e).display !== 'none').map((e) => Math.round(e.getBoundingClientRect().top)));
  assert.ok(Math.max(...tops) - Math.min(...tops) < 12, `one row: ${tops}`);
  const n = Number(await page.getByTestId('timeline').getAttribute('data-steps'));
  for (let i = 0; i < n; i++) {
    await next(page);
    // The arrow's shaft, or a note's box.
    const inView = await page.locator('[data-testid=seq-current] > :first-child').evaluate((el) => {
      const r = el.getBoundingClientRect();
      const box = el.closest('.redir__diagram').getBoundingClientRect();
      const cx = (r.left + r.right) / 2;
      // Not under the section bar or the player's controls, which stick at the top.
      const ceiling = document.querySelector('#redirections .redir__controls').getBoundingClientRect().bottom;
      return r.bottom > ceiling && r.top < innerHeight && cx >= box.left - 1 && cx <= box.right + 1;
    });
    assert.ok(inView, `step ${i + 1}: the current arrow is in view`);
  }
  // No reply line widens the page: the client-failover scenario's longest (step 18) wraps.
  await page.getByTestId('scenario-select').selectOption('client-failover');
  for (let i = 0; i < 18; i++) await next(page);
  const wider = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
  assert.ok(wider <= 0, `the page is ${wider}px wider than the phone`);
  await page.getByTestId('scenario-select').selectOption('live-migration');
  // With the operator shown, its arrows are arrows again (a fourth lane).
  await page.getByTestId('show-operator').check();
  assert.equal(await page.locator('svg.seq').first().locator('.seq__lane').count(), 4);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a reshard on the map shows its trail, the count and the keys that moved', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.getByTestId('tour-start').click();
  for (let i = 0; i < 4; i++) await page.getByTestId('tour-next').click();
  assert.equal(await page.getByTestId('tour').getAttribute('data-stop'), 'resharding');
  const count = page.getByTestId('reshard-count');
  await count.waitFor();
  // Transcript 13: --cluster-slots 1000, all moved by the end.
  await page.waitForFunction(() => document.querySelector('[data-testid=reshard-count]').dataset.moved === '1000');
  assert.equal(await count.getAttribute('data-total'), '1000');
  const trails = await page.getByTestId('reshard-trail').evaluateAll((els) => els.map((e) => ({ from: e.dataset.from, to: e.dataset.to, n: Number(e.dataset.slots) })));
  assert.ok(trails.length >= 3, 'one trail per source');
  assert.equal(new Set(trails.map((t) => t.to)).size, 1, 'all go to the new master');
  assert.deepEqual(problems, []);
  await context.close();
});

// seq18: the current arrow's animations start again at every step (a reused element's CSS
// animation had finished at step 1, so from step 2 on the token never moved).
test('every step draws its arrow anew: the shaft grows and the token travels from the step on', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.getByTestId('scenario-select').selectOption('live-migration');
  const n = Number(await page.getByTestId('timeline').getAttribute('data-steps'));
  let tokens = 0;
  for (let i = 0; i < n; i++) {
    const t0 = await page.evaluate(() => document.timeline.currentTime);
    await next(page);
    const anim = await page.getByTestId('seq-current').evaluate((g, t0) => {
      const started = (el) => el && el.getAnimations().some((a) => a.startTime === null || a.startTime >= t0);
      return { token: !!g.querySelector('.seq__token'), tokenOk: started(g.querySelector('.seq__token')),
        shaftOk: g.querySelector('.seq__shaft') ? started(g.querySelector('.seq__shaft')) : true };
    }, t0);
    if (anim.token) tokens++;
    assert.ok(!anim.token || anim.tokenOk, `step ${i + 1}: the token's travel started at this step`);
    assert.ok(anim.shaftOk, `step ${i + 1}: the shaft grows at this step`);
  }
  assert.ok(tokens > 10, `arrows with a token: ${tokens}`);
  // Back one step: that arrow is the current one again and draws again.
  const t0 = await page.evaluate(() => document.timeline.currentTime);
  await page.getByTestId('step-prev').click();
  const again = await page.getByTestId('seq-current').evaluate((g, t0) => [...g.querySelectorAll('.seq__shaft, .seq__token')]
    .every((el) => el.getAnimations().some((a) => a.startTime === null || a.startTime >= t0)), t0);
  assert.ok(again, 'stepping back draws the arrow again');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a key glides from the source lane to the target\'s at MIGRATE, and no key moves at any other step', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.getByTestId('scenario-select').selectOption('live-migration');
  const laneX = (node) => page.locator(`.seq__lane[data-lane="${node}"] .seq__head`).evaluate((e) => {
    const r = e.getBoundingClientRect(); return (r.left + r.right) / 2;
  });
  const [src, dst] = [await laneX(SOURCE), await laneX(TARGET)];
  const n = Number(await page.getByTestId('timeline').getAttribute('data-steps'));
  let glided = 0;
  for (let i = 0; i < n; i++) {
    await next(page);
    const moving = await page.getByTestId('lane-key').evaluateAll((els) => els
      .filter((e) => e.getAnimations().length > 0).map((e) => ({ key: e.dataset.key, node: e.dataset.node })));
    if ((await current(page)) === 'OK' && (await keysOn(page, TARGET)).length === 1 && moving.length) {
      // The MIGRATE's OK: the profile starts on 7001's lane and ends on 7002's.
      assert.deepEqual(moving, [{ key: '{user:1001}:profile', node: TARGET }]);
      const key = page.locator(`[data-testid=lane-key][data-key="{user:1001}:profile"]`);
      const at = (when) => key.evaluate((e, when) => {
        const a = e.getAnimations()[0];
        if (when === 'start') { a.pause(); a.currentTime = 0; } else a.finish();
        const r = e.getBoundingClientRect(); return (r.left + r.right) / 2;
      }, when);
      const start = await at('start');
      assert.ok(Math.abs(start - src) < 4, `starts on the source lane: ${start} vs ${src}`);
      const end = await at('end');
      assert.ok(Math.abs(end - dst) < 4, `ends on the target lane: ${end} vs ${dst}`);
      glided++;
    } else {
      assert.deepEqual(moving, [], `step ${i + 1}: no key moves`);
    }
    // Every key stands under its own lane's head, within the diagram.
    const off = await page.getByTestId('lane-key').evaluateAll((els) => els.filter((e) => e.getAnimations().length === 0).map((e) => {
      const head = document.querySelector(`.seq__lane[data-lane="${e.dataset.node}"] .seq__head`).getBoundingClientRect();
      const r = e.getBoundingClientRect();
      return Math.abs((r.left + r.right) / 2 - (head.left + head.right) / 2);
    }));
    assert.ok(off.every((d) => d < 4), `step ${i + 1}: keys under their heads (${off})`);
  }
  assert.equal(glided, 1, 'one glide, at the MIGRATE');
  assert.deepEqual(problems, []);
  await context.close();
});

test('on a 390 px phone no step of any scenario widens the page (the narration wraps a node id)', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url, { width: 390, height: 844 });
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const ids = await page.getByTestId('scenario-select').locator('option').evaluateAll((os) => os.map((o) => o.value));
  assert.ok(ids.length >= 5, `scenarios: ${ids}`);
  for (const id of ids) {
    await page.getByTestId('scenario-select').selectOption(id);
    const n = Number(await page.getByTestId('timeline').getAttribute('data-steps'));
    for (let i = 0; i <= n; i++) {
      if (i > 0) await next(page);
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= 390, `${id} step ${i}: the page is ${wide}px wide`);
    }
    assert.equal(await page.getByTestId('step-next').isDisabled(), true, `${id}: nothing after the last step`);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('a reply of many lines (stale route\'s CLUSTER SLOTS) is cut to the diagram, whole in its tooltip', async () => {
  const t10 = await readFile(join(fixtures, 'transcripts', '10_before_add_node_cluster_slots.txt'), 'utf8');
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.getByTestId('scenario-select').selectOption('stale-route');
  const n = Number(await page.getByTestId('timeline').getAttribute('data-steps'));
  let seen = false;
  for (let i = 0; i < n; i++) {
    await next(page);
    const svg = await page.locator('svg.seq').first().boundingBox();
    const label = await page.getByTestId('seq-current').locator('.seq__label').boundingBox();
    assert.ok(label.x >= svg.x - 1 && label.x + label.width <= svg.x + svg.width + 1,
      `step ${i + 1}: the label (${label.x}..${label.x + label.width}) is within the diagram (${svg.x}..${svg.x + svg.width})`);
    const title = page.getByTestId('seq-current').locator('title');
    if (await title.count()) {
      const whole = await title.textContent();
      if (whole.startsWith('1) 1) (integer) 0')) {
        // redis-cli 7.0.15 printed this reply for the three-master cluster (transcript 10).
        assert.ok(whole.split('\n').length > 10);
        assert.ok(t10.includes(whole.split('\n').slice(0, 12).join('\n')), 'the tooltip holds the reply as redis-cli printed it');
        assert.match(await page.getByTestId('seq-current').locator('.seq__label').textContent(), /^1\) 1\) \(integer\) 0 .*…$/);
        seen = true;
      }
    }
  }
  assert.ok(seen, 'the CLUSTER SLOTS reply was drawn');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the heads stay in view under the player\'s controls while the diagram is on screen', async () => {
  for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
    const { page, context, problems } = await openPage(env.browser, env.server.url, viewport);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.getByTestId('scenario-select').selectOption('live-migration');
    const n = Number(await page.getByTestId('timeline').getAttribute('data-steps'));
    for (let i = 0; i < n; i++) await next(page);
    const where = await page.evaluate(() => {
      const heads = document.querySelector('[data-testid=seq-heads] > rect').getBoundingClientRect();
      const controls = document.querySelector('#redirections .redir__controls').getBoundingClientRect();
      const svg = document.querySelector('svg.seq').getBoundingClientRect();
      const cur = document.querySelector('[data-testid=seq-current] > :first-child').getBoundingClientRect();
      return { heads: heads.top, headsBottom: heads.bottom, controls: controls.bottom, svgTop: svg.top, cur: cur.top };
    });
    assert.ok(where.svgTop < where.controls, `${viewport.width}: the diagram's top has scrolled under the controls (${JSON.stringify(where)})`);
    assert.ok(Math.abs(where.heads - where.controls) < 2, `${viewport.width}: the heads sit under the controls (${JSON.stringify(where)})`);
    assert.ok(where.cur >= where.headsBottom, `${viewport.width}: the current arrow is below the heads (${JSON.stringify(where)})`);
    // The lane names are what is seen there.
    const name = await page.locator(`.seq__lane[data-lane="${SOURCE}"] .seq__head-text`).boundingBox();
    assert.ok(name.y >= where.controls - 1, 'the lane name is in view');
    assert.deepEqual(problems, []);
    await context.close();
  }
});
