//! Bad input, everywhere a reader can type or paste: each ends with a clear message where the
//! reader is looking, the state before it intact, and no console error or panic.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sharedBrowser, openPage, typeKey, masterRows, fixtures } from './harness.mjs';

const env = sharedBrowser();
const TEN_MB = 10 * 1024 * 1024;

/** A small seeded generator (mulberry32), so a failing shuffle or cut can be replayed. */
function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The command's output in a transcript: the lines after the `$ redis-cli …` line. */
async function output(name) {
  const text = await readFile(join(fixtures, 'transcripts', name), 'utf8');
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith('$ '));
  return lines.slice(start + 1).join('\n').trimEnd();
}

async function openImport(page) {
  await page.locator('.lab__import summary').click();
}

async function importText(page, text) {
  await page.getByTestId('topology-input').fill(text);
  await page.getByTestId('topology-apply').click();
}

/** The page still answers: a trivial round trip, then the key field still explains keys. */
async function stillAlive(page) {
  assert.equal(await page.evaluate(() => 1 + 1), 2);
  await typeKey(page, 'bar');
  assert.equal(await page.getByTestId('slot').textContent(), '5061');
}

// Every class of malformed escape (core::escape::EscapeError), with the column each names.
const MALFORMED = [
  { typed: 'foo\\x4', column: 4, kind: 'one hex digit' },
  { typed: 'foo\\xZZ', column: 4, kind: 'not hex' },
  { typed: 'foo\\x', column: 4, kind: 'no digits' },
  { typed: 'foo\\q', column: 4, kind: 'unknown escape' },
  { typed: 'foo\\', column: 4, kind: 'trailing backslash' },
  { typed: '"foo', column: 1, kind: 'unclosed quote' },
  { typed: '"foo"bar', column: 6, kind: 'text after the quote' },
];

test('every malformed escape names its column and keeps the last good key', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  for (const { typed, column, kind } of MALFORMED) {
    await typeKey(page, 'foo');
    assert.equal(await page.getByTestId('slot').textContent(), '12182');
    await page.getByTestId('key-input').fill(typed);
    const error = page.getByTestId('key-error');
    // Wait for this key's message (an earlier one may not have been taken down yet).
    await page.waitForFunction((c) => document.querySelector('[data-testid=key-error]')?.textContent.includes(`Column ${c}:`),
      column, { timeout: 5000 }).catch(() => {});
    assert.match(await error.textContent(), new RegExp(`Column ${column}:`), kind);
    assert.equal(await page.getByTestId('key-input').getAttribute('aria-invalid'), 'true', kind);
    assert.equal(await page.getByTestId('slot').textContent(), '12182', `${kind}: the last good key stays`);
    assert.equal(await page.getByTestId('node').textContent(), '127.0.0.1:7002', kind);
  }
  await typeKey(page, 'foo\\x41');
  await page.getByTestId('key-error').waitFor({ state: 'detached', timeout: 5000 }).catch(() => {});
  assert.equal(await page.getByTestId('key-error').count(), 0, 'a fixed key clears the message');
  assert.deepEqual(problems, []);
  await context.close();
});

test('truncated CLUSTER NODES / SHARDS / SLOTS pastes: refused with a message, or taken with warnings and undoable', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await openImport(page);
  const before = await masterRows(page);
  const next = rng(7);
  for (const name of ['14_after_reshard_cluster_nodes.txt', '14_after_reshard_cluster_shards.txt', '14_after_reshard_cluster_slots.txt']) {
    const full = await output(name);
    const cuts = [1, Math.floor(full.length / 3), Math.floor(full.length / 2), full.length - 7,
      ...Array.from({ length: 4 }, () => 1 + Math.floor(next() * (full.length - 2)))];
    for (const cut of cuts) {
      const what = `${name} cut at ${cut} of ${full.length}`;
      await importText(page, full.slice(0, cut));
      const error = page.getByTestId('topology-error');
      if (await error.count()) {
        assert.ok((await error.textContent()).trim().length > 10, `${what}: the message says something`);
        assert.deepEqual(await masterRows(page), before, `${what}: the cluster before is kept`);
      } else {
        // Parsed as a partial cluster: the page must say what is missing, and undo restores.
        const notice = await page.getByTestId('topology-notice').textContent();
        assert.match(notice, /slot|master|replica|node/i, `${what}: the warning names what is missing`);
        await page.getByTestId('undo').click();
        assert.deepEqual(await masterRows(page), before, `${what}: undo restores the cluster`);
      }
    }
  }
  await stillAlive(page);
  assert.deepEqual(problems, []);
  await context.close();
});

test('shuffled CLUSTER NODES lines import to the same cluster as the original order', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await openImport(page);
  const full = await output('14_after_reshard_cluster_nodes.txt');
  await importText(page, full);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=node-row][data-role=master]').length === 4);
  const byAddr = (a, b) => a.addr.localeCompare(b.addr);
  const want = (await masterRows(page)).sort(byAddr);
  for (const seed of [1, 2, 3]) {
    const next = rng(seed);
    const lines = full.split('\n');
    for (let i = lines.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [lines[i], lines[j]] = [lines[j], lines[i]];
    }
    await importText(page, lines.join('\n'));
    assert.equal(await page.getByTestId('topology-error').count(), 0, `seed ${seed}`);
    assert.deepEqual((await masterRows(page)).sort(byAddr), want, `seed ${seed}`);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('a 10 MB paste is refused at once with its limit, in the key field, the import and the planner', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  const huge = 'k'.repeat(TEN_MB);

  await typeKey(page, 'foo');
  await page.getByTestId('key-input').fill(huge);
  const keyError = page.getByTestId('key-error');
  await keyError.waitFor();
  assert.match(await keyError.textContent(), /bytes/);
  assert.equal(await page.getByTestId('slot').textContent(), '12182', 'the key before is kept');
  await stillAlive(page);

  await openImport(page);
  const before = await masterRows(page);
  await importText(page, huge);
  const importError = page.getByTestId('topology-error');
  await importError.waitFor();
  assert.match(await importError.textContent(), /MB|MiB|bytes|large/i);
  assert.deepEqual(await masterRows(page), before, 'the cluster before is kept');
  await page.getByTestId('topology-input').fill('');

  const batch = page.getByTestId('batch-input');
  await batch.scrollIntoViewIfNeeded();
  await page.getByTestId('command-select').selectOption('MGET');
  await batch.fill('user:1\nuser:2');
  const plannedBefore = await page.getByTestId('plan').first().getAttribute('data-round-trips');
  await batch.fill(huge);
  const batchError = page.getByTestId('batch-error');
  await batchError.waitFor();
  assert.match(await batchError.textContent(), new RegExp(`${TEN_MB.toLocaleString('en-US')} bytes.*4,194,304 bytes \\(4 MiB\\)`));
  assert.equal(await batch.inputValue(), 'user:1\nuser:2', 'the batch before is back in the field');
  assert.equal(await page.getByTestId('plan').first().getAttribute('data-round-trips'), plannedBefore);
  await batch.fill('user:3');
  assert.equal(await batchError.count(), 0, 'a batch within the limit clears the message');

  // Free mode: a 10 MB command line.
  const free = page.getByTestId('free-command-input');
  await free.scrollIntoViewIfNeeded();
  const repliesBefore = await page.getByTestId('free-replies').allTextContents();
  await free.fill(`SET k ${huge}`);
  await page.getByTestId('free-send').click();
  const freeError = page.getByTestId('free-error');
  await freeError.waitFor();
  assert.match(await freeError.textContent(), /MB|bytes|long/i);
  assert.deepEqual(await page.getByTestId('free-replies').allTextContents(), repliesBefore, 'the session before is kept');

  await stillAlive(page);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a 10 MB Ctrl+V is refused before any field holds it: the key, free mode, the import, the weights and both templates', async () => {
  // Laid out first and refused after, such a paste took 4 to 9 s in each of these fields.
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(env.server.url).origin });
  // The longest text any field of the page held at an input event.
  await page.evaluate(() => {
    window.__longest = 0;
    document.addEventListener('input', (e) => { window.__longest = Math.max(window.__longest, e.target.value?.length ?? 0); }, true);
  });
  const paste = async (id, text, selectAll = true) => {
    const field = page.getByTestId(id);
    await field.scrollIntoViewIfNeeded();
    await field.click();
    if (selectAll) await page.keyboard.press('Control+A');
    else await page.keyboard.press('End');
    await page.evaluate((t) => navigator.clipboard.writeText(t), text);
    await page.keyboard.press('Control+V');
    return field;
  };
  // What a field holds, or how long it is when long (a failure then prints a line, not 10 MB).
  const held = (field) => field.evaluate((f) => (f.value.length > 100 ? `${f.value.length} characters` : f.value));
  const huge = 'k'.repeat(TEN_MB);

  await typeKey(page, 'foo');
  const key = await paste('key-input', huge);
  await page.getByTestId('key-error').waitFor();
  assert.equal(await page.getByTestId('key-error').textContent(), 'This key would be 10,485,760 bytes; the page explains keys of up to 1,048,576 bytes (1 MiB). The field and the cards keep the key before it.');
  assert.equal(await held(key), 'foo');
  assert.equal(await page.getByTestId('slot').textContent(), '12182', 'the key before is kept');
  // The field holds the key before, which is no invalid text: not marked so, the cards not dimmed.
  assert.equal(await key.getAttribute('aria-invalid'), 'false');
  assert.equal(await page.locator('.pipeline--stale, .pipeline__stale-note').count(), 0);
  // A paste within the limit is the browser's, as ever: the longest fixture key's length.
  await paste('key-input', 'k'.repeat(64 * 1024));
  await page.getByTestId('key-error').waitFor({ state: 'detached' });
  assert.equal(await held(key), `${64 * 1024} characters`);
  await typeKey(page, 'foo');

  const free = await paste('free-command-input', huge, false);
  assert.equal(await held(free), '');
  await free.fill('SET k ');
  await paste('free-command-input', huge, false);
  const freeRefused = page.locator('.redir__free [data-testid=paste-refused]');
  await freeRefused.waitFor();
  assert.equal(await freeRefused.textContent(), 'With that paste the command line would be 10,485,766 bytes; free mode takes lines up to 65,536 bytes (64 KiB), since the diagram shows every argument. Nothing was pasted.');
  assert.equal(await held(free), 'SET k ');
  // The message goes with the next change of the line; the line then runs.
  await paste('free-command-input', 'v', false);
  await freeRefused.waitFor({ state: 'detached' });
  await page.getByTestId('free-send').click();
  await page.getByTestId('free-replies').waitFor();

  await openImport(page);
  const before = await masterRows(page);
  const area = await paste('topology-input', huge);
  const importRefused = page.locator('.lab__import [data-testid=paste-refused]');
  await importRefused.waitFor();
  assert.equal(await importRefused.textContent(), 'With that paste the text would be 10,485,760 bytes; the import reads at most 2,097,152 bytes (2 MiB). Nothing was pasted. Paste one command\'s output (CLUSTER NODES is the most compact).');
  assert.equal(await held(area), '');
  assert.deepEqual(await masterRows(page), before, 'the cluster before is kept');
  await area.press('x');
  await importRefused.waitFor({ state: 'detached' });
  await area.fill('');

  for (const id of ['weights', 'tag-template', 'gen-template']) {
    const field = page.getByTestId(id);
    const was = await field.inputValue();
    await paste(id, huge);
    const refused = page.getByTestId('paste-refused');
    await refused.waitFor();
    assert.equal(await refused.textContent(), 'With that paste the field would hold 10,485,760 bytes; it takes up to 65,536 bytes (64 KiB). Nothing was pasted.', id);
    assert.equal(await held(field), was, id);
    // The message goes with the next change of the field.
    await field.press('End');
    await field.press('x');
    await refused.waitFor({ state: 'detached' });
    await field.fill(was);
  }
  assert.equal(await page.evaluate(() => window.__longest), 64 * 1024, 'no field held more than the 64 KB key');
  await stillAlive(page);
  assert.deepEqual(problems, []);
  await context.close();
});

test('line breaks pasted into a one-line field are what the refusals count: the last dropped, the others spaces', async () => {
  // The rule src/ui/clipboard.rs (with_line_breaks) counts a paste by, against Chromium itself.
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(env.server.url).origin });
  const field = page.getByTestId('free-command-input');
  await field.scrollIntoViewIfNeeded();
  for (const [pasted, held] of [['a\nb\r\nc\rd', 'a b c d'], ['ab\r\n', 'ab'], ['ab\n\n', 'ab'], ['\r\n\r\nab', '  ab'], ['a\n \n', 'a  '], ['\n', '']]) {
    await field.fill('');
    await page.evaluate((t) => navigator.clipboard.writeText(t), pasted);
    await field.click();
    await page.keyboard.press('Control+V');
    assert.equal(await field.inputValue(), held, JSON.stringify(pasted));
  }
  // A line of exactly the limit with a line break after it (a whole copied line) is taken.
  const line = 'k'.repeat(64 * 1024);
  await field.fill('');
  await page.evaluate((t) => navigator.clipboard.writeText(t), `${line}\r\n`);
  await page.keyboard.press('Control+V');
  assert.equal((await field.inputValue()).length, line.length);
  assert.equal(await page.getByTestId('paste-refused').count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a tampered or truncated share link says what it could not open and opens the rest', async () => {
  const cases = [
    { hash: '#redirect=no-such-scenario:3', says: /no-such-scenario/, steps: (s) => s === 0 },
    { hash: '#redirect=live-migration:99999', says: /99999/, steps: (s, n) => s === n },
    { hash: '#redirect=live-migration:-2', says: /-2/, steps: (s) => s === 0 },
    { hash: '#redirect=live-migr', says: /live-migr/, steps: (s) => s === 0 },
    { hash: `#redirect=${'%3Cb%3E'.repeat(3000)}:1`, says: /%3Cb%3E/, steps: (s) => s === 0 },
  ];
  for (const { hash, says, steps } of cases) {
    const { page, context, problems } = await openPage(env.browser, env.server.url + hash);
    const error = page.getByTestId('link-error');
    await error.waitFor();
    const text = await error.textContent();
    assert.match(text, says, hash.slice(0, 60));
    assert.ok(text.length < 400, 'the quoted part of the link is cut short');
    assert.equal(await page.locator('.redirections b').count(), 0, 'link text is shown as text, not HTML');
    const timeline = page.getByTestId('timeline');
    const [s, n] = [Number(await timeline.getAttribute('data-step')), Number(await timeline.getAttribute('data-steps'))];
    assert.ok(steps(s, n), `${hash.slice(0, 60)}: step ${s} of ${n}`);
    // A good link pasted into the open page replaces the message with what it asks for.
    await page.evaluate(() => { location.hash = '#redirect=live-migration:2'; });
    await page.waitForFunction(() => document.querySelector('[data-testid=timeline]').dataset.step === '2');
    assert.equal(await error.count(), 0);
    await stillAlive(page);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('rapid typing while the map animates a reshard and the redirections play', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await page.getByTestId('scenario-select').selectOption('live-migration');
  await page.getByTestId('play').click();
  await page.getByTestId('add-master').click();
  await page.getByTestId('reshard-slots').fill('4000');
  await page.getByTestId('reshard').click();
  // Type while both animations run: the key field must end up explaining the last text.
  const input = page.getByTestId('key-input');
  await input.fill('');
  await input.pressSequentially('{user1000}.following\\x', { delay: 0 });
  await input.press('Backspace');
  await input.press('Backspace');
  await input.pressSequentially(':followers', { delay: 0 });
  await page.getByTestId('step-next').click();
  await input.press('End');
  await input.pressSequentially('!', { delay: 0 });
  // The page takes an edit a task after the field paints it (`data-pending` until then).
  await page.waitForFunction(() => !document.getElementById('key-field').hasAttribute('data-pending'));
  assert.equal(await input.inputValue(), '{user1000}.following:followers!');
  assert.equal(await page.getByTestId('hashed-part').textContent(), 'user1000');
  assert.equal(await page.getByTestId('slot').textContent(), '3443'); // keyslot user1000
  assert.equal(await page.getByTestId('key-error').count(), 0);
  assert.equal(await page.locator('[data-testid=node-row][data-role=master]').count(), 4);
  assert.deepEqual(problems, []);
  await context.close();
});
