//! The page in 简体中文, completely: every view driven into its interesting states in Chinese,
//! with no English prose left outside code; the converse in English (no CJK); switching updates
//! what is already shown; the choice follows the browser, a reload and a share link.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sharedBrowser, openPage, typeKey, fixtures, appReady, quiet } from './harness.mjs';

const env = sharedBrowser();

/**
 * Code and product terms that stay in English on a Chinese page, each removed from a text
 * before it is searched for English prose. Redis replies and redis-cli output are quoted as
 * Redis prints them; everything else here is a name.
 */
const ALLOWED = [
  /CROSSSLOT Keys in request don't hash to the same slot/g,
  /CLUSTERDOWN Hash slot not served/g,
  /CLUSTERDOWN The cluster is down/g,
  /TRYAGAIN Multiple keys request during rehashing of slot/g,
  /EXECABORT Transaction discarded because of previous errors\.?/g,
  /ERR unknown command '[^']*', with args beginning with:/g,
  /ERR wrong number of arguments for '[^']*' command/g,
  /Invalid argument\(s\)/g,
  // Client libraries' own exception messages (redis-py, Jedis), quoted as they print them.
  /all keys must map to the same key slot/g,
  /Keys must belong to same hashslot\./g,
  /\bRedis Cluster\b/g,
  /\bslotscope\b/g,
  /\bcluster-key-slot\b/g,
  // Key names on a keyboard.
  /\bPage (Up|Down)\b/g,
];

/**
 * Names, not prose: key names of the examples and scenarios (one is Chinese: a key, shown in
 * English too), the product's name, and client libraries (free mode's presets).
 */
const KEY_NAMES = new Set(['foo', 'bar', 'hello', 'user', '用户:1001', 'slotscope', 'ioredis']);

/**
 * A text that is one short English word or a number and a unit ("client", "300 keys",
 * "12 ms"): prose too short to be a run, found separately.
 */
function loneWords(text) {
  if (CJK.test(text)) return [];
  const tokens = text.split(/\s+/).filter(Boolean);
  if (tokens.length > 3) return [];
  return tokens.map((t) => t.replace(/^[("'“‘]+/, '').replace(/[)"'”’,.;:!?…]+$/, ''))
    .filter((t) => /^[a-z]{2,}$/.test(t) && !KEY_NAMES.has(t));
}

/** A word of English prose: letters only, at least three of them, not all capitals (capitals are commands and replies). */
const isWord = (token) => /^[A-Za-z]{3,}$/.test(token) && token !== token.toUpperCase();

/** Runs of at least two English words in `text` (after the allowed terms are taken out). */
function englishRuns(text) {
  let rest = text;
  for (const re of ALLOWED) rest = rest.replace(re, ' \u0000 ');
  const runs = [];
  let run = [];
  // Punctuation around a word does not break a run ("Guided tour," is prose); anything else
  // inside a token (digits, braces, hyphens, colons) makes it code.
  for (const raw of rest.split(/\s+/)) {
    const token = raw.replace(/^[("'“‘]+/, '').replace(/[)"'”’,.;:!?…]+$/, '');
    const ends = /[,.;:!?…]$/.test(raw) && run.length > 0;
    if (isWord(token) && !/[^A-Za-z("'“‘)”’,.;:!?…]/.test(raw)) {
      run.push(token);
      if (ends) { if (run.length >= 2) runs.push(run.join(' ')); run = []; }
    } else {
      if (run.length >= 2) runs.push(run.join(' '));
      run = [];
    }
  }
  if (run.length >= 2) runs.push(run.join(' '));
  return runs;
}

/**
 * Every text a reader meets (text nodes, including `<option>`s and closed `<details>`, and the
 * aria-label, title, placeholder and alt attributes), outside code (`code`, `.mono`, `pre`,
 * `kbd`, `textarea`), each with a selector for where it is.
 */
function collectTexts() {
  const CODE = 'code, .mono, pre, kbd, textarea, script, style, noscript';
  const where = (el) => {
    const parts = [];
    for (let e = el; e && e !== document.body && parts.length < 4; e = e.parentElement) {
      if (e.dataset?.testid) { parts.unshift(`[data-testid=${e.dataset.testid}]`); break; }
      if (e.id) { parts.unshift(`#${e.id}`); break; }
      const cls = [...e.classList].slice(0, 2).map((c) => `.${c}`).join('');
      parts.unshift(`${e.tagName.toLowerCase()}${cls}`);
    }
    return parts.join(' > ');
  };
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest(CODE)) continue;
    const text = n.textContent.trim();
    if (text) out.push({ selector: where(el), text });
  }
  for (const el of document.body.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
    for (const attr of ['aria-label', 'title', 'placeholder', 'alt']) {
      const v = el.getAttribute(attr);
      // A code field's placeholder is an example of the code typed there.
      if (v && !(attr === 'placeholder' && el.closest(CODE + ', .mono'))) out.push({ selector: `${where(el)}@${attr}`, text: v });
    }
  }
  // The document's title is read too (tab, bookmarks).
  out.push({ selector: 'title', text: document.title });
  return out;
}

const CJK = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/;

/** Collects findings for one state of the page into `found` (a Map text → selectors). */
function checker(page, lang) {
  const found = new Map();
  const note = (state, selector, what) => {
    const k = `${what}  ←  ${selector}`;
    if (!found.has(k)) found.set(k, state);
  };
  const check = async (state) => {
    await page.waitForTimeout(30);
    for (const { selector, text } of await page.evaluate(collectTexts)) {
      if (lang === 'zh') {
        // An arrow of the sequence diagram is labelled with the command or reply it carries.
        if (selector.includes('text.seq__label') && /^[A-Z]{3,}( |$)/.test(text)) continue;
        // A reply arrow carries the reply as redis-cli prints it ("alice", (nil)).
        if (selector.includes('seq__arrow--reply > text.seq__label')) continue;
        for (const run of englishRuns(text)) note(state, selector, `${JSON.stringify(run)} in ${JSON.stringify(text.slice(0, 160))}`);
        for (const word of loneWords(text)) note(state, selector, `${JSON.stringify(word)} in ${JSON.stringify(text.slice(0, 160))}`);
      } else if (CJK.test(text)) {
        // The switch names 简体中文 in itself, and its label is in both languages on purpose.
        if (selector.includes('lang-select') || selector.includes('.lang-switch')) continue;
        if (KEY_NAMES.has(text)) continue;
        note(state, selector, JSON.stringify(text.slice(0, 160)));
      }
    }
  };
  const report = () => [...found].map(([k, state]) => `[${state}] ${k}`);
  return { check, report };
}

const stepOf = async (page) => Number(await page.getByTestId('timeline').getAttribute('data-step'));

/** Drives every view into its interesting states, calling `check(state)` at each. */
async function driveEverything(page, check) {
  await check('start');
  // The pipeline: a key with a tag, then a bad escape.
  await typeKey(page, '{user1000}.following');
  await page.waitForFunction(() => document.querySelector('[data-testid=hashed-part]')?.textContent === 'user1000');
  await check('key with a tag');
  await page.locator('.stage summary, details summary').first().click().catch(() => {});
  await check('CRC details');
  await typeKey(page, 'a\\xZZ');
  await page.getByTestId('key-error').waitFor();
  await check('bad escape');
  await typeKey(page, 'foo{}{bar}');
  await page.getByTestId('client-rules').waitFor();
  await check('client rules');
  await typeKey(page, '');
  await check('empty key');
  await typeKey(page, 'foo');

  // The topology lab.
  await page.getByTestId('add-master').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=node-row][data-role=master]').length === 4);
  await check('added a master');
  await page.getByTestId('reshard-slots').fill('100');
  await page.getByTestId('reshard-to').selectOption({ label: '127.0.0.1:7006' });
  await page.getByTestId('reshard').click();
  await page.waitForFunction(() => document.querySelector('[data-addr="127.0.0.1:7006"]')?.dataset.slots === '100');
  await check('resharded');
  await page.getByTestId('last-change').locator('button').first().click().catch(() => {});
  await check('reshard commands');
  await page.getByTestId('rebalance').click();
  await page.waitForFunction(() => document.querySelector('[data-addr="127.0.0.1:7006"]')?.dataset.slots !== '100');
  await check('rebalanced');
  await page.getByTestId('use-empty-masters').check().catch(() => {});
  await page.getByTestId('weights').fill('127.0.0.1:9999=2');
  await page.getByTestId('rebalance').click();
  await page.getByTestId('topology-error').waitFor();
  await check('bad weight');
  await page.getByTestId('weights').fill('');
  await page.locator('[data-testid=node-row][data-addr="127.0.0.1:7001"] button').first().click();
  await page.waitForFunction(() => document.querySelector('[data-testid=node-row][data-addr="127.0.0.1:7005"]')?.dataset.role === 'master');
  await check('failed over');
  await page.locator('[data-testid=node-row][data-addr="127.0.0.1:7000"] button').nth(1).click();
  await page.getByTestId('topology-error').waitFor();
  await check('remove refused');
  await page.getByTestId('drain-and-remove').click();
  await page.waitForFunction(() => !document.querySelector('[data-testid=node-row][data-addr="127.0.0.1:7000"][data-role=master]'));
  await check('drained and removed');
  for (const [name, text] of [
    ['import', await readFile(join(fixtures, 'transcripts', '10_before_add_node_cluster_nodes.txt'), 'utf8')],
    ['broken import', 'garbage!\n42 43 44'],
    ['overlapping import', 'd3bede0cd4ba07708f552c2e44e8211e0d571a39 127.0.0.1:7000@17000 myself,master - 0 0 1 connected 0-100\n'
      + '44084a172411812451c56a0a3330ec6daa733083 127.0.0.1:7001@17001 master - 0 0 2 connected 50-200'],
  ]) {
    const open = await page.locator('.lab__import').getAttribute('open');
    if (open === null) await page.locator('.lab__import summary').click();
    await page.getByTestId('topology-input').fill(text);
    await page.getByTestId('topology-apply').click();
    await page.waitForTimeout(50);
    await check(name);
  }
  await page.getByTestId('topology-export').click().catch(() => {});
  await check('export');
  await page.getByTestId('undo').click();
  await check('undone');

  // The planner: results, a bad line, a generated batch, copy menus.
  await page.getByTestId('batch-input').fill('MSET a 1 b 2\nFOO bar\nGET "unclosed\nMULTI\nSET {t}a 1\nSET b 2\nEXEC');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=verdict]').length >= 5);
  await check('planner commands');
  // Commands the page does not run: its own note, in the page's language.
  // A script outside the page's Lua subset is its note too, with the line and column.
  await page.getByTestId('batch-input').fill('INFO\nBLPOP hello 0\nRESTORE hello 0 x\nSETRANGE hello 100000000 x\nEVAL "return x" 0');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=verdict-note]').length === 5);
  await check('planner notes');
  await page.getByTestId('command-select').selectOption('MGET');
  await page.getByTestId('batch-input').fill('{user1}:a\n{user1}:b\nfoo');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=plan]').length === 4);
  await check('planner keys');
  await page.getByTestId('gen-template').fill('user');
  await page.getByTestId('generate').click();
  await check('bad template');
  await page.getByTestId('gen-template').fill('user:%d');
  await page.getByTestId('gen-count').fill('300');
  await page.getByTestId('generate').click();
  await page.waitForFunction(() => /300/.test(document.querySelector('.planner')?.textContent ?? ''));
  await check('generated batch');
  for (const style of ['mget', 'eval', 'tagged']) {
    await page.locator('#copy-style').selectOption(style).catch(() => {});
    await check(`copy as ${style}`);
  }
  await page.getByTestId('gen-count').fill('0');
  await page.getByTestId('generate').click();
  await check('bad count');

  // The tag generator and the hot spot.
  await page.getByTestId('tag-template').fill('routing:v1:%d');
  await page.getByTestId('tags-per-master').fill('4');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=tag-row]').length > 0);
  await check('tags');
  await page.getByTestId('tag-template').fill('a}b:%d');
  await check('bad tag template');
  await page.getByTestId('tags-per-master').fill('100000');
  await check('bad tag count');
  await page.getByTestId('tag-template').fill('routing:v1:%d');
  await page.getByTestId('tags-per-master').fill('4');
  await page.getByTestId('pin-slot').fill('16383');
  await page.getByTestId('hotspot-k').fill('64');
  await check('hot spot 64');
  await page.getByTestId('hotspot-untagged').check();
  await check('hot spot untagged');

  // The redirections player: every scenario, every step.
  const scenarios = await page.getByTestId('scenario-select').locator('option').evaluateAll((os) => os.map((o) => o.value));
  assert.ok(scenarios.includes('client-disagrees'), scenarios.join());
  for (const id of scenarios) {
    await page.getByTestId('scenario-select').selectOption(id);
    const n = Number(await page.getByTestId('timeline').getAttribute('data-steps'));
    for (let s = 0; s < n; s++) {
      if (s % 3 === 0 || s === n - 1) await check(`${id} step ${s}`);
      const before = await stepOf(page);
      await page.getByTestId('step-next').click();
      await page.waitForFunction((b) => Number(document.querySelector('[data-testid=timeline]').dataset.step) !== b, before);
    }
    await check(`${id} end`);
  }
  // Free mode: a command, a redirect, a bad line.
  const input = page.getByTestId('free-command-input');
  for (const line of ['@127.0.0.1:7002 SET foo 1', 'GET foo', 'MSET a 1 b 2', 'GET "unclosed']) {
    await input.fill(line);
    await input.press('Enter');
    await page.waitForTimeout(50);
  }
  await page.locator('.redir__free [role=alert]').waitFor();
  await check('free mode');
  for (const policy of ['cli', 'moved-only']) {
    await page.locator('#free-policy').selectOption(policy);
    await input.fill('GET foo');
    await input.press('Enter');
    await check(`free mode ${policy}`);
  }

  // The compare view, with an error.
  await page.locator('#cmp-n').fill('9');
  await check('compare');
  await page.locator('#cmp-n').fill('0');
  await page.locator('.compare [role=alert]').waitFor();
  await check('compare error');
  await page.locator('#cmp-n').fill('3');

  // Share (the clipboard refused, so the link is shown).
  await page.evaluate(() => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new Error('no')) } });
  });
  await page.getByTestId('share').click();
  await page.getByTestId('share-link').waitFor();
  await check('share refused');

  // The tour, every stop.
  await page.getByTestId('tour-start').click();
  await page.getByTestId('tour').waitFor();
  for (let i = 0; i < 6; i++) {
    await check(`tour stop ${i + 1}`);
    const next = page.getByTestId('tour-next');
    if (i < 5) await next.click();
  }
  await page.keyboard.press('Escape');
  await check('after the tour');
}

/** Opens the page with the given browser locale. */
async function openWithLocale(url, locale) {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 }, locale });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`); });
  await page.goto(url);
  await appReady(page);
  await quiet(page);
  return { page, context, problems };
}

test('in Chinese, every view in every state shows no English prose outside code', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  await page.getByTestId('lang-select').selectOption('zh');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-Hans');
  const { check, report } = checker(page, 'zh');
  await driveEverything(page, check);
  assert.deepEqual(report(), [], `English prose on the Chinese page:\n${report().join('\n')}`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('in English, no CJK character shows anywhere but the language switch', async () => {
  const { page, context, problems } = await openWithLocale(env.server.url, 'en-US');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  const { check, report } = checker(page, 'en');
  await driveEverything(page, check);
  assert.deepEqual(report(), [], `CJK on the English page:\n${report().join('\n')}`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the prose detector finds English and lets code and replies through', () => {
  assert.deepEqual(englishRuns('Guided tour'), ['Guided tour']);
  assert.deepEqual(englishRuns('引导 client operator 节点'), ['client operator']);
  assert.deepEqual(englishRuns('(error) CROSSSLOT Keys in request don\'t hash to the same slot'), []);
  assert.deepEqual(englishRuns('MOVED 12182 127.0.0.1:7002 · GET foo · redis-cli --cluster reshard'), []);
  assert.deepEqual(englishRuns('300 keys'), []);
  assert.deepEqual(englishRuns('慢 12 ms and keys'), ['and keys']);
  assert.deepEqual(loneWords('127.0.0.1:7000 (master)'), ['master']);
  assert.deepEqual(loneWords('用时 12 ms'), []);
  assert.deepEqual(loneWords('12 ms.'), ['ms']);
  assert.deepEqual(loneWords('foo'), []);
});

test('switching the language updates the narration, errors and tour already on screen', async () => {
  const { page, context, problems } = await openWithLocale(env.server.url, 'en-US');
  await typeKey(page, 'a\\xZZ');
  const error = page.getByTestId('key-error');
  await error.waitFor();
  const enError = await error.textContent();
  await page.getByTestId('scenario-select').selectOption('live-migration');
  for (let i = 0; i < 5; i++) await page.getByTestId('step-next').click();
  const narration = page.getByTestId('narration');
  const enNarration = await narration.textContent();
  const enScenario = await page.getByTestId('scenario-select').locator('option:checked').textContent();
  // A batch line redis-cli cannot split, and the same line in free mode.
  await page.getByTestId('batch-input').fill('GET "unclosed');
  const verdict = page.getByTestId('verdict').first();
  await page.waitForFunction(() => /^Invalid argument/.test(document.querySelector('[data-testid=verdict]')?.textContent ?? ''));
  const enVerdict = await verdict.textContent();
  const free = page.getByTestId('free-command-input');
  await free.fill('@127.0.0.1:7000');
  await free.press('Enter');
  const freeError = page.getByTestId('free-error');
  await freeError.waitFor();
  const enFree = await freeError.textContent();
  assert.ok(!CJK.test(enError + enNarration + enScenario + enVerdict + enFree));

  await page.getByTestId('lang-select').selectOption('zh');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-Hans');
  assert.match(await error.textContent(), CJK, 'the key error is reworded');
  assert.match(await narration.textContent(), CJK, 'the narration mid-scenario is reworded');
  assert.equal(await stepOf(page), 5, 'the scenario stays at its step');
  assert.match(await page.getByTestId('scenario-select').locator('option:checked').textContent(), CJK);
  // redis-cli's own words stay; the page's reason after them is reworded.
  assert.match(await verdict.textContent(), /^Invalid argument\(s\): 第 \d+ 列/);
  assert.match(await freeError.textContent(), /@host:port/);
  assert.match(await freeError.textContent(), CJK);

  await page.getByTestId('lang-select').selectOption('en');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  assert.equal(await error.textContent(), enError);
  assert.equal(await narration.textContent(), enNarration);
  assert.equal(await verdict.textContent(), enVerdict);
  assert.equal(await freeError.textContent(), enFree);

  // The tour (its first stop puts foo in the key field, so it comes after the error).
  await page.getByTestId('tour-start').click();
  await page.getByTestId('tour-next').click();
  const body = page.getByTestId('tour-body');
  const enBody = await body.textContent();
  assert.ok(!CJK.test(enBody));
  await page.getByTestId('lang-select').selectOption('zh');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-Hans');
  assert.match(await body.textContent(), CJK, 'the open tour stop is reworded');
  assert.match(await page.getByTestId('tour-progress').textContent(), CJK);
  await page.getByTestId('lang-select').selectOption('en');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  assert.equal(await body.textContent(), enBody);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a switch rewords the sections on screen in its own frame, and the ones out of view after it', async () => {
  const { page, context, problems } = await openWithLocale(env.server.url, 'en-US');
  const ids = ['key', 'map', 'planner', 'bus', 'why'];
  // Each section's text and `<html lang>`, as a function the page can run. The key's section
  // is read without the pipeline's summary for screen readers, which is worded anew only once
  // the reader pauses (ANNOUNCE_AFTER_MS).
  await page.evaluate(`window.__texts = () => ({
    html: document.documentElement.lang,
    ...Object.fromEntries(${JSON.stringify(ids)}.map((id) => [id, document.getElementById(id).innerText])),
    key: document.querySelector('#key .key-card').innerText,
  })`);
  /** Switches to `lang`; reads the texts at the first animation frame after it, and again
   * once `<html lang>` names `lang`. */
  const switchTo = async (lang) => {
    const first = await page.evaluate((lang) => new Promise((done) => {
      const select = document.querySelector('[data-testid=lang-select]');
      select.value = lang;
      select.dispatchEvent(new Event('change', { bubbles: true }));
      requestAnimationFrame(() => done(window.__texts()));
    }), lang);
    await page.waitForFunction((l) => document.documentElement.lang === l, lang === 'zh' ? 'zh-Hans' : 'en');
    return { first, after: await page.evaluate(() => window.__texts()) };
  };
  const en = await page.evaluate(() => window.__texts());
  // At the top of the page (a 900 px window) the key card is on screen; the planner, the bus
  // and "why" are not.
  const toZh = await switchTo('zh');
  const zh = toZh.after;
  for (const id of ids) assert.notEqual(zh[id], en[id], `#${id} is reworded`);
  assert.match(zh.why, CJK);
  assert.equal(toZh.first.key, zh.key, 'the key card on screen is reworded in the switch\'s frame');
  for (const id of ['planner', 'bus', 'why']) assert.equal(toZh.first[id], en[id], `#${id}, out of view, waits for the next task`);
  assert.equal(toZh.first.html, 'en', '<html lang> waits for every section');
  assert.equal(await page.locator('#why').getAttribute('lang'), 'zh-Hans');
  // At the end of the page "why" is on screen and the key card is not.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  // The page learns what is on screen from an IntersectionObserver, which reports after the
  // frame that shows the scroll (a reader cannot scroll and switch in one frame).
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 50)))));
  const toEn = await switchTo('en');
  assert.equal(toEn.first.why, en.why, '"why", on screen, is reworded in the switch\'s frame');
  assert.equal(toEn.first.key, zh.key, 'the key card, out of view, waits for the next task');
  for (const id of ids) assert.equal(toEn.after[id], en[id], `#${id} is English again`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the sections out of view take the new language one a frame, one scrolled to first, and `<html lang>` last', async () => {
  const { page, context, problems } = await openWithLocale(env.server.url, 'en-US');
  const ids = ['key', 'map', 'planner', 'tags', 'redirections', 'bus', 'why'];
  /** Switches to `lang` (then, when `scroll`, scrolls to the end of the page in the same
   * task), and reads at every animation frame which sections' `lang` names it, until
   * `<html lang>` does and one frame more. */
  const frames = (lang, scroll) => page.evaluate(({ lang, ids, scroll }) => new Promise((done) => {
    const select = document.querySelector('[data-testid=lang-select]');
    select.value = lang;
    select.dispatchEvent(new Event('change', { bubbles: true }));
    if (scroll) window.scrollTo(0, document.documentElement.scrollHeight);
    const bcp47 = lang === 'zh' ? 'zh-Hans' : 'en';
    const seen = [];
    let after = 0;
    const read = () => {
      seen.push({ sections: ids.filter((id) => document.getElementById(id).lang === bcp47), html: document.documentElement.lang === bcp47 });
      if (seen.at(-1).html) after++;
      if (after > 1 || seen.length > 120) done(seen);
      else requestAnimationFrame(read);
    };
    requestAnimationFrame(read);
  }), { lang, ids, scroll });
  /** The order in which the sections took the language after the switch's frame; asserts
   * one a frame, and `<html lang>` only once all have. */
  const order = (seen) => {
    const came = [];
    for (let i = 1; i < seen.length; i++) {
      const fresh = seen[i].sections.filter((id) => !seen[i - 1].sections.includes(id));
      assert.ok(fresh.length <= 1, `one section a frame, not ${fresh.join(', ')} (frame ${i})`);
      came.push(...fresh);
      if (seen[i].html) assert.equal(seen[i - 1].sections.length, ids.length, '<html lang> follows only once every section speaks it');
    }
    assert.deepEqual(seen.at(-1).sections, ids, 'every section speaks it in the end');
    assert.ok(seen.at(-1).html);
    return came;
  };
  // At the top of a 900 px window: the key card on screen at the switch's frame, then the
  // others in page order.
  const toZh = await frames('zh', false);
  assert.ok(toZh[0].sections.includes('key') && !toZh[0].sections.includes('why'), `at the switch's frame: ${toZh[0].sections}`);
  assert.ok(!toZh[0].html, '<html lang> waits for every section');
  const zhOrder = order(toZh);
  assert.deepEqual(zhOrder, ids.filter((id) => !toZh[0].sections.includes(id)), 'the others in page order');
  assert.match(await page.locator('#why').innerText(), CJK);
  // Scrolled to the end at the switch: the page learns it from an IntersectionObserver after
  // the frame that shows the scroll, and "why", on screen there, comes before the sections
  // above it that are not.
  const toEn = await frames('en', true);
  const enOrder = order(toEn);
  assert.ok(enOrder.indexOf('why') < enOrder.indexOf('redirections'), `"why", scrolled to, comes over early: ${enOrder}`);
  assert.doesNotMatch(await page.locator('#why').innerText(), CJK);
  // Back at the top, to Chinese and, two frames later, back to English: the sections still in
  // English stay so, the one or two that had come over go back, and `<html lang>` never names
  // Chinese.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 50)))));
  const back = await page.evaluate((ids) => new Promise((done) => {
    const select = document.querySelector('[data-testid=lang-select]');
    const pick = (lang) => { select.value = lang; select.dispatchEvent(new Event('change', { bubbles: true })); };
    pick('zh');
    const seen = [];
    const read = () => {
      seen.push({ langs: ids.map((id) => document.getElementById(id).lang), html: document.documentElement.lang });
      if (seen.length === 3) pick('en');
      if (seen.length > 3 && seen.at(-1).langs.every((l) => l === 'en') && seen.length > 12) done(seen);
      else if (seen.length > 120) done(seen);
      else requestAnimationFrame(read);
    };
    requestAnimationFrame(read);
  }), ids);
  const atBack = back[2].langs;
  assert.ok(atBack.includes('en') && atBack.includes('zh-Hans'), `partway at the second switch: ${atBack}`);
  for (let i = 3; i < back.length; i++) {
    ids.forEach((id, j) => {
      if (back[i - 1].langs[j] === 'en') assert.equal(back[i].langs[j], 'en', `#${id} went back to Chinese (frame ${i})`);
    });
    // Out of view, the ones that had come over go back one a frame after the switch's frame.
    const returned = ids.filter((id, j) => back[i - 1].langs[j] !== 'en' && back[i].langs[j] === 'en');
    if (i > 3) assert.ok(returned.length <= 1, `one section a frame back, not ${returned.join(', ')} (frame ${i})`);
  }
  assert.ok(back.every((f) => f.html === 'en'), `<html lang> stays English: ${back.map((f) => f.html)}`);
  assert.ok(back.at(-1).langs.every((l) => l === 'en'));
  assert.deepEqual(problems, []);
  await context.close();
});

test('reaching for the switch paints the Chinese first screen once, unseen, and leaves nothing behind', async () => {
  const { page, context, problems } = await openPage(env.browser, env.server.url);
  const fetched = [];
  page.on('request', (r) => { if (r.url().includes('warm-')) fetched.push(new URL(r.url()).pathname); });
  // From the moment the copy joins the page until it leaves, as the page sees it.
  await page.evaluate(() => {
    window.__warm = [];
    new MutationObserver((records) => {
      for (const r of records) {
        for (const n of r.addedNodes) {
          if (!n.classList?.contains('lang-warm')) continue;
          // Read before the layout the checks below force, which a loaded machine makes slow.
          const added = performance.now();
          const box = n.getBoundingClientRect();
          const style = getComputedStyle(n);
          window.__warm.push({
            added, lang: n.lang, hidden: n.getAttribute('aria-hidden'), inert: n.inert,
            opacity: Number(style.opacity), z: style.zIndex, position: style.position,
            box: [box.x, box.y, box.width, box.height], events: style.pointerEvents,
            gone: [style.animationName, style.animationDelay, style.animationFillMode],
            marked: n.querySelectorAll('[id], [data-testid], [for], [href]').length,
            tagline: n.querySelector('.masthead__tagline')?.textContent,
            nav: [...n.querySelectorAll('.section-nav__link')].map((a) => a.textContent),
            label: n.querySelector('.key-input__label')?.textContent,
            stages: [...n.querySelectorAll('.stage__title')].map((t) => t.textContent),
          });
        }
        for (const n of r.removedNodes) if (n.classList?.contains('lang-warm')) window.__warm.at(-1).removed = performance.now();
      }
    }).observe(document.body, { childList: true });
  });
  await page.getByTestId('lang-select').hover();
  await page.waitForFunction(() => window.__warm.length === 1 && window.__warm[0].removed);
  // Again, by the keyboard and the pointer: fetched and painted once.
  await page.getByTestId('lang-select').focus();
  await page.mouse.move(0, 0);
  await page.getByTestId('lang-select').hover();
  await page.waitForTimeout(500);
  const [warm, ...again] = await page.evaluate(() => window.__warm);
  assert.deepEqual(again, [], 'painted once');
  assert.deepEqual(fetched, ['/warm-zh.json']);
  assert.equal(await page.locator('.lang-warm').count(), 0, 'removed');
  // Under the page, over the viewport, nearly transparent, out of reach of the pointer, the
  // keyboard and assistive technology, for a few frames.
  assert.equal(warm.lang, 'zh-Hans');
  assert.equal(warm.hidden, 'true');
  assert.equal(warm.inert, true);
  assert.ok(warm.opacity > 0 && warm.opacity < 0.01, `opacity ${warm.opacity}`);
  assert.equal(warm.z, '-1');
  assert.equal(warm.position, 'fixed');
  assert.deepEqual(warm.box, [0, 0, 1280, 900]);
  assert.equal(warm.events, 'none');
  assert.equal(warm.marked, 0, 'no ids, test ids, label targets or links in the copy');
  const kept = warm.removed - warm.added;
  assert.ok(kept >= 250, `kept ${kept.toFixed(0)} ms, time for a paint`);
  // Should the page fail to remove it, the stylesheet hides it after a second.
  assert.deepEqual(warm.gone, ['lang-warm-gone', '1s', 'forwards']);
  // What it painted is the page's Chinese first screen, as the switch then shows it.
  await page.getByTestId('lang-select').selectOption('zh');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-Hans');
  const live = await page.evaluate(() => ({
    tagline: document.querySelector('.masthead__tagline').textContent,
    nav: [...document.querySelectorAll('.section-nav__link')].map((a) => a.textContent),
    label: document.querySelector('.key-input__label').textContent,
    stages: [...document.querySelectorAll('#key .stage__title')].map((t) => t.textContent),
  }));
  assert.match(live.tagline, CJK);
  for (const k of ['tagline', 'nav', 'label', 'stages']) assert.deepEqual(warm[k], live[k], k);
  // In Chinese, reaching for the switch fetches nothing: English needs no copy.
  await page.mouse.move(0, 0);
  await page.getByTestId('lang-select').hover();
  await page.waitForTimeout(400);
  assert.deepEqual(fetched, ['/warm-zh.json']);
  assert.deepEqual(problems, []);
  await context.close();
  // A switch made before the copy has come (Tab to the switch, the arrow key at once, the
  // copy held back on its way): the page itself draws the glyphs, and no copy is built after.
  const second = await openPage(env.browser, env.server.url);
  let release;
  const held = new Promise((ok) => { release = ok; });
  await second.page.route('**/warm-zh.json', async (route) => { await held; await route.continue(); });
  await second.page.evaluate(() => {
    window.__added = 0;
    new MutationObserver((rs) => { for (const r of rs) for (const n of r.addedNodes) if (n.classList?.contains('lang-warm')) window.__added++; })
      .observe(document.body, { childList: true });
  });
  await second.page.getByTestId('tour-start').focus();
  await second.page.keyboard.press('Tab');
  await second.page.keyboard.press('ArrowDown');
  await second.page.waitForFunction(() => document.documentElement.lang === 'zh-Hans');
  release();
  await second.page.waitForResponse('**/warm-zh.json');
  await second.page.waitForTimeout(300);
  assert.equal(await second.page.evaluate(() => window.__added), 0, 'no copy after the switch');
  assert.deepEqual(second.problems, []);
  await second.context.close();
});

test('the choice survives a reload and travels in the share link; a first visit follows the browser', async () => {
  // zh-CN browser → Chinese; en-US → English.
  {
    const { page, context } = await openWithLocale(env.server.url, 'zh-CN');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-Hans');
    assert.equal(await page.getByTestId('lang-select').inputValue(), 'zh');
    assert.match(await page.locator('body').innerText(), /[\u4e00-\u9fff]{4}/);
    await context.close();
  }
  const { page, context, problems } = await openWithLocale(env.server.url, 'en-US');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  assert.equal(await page.getByTestId('lang-select').inputValue(), 'en');
  await page.getByTestId('lang-select').selectOption('zh');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-Hans');
  assert.equal(await page.evaluate(() => localStorage.getItem('slotscope.lang')), 'zh');
  // A reload without the link in the address: localStorage brings Chinese back.
  // The language's own save first, then the key's: it settles after the reader's pause and is
  // saved a pause later (300 + 300 ms), so wait for the address to change, not for a fixed time.
  await page.waitForFunction(() => location.hash.startsWith('#s=1.'));
  const before = await page.evaluate(() => location.hash);
  await page.getByTestId('key-input').fill('{user42}:cart');
  await page.waitForFunction((h) => location.hash !== h, before);
  const link = page.url();
  await page.evaluate(() => history.replaceState(null, '', location.pathname));
  await page.reload();
  await appReady(page);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-Hans');
  assert.equal(await page.getByTestId('lang-select').inputValue(), 'zh');
  // The link opens in Chinese in a fresh English browser.
  const { page: p2, context: c2, problems: pr2 } = await openWithLocale(link, 'en-US');
  assert.equal(await p2.evaluate(() => document.documentElement.lang), 'zh-Hans');
  assert.equal(await p2.getByTestId('lang-select').inputValue(), 'zh');
  assert.equal(await p2.getByTestId('key-input').inputValue(), '{user42}:cart');
  assert.deepEqual(pr2, []);
  await c2.close();
  assert.deepEqual(problems, []);
  await context.close();
});

test('a link the page cannot restore says so in Chinese, with no English prose', async () => {
  for (const hash of ['#s=9.AAAA', '#s=1.A', '#s=1.!!', '#not-a-link']) {
    const { page, context, problems } = await openWithLocale(env.server.url + hash, 'zh-CN');
    const error = page.getByTestId('restore-error');
    await error.waitFor();
    assert.match(await error.textContent(), CJK, hash);
    const { check, report } = checker(page, 'zh');
    await check(`link ${hash}`);
    assert.deepEqual(report(), [], `English prose on the Chinese page:\n${report().join('\n')}`);
    assert.deepEqual(problems, []);
    await context.close();
  }
});
