//! Share links: the whole state survives a reload (address and localStorage), opens in a fresh
//! browser from the link alone, a tampered link says what it could not restore, and an old
//! `#redirect=` link still opens.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedBrowser, openPage, masterRows, readPipeline, appReady, linkSaved } from './harness.mjs';

const env = sharedBrowser();

const step = async (page) => Number(await page.getByTestId('timeline').getAttribute('data-step'));

/** What the state is made of, read from the page. */
async function snapshot(page) {
  return {
    key: await page.getByTestId('key-input').inputValue(),
    pipeline: await readPipeline(page),
    masters: await masterRows(page),
    batch: await page.getByTestId('batch-input').inputValue(),
    command: await page.getByTestId('command-select').inputValue(),
    scenario: await page.getByTestId('scenario-select').inputValue(),
    step: await step(page),
  };
}

/** Waits until the address carries a share link different from `before`. */
async function linkChanged(page, before) {
  await page.waitForFunction((b) => location.hash.startsWith('#s=1.') && location.hash !== b, before);
  return page.evaluate(() => location.hash);
}

test('the whole state comes back after a reload and opens from the link in a fresh browser', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  assert.equal(new URL(page.url()).hash, '', 'a plain visit keeps its address');
  await page.getByTestId('key-input').fill('{user42}:cart');
  await page.getByTestId('add-master').click();
  await page.getByTestId('reshard-slots').fill('500');
  await page.getByTestId('reshard-to').selectOption({ label: '127.0.0.1:7006' });
  await page.getByTestId('reshard').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=node-row][data-role=master]').length === 4);
  await page.getByTestId('command-select').selectOption('MGET');
  await page.getByTestId('batch-input').fill('a\n{t}b\n{t}c');
  await page.getByTestId('scenario-select').selectOption('live-migration');
  await page.getByTestId('step-next').click();
  await page.getByTestId('step-next').click();
  await page.getByTestId('step-next').click();
  const want = await snapshot(page);
  assert.equal(want.step, 3);
  assert.equal(want.masters.length, 4);
  await page.waitForFunction(() => location.hash.startsWith('#s=1.'));
  // Wait for the pause after the last change, so the address holds all of it.
  await linkSaved(page);
  const link = await page.evaluate(() => location.hash);
  assert.ok(link.length < 400, `link is ${link.length} characters`);
  const saved = await page.evaluate(() => localStorage.getItem('slotscope.state'));
  assert.equal(`#${saved}`, link);

  // Reload with the link in the address.
  await page.reload();
  await appReady(page);
  assert.deepEqual(await snapshot(page), want);
  // Reload without it: localStorage brings it back.
  await page.evaluate(() => history.replaceState(null, '', location.pathname));
  await page.reload();
  await appReady(page);
  assert.deepEqual(await snapshot(page), want);
  assert.equal(await page.getByTestId('restore-error').count(), 0);

  // The Share button copies the link (clipboard granted) and says so.
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(env.server.url).origin });
  await page.getByTestId('share').click();
  await page.getByTestId('share-status').waitFor();
  assert.match(await page.getByTestId('share-status').textContent(), /Link copied/);
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  // The same state; the section named after it (`&at=`, nav-phone) is the one now in view.
  assert.equal(new URL(copied).hash.split('&at=')[0], link.split('&at=')[0]);

  // A fresh browser context (no localStorage) opens the same state from the link alone.
  const { page: p2, context: c2, problems: pr2 } = await openPage(env.browser, copied);
  assert.deepEqual(await snapshot(p2), want);
  assert.equal(await p2.getByTestId('restore-error').count(), 0);
  assert.deepEqual(pr2, []);
  await c2.close();
  assert.deepEqual(problems, []);
  await context.close();
});

/** A fresh page at step 1 of live-migration, its link saved. */
async function openAtStepOne() {
  const opened = await openPage(env.browser, env.server.url);
  await opened.page.getByTestId('scenario-select').selectOption('live-migration');
  await opened.page.getByTestId('step-next').click();
  await linkSaved(opened.page);
  return opened;
}

test('a reload within the pause after a change keeps the change: the page writes it as it is left', async () => {
  const { page, context, problems } = await openAtStepOne();
  const input = page.getByTestId('key-input');
  // A step, a key edited in the field, and a reload, in one task: the page is left while both
  // wait for their pauses (the key is not even taken from the field yet).
  const reloaded = page.waitForEvent('load');
  await page.evaluate(() => {
    document.querySelector('[data-testid=step-next]').click();
    const field = document.getElementById('key-field');
    field.value = '{user7}:left';
    field.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: 't' }));
    location.reload();
  }).catch(() => {});
  await reloaded;
  await appReady(page);
  assert.equal(await input.inputValue(), '{user7}:left');
  assert.equal((await readPipeline(page)).hashed, 'user7');
  assert.equal(await page.getByTestId('scenario-select').inputValue(), 'live-migration');
  assert.equal(await step(page), 2);
  // Written into localStorage too: the address without it opens the same.
  await page.evaluate(() => history.replaceState(null, '', location.pathname));
  await page.reload();
  await appReady(page);
  assert.equal(await input.inputValue(), '{user7}:left');
  assert.equal(await step(page), 2);
  assert.equal(await page.getByTestId('restore-error').count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a share link pasted into the address while a change waits opens as it says, not overwritten by that change', async () => {
  const { page, context, problems } = await openAtStepOne();
  const atOne = await page.evaluate(() => location.hash);
  await page.getByTestId('step-next').click();
  await linkSaved(page);
  // A key typed, and before its pause the link of step 1 pasted into the address.
  const input = page.getByTestId('key-input');
  await input.fill('');
  await input.pressSequentially('{user9}:typed', { delay: 0 });
  const reloaded = page.waitForEvent('load');
  await page.evaluate((h) => { location.hash = h; }, atOne);
  await reloaded;
  await appReady(page);
  assert.equal(await step(page), 1);
  assert.equal(await input.inputValue(), '{user1}:profile');
  assert.equal(await page.evaluate(() => location.hash), atOne);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a refused clipboard shows the link to copy by hand', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.evaluate(() => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new Error('no')) } });
  });
  await page.getByTestId('key-input').fill('refused');
  await page.getByTestId('share').click();
  const field = page.getByTestId('share-link');
  await field.waitFor();
  assert.equal(new URL(await field.inputValue()).hash, await page.evaluate(() => location.hash));
  assert.deepEqual(problems, []);
  await context.close();
});

test('a tampered link says what it could not restore and restores the rest', async () => {
  // Make a link with a key and a planner input, then damage one character of it.
  const { page, context } = await openPage(env.browser, env.server.url);
  await page.getByTestId('key-input').fill('keep-me');
  await page.waitForFunction(() => location.hash.startsWith('#s=1.'));
  const keyOnly = await page.evaluate(() => location.hash);
  await page.getByTestId('batch-input').fill('GET <b>x</b>');
  // The state without the section the page was scrolled to (`&at=planner`, nav-phone).
  const link = (await linkChanged(page, keyOnly)).split('&at=')[0];
  await context.close();
  // The planner section comes last: damage a character near the end of the payload.
  const cut = link.length - 6;
  const swap = link[cut] === 'A' ? 'B' : 'A';
  const tampered = link.slice(0, cut) + swap + link.slice(cut + 1);
  const { page: p2, context: c2, problems } = await openPage(env.browser, env.server.url + tampered);
  const error = p2.getByTestId('restore-error');
  await error.waitFor();
  assert.equal(await error.getAttribute('role'), 'alert');
  assert.match(await error.textContent(), /planner part is damaged/);
  assert.equal(await p2.getByTestId('key-input').inputValue(), 'keep-me');
  assert.notEqual(await p2.getByTestId('batch-input').inputValue(), 'GET <b>x</b>');
  assert.deepEqual(problems, []);
  await c2.close();

  for (const [hash, says] of [['#s=9.AAAA', /newer version/], ['#s=1.A', /cut short/], ['#s=1.!!', /characters/]]) {
    const { page: p3, context: c3, problems: pr3 } = await openPage(env.browser, env.server.url + hash);
    await p3.getByTestId('restore-error').waitFor();
    assert.match(await p3.getByTestId('restore-error').textContent(), says, hash);
    assert.equal((await readPipeline(p3)).node, '127.0.0.1:7001', 'the page opens as usual');
    assert.deepEqual(pr3, []);
    await c3.close();
  }
});

test('an old #redirect= link still opens its scenario and step', async () => {
  const { page, context, problems } = await openPage(env.browser, `${env.server.url}#redirect=live-migration:3`);
  assert.equal(await page.getByTestId('scenario-select').inputValue(), 'live-migration');
  assert.equal(await step(page), 3);
  assert.equal(await page.getByTestId('restore-error').count(), 0);
  assert.equal(await page.getByTestId('link-error').count(), 0);
  // Moving on turns it into a share link that carries the same scenario.
  // (the page may already have rewritten the old link as a share link at step 3: wait for
  // the one written after the step)
  const before = await page.evaluate(() => location.hash);
  await page.getByTestId('step-next').click();
  await page.waitForFunction((b) => location.hash.startsWith('#s=1.') && location.hash !== b, before);
  // The section bar may rewrite the link once more (its `&at=` part) as the page scrolls to
  // the player: let the address settle on the link of step 4 before reloading.
  await page.waitForFunction(() => new Promise((ok) => {
    const h = location.hash;
    setTimeout(() => ok(location.hash === h), 600);
  }));
  await page.reload();
  await appReady(page);
  assert.equal(await page.getByTestId('scenario-select').inputValue(), 'live-migration');
  assert.equal(await step(page), 4);
  assert.deepEqual(problems, []);
  await context.close();
});
