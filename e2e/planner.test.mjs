//! The fan-out planner, the tag generator and the hot-spot experiment as a reader uses them,
//! against the fixtures (transcripts 04-05, distribution.tsv) and the tests' own slot function
//! (harness.mjs `redisSlot`, itself checked against keyslot.tsv).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sharedBrowser, openPage, fixtures, redisSlot, linkSaved } from './harness.mjs';

const env = sharedBrowser();

async function paste(page, text, command = 'commands') {
  await page.getByTestId('command-select').selectOption(command);
  await page.getByTestId('batch-input').fill(text);
}

/** The page with the clipboard allowed (pastes are trusted Ctrl+V, as a reader makes them), its
 * lines being keys for one MGET. */
async function openForPastes() {
  const opened = await openPage(env.browser, env.server.url);
  await opened.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(env.server.url).origin });
  await opened.page.getByTestId('command-select').selectOption('MGET');
  return opened;
}

/** Replaces the batch with `text` as a reader does: the clipboard, then Ctrl+A, Ctrl+V. */
async function pasteOver(page, text) {
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await page.getByTestId('batch-input').focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Control+V');
}

/** The clipboard's text once it holds `bytes` bytes (Copy writes it asynchronously), or what
 * it holds after 10 s, for the assertion to show. */
async function clipboardOf(page, bytes) {
  await page.waitForFunction(async (n) => new TextEncoder().encode(await navigator.clipboard.readText()).length === n, bytes, { timeout: 10_000 }).catch(() => {});
  return page.evaluate(() => navigator.clipboard.readText());
}

const verdicts = (page) => page.getByTestId('verdict').allTextContents();
/** `n` as the page writes counts: digits grouped by three with commas, in both languages. */
const grouped = (n) => n.toLocaleString('en-US');
/** `bytes` in KB as the page writes sizes: one decimal, rounded, the whole part grouped. */
const kb = (bytes) => {
  const tenths = Math.floor((bytes * 10 + 512) / 1024);
  return `${grouped(Math.floor(tenths / 10))}.${tenths % 10}`;
};

test('MSET a 1 b 2 c 3 is CROSSSLOT', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await paste(page, 'MSET a 1 b 2 c 3');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=verdict]').length === 1);
  assert.deepEqual(await verdicts(page), ["CROSSSLOT Keys in request don't hash to the same slot"]);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the MULTI blocks of 05_multi_exec_crossslot.txt get the replies redis-cli printed', async () => {
  const text = await readFile(join(fixtures, 'transcripts', '05_multi_exec_crossslot.txt'), 'utf8');
  // The interactive session on 7000: commands after the prompt, replies on the next line(s).
  const lines = text.split('\n');
  const commands = [];
  const replies = [];
  for (let i = 0; i < lines.length; i++) {
    const m = lines[i].match(/^127\.0\.0\.1:7000(?:\(TX\))?> (.*)$/);
    if (!m || m[1] === 'quit') continue;
    commands.push(m[1]);
    const reply = [];
    for (let j = i + 1; j < lines.length && !/^(127\.0\.0\.1:\d+|\$)/.test(lines[j]); j++) reply.push(lines[j]);
    replies.push(reply.join('\n').replace(/^\(error\) /, ''));
  }
  assert.equal(commands.length, 12);
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await paste(page, commands.join('\n'));
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=verdict]').length === n, commands.length);
  assert.deepEqual(await verdicts(page), replies);
  assert.deepEqual(problems, []);
  await context.close();
});

test('unknown commands and unbalanced quotes get a message on their line; the rest still run', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await paste(page, 'FOO bar\nGET "unclosed\nMSET a 1 b 2');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=verdict]').length === 3);
  const [unknown, quotes, mset] = await verdicts(page);
  assert.match(unknown, /^ERR unknown command 'FOO'/);
  assert.match(quotes, /^Invalid argument\(s\): column \d+/);
  assert.equal(mset, "CROSSSLOT Keys in request don't hash to the same slot");
  assert.deepEqual(problems, []);
  await context.close();
});

test('other data types are routed as a node routes them; what the page does not run is its own note', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await paste(page, 'PFCOUNT hello bar\nHGET foo f\nBLPOP hello 0\nINFO\nCLUSTER NODES');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=verdict], [data-testid=verdict-note]').length === 5);
  const [crossslot, moved, nodes] = await verdicts(page);
  // The same replies as transcripts 04 and 02 give MSET and GET.
  assert.equal(crossslot, "CROSSSLOT Keys in request don't hash to the same slot");
  assert.equal(moved, 'MOVED 12182 127.0.0.1:7002');
  // CLUSTER NODES as redis-cli prints it: a line per node, the fixtures' six nodes.
  const lines = nodes.trim().split('\n');
  assert.equal(lines.length, 6);
  assert.ok(lines.some((l) => /^d3bede0cd4ba07708f552c2e44e8211e0d571a39 127\.0\.0\.1:7000@17000 myself,master - /.test(l)), nodes);
  const notes = await page.getByTestId('verdict-note').allTextContents();
  assert.deepEqual(notes, [
    'Not run here: BLPOP with timeout 0 waits until another client pushes; nothing here ever will, so a real client would block for ever. slotscope does not run it.',
    'Not run here: slotscope does not simulate INFO: its real output carries ids, timestamps and counters that change from run to run.',
  ]);
  assert.deepEqual(problems, []);
  await context.close();
});

test('04 and 06 (MSET/MGET/DEL/EVAL) one-shot commands from 7000 get the replies redis-cli printed', async () => {
  const text = (await readFile(join(fixtures, 'transcripts', '04_crossslot_mset_mget.txt'), 'utf8'))
    + '\n' + (await readFile(join(fixtures, 'transcripts', '06_eval_crossslot.txt'), 'utf8'));
  const lines = text.split('\n');
  const pairs = [];
  for (let i = 0; i < lines.length; i++) {
    // Plain (not -c) one-shot commands only: -c follows redirects, the page shows the node's answer.
    const m = lines[i].match(/^\$ redis-cli -p 7000 (.*)$/);
    if (!m) continue;
    const reply = [];
    for (let j = i + 1; j < lines.length && !/^[$#]/.test(lines[j]); j++) reply.push(lines[j]);
    pairs.push([m[1], reply.join('\n').replace(/^\(error\) /, '')]);
  }
  assert.ok(pairs.length >= 10);
  // In the recorded session 05 had left hello = 2 (SET hello 1, INCR hello) before 06 read it.
  const setup = 'SET hello 2';
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await paste(page, [setup, ...pairs.map(([c]) => c)].join('\n'));
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=verdict]').length === n, pairs.length + 1);
  assert.deepEqual((await verdicts(page)).slice(1), pairs.map(([, r]) => r));
  assert.deepEqual(problems, []);
  await context.close();
});

test('keys for one MGET: verdict, and round trips per strategy', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await paste(page, '{user1}:a\n{user1}:b\nfoo', 'MGET');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=plan]').length === 4);
  assert.deepEqual(await verdicts(page), ["CROSSSLOT Keys in request don't hash to the same slot"]);
  const trips = await page.getByTestId('plan').evaluateAll((rows) =>
    Object.fromEntries(rows.map((r) => [r.dataset.strategy, Number(r.dataset.roundTrips)])));
  // 3 keys, 2 slots ({user1} → 8106 on 7001, foo → 12182 on 7002), 2 masters.
  assert.deepEqual(trips, { 'per-key': 3, 'per-slot': 2, 'per-master': 2, tagged: 2 });
  // Asked all at once, the busiest master (7001: two keys) sets the wait: two GETs in a row
  // per key, one exchange otherwise.
  const parallel = await page.getByTestId('plan-parallel').allTextContents();
  assert.deepEqual(parallel, ['≈ 2 × RTT', '≈ 1 × RTT', '≈ 1 × RTT', '≈ 1 × RTT']);
  // Two keys in one slot, sent as one MGET to their master: accepted.
  await paste(page, '{user1}:a\n{user1}:b', 'MGET');
  await page.getByTestId('plan-node').selectOption('127.0.0.1:7001');
  await page.waitForFunction(() => document.querySelector('[data-testid=verdict]')?.textContent.startsWith('1)'));
  assert.deepEqual(problems, []);
  await context.close();
});

test('Generate shows one batch at a time: the generated keys replace the pasted lines in view, with a way back', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  const strategies = () => page.locator('.planner h3.lab__title').first().textContent();
  const pastedRows = () => page.locator('.planner .verdict:not([data-testid=generated-verdict])').count();
  const alerts = () => page.locator('.planner .lab__error[role=alert]').count();
  // Two keys for one MGET and a line that is not a key: one verdict, one line problem.
  await paste(page, 'user:1\nbad\\x4\nuser:2', 'MGET');
  await page.waitForFunction(() => /^2 keys in/.test(document.querySelector('.planner h3.lab__title')?.textContent ?? ''));
  assert.equal(await pastedRows(), 1);
  assert.equal(await alerts(), 1);
  assert.match(await page.locator('.planner .lab__error[role=alert]').textContent(), /^line 2: /);

  await page.getByTestId('gen-template').fill('user:%d');
  await page.getByTestId('gen-count').fill('300');
  await page.getByTestId('generate').click();
  await page.getByTestId('generated-verdict').waitFor();
  // Only the generated batch is in view: its row, its plan, and a note saying so.
  assert.match(await strategies(), /^300 keys in/);
  assert.equal(await pastedRows(), 0, 'the pasted lines\' verdicts are set aside');
  assert.equal(await alerts(), 0, 'and so are their problems');
  assert.equal(await page.locator('.planner .verdict').count(), 1);
  assert.match(await page.getByTestId('generated-note').textContent(), /generated keys below \(300 keys\)/);
  assert.equal(await page.getByTestId('batch-input').inputValue(), 'user:1\nbad\\x4\nuser:2', 'the paste itself is kept');

  // The way back: the pasted lines, their verdict and their problem, and their plan.
  await page.getByTestId('show-pasted').click();
  await page.getByTestId('generated-verdict').waitFor({ state: 'detached' });
  assert.match(await strategies(), /^2 keys in/);
  assert.equal(await pastedRows(), 1);
  assert.equal(await alerts(), 1);
  assert.equal(await page.getByTestId('generated-note').count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

/** Waits until the planner has a batch's plan: nothing in the works, the plan's four rows and
 * the chunks' figures shown (the note "Planning 1,000,000 keys…" also names the keys). */
async function planned(page) {
  await page.waitForFunction(() => !document.querySelector('[data-testid=batch-working]')
    && document.querySelectorAll('[data-testid=plan]').length === 4
    && document.querySelector('[data-testid=chunk-stats]'), null, { timeout: 60_000 });
}

test('a million generated route-cache keys are made a slice per frame, with their progress, into the plan of the keys made in one piece', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.locator('.planner__gen select').selectOption('h3');
  await page.getByTestId('gen-count').fill('1000000');
  await page.evaluate(() => {
    window.__working = [];
    new MutationObserver(() => {
      const note = document.querySelector('[data-testid=batch-working]');
      const now = note && { phase: note.dataset.phase, text: note.textContent, value: note.querySelector('progress')?.value };
      if (now && JSON.stringify(now) !== JSON.stringify(window.__working.at(-1))) window.__working.push(now);
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  const t0 = Date.now();
  await page.getByTestId('generate').click();
  await planned(page);
  console.log(`# 1,000,000 keys generated and planned in ${Date.now() - t0} ms (informative)`);
  const working = await page.evaluate(() => window.__working);
  const phases = working.map((w) => w.phase).filter((p, i, all) => p !== all[i - 1]);
  assert.deepEqual(phases, ['generating', 'planning']);
  assert.equal(working[0].text, 'Generating keys: 0 of 1,000,000…');
  const made = working.filter((w) => w.phase === 'generating').map((w) => w.value);
  assert.ok(made.length > 2 && made.every((v, i) => i === 0 || v > made[i - 1]), `progress ${made}`);
  const figures = (p) => p.evaluate(() => ({
    plan: [...document.querySelectorAll('[data-testid=plan]')].map((r) => r.textContent),
    chunks: document.querySelector('[data-testid=chunk-stats]').textContent,
    title: document.querySelector('.planner h3.lab__title').textContent,
  }));
  const sliced = await figures(page);
  assert.equal(sliced.plan.length, 4);
  assert.match(sliced.plan[0], /1,000,000/);
  // The same generator restored from the page's link makes its keys in one piece. The link
  // is saved a pause after the keys are made, behind the plan's own tasks.
  await linkSaved(page);
  const link = await page.evaluate(() => location.hash);
  const other = await openPage(env.browser, env.server.url + link);
  await planned(other.page);
  assert.deepEqual(await figures(other.page), sliced);
  assert.deepEqual(other.problems, []);
  await other.context.close();
  assert.deepEqual(problems, []);
  await context.close();
});

test('4 tags per master for routing:v1:%d: every tag lands where the page says (checked with redisSlot)', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.getByTestId('tag-template').fill('routing:v1:%d');
  await page.getByTestId('tags-per-master').fill('4');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=tag-row]').length === 12);
  const tags = await page.getByTestId('tag-row').evaluateAll((rows) =>
    rows.map((r) => ({ tag: r.dataset.tag, slot: Number(r.dataset.slot), addr: r.dataset.addr })));
  assert.deepEqual(tags.map((t) => redisSlot(t.tag)), tags.map((t) => t.slot));
  const owner = (s) => (s <= 5460 ? '127.0.0.1:7000' : s <= 10922 ? '127.0.0.1:7001' : '127.0.0.1:7002');
  for (const t of tags) assert.equal(t.addr, owner(t.slot), t.tag);
  for (const addr of ['127.0.0.1:7000', '127.0.0.1:7001', '127.0.0.1:7002']) {
    assert.equal(tags.filter((t) => t.addr === addr).length, 4, addr);
  }
  // The Redis test suite's shortest tags.
  for (const [slot, tag] of [[0, '{06S}'], [1, '{Qi}'], [16383, '{6ZJ}']]) {
    await page.getByTestId('pin-slot').fill(String(slot));
    assert.equal(await page.getByTestId('pin-tag').textContent(), tag);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('the hot-spot experiment reproduces distribution.tsv: k = 1, k = 64, no tag', async () => {
  const tsv = await readFile(join(fixtures, 'distribution.tsv'), 'utf8');
  const want = (exp) => tsv.trim().split('\n').map((l) => l.split('\t'))
    .filter(([e, row]) => e === exp && row === 'master').map(([, , name, , , count]) => ({ addr: name, count }));
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  const read = () => page.getByTestId('hotspot-master').evaluateAll((rows) =>
    rows.map((r) => ({ addr: r.dataset.addr, count: r.dataset.count })));
  assert.deepEqual(await read(), want('tag_user1_100k'));
  await page.getByTestId('hotspot-k').fill('64');
  await page.waitForFunction(() => document.querySelector('[data-testid=hotspot-master]')?.dataset.count !== '0');
  assert.deepEqual(await read(), want('tags64_user1_100k'));
  await page.getByTestId('hotspot-untagged').check();
  await page.waitForFunction(() => document.querySelector('[data-testid=hotspot-master]')?.dataset.count === '33313');
  assert.deepEqual(await read(), want('no_tag_key_i_100k'));
  assert.deepEqual(problems, []);
  await context.close();
});

test('on a phone the hot spot keeps each master\'s tags, beside its bar, in both languages', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url, { width: 390, height: 844 });
  for (const lang of ['en', 'zh']) {
    await page.getByTestId('lang-select').selectOption(lang);
    await page.waitForFunction((l) => document.documentElement.lang === l, lang === 'zh' ? 'zh-Hans' : 'en');
    await page.getByTestId('hotspot-master').first().scrollIntoViewIfNeeded();
    const rows = await page.getByTestId('hotspot-master').evaluateAll((rs) => rs.map((r) => {
      const box = (sel) => r.querySelector(sel).getBoundingClientRect();
      const [row, bar, count, tags] = [r.getBoundingClientRect(), box('.hotspot__bar-wrap'), box('.hotspot__count'), box('.hotspot__tags')];
      return { text: r.querySelector('.hotspot__tags').textContent, row, bar, count, tags };
    }));
    assert.equal(rows.length, 3);
    for (const { text, row, bar, count, tags } of rows) {
      assert.match(text, lang === 'en' ? /^tags: \d+$/ : /^标签：\d+$/);
      assert.ok(tags.width > 0 && tags.height > 0, `${text} is shown`);
      assert.ok(tags.left >= row.left && tags.right <= row.right + 0.5, `${text} inside its row`);
      // Beside the bar, under the count.
      assert.ok(tags.left >= bar.right, `${text} right of the bar`);
      assert.ok(Math.abs((tags.top + tags.bottom) / 2 - (bar.top + bar.bottom) / 2) < tags.height, `${text} on the bar's line`);
      assert.ok(tags.top >= count.bottom - 1, `${text} under the count`);
    }
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('a copied plan longer than its list says how many slots it leaves out', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.getByTestId('gen-template').fill('user:%d');
  await page.getByTestId('gen-count').fill('2000');
  await page.getByTestId('generate').click();
  await page.waitForFunction(() => /2,000 keys/.test(document.querySelector('.planner')?.textContent ?? ''));
  await page.locator('#copy-style').selectOption('mget');
  // The batch's slots, as redisSlot computes them.
  const slots = new Set(Array.from({ length: 2000 }, (_, i) => String(redisSlot(`user:${i}`))));
  assert.ok(slots.size > 500, `${slots.size} slots`);
  // One MGET of keys in many slots is refused, and looks like the other refused lines.
  const row = page.getByTestId('generated-verdict');
  assert.equal(await row.getByTestId('verdict').textContent(), "CROSSSLOT Keys in request don't hash to the same slot");
  assert.match(await row.getAttribute('class'), /\bverdict--error\b/);
  const text = await page.getByTestId('plan-commands').inputValue();
  const lines = text.split('\n');
  assert.equal(lines.filter((l) => l.startsWith('MGET')).length, 500);
  for (const l of lines.filter((l) => l.startsWith('# slot'))) assert.ok(slots.has(l.split(' ')[2]), l);
  assert.equal(lines.at(-1), `# … and ${grouped(slots.size - 500)} slots not listed: this list stops at the first 500 of the batch's ${grouped(slots.size)} slots. Split the batch to copy the rest.`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('copied as the route cache fixed it: one EVAL per master with per-master tags', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.getByTestId('gen-template').fill('user:%d');
  await page.getByTestId('gen-count').fill('300');
  await page.getByTestId('generate').click();
  await page.waitForFunction(() => /300 keys/.test(document.querySelector('.planner')?.textContent ?? ''));
  await page.locator('#copy-style').selectOption('mget');
  const perSlot = (await page.getByTestId('plan-commands').inputValue()).split('\n').filter((l) => l.startsWith('MGET'));
  assert.ok(perSlot.length > 100, `${perSlot.length} MGETs, one per slot`);
  await page.locator('#copy-style').selectOption('tagged');
  await page.waitForFunction(() => /EVAL/.test(document.querySelector('[data-testid=plan-commands]').value));
  const evals = (await page.getByTestId('plan-commands').inputValue()).split('\n').filter((l) => l.startsWith('EVAL'));
  assert.equal(evals.length, 3);
  for (const e of evals) assert.match(e, /^EVAL "for i, k in ipairs\(KEYS\).*" \d+ "\{routing:v1:\d+\}user:\d+"/);
  // Per slot, the plan is copied as the command the keys are sent as, named in the option.
  const perSlotOption = page.locator('#copy-style option[value=mget]');
  assert.equal(await perSlotOption.textContent(), 'MGET per slot');
  await page.locator('#copy-style').selectOption('mget');
  // Another command sends the generated keys as that command; Generate makes them again.
  await page.getByTestId('command-select').selectOption('MSET');
  await page.getByTestId('generate').click();
  await page.waitForFunction(() => /^MSET /m.test(document.querySelector('[data-testid=plan-commands]').value));
  assert.equal(await perSlotOption.textContent(), 'MSET per slot');
  const msets = (await page.getByTestId('plan-commands').inputValue()).split('\n').filter((l) => !l.startsWith('#'));
  assert.equal(msets.length, perSlot.length);
  // Each key with a placeholder value: MSET "k1" "v1" "k2" "v2" …
  for (const m of msets) assert.match(m, /^MSET( "user:\d+" "v\d+")+$/);
  await page.getByTestId('command-select').selectOption('DEL');
  await page.getByTestId('generate').click();
  await page.waitForFunction(() => /^DEL /m.test(document.querySelector('[data-testid=plan-commands]').value));
  assert.equal(await perSlotOption.textContent(), 'DEL per slot');
  // What redis-cli makes of the # lines is said under the copy.
  assert.match(await page.getByTestId('plan-commands-comments').textContent(), /it sends such a line as a command, and the node answers ERR unknown command '#', with args beginning with: …/);
  assert.deepEqual(await page.getByTestId('plan-commands-comments').locator('code').allTextContents(), ["ERR unknown command '#', with args beginning with: …", "grep -v '^#' plan.txt | redis-cli -c"]);
  assert.deepEqual(problems, []);
  await context.close();
});

test('DBSIZE, KEYS and PING say they answer for the chosen node only, each as its replies are combined; GET does not', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await paste(page, 'SET foo bar\nDBSIZE\nKEYS *\nGET foo\nPING');
  await page.getByTestId('plan-node').selectOption('127.0.0.1:7002');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=verdict]').length === 5);
  // foo is in slot 12182, on 7002: the node holds one key.
  assert.deepEqual(await verdicts(page), ['OK', '(integer) 1', '1) "foo"', '"bar"', 'PONG']);
  const perNode = await page.getByTestId('verdict-per-node').allTextContents();
  assert.equal(perNode.length, 3);
  // Redis 7.0.15's tips (fixtures/commands): DBSIZE response_policy:agg_sum, KEYS none (merged),
  // PING all_succeeded, which touches no key.
  assert.match(perNode[0], /counts only the keys of 127\.0\.0\.1:7002\. .* adds up the replies/);
  assert.match(perNode[1], /sees only the keys of 127\.0\.0\.1:7002\. .* merges the replies/);
  assert.match(perNode[2], /^This is 127\.0\.0\.1:7002's answer alone/);
  assert.doesNotMatch(perNode[2], /keys/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a long paste stays out of the text field: its start is shown, the plan reads every line, and it can still be edited, cleared and put back', async () => {
  const { page, context, problems } = await openForPastes();
  const field = page.getByTestId('batch-input');
  await field.fill('foo\n');
  // 4,999 keys pasted at the end (a trusted Ctrl+V, as a reader does), with Windows line ends.
  const keys = Array.from({ length: 4999 }, (_, i) => `{user${i % 7}}:k${i}`);
  await page.evaluate((t) => navigator.clipboard.writeText(t), keys.join('\r\n'));
  await field.focus();
  await page.keyboard.press('End');
  await page.keyboard.press('Control+V');
  const held = page.getByTestId('batch-held');
  await held.waitFor();
  assert.equal(await held.getAttribute('data-lines'), '5000');
  assert.match(await held.textContent(), /^The field shows the first 200 lines of the batch's 5,000 lines \([\d.]+ KB\)\. The plan reads all of it\. A batch/);
  // The field holds the start, read-only; the plan counts every key (one GET each).
  const shown = await field.inputValue();
  assert.equal(shown, ['foo', ...keys.slice(0, 199)].join('\n'));
  assert.equal(await field.evaluate((el) => el.readOnly), true);
  const perKey = () => page.locator('[data-testid=plan][data-strategy=per-key]').getAttribute('data-round-trips');
  await page.waitForFunction(() => document.querySelector('[data-testid=plan][data-strategy=per-key]')?.dataset.roundTrips === '5000');
  // One command per slot in the per-slot strategy: foo's and the seven tags' (each checked
  // with redisSlot), which means every line was read.
  const slots = new Set(['foo', ...keys].map(redisSlot));
  assert.equal(await page.locator('[data-testid=plan][data-strategy=per-slot] td').nth(2).textContent(), grouped(slots.size));
  // A paste over the planner's 4 MB limit is refused without touching what is there.
  await page.evaluate((t) => navigator.clipboard.writeText(t), 'x'.repeat((4 << 20) + 1));
  await page.getByTestId('batch-edit-in-field').click();
  await page.waitForFunction(() => !document.querySelector('[data-testid=batch-input]').readOnly);
  assert.equal(await field.inputValue(), ['foo', ...keys].join('\n'));
  await field.focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Control+V');
  await page.getByTestId('batch-error').waitFor();
  assert.equal(await field.inputValue(), ['foo', ...keys].join('\n'));
  assert.equal(await perKey(), '5000');
  // Edited in the field, the batch is the reader's text again; Clear empties it.
  await field.press('End');
  await page.keyboard.type('\nbar');
  await page.waitForFunction(() => document.querySelector('[data-testid=plan][data-strategy=per-key]')?.dataset.roundTrips === '5001');
  assert.equal(await held.count(), 0);
  await page.evaluate((t) => navigator.clipboard.writeText(t), keys.join('\n'));
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Control+V');
  await held.waitFor();
  assert.equal(await held.getAttribute('data-lines'), '4999');
  await page.getByTestId('batch-clear').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=batch-input]').value === '');
  assert.equal(await held.count(), 0);
  // Clear can be taken back while the field stays empty: the same batch, held again.
  const cleared = page.getByTestId('batch-cleared');
  assert.equal(await cleared.textContent(), 'The batch was cleared. Undo');
  await page.getByTestId('batch-undo-clear').click();
  await held.waitFor();
  assert.equal(await held.getAttribute('data-lines'), '4999');
  // The focus goes back to the field, as after Clear.
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'batch-input');
  await page.waitForFunction(() => document.querySelector('[data-testid=plan][data-strategy=per-key]')?.dataset.roundTrips === '4999');
  assert.equal(await cleared.count(), 0);
  // Typing or generating after a Clear leaves nothing to take back, even once the field is
  // empty again.
  await page.getByTestId('batch-clear').click();
  await cleared.waitFor();
  await page.keyboard.type('u');
  await cleared.waitFor({ state: 'detached' });
  await page.keyboard.press('Backspace');
  await page.waitForFunction(() => document.querySelector('[data-testid=batch-input]').value === '');
  await page.waitForTimeout(200);
  assert.equal(await cleared.count(), 0);
  await page.evaluate((t) => navigator.clipboard.writeText(t), keys.join('\n'));
  await page.keyboard.press('Control+V');
  await held.waitFor();
  await page.getByTestId('batch-clear').click();
  await cleared.waitFor();
  await page.getByTestId('generate').click();
  await page.getByTestId('generated-verdict').waitFor();
  assert.equal(await cleared.count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a copied plan too long for its field shows its start there, and Copy copies all of it', async () => {
  const { page, context, problems } = await openForPastes();
  // 10,000 keys under one tag: one slot, so the plan is one MGET of every key (over 256 KB).
  const keys = Array.from({ length: 10000 }, (_, i) => `user:{hot}:aaaaaaaaaaaaaaaaaaaa${i}`);
  await pasteOver(page, keys.join('\n'));
  const cut = page.getByTestId('plan-commands-cut');
  await cut.waitFor();
  const all = Number(await cut.getAttribute('data-bytes'));
  assert.match(await cut.textContent(), /^The field shows the first 16\.0 KB of the plan's [\d.]+ KB; Copy copies all of it\.$/);
  const shown = await page.getByTestId('plan-commands').inputValue();
  assert.equal(shown.length, 16 << 10);
  await page.getByTestId('plan-commands').locator('xpath=following-sibling::button[1]').click();
  const copied = await clipboardOf(page, all);
  assert.equal(new TextEncoder().encode(copied).length, all);
  assert.ok(copied.startsWith(shown));
  // The whole MGET, every key in the batch's order (redisSlot: all in {hot}'s slot).
  const mget = copied.split('\n').find((l) => l.startsWith('MGET '));
  assert.deepEqual(mget.slice('MGET '.length).split(' ').map((k) => k.replace(/^"(.*)"$/, '$1')), keys);
  assert.equal(new Set(keys.map(redisSlot)).size, 1);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a big batch is shown first and its copied plan follows a task later, whole', async () => {
  const { page, context, problems } = await openForPastes();
  // 30,000 keys under one tag (over COPY_LATE_KEYS, 20,000): one MGET of every key.
  const keys = Array.from({ length: 30000 }, (_, i) => `user:{hot}:b${i}`);
  // Whether the field said its commands were being written, and what it held meanwhile.
  await page.evaluate(() => {
    window.__writing = [];
    new MutationObserver(() => {
      const note = document.querySelector('[data-testid=plan-commands-writing]');
      if (note) window.__writing.push({ text: note.textContent, copy: !!document.querySelector('[data-testid=plan-commands] ~ button'), busy: document.querySelector('[data-testid=plan-commands]').getAttribute('aria-busy') });
    }).observe(document.body, { subtree: true, childList: true });
  });
  await pasteOver(page, keys.join('\n'));
  const cut = page.getByTestId('plan-commands-cut');
  await cut.waitFor();
  const writing = await page.evaluate(() => window.__writing);
  assert.ok(writing.length > 0, 'the writing note was shown');
  assert.equal(writing[0].text, 'Writing the commands for 30,000 keys…');
  assert.equal(writing[0].busy, 'true');
  assert.equal(writing[0].copy, false, 'no Copy while the commands are being written');
  assert.equal(await page.getByTestId('plan-commands-writing').count(), 0);
  // The plan copied whole, as an unsplit plan writes it: every key, in the batch's order.
  await page.getByTestId('plan-commands').locator('xpath=following-sibling::button[1]').click();
  const copied = await clipboardOf(page, Number(await cut.getAttribute('data-bytes')));
  assert.equal(new TextEncoder().encode(copied).length, Number(await cut.getAttribute('data-bytes')));
  assert.ok(copied.startsWith(await page.getByTestId('plan-commands').inputValue()));
  const mget = copied.split('\n').find((l) => l.startsWith('MGET '));
  assert.deepEqual(mget.slice('MGET '.length).split(' ').map((k) => k.replace(/^"(.*)"$/, '$1')), keys);
  assert.match(copied.split('\n')[0], new RegExp(`^# slot ${redisSlot(keys[0])} on 127\\.0\\.0\\.1:\\d+$`));
  assert.deepEqual(problems, []);
  await context.close();
});

test('a 4 MB paste of keys is taken in, read and planned a slice at a time, with its progress shown, into the plan of every key', async () => {
  const { page, context, problems } = await openForPastes();
  // About 100,000 keys over many slots (each checked with redisSlot below), with one line
  // that is not a key half-way and one blank line.
  const keys = Array.from({ length: 100_000 }, (_, i) => `user:${i}:session:aaaaaaaaaaaaaaaaaaaaa`);
  const lines = [...keys];
  lines.splice(50_000, 0, 'bad\\x4', '');
  const text = lines.join('\n');
  assert.ok(text.length > 4_000_000 && text.length < (4 << 20), `${text.length} bytes`);
  // Every state of the working note, in order, as the page showed it.
  await page.evaluate(() => {
    window.__working = [];
    new MutationObserver(() => {
      const note = document.querySelector('[data-testid=batch-working]');
      const last = window.__working.at(-1);
      const now = note && { phase: note.dataset.phase, text: note.textContent, value: note.querySelector('progress')?.value, max: note.querySelector('progress')?.max };
      if (now && JSON.stringify(now) !== JSON.stringify(last)) window.__working.push(now);
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  await pasteOver(page, text);
  const perKey = '[data-testid=plan][data-strategy=per-key]';
  await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.roundTrips === '100000', perKey, { timeout: 30_000 });
  const working = await page.evaluate(() => window.__working);
  const phases = working.map((w) => w.phase).filter((p, i, all) => p !== all[i - 1]);
  assert.deepEqual(phases, ['pasting', 'reading', 'planning'], JSON.stringify(working.slice(0, 5)));
  assert.equal(working[0].text, 'Taking in the paste…');
  const reading = working.filter((w) => w.phase === 'reading');
  assert.equal(reading[0].text, `Reading the batch: 0.0 KB of ${kb(text.length)} KB…`);
  assert.equal(reading[0].max, text.length);
  assert.ok(reading.every((w, i) => i === 0 || w.value >= reading[i - 1].value), 'the progress only goes forward');
  assert.equal(working.find((w) => w.phase === 'planning').text, 'Planning 100,000 keys…');
  assert.equal(await page.getByTestId('batch-working').count(), 0);
  // The plan holds every key: one command per slot (slots counted with redisSlot).
  const slots = new Set(keys.map(redisSlot));
  assert.equal(await page.locator('[data-testid=plan][data-strategy=per-slot] td').nth(2).textContent(), grouped(slots.size));
  assert.match(await page.locator('.planner h3.lab__title').first().textContent(), new RegExp(`^100,000 keys in ${grouped(slots.size)} slots`));
  // The line that is not a key is named by its number; the field shows the batch's start.
  const alerts = await page.locator('.planner .lab__error[role=alert]').allTextContents();
  assert.equal(alerts.length, 1);
  assert.match(alerts[0], /^line 50001: /);
  assert.equal(await page.getByTestId('batch-held').getAttribute('data-lines'), String(lines.length));
  assert.equal(await page.getByTestId('batch-input').inputValue(), lines.slice(0, 200).join('\n'));
  // The copied plan follows: one MGET per slot (up to 500), the first for the lowest slot.
  await page.waitForFunction(() => /^# slot \d+ on /.test(document.querySelector('[data-testid=plan-commands]')?.value ?? ''));
  assert.equal(await page.getByTestId('plan-commands-writing').count(), 0);
  const first = Math.min(...slots);
  assert.match(await page.getByTestId('plan-commands').inputValue(), new RegExp(`^# slot ${first} on 127\\.0\\.0\\.1:\\d+\nMGET `));
  assert.deepEqual(problems, []);
  await context.close();
});

/** Records every state of the planner's working note, in order, in `window.__working`. */
async function watchWorking(page) {
  await page.evaluate(() => {
    window.__working = [];
    new MutationObserver(() => {
      const note = document.querySelector('[data-testid=batch-working]');
      const now = note && { phase: note.dataset.phase, text: note.textContent };
      if (now && JSON.stringify(now) !== JSON.stringify(window.__working.at(-1))) window.__working.push(now);
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

test('a paste into a held batch replaces it; one over 4 MB is refused under the field and goes when the batch changes', async () => {
  const { page, context, problems } = await openForPastes();
  const field = page.getByTestId('batch-input');
  const held = page.getByTestId('batch-held');
  const title = () => page.locator('.planner h3.lab__title').first().textContent();
  const long = Array.from({ length: 2000 }, (_, i) => `user:${i}`).join('\n');
  await pasteOver(page, long);
  await held.waitFor();
  assert.equal(await held.getAttribute('data-lines'), '2000');
  // The field is read-only and shows the start: a paste there is the new batch, whole.
  await page.evaluate((t) => navigator.clipboard.writeText(t), 'user:1\nuser:2');
  await field.focus();
  await page.keyboard.press('End');
  await page.keyboard.press('Control+V');
  await held.waitFor({ state: 'detached' });
  assert.equal(await field.inputValue(), 'user:1\nuser:2');
  assert.match(await title(), /^2 keys in 2 slots on (1 master|2 masters):/);
  // Held again, then over the limit: refused, in words right under the field; the batch stays.
  await pasteOver(page, long);
  await held.waitFor();
  await page.evaluate((t) => navigator.clipboard.writeText(t), 'k'.repeat((4 << 20) + 1));
  await field.focus();
  await page.keyboard.press('Control+V');
  const refusal = page.getByTestId('batch-error');
  await refusal.waitFor();
  assert.equal(await page.locator('[data-testid=batch-input] + [data-testid=batch-error]').count(), 1, 'the refusal is the next thing under the field');
  // A paste into a held batch replaces it: the batch would be the paste, a byte over 4 MiB.
  assert.match(await refusal.textContent(), /^With that paste the batch would be 4,194,305 bytes; the planner reads batches of up to 4,194,304 bytes \(4 MiB\), so the batch before it is kept\. For more keys, use the generator below/);
  assert.equal(await held.getAttribute('data-lines'), '2000');
  assert.match(await title(), /^2,000 keys in /);
  // Read as keys for another command, the batch is no longer the one refused a paste.
  await page.getByTestId('command-select').selectOption('DEL');
  await refusal.waitFor({ state: 'detached' });
  assert.equal(await held.getAttribute('data-lines'), '2000');
  assert.deepEqual(problems, []);
  await context.close();
});

test('Generate pressed while a paste is taken in comes after it; a paste during a generation ends the generation', async () => {
  const { page, context, problems } = await openForPastes();
  const keys = Array.from({ length: 5000 }, (_, i) => `user:${i}:session:aaaaaaaaaaaaaaa`);
  await page.getByTestId('gen-template').fill('gen:%d');
  await page.getByTestId('gen-count').fill('200000');
  await watchWorking(page);
  // Generate is clicked in the very frame that says the paste is being taken in.
  await page.evaluate(() => {
    new MutationObserver((_, self) => {
      if (document.querySelector('[data-testid=batch-working][data-phase=pasting]')) {
        self.disconnect();
        document.querySelector('[data-testid=generate]').click();
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  await pasteOver(page, keys.join('\n'));
  await page.getByTestId('generated-note').waitFor({ timeout: 30_000 });
  assert.match(await page.getByTestId('generated-note').textContent(), /\(200,000 keys\)/);
  await page.waitForTimeout(500);
  assert.equal(await page.getByTestId('generated-note').count(), 1, 'the paste did not land after the generated keys');
  const phases = (await page.evaluate(() => window.__working)).map((w) => w.phase).filter((p, i, all) => p !== all[i - 1]);
  assert.deepEqual(phases.slice(0, 2), ['pasting', 'generating']);
  // The way back shows the paste, whole.
  await page.getByTestId('show-pasted').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=plan][data-strategy=per-key]')?.dataset.roundTrips === '5000');
  assert.equal(await page.getByTestId('batch-held').getAttribute('data-lines'), '5000');

  // A million keys being made; the same batch pasted again: the paste is the batch now. A
  // million keys take about 150 ms here, less than a trusted paste's round trips on a loaded
  // machine, so the paste is made in the page, in the task after the frame that shows the
  // first keys made (the paste event as the browser fires it, with the text as its data).
  await page.getByTestId('gen-count').fill('1000000');
  await page.evaluate(() => { window.__working.length = 0; });
  await page.evaluate((text) => {
    const field = document.querySelector('[data-testid=batch-input]');
    new MutationObserver((_, self) => {
      const made = document.querySelector('[data-testid=batch-working][data-phase=generating] progress');
      if (made && Number(made.value) > 0) {
        self.disconnect();
        field.focus();
        field.select();
        const data = new DataTransfer();
        data.setData('text/plain', text);
        field.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  }, keys.join('\n'));
  await page.getByTestId('generate').click();
  await page.waitForFunction(() => window.__working.some((w) => w.phase === 'pasting' || w.phase === 'reading'), null, { timeout: 30_000 });
  await page.waitForSelector('[data-testid=batch-working]', { state: 'detached', timeout: 60_000 });
  await page.waitForTimeout(1500);
  const working = await page.evaluate(() => window.__working);
  assert.ok(working.some((w) => w.phase === 'pasting' || w.phase === 'reading'), JSON.stringify(working));
  // The paste came before the million were made: they were never planned.
  assert.deepEqual(working.filter((w) => w.phase === 'planning' && w.text.includes('1,000,000')), [], JSON.stringify(working));
  assert.equal(await page.getByTestId('generated-note').count(), 0, 'no generated keys arrived after the paste');
  assert.equal(await page.locator('[data-testid=plan][data-strategy=per-key]').getAttribute('data-round-trips'), '5000');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a big key list is read once: another language, command or node answers the keys read', async () => {
  const { page, context, problems } = await openForPastes();
  // Over 256 KB, so it is read a slice per frame; at most 10,000 keys, so it has its line.
  const keys = Array.from({ length: 9000 }, (_, i) => `{t}:user:${i}:aaaaaaaaaaaaaaaaaaaaaa`);
  const text = keys.join('\n');
  assert.ok(text.length > 256 << 10);
  await pasteOver(page, text);
  await page.waitForFunction(() => document.querySelector('[data-testid=plan][data-strategy=per-key]')?.dataset.roundTrips === '9000', null, { timeout: 30_000 });
  const line = page.locator('.planner .verdict__line').first();
  assert.equal(await line.textContent(), '1: MGET … (9,000 keys)');
  await watchWorking(page);
  await page.getByTestId('lang-select').selectOption('zh');
  await page.waitForFunction(() => document.querySelector('.planner .verdict__line')?.textContent === '1: MGET …（9,000 个键）');
  await page.getByTestId('command-select').selectOption('DEL');
  await page.waitForFunction(() => document.querySelector('.planner .verdict__line')?.textContent === '1: DEL …（9,000 个键）');
  await page.getByTestId('plan-node').selectOption('127.0.0.1:7001');
  // Every key is in {t}'s slot: one reply, from whichever node was asked.
  const slot = redisSlot(keys[0]);
  assert.ok(slot > 10922, `slot ${slot}`);
  await page.waitForTimeout(300);
  assert.match(await page.getByTestId('verdict').first().textContent(), new RegExp(`^MOVED ${slot} 127\\.0\\.0\\.1:7002$`));
  assert.deepEqual(await page.evaluate(() => window.__working), [], 'nothing was read again');
  assert.match(await page.locator('.planner h3.lab__title').first().textContent(), /^9,000 个键，分布在 1 个主节点的 1 个槽中/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('text dropped into the batch field is taken as a paste: held past the field\'s size, replacing a held batch', async () => {
  const { page, context, problems } = await openForPastes();
  const field = page.getByTestId('batch-input');
  const held = page.getByTestId('batch-held');
  // Dropped at a point of the field's first line: where the browser puts a caret there.
  const drop = (text) => field.evaluate((el, t) => {
    const data = new DataTransfer();
    data.setData('text/plain', t);
    const box = el.getBoundingClientRect();
    const [x, y] = [box.left + 30, box.top + 12];
    el.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true, clientX: x, clientY: y }));
    return document.caretPositionFromPoint(x, y).offset;
  }, text);
  await field.fill('first\nsecond');
  const keys = Array.from({ length: 4000 }, (_, i) => `user:${i}:aaaaaaaaaaaaaaaaaaaaaaa`);
  const at = await drop(keys.join('\n'));
  assert.ok(at > 0 && at < 5, `offset ${at}`);
  await held.waitFor();
  const whole = 'first'.slice(0, at) + keys.join('\n') + 'first\nsecond'.slice(at);
  assert.equal(await held.getAttribute('data-lines'), String(whole.split('\n').length));
  await page.waitForFunction(() => document.querySelector('[data-testid=plan][data-strategy=per-key]')?.dataset.roundTrips === '4001');
  assert.equal(await field.inputValue(), whole.split('\n').slice(0, 200).join('\n'));
  // Dropped onto the held batch: the drop is the batch.
  await drop('user:1\nuser:2\nuser:3');
  await held.waitFor({ state: 'detached' });
  assert.equal(await field.inputValue(), 'user:1\nuser:2\nuser:3');
  await page.waitForFunction(() => document.querySelector('[data-testid=plan][data-strategy=per-key]')?.dataset.roundTrips === '3');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a held batch: an empty paste keeps it, a single long line is said to be cut, and Clear leaves the focus in the field', async () => {
  const { page, context, problems } = await openForPastes();
  const field = page.getByTestId('batch-input');
  const held = page.getByTestId('batch-held');
  // One 70 KB line: the field shows its first 16 KB, and says so in KB.
  const line = 'k'.repeat(70 * 1024);
  await pasteOver(page, line);
  await held.waitFor();
  assert.equal((await field.inputValue()).length, 16 * 1024);
  assert.match(await held.textContent(), /^The field shows the first 16\.0 KB of the batch's 70\.0 KB \(1 line\)\. The plan reads all of it\. A batch/);
  // An empty paste changes nothing.
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await field.focus();
  await page.keyboard.press('Control+V');
  await page.waitForTimeout(300);
  assert.equal(await held.getAttribute('data-lines'), '1');
  assert.equal((await field.inputValue()).length, 16 * 1024);
  // Clear: the field is empty and keeps the focus, so typing goes on there.
  await page.getByTestId('batch-clear').click();
  await held.waitFor({ state: 'detached' });
  await page.keyboard.type('user:1');
  assert.equal(await field.inputValue(), 'user:1');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a batch too long for a link comes back on reload, kept in this browser; the link alone carries an empty batch', async () => {
  const { page, context, problems } = await openForPastes();
  const keys = Array.from({ length: 1500 }, (_, i) => `user:${i}`);
  await pasteOver(page, keys.join('\n'));
  await page.getByTestId('batch-held').waitFor();
  await page.getByTestId('command-select').selectOption('DEL');
  await page.waitForFunction(() => document.querySelector('.planner .verdict__line')?.textContent === '1: DEL … (1,500 keys)');
  // Saved once the reader pauses (300 ms), the link without the batch, the batch beside it.
  // The batch was kept once already, after the paste: wait for the save of the DEL choice
  // itself, or the link read here may be the one from before it.
  await linkSaved(page);
  assert.ok((await page.evaluate(() => localStorage.getItem('slotscope.batch') ?? '')).endsWith('\nuser:1499'));
  const link = await page.evaluate(() => location.hash);
  await page.reload();
  await page.getByTestId('batch-held').waitFor();
  assert.equal(await page.getByTestId('batch-held').getAttribute('data-lines'), '1500');
  await page.waitForFunction(() => document.querySelector('.planner .verdict__line')?.textContent === '1: DEL … (1,500 keys)');
  // Another browser (a fresh context) opening the same link: an empty batch, DEL chosen, no plan.
  const other = await openPage(env.browser, env.server.url + link);
  assert.equal(await other.page.getByTestId('batch-input').inputValue(), '');
  assert.equal(await other.page.getByTestId('command-select').inputValue(), 'DEL');
  assert.equal(await other.page.locator('.planner .verdict__line').count(), 0);
  assert.deepEqual(other.problems, []);
  await other.context.close();
  assert.deepEqual(problems, []);
  await context.close();
});

test('a held batch over 256 KB goes into the field only after a warning that it will be slow there', async () => {
  const { page, context, problems } = await openForPastes();
  const keys = Array.from({ length: 30000 }, (_, i) => `user:${i}:profile`);
  const text = keys.join('\n');
  assert.ok(text.length > 256 * 1024);
  await pasteOver(page, text);
  const held = page.getByTestId('batch-held');
  await held.waitFor();
  const edit = page.getByTestId('batch-edit-in-field');
  await edit.click();
  const slow = page.getByTestId('batch-edit-slow');
  await slow.waitFor();
  assert.equal(await slow.textContent(), `The field would hold all ${kb(text.length)} KB. The browser lays out a text field's whole text at every change, so with this much, opening it and each keystroke after can take seconds, with the page not answering meanwhile.`);
  // Still held: the field shows the start, read-only.
  assert.equal(await page.getByTestId('batch-input').evaluate((e) => e.readOnly), true);
  assert.equal(await edit.textContent(), 'Edit it anyway');
  await edit.click();
  await held.waitFor({ state: 'detached' });
  assert.equal(await page.getByTestId('batch-input').inputValue(), text);
  assert.deepEqual(problems, []);
  await context.close();
});

test('pasted commands that are all one key command are copied per slot as that command, plain writes as MSET with their values, mixed ones as MGET', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  const perSlot = page.locator('#copy-style option[value=mget]');
  // DEL in any case, a transaction's DEL included; MULTI and EXEC have no keys.
  await paste(page, 'DEL a b\ndel {a}c\nMULTI\nDEL foo\nEXEC');
  await page.waitForFunction(() => document.querySelector('#copy-style option[value=mget]')?.textContent === 'DEL per slot');
  const commands = async () => (await page.getByTestId('plan-commands').inputValue()).split('\n').filter((l) => !l.startsWith('#'));
  const slots = new Set(['a', 'b', 'foo'].map(redisSlot));
  assert.equal(slots.size, 3);
  assert.equal((await commands()).length, slots.size);
  for (const c of await commands()) assert.match(c, /^DEL "/);
  // The keys of {a}c go with a's: one DEL for that slot.
  assert.ok((await commands()).includes('DEL "a" "{a}c"'), (await commands()).join('\n'));
  assert.equal(await page.locator('#copy-style option[value=eval]').textContent(), 'EVAL SET … EX per slot (writes each key with an expiry)');
  // Plain writes (SET k v, MSET) are copied as MSET per slot with the values they wrote.
  await paste(page, 'SET a 1\nset {a}c "two words"\nMSET b 3');
  await page.waitForFunction(() => document.querySelector('#copy-style option[value=mget]')?.textContent === 'MSET per slot');
  assert.deepEqual((await commands()).sort(), ['MSET "a" "1" "{a}c" "two words"', 'MSET "b" "3"']);
  // Mixed commands, or a write with options, are read back per slot with MGET.
  for (const text of ['DEL a\nUNLINK b', 'SET a 1 EX 10', 'SET a 1\nGET b']) {
    await paste(page, text);
    await page.waitForFunction(() => document.querySelector('#copy-style option[value=mget]')?.textContent === 'MGET per slot');
    for (const c of await commands()) assert.match(c, /^MGET "/);
  }
  await paste(page, 'EXISTS a b');
  await page.waitForFunction(() => document.querySelector('#copy-style option[value=mget]')?.textContent === 'EXISTS per slot');
  assert.equal(await perSlot.textContent(), 'EXISTS per slot');
  assert.deepEqual(problems, []);
  await context.close();
});

test('over 10,000 pasted keys the one command is routed as Redis routes it, and the page says it does not run it', async () => {
  const { page, context, problems } = await openForPastes();
  const line = page.getByTestId('keys-verdict');
  const routed = 'With more than 10,000 keys the page does not run the command; it shows what Redis checks first: the error the node answers without running it (CROSSSLOT, MOVED), or that the node would run it, in which slot.';
  await pasteOver(page, Array.from({ length: 12_000 }, (_, i) => `k${i}`).join('\n'));
  await line.waitFor();
  assert.equal(await line.locator('.verdict__line').textContent(), '1: MGET … (12,000 keys)');
  assert.equal(await line.getByTestId('verdict').textContent(), "CROSSSLOT Keys in request don't hash to the same slot");
  assert.equal(await line.getByTestId('verdict-routed').textContent(), routed);
  // One tag: one slot, MOVED from a node that does not serve it, the slot from the one that does.
  const slot = redisSlot('t');
  const owner = slot <= 5460 ? '127.0.0.1:7000' : slot <= 10922 ? '127.0.0.1:7001' : '127.0.0.1:7002';
  const other = owner === '127.0.0.1:7000' ? '127.0.0.1:7001' : '127.0.0.1:7000';
  await page.getByTestId('plan-node').selectOption(other);
  await pasteOver(page, Array.from({ length: 10_001 }, (_, i) => `{t}k${i}`).join('\n'));
  await page.waitForFunction(() => document.querySelector('[data-testid=keys-verdict] .verdict__line')?.textContent === '1: MGET … (10,001 keys)');
  assert.equal(await line.getByTestId('verdict').textContent(), `MOVED ${slot} ${owner}`);
  await page.getByTestId('command-select').selectOption('DEL');
  await page.getByTestId('plan-node').selectOption(owner);
  await page.waitForFunction((s) => document.querySelector('[data-testid=keys-verdict] [data-testid=verdict]')?.textContent.startsWith(`Served here: every key is in slot ${s},`), slot);
  assert.equal(await line.locator('.verdict__line').textContent(), '1: DEL … (10,001 keys)');
  // 10,000 keys are sent to the engine: its reply, with no such note.
  await pasteOver(page, Array.from({ length: 10_000 }, (_, i) => `{t}k${i}`).join('\n'));
  await page.waitForFunction(() => document.querySelector('.planner .verdict__line')?.textContent === '1: DEL … (10,000 keys)');
  assert.equal(await page.getByTestId('verdict').first().textContent(), '(integer) 0');
  assert.equal(await page.getByTestId('verdict-routed').count(), 0);
  await page.getByTestId('lang-select').selectOption('zh');
  await pasteOver(page, Array.from({ length: 12_000 }, (_, i) => `k${i}`).join('\n'));
  await page.waitForFunction(() => document.querySelector('[data-testid=verdict-routed]')?.textContent.startsWith('键超过 10,000 个时'));
  assert.deepEqual(problems, []);
  await context.close();
});

test('a held batch of more commands than are answered does not say the plan reads it all; the long list of replies has its own name', async () => {
  const { page, context, problems } = await openForPastes();
  await page.getByTestId('command-select').selectOption('commands');
  const held = page.getByTestId('batch-held');
  await pasteOver(page, Array.from({ length: 2500 }, (_, i) => `GET k${i}`).join('\n'));
  await held.waitFor();
  assert.match(await held.textContent(), /^The field shows the first 200 lines of the batch's 2,500 lines \([\d.]+ KB\)\. A batch this long/);
  assert.match(await page.locator('.planner .lab__error').first().textContent(), /^2,500 lines are more than the page answers one by one \(2,000\)/);
  // Read as keys, every line is planned, and the note says so.
  await page.getByTestId('command-select').selectOption('MGET');
  await page.waitForFunction(() => /\. The plan reads all of it\. /.test(document.querySelector('[data-testid=batch-held]').textContent));
  // 1,500 commands: all answered, and the list of replies (windowed) is not named as the field.
  await page.getByTestId('command-select').selectOption('commands');
  await pasteOver(page, Array.from({ length: 1500 }, (_, i) => `GET k${i}`).join('\n'));
  await page.waitForFunction(() => document.querySelector('[data-testid=verdicts]')?.dataset.rows === '1500');
  assert.match(await held.textContent(), /\. The plan reads all of it\. /);
  const list = page.getByTestId('verdicts');
  assert.equal(await list.getAttribute('aria-label'), 'Replies, one per line');
  assert.equal(await page.getByTestId('batch-input').getAttribute('aria-label'), 'Commands or keys, one per line');
  assert.deepEqual(problems, []);
  await context.close();
});

test('generated keys stay when the lines are read as another command, sent as that command', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.getByTestId('gen-count').fill('10');
  await page.getByTestId('generate').click();
  const line = page.locator('[data-testid=generated-verdict] .verdict__line');
  await line.waitFor();
  assert.equal(await line.textContent(), '10 keys generated, sent as one MGET');
  await page.getByTestId('command-select').selectOption('DEL');
  await page.waitForFunction(() => document.querySelector('[data-testid=generated-verdict] .verdict__line')?.textContent === '10 keys generated, sent as one DEL');
  assert.equal(await page.locator('#copy-style option[value=mget]').textContent(), 'DEL per slot');
  assert.equal(await page.getByTestId('generated-note').count(), 1);
  // A generation in slices goes on through a change of command, and its keys are sent as the
  // command chosen by then.
  await page.getByTestId('gen-count').fill('1000000');
  // Generate, and two frames later, while the keys are still being made, another command.
  const during = await page.evaluate(() => new Promise((done) => {
    const later = (f) => requestAnimationFrame(() => setTimeout(f, 0));
    document.querySelector('[data-testid=generate]').click();
    later(() => later(() => {
      const working = document.querySelector('[data-testid=batch-working]')?.dataset.phase;
      const select = document.querySelector('[data-testid=command-select]');
      select.value = 'UNLINK';
      select.dispatchEvent(new Event('change', { bubbles: true }));
      done(working);
    }));
  }));
  assert.equal(during, 'generating', 'the command changed while the keys were being made');
  await page.waitForFunction(() => document.querySelector('[data-testid=generated-verdict] .verdict__line')?.textContent === '1,000,000 keys generated, sent as one UNLINK', null, { timeout: 60_000 });
  assert.deepEqual(problems, []);
  await context.close();
});

test('keys whose first line starts with a command and a space are said to look like commands', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  // {b} is in slot 3300, on 7000, the node the lines are sent to.
  await paste(page, 'DEL {b}1\nDEL {b}2', 'DEL');
  const note = page.getByTestId('keys-look-like-commands');
  await note.waitFor();
  assert.equal(await note.textContent(), 'The first line is read as one key, "DEL {b}1": these lines look like commands. To have each answered as a command, choose "commands" above.');
  // Read as commands, they are answered, and the note goes.
  await page.getByTestId('command-select').selectOption('commands');
  await note.waitFor({ state: 'detached' });
  assert.deepEqual(await verdicts(page), ['(integer) 0', '(integer) 0']);
  // Keys with a space that do not start with a command are keys.
  await paste(page, 'user 1\nuser 2', 'DEL');
  await page.waitForFunction(() => document.querySelector('.planner .verdict__line')?.textContent === '1: DEL … (2 keys)');
  assert.equal(await note.count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});
