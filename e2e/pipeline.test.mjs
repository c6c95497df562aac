//! The pipeline as a reader uses it, against the fixtures recorded from Redis 7.0.15.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sharedBrowser, openPage, keyslotByDisplay, typeKey, readPipeline, masterRows, fixtures, crc16 } from './harness.mjs';

const env = sharedBrowser();
let fixture;
before(async () => {
  fixture = await keyslotByDisplay();
});

/** Bytes of a redis-cli display string (the fixtures' escape form). */
function displayToBytes(s) {
  const out = [];
  const simple = { n: 10, r: 13, t: 9, a: 7, b: 8, '\\': 92, '"': 34 };
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\') {
      const c = s[++i];
      if (c === 'x') { out.push(parseInt(s.slice(i + 1, i + 3), 16)); i += 2; } else out.push(simple[c]);
    } else out.push(...new TextEncoder().encode(s[i]));
  }
  return out;
}

// The twelve edge cases of PRODUCT.md with the part each hashes (in display form), then
// foo, a binary key and a UTF-8 key. `typed` is what the reader types.
const CASES = [
  { typed: 'a{b}c', hashed: 'b' },
  { typed: '{b}', hashed: 'b' },
  { typed: '{}a', hashed: '{}a' },
  { typed: '{a', hashed: '{a' },
  { typed: 'a}', hashed: 'a}' },
  { typed: '{{a}}', hashed: '{a' },
  { typed: '{a}{b}', hashed: 'a' },
  { typed: '{a}}', hashed: 'a' },
  { typed: 'x{}{y}', hashed: 'x{}{y}' },
  { typed: 'a{b', hashed: 'a{b' },
  { typed: '{a}b}c', hashed: 'a' },
  { typed: '', hashed: '' },
  { typed: 'foo', hashed: 'foo' },
  { typed: '\\xff\\x00{a}', hashed: 'a' },
  { typed: '用户:1001', hashed: '\\xe7\\x94\\xa8\\xe6\\x88\\xb7:1001', display: '\\xe7\\x94\\xa8\\xe6\\x88\\xb7:1001' },
  { typed: '{用户}:资料', hashed: '\\xe7\\x94\\xa8\\xe6\\x88\\xb7' },
];

const OWNERS = [[0, 5460, '127.0.0.1:7000'], [5461, 10922, '127.0.0.1:7001'], [10923, 16383, '127.0.0.1:7002']];
const ownerOf = (slot) => OWNERS.find(([a, b]) => slot >= a && slot <= b)[2];

test('each edge-case key shows the slot, CRC16, hashed part and master Redis gives', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  for (const c of CASES) {
    await typeKey(page, c.typed);
    // The fixtures give the slot of the whole key; where the key itself is not there, the slot
    // of its hashed part (which Redis hashes alone) is.
    const want = fixture.get(c.display ?? c.typed) ?? fixture.get(c.hashed);
    assert.ok(want !== undefined, `no fixture for ${c.typed}`);
    await page.waitForFunction((s) => document.querySelector('[data-testid=slot]')?.textContent === String(s), want);
    const got = await readPipeline(page);
    assert.equal(got.slot, want, `slot of ${c.typed}`);
    assert.equal(got.hashed, c.hashed, `hashed part of ${c.typed}`);
    assert.match(got.crc, /^0x[0-9A-F]{4}$/);
    assert.equal(parseInt(got.crc, 16) & 0x3fff, want, `CRC16 & 0x3FFF of ${c.typed}`);
    assert.equal(parseInt(got.crc, 16), crc16(displayToBytes(c.hashed)), `CRC16 of ${c.typed}`);
    assert.equal(got.node, ownerOf(want), `master of ${c.typed}`);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('the CLUSTER KEYSLOT line the page prints is the one redis-cli was typed, with the same reply', async () => {
  const transcript = await readFile(join(fixtures, 'transcripts/01_keyslot_edge_cases.txt'), 'utf8');
  const lines = transcript.split('\n');
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  let checked = 0;
  for (let i = 0; i < lines.length; i++) {
    const m = lines[i].match(/^127\.0\.0\.1:7000> (CLUSTER KEYSLOT (.*))$/);
    if (!m) continue;
    const reply = lines[i + 1];
    await typeKey(page, m[2]);
    await page.waitForFunction((r) => `(integer) ${document.querySelector('[data-testid=slot]').textContent}` === r, reply);
    // Quoted in the transcript: the page prints exactly that line. Unquoted ones it quotes
    // (and escapes non-ASCII bytes, as redis-cli prints keys).
    const shown = await page.getByTestId('verify-command').textContent();
    if (m[2].startsWith('"')) assert.equal(shown, m[1]);
    else if (/^[\x20-\x7e]*$/.test(m[2])) assert.equal(shown, `CLUSTER KEYSLOT "${m[2]}"`);
    else assert.match(shown, /^CLUSTER KEYSLOT "(\\x[0-9a-f]{2}|[\x20-\x7e])*"$/);
    checked++;
  }
  assert.equal(checked, 36);
  assert.deepEqual(problems, []);
  await context.close();
});

test('{user1}:profile lands on slot 8106 on 127.0.0.1:7001, and the rule is named', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await typeKey(page, 'foo');
  await typeKey(page, '{user1}:profile');
  assert.deepEqual(await readPipeline(page), { hashed: 'user1', crc: '0xDFAA', slot: 8106, node: '127.0.0.1:7001' });
  assert.match(await page.getByTestId('tag-rule').textContent(), /Hash tag/);
  await typeKey(page, 'x{}{y}');
  assert.match(await page.getByTestId('tag-rule').textContent(), /empty tag/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a malformed escape is pointed at by column and the last good result stays', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await typeKey(page, 'foo');
  const good = await readPipeline(page);
  // Pasted (not typed key by key), so the last key that parsed is foo, not a prefix of the paste.
  for (const [typed, column] of [['ab\\x4', 3], ['\\xZZ', 1], ['abc\\', 4], ['"abc', 1], ['a\\q', 2]]) {
    await page.getByTestId('key-input').fill(typed);
    const error = page.getByTestId('key-error');
    // The previous key's message may still be showing: wait for this one's column.
    await page.waitForFunction((c) => document.querySelector('[data-testid=key-error]')?.textContent.includes(`Column ${c}:`),
      column, { timeout: 5000 }).catch(() => {});
    assert.match(await error.textContent(), new RegExp(`Column ${column}:`), typed);
    assert.equal(await page.getByTestId('key-input').getAttribute('aria-invalid'), 'true');
    assert.deepEqual(await readPipeline(page), good, `the result of foo stays while ${typed} is typed`);
    assert.ok(await page.locator('.pipeline--stale').count() === 1, 'the stale result is dimmed');
  }
  // Typed key by key through an error and out of it: the field keeps focus throughout.
  await typeKey(page, 'q\\x41');
  await page.getByTestId('key-error').waitFor({ state: 'detached' });
  assert.equal(await page.getByTestId('key-input').inputValue(), 'q\\x41');
  assert.equal((await readPipeline(page)).hashed, 'qA');
  assert.deepEqual(problems, []);
  await context.close();
});

test('an edit paints in the field first and reaches the pipeline a task after that frame; leaving the field takes it at once', async () => {
  const { page, problems } = await openPage(env.browser, env.server.url);
  await typeKey(page, 'foo');
  // One edit made as the browser makes it: the field changes, then its input event.
  const seen = await page.evaluate(() => new Promise((done) => {
    const field = document.getElementById('key-field');
    const slot = () => document.querySelector('[data-testid=slot]').textContent;
    field.value = 'bar';
    field.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: 'bar' }));
    const during = { slot: slot(), pending: field.hasAttribute('data-pending') };
    // The edit's frame, then a task after it (timers run in order), then the frame after.
    requestAnimationFrame(() => {
      const inFrame = slot();
      setTimeout(() => requestAnimationFrame(() => done({ during, inFrame, after: slot(), pending: field.hasAttribute('data-pending') })), 0);
    });
  }));
  assert.deepEqual(seen, { during: { slot: '12182', pending: true }, inFrame: '12182', after: String(5061), pending: false });
  // Edits made before the task runs are taken together, and a blur takes a waiting edit now.
  const blurred = await page.evaluate(async () => {
    const field = document.getElementById('key-field');
    for (const text of ['{user1}', '{user1}:a']) {
      field.value = text;
      field.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText' }));
    }
    field.blur();
    // Yew renders in a microtask of the blur's task; no frame has come between.
    await Promise.resolve();
    return { slot: document.querySelector('[data-testid=slot]').textContent, pending: field.hasAttribute('data-pending') };
  });
  assert.deepEqual(blurred, { slot: '8106', pending: false });
  assert.deepEqual(problems, []);
});

test('a key that comes after the edit\'s frame began, or is still down in its first frame, holds the edit for a frame without one; keys in every frame are taken by the 12th', async () => {
  const { page, problems } = await openPage(env.browser, env.server.url);
  await typeKey(page, 'foo');
  // An edit, then a key (a keyup) in each of the next `keys` frames, each after the page's own
  // frame callback (set from a task after the page's task, so it runs after the page's in the
  // next frame): a key released while its echo's frame was being made, as a script's `press`
  // often is, or keys in every frame. Returns, after each frame's tasks, whether the edit still
  // waits and the slot shown; then the same once the keys stop and a frame has passed.
  const run = (text, keys, frames) => page.evaluate(({ text, keys, frames }) => new Promise((done) => {
    const field = document.getElementById('key-field');
    const slot = () => document.querySelector('[data-testid=slot]').textContent;
    const key = (type) => field.dispatchEvent(new KeyboardEvent(type, { key: 'x', bubbles: true }));
    key('keydown');
    field.value = text;
    field.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: 'x' }));
    const log = [];
    const frame = () => {
      if (log.length < keys) key('keyup');
      setTimeout(() => {
        log.push([field.hasAttribute('data-pending'), slot()]);
        if (log.length < frames) requestAnimationFrame(frame);
        else done(log);
      }, 0);
    };
    requestAnimationFrame(frame);
  }), { text, keys, frames });
  // Keys in the first three frames: the edit waits through them and is taken after the fourth.
  const held = await run('bar', 3, 5);
  assert.deepEqual(held, [[true, '12182'], [true, '12182'], [true, '12182'], [false, '5061'], [false, '5061']]);
  // A key in every frame: the pipeline still follows after 12 frames (about 200 ms).
  const every = await run('{user1}', 30, 13);
  assert.deepEqual(every, [...Array(11).fill([true, '5061']), [false, '8106'], [false, '8106']]);
  // A key still down when its first frame's task runs (a keydown whose keyup is on its way, as
  // a script's `press` or a quick tap sends them): the edit waits that frame out, so the keyup
  // is not shown with the pipeline's frame; after the next it is taken, key up or still held.
  // `keys` go down in order before the edit; all but the first come up at once, the first
  // after `upAfter` frames.
  const down = (text, upAfter, frames, keys = ['y']) => page.evaluate(({ text, upAfter, frames, keys }) => new Promise((done) => {
    const field = document.getElementById('key-field');
    const slot = () => document.querySelector('[data-testid=slot]').textContent;
    const key = (type, k) => field.dispatchEvent(new KeyboardEvent(type, { key: k, bubbles: true }));
    for (const k of keys) key('keydown', k);
    field.value = text;
    field.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: 'y' }));
    for (const k of keys.slice(1).reverse()) key('keyup', k);
    const log = [];
    const frame = () => setTimeout(() => {
      log.push([field.hasAttribute('data-pending'), slot()]);
      // After the page's task for this frame (set before this one), before the next frame.
      if (log.length === upAfter) key('keyup', keys[0]);
      if (log.length < frames) requestAnimationFrame(frame);
      else done(log);
    }, 0);
    requestAnimationFrame(frame);
  }), { text, upAfter, frames, keys });
  assert.deepEqual(await down('bar', 1, 3), [[true, '8106'], [false, '5061'], [false, '5061']]);
  // Held through all three frames (its keyup after them).
  assert.deepEqual(await down('foo', 3, 3), [[true, '5061'], [false, '12182'], [false, '12182']]);
  // Ctrl+V: the V is up at once, the Control still down in the first frame.
  assert.deepEqual(await down('bar', 1, 3, ['Control', 'v']), [[true, '12182'], [false, '5061'], [false, '5061']]);
  // `which` acts before the first frame (i = -1) and in the test's task after the page's in
  // frame i; the log is whether the edit still waits then.
  const frames = (n, which) => page.evaluate(({ n, which }) => new Promise((done) => {
    const field = document.getElementById('key-field');
    const key = (type, k, repeat = false) => field.dispatchEvent(new KeyboardEvent(type, { key: k, repeat, bubbles: true }));
    const edit = (text) => { field.value = text; field.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText' })); };
    const steps = {
      // A held key: its repeats are keydowns without keyups, an edit each.
      repeat: (i) => {
        if (i === -1) { key('keydown', 'x'); edit('x'); } else if (i < n - 1) { key('keydown', 'x', true); edit('x'.repeat(i + 2)); } else key('keyup', 'x');
      },
      // Cmd+V as macOS sends it (no keyup for the V), then a key pressed and released at once.
      meta: (i) => {
        if (i === -1) { key('keydown', 'Meta'); key('keydown', 'v'); edit('bar'); key('keyup', 'Meta'); } else if (i === 1) { key('keydown', 'z'); edit('foo'); key('keyup', 'z'); }
      },
    };
    steps[which](-1);
    const log = [];
    const frame = () => setTimeout(() => {
      log.push(field.hasAttribute('data-pending'));
      steps[which](log.length - 1);
      if (log.length < n) requestAnimationFrame(frame);
      else done(log);
    }, 0);
    requestAnimationFrame(frame);
  }), { n, which });
  // The repeats do not hold the edit past the first key's first frame: each repeat's edit is
  // taken in the frame after it.
  assert.deepEqual(await frames(5, 'repeat'), [true, false, false, false, false]);
  // Meta's keyup forgets the V, so the key pressed and released before a frame is taken in it.
  assert.deepEqual(await frames(3, 'meta'), [false, false, false]);
  assert.deepEqual(problems, []);
});

test('a 10 MB paste is refused with a clear message and the last key stays', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await typeKey(page, 'foo');
  // The last keystroke may still be on its way to the page (seen on a loaded machine).
  await page.waitForFunction(() => document.querySelector('[data-testid="hashed-part"]')?.textContent === 'foo');
  const good = await readPipeline(page);
  await page.getByTestId('key-input').fill('x'.repeat(10 * 1024 * 1024));
  const error = page.getByTestId('key-error');
  await error.waitFor();
  assert.match(await error.textContent(), /up to 1,048,576 bytes \(1 MiB\)/);
  // Text with no escape is its own bytes: the message gives their number, not an estimate.
  assert.match(await error.textContent(), /^This key would be 10,485,760 bytes;/);
  assert.deepEqual(await readPipeline(page), good);
  // Escapes in a text too long to be worth reading: each byte takes at most four characters
  // (\xNN), so the key has at least a quarter as many bytes as the text, and says so.
  const escaped = '\\x41'.repeat(1_200_000);
  await page.getByTestId('key-input').fill(escaped);
  await page.waitForFunction(() => /at least/.test(document.querySelector('[data-testid=key-error]')?.textContent ?? ''));
  assert.match(await error.textContent(), new RegExp(`^This key would be at least ${(escaped.length / 4).toLocaleString('en-US')} bytes;`));
  assert.deepEqual(await readPipeline(page), good);
  // A 64 KB key (the longest fixture key) is still explained.
  const [hex, , slot] = (await readFile(join(fixtures, 'keyslot_64k.tsv'), 'utf8')).split('\n')[1].split('\t');
  const typed = hex.match(/../g).map((b) => `\\x${b}`).join('');
  await page.getByTestId('key-input').fill(typed);
  await error.waitFor({ state: 'detached' });
  assert.equal((await readPipeline(page)).slot, Number(slot));
  assert.deepEqual(problems, []);
  await context.close();
});

test('a key over 1000 bytes is drawn on a layer of its own, from the frame that pastes it, and a short key goes back to the page\'s', async () => {
  // The 64 KB paste's frame was spent drawing its one line in every 256-px tile it crossed
  // (issue 17, ARCHITECTURE.md "Typing"); its own layer is cut into fewer tiles.
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  const field = page.getByTestId('key-input');
  const layer = () => field.evaluate((f) => [f.classList.contains('is-long'), getComputedStyle(f).willChange]);
  assert.deepEqual(await layer(), [false, 'auto']);
  // Each differs from the one before, so the wait sees the field change.
  for (const [key, long] of [['k'.repeat(1001), true], ['k'.repeat(1000), false], ['k'.repeat(64 * 1024), true], ['foo', false]]) {
    await field.fill(key);
    await page.waitForFunction((l) => document.getElementById('key-field').classList.contains('is-long') === l, long);
    assert.deepEqual(await layer(), [long, long ? 'transform' : 'auto'], `${key.length} bytes`);
  }
  // A long key pasted is on its layer in the paste's own frame, before its edit is taken.
  const pasted = await page.evaluate(() => {
    const field = document.getElementById('key-field');
    field.value = 'k'.repeat(2000);
    field.setSelectionRange(2000, 2000);
    field.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste' }));
    return [field.hasAttribute('data-pending'), field.classList.contains('is-long')];
  });
  assert.deepEqual(pasted, [true, true]);
  await page.waitForFunction(() => !document.getElementById('key-field').hasAttribute('data-pending'));
  assert.deepEqual(await layer(), [true, 'transform']);
  await field.fill('bar');
  await page.waitForFunction(() => !document.getElementById('key-field').classList.contains('is-long'));
  // Pasted, then undone before the edit is taken: the key is as before, and so is the layer.
  await page.waitForFunction(() => document.querySelector('[data-testid=hashed-part]')?.textContent === 'bar');
  await page.evaluate(() => {
    const field = document.getElementById('key-field');
    for (const text of ['k'.repeat(2000), 'bar']) {
      field.value = text;
      field.setSelectionRange(text.length, text.length);
      field.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: text === 'bar' ? 'historyUndo' : 'insertFromPaste' }));
    }
  });
  await page.waitForFunction(() => !document.getElementById('key-field').hasAttribute('data-pending'));
  assert.deepEqual(await layer(), [false, 'auto']);
  assert.deepEqual(problems, []);
  await context.close();
});

test('user text is shown as text, never parsed as HTML', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await typeKey(page, '<img src=x onerror=alert(1)>');
  assert.equal(await page.getByTestId('hashed-part').textContent(), '<img src=x onerror=alert(1)>');
  assert.equal(await page.locator('.pipeline img').count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('hovering the map names the slot and its owner; the legend lists the fixture ranges', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  const canvas = page.getByTestId('slot-map');
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  // Slot 8106 is row 63, column 42 of the 128 x 128 grid.
  await page.mouse.move(box.x + (42.5 / 128) * box.width, box.y + (63.5 / 128) * box.height);
  const tip = page.locator('.slot-map__tip');
  await tip.waitFor();
  assert.match(await tip.textContent(), /Slot 8106 · 127\.0\.0\.1:7001 · 5461-10922/);
  const rows = await masterRows(page);
  assert.deepEqual(rows, [
    { addr: '127.0.0.1:7000', slots: '5461', ranges: '0-5460' },
    { addr: '127.0.0.1:7001', slots: '5462', ranges: '5461-10922' },
    { addr: '127.0.0.1:7002', slots: '5461', ranges: '10923-16383' },
  ]);
  assert.match(await page.locator('[data-testid=node-row][data-addr="127.0.0.1:7001"]').textContent(), /5462 slots/);
  // The canvas is painted: the pixel at slot 0 has the first master's colour, not transparent.
  const rgba = await canvas.evaluate((c) => Array.from(c.getContext('2d').getImageData(2, 2, 1, 1).data));
  assert.deepEqual(rgba, [0x66, 0xcc, 0xee, 255]); // palette.rs's first colour, #66CCEE
  // Keyboard: focus the map, move right from the key's slot.
  await canvas.focus();
  await page.keyboard.press('ArrowRight');
  assert.match(await page.locator('.slot-map__readout').textContent(), /Slot 8107 · 127\.0\.0\.1:7001/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a created cluster of N masters has redis-cli\'s ranges; a bad N is refused and the map kept', async () => {
  const alloc = (await readFile(join(fixtures, 'create_allocation.tsv'), 'utf8'))
    .trimEnd().split('\n').slice(1).map((l) => l.split('\t').map(Number)).filter(([n]) => n === 7);
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.getByTestId('cluster-select').selectOption('create');
  const n = page.getByTestId('n-masters');
  await n.fill('7');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=node-row][data-role=master]').length === 7);
  const rows = await masterRows(page);
  assert.deepEqual(rows.map((r) => r.ranges), alloc.map(([, , a, b]) => `${a}-${b}`));
  await n.fill('0');
  assert.match(await page.locator('.cluster-picker__error').textContent(), /from 3 to 1000/);
  assert.equal((await masterRows(page)).length, 7);
  assert.deepEqual(problems, []);
  await context.close();
});

test('at 1000 masters each slot on the map is painted in its master\'s colour, as the browser paints that CSS colour', async () => {
  for (const scheme of ['light', 'dark']) {
    const { page, context, problems } = await openPage(env.browser, env.server.url);
    await page.emulateMedia({ colorScheme: scheme });
    await page.getByTestId('cluster-select').selectOption('create');
    await page.getByTestId('n-masters').fill('1000');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=node-row][data-role=master]').length > 20);
    await page.waitForTimeout(300);
    const keySlot = Number(await page.getByTestId('slot').textContent());
    // Every master row rendered (the list is windowed: the first few dozen), with its swatch's
    // CSS colour; the first 8 are hex, the rest oklch().
    const rows = await page.locator('[data-testid=node-row][data-role=master]').evaluateAll((rows) => rows.map((r) => ({
      addr: r.dataset.addr, first: r.dataset.ranges.split(',')[0], colour: r.querySelector('.swatch').style.background,
    })));
    assert.ok(rows.length > 20, `${rows.length} rows`);
    assert.ok(rows.some((r) => r.colour.startsWith('oklch')), rows.map((r) => r.colour).join(' '));
    const checked = await page.getByTestId('slot-map').evaluate((map, { rows, keySlot }) => {
      const probe = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
      const ctx = map.getContext('2d');
      const cell = map.width / 128;
      return rows.map(({ addr, first, colour }) => {
        const [a, b] = first.split('-').map(Number);
        const slot = Math.floor((a + (b ?? a)) / 2);
        if (Math.abs(slot - keySlot) < 3 || Math.abs(slot - keySlot) % 128 < 3) return null;
        probe.clearRect(0, 0, 1, 1);
        probe.fillStyle = colour;
        probe.fillRect(0, 0, 1, 1);
        const want = Array.from(probe.getImageData(0, 0, 1, 1).data);
        const x = Math.floor(((slot % 128) + 0.5) * cell), y = Math.floor((Math.floor(slot / 128) + 0.5) * cell);
        const got = Array.from(ctx.getImageData(x, y, 1, 1).data);
        return { addr, slot, colour, want, got };
      }).filter(Boolean);
    }, { rows, keySlot });
    assert.ok(checked.length > 15, `${checked.length} checked`);
    for (const c of checked) {
      assert.ok(c.want.every((v, i) => Math.abs(v - c.got[i]) <= 1), `${scheme}: slot ${c.slot} of ${c.addr} is ${c.got}, ${c.colour} is ${c.want}`);
    }
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('the CRC register opens below the stages, every column in view, ending at the recorded slot', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  const key = '{user1}:profile';
  await typeKey(page, key);
  await page.locator('.stage__more button').click();
  const reg = page.locator('#crc-register');
  await reg.waitFor();
  assert.equal(await page.locator('.stage__more button').getAttribute('aria-expanded'), 'true');
  const box = await reg.evaluate((r) => ({ scrolls: r.scrollWidth > r.clientWidth, heads: [...r.querySelectorAll('th')].map((th) => th.textContent) }));
  assert.deepEqual(box, { scrolls: false, heads: ['#', 'byte', 'register before', 'table index', 'register after'] });
  // One row per byte of the hashed part (user1), the last register is the CRC, and its low
  // 14 bits are the slot Redis gave the key.
  const rows = await reg.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.equal(rows.length, 5);
  assert.equal(rows[4][4], await page.getByTestId('crc16').textContent());
  assert.equal(parseInt(rows[4][4], 16) & 0x3fff, fixture.get(key));
  await page.locator('.stage__more button').click();
  await reg.waitFor({ state: 'detached' });
  assert.deepEqual(problems, []);
  await context.close();
});

test('at phone width nothing overflows sideways', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url, { width: 390, height: 844 });
  await typeKey(page, '{user1}:profile');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
  // Nor does anything stick out of its card (a wide control inside a flex row can, while the
  // page itself still fits), except inside a region that scrolls sideways on purpose.
  const sticking = await page.evaluate(() => [...document.querySelectorAll('.card *')]
    .filter((e) => !e.closest('.redir__diagram, .visually-hidden') && e.getClientRects().length > 0)
    .filter((e) => e.getBoundingClientRect().right > e.closest('.card').getBoundingClientRect().right + 0.5)
    .map((e) => `${e.tagName.toLowerCase()}.${e.className?.baseVal ?? e.className} ${e.dataset?.testid ?? ''}`));
  assert.deepEqual(sticking, []);
  // Tables that hide their header row name each cell's column instead.
  const tables = await page.locator('.compare__table').evaluateAll((ts) => ts.map((t) => ({
    headHidden: getComputedStyle(t.tHead).display === 'none',
    heads: [...t.tHead.rows[0].cells].slice(1).map((c) => c.textContent),
    cells: [...t.tBodies[0].rows].map((r) => [...r.cells].slice(1).map((c) => getComputedStyle(c, '::before').content.replace(/^"|"$/g, ''))),
  })));
  assert.equal(tables.length, 2);
  for (const t of tables) {
    assert.ok(t.headHidden);
    for (const row of t.cells) assert.deepEqual(row, t.heads);
  }
  // The sequence diagram keeps its labels readable (three lanes at 72% of their size at least)
  // and scrolls instead, following the current arrow (e2e/diagram.test.mjs).
  const diagram = await page.locator('.redir__diagram').evaluate((d) => ({ scrolls: d.scrollWidth > d.clientWidth, svg: d.querySelector('svg.seq').getBoundingClientRect().width }));
  assert.ok(diagram.scrolls && diagram.svg >= 400, JSON.stringify(diagram));
  assert.deepEqual(problems, []);
  await context.close();
});

// map18: the register's table stays inside the CRC card's column, at 1280 and on a phone.
for (const [width, height] of [[1280, 900], [390, 844]]) {
  test(`the CRC register fits under its card at ${width} px`, async () => {
    const { page, context, problems } = await openPage(env.browser, env.server.url, { width, height });
    await typeKey(page, '{user1}:profile');
    await page.locator('.stage__more button').click();
    const reg = page.locator('#crc-register');
    await reg.waitFor();
    const got = await reg.evaluate((r) => {
      const card = [...document.querySelectorAll('.stage')][2].getBoundingClientRect();
      const box = r.getBoundingClientRect();
      const table = r.querySelector('table').getBoundingClientRect();
      // What the reader sees of the table: clipped by the register's own scroller, if any.
      const seen = { left: Math.max(table.left, box.left), right: Math.min(table.right, box.right) };
      return { card: [card.left, card.right], box: [box.left, box.right], seen: [seen.left, seen.right] };
    });
    assert.ok(got.box[0] >= got.card[0] - 0.5 && got.box[1] <= got.card[1] + 0.5, `register ${got.box} under card ${got.card}`);
    assert.ok(got.seen[0] >= got.card[0] - 0.5 && got.seen[1] <= got.card[1] + 0.5, `table drawn ${got.seen} within card ${got.card}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
    assert.deepEqual(problems, []);
    await context.close();
  });
}
