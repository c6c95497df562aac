//! The benchmark's interaction figures (issue 17), called by `bench.mjs`:
//!  - `measureInp`: interaction to next paint as browsers report it (Event Timing API,
//!    `PerformanceObserver` type 'event', durationThreshold 16), for trusted input (CDP
//!    `Input.dispatchKeyEvent` through Playwright's keyboard): typing in the key field (30 and
//!    120 ms a key), and
//!    pasting a 64 KB key (Ctrl+A, Ctrl+V from the clipboard). The same on the plain page
//!    (`plain.html`: one input, one TextEncoder, a bitwise CRC16) in the same run. Then the
//!    paste alone (its V's interaction), 80 a page, the pages taken in turn (`pastesInTurn`).
//!  - `measureHeavy`: the heavy interactions, each from its event dispatched in the page to the
//!    frame after it (two requestAnimationFrames: the effects have run and the frame painted);
//!    and the big pastes set into a bare <textarea> on a blank page, the browser's own share;
//!    and the planner's big pastes made as a reader makes them (a trusted Ctrl+V), as INP.
//!  - `measureFirstSwitch`: a fresh page's first switch to 简体中文 with the keyboard, as INP.
//! Nothing here asserts a time.

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(s.length * p))] : NaN;
};
export const p50 = (xs) => pct(xs, 0.5);
export const p95 = (xs) => pct(xs, 0.95);

/** Records every event timing entry (≥ 16 ms) with its interaction id, from the first paint on. */
function observeEvents() {
  window.__events = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__events.push({ id: e.interactionId, name: e.name, dur: e.duration });
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
}

const frame = (page) => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));

/**
 * Runs `act` (which makes trusted input) and returns the INP of each interaction it made: the
 * longest event of each interaction id. Interactions the observer did not report took under
 * 16 ms (Chromium reports durations in steps of 8 ms): they count as 8.
 */
async function interactions(page, act) {
  await page.evaluate(() => { window.__events.length = 0; window.__count0 = performance.interactionCount; });
  await act();
  await frame(page);
  await page.waitForTimeout(300);
  const { events, count } = await page.evaluate(() => ({ events: window.__events.splice(0), count: performance.interactionCount - window.__count0 }));
  const byId = new Map();
  for (const e of events) if (e.id) byId.set(e.id, Math.max(byId.get(e.id) ?? 0, e.dur));
  const durs = [...byId.values()];
  while (durs.length < count) durs.push(8);
  return durs;
}

/**
 * The computed style of slotscope's key field while focused (its font, size, box and focus
 * ring), as CSS text for another input: the plain page's input styled so is what the field's
 * own look costs the browser (laying out and rastering 64 KB in a wide field of large monospace
 * text), apart from what the rest of the page costs.
 */
async function keyFieldStyle(browser, url) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(url);
  await page.locator('[data-testid=slot]').waitFor();
  const css = await page.getByTestId('key-input').evaluate((el) => {
    el.focus();
    const s = getComputedStyle(el);
    const props = ['box-sizing', 'width', 'height', 'font-family', 'font-size', 'font-weight', 'line-height', 'letter-spacing',
      'padding', 'border', 'border-radius', 'outline', 'box-shadow', 'background-color', 'color'];
    return props.map((p) => `${p}: ${s.getPropertyValue(p)}`).join('; ');
  });
  await page.close();
  return css;
}

/**
 * The page at `url` in a context of its own, the clipboard allowed and its events observed,
 * once `ready` is there, with `[data-testid=key-input]` (styled `style`) focused.
 */
async function openField(browser, url, ready, style) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
  const page = await context.newPage();
  await page.addInitScript(observeEvents);
  await page.goto(url);
  await page.locator(ready).waitFor();
  const input = page.getByTestId('key-input');
  if (style) await input.evaluate((el, css) => { el.style.cssText = css; }, style);
  await input.click();
  return { context, page, input };
}

/** Typing and pasting into `[data-testid=key-input]` of the page at `url` (styled `style`). */
async function inpOf(browser, url, ready, style = '') {
  const { context, page, input } = await openField(browser, url, ready, style);
  await frame(page);
  // Keys pressed and released at once (Playwright's `press`), 30 ms apart (a burst faster than
  // anyone types) and 120 ms apart; then keys held 60 ms with 60 ms between them, as fingers
  // type (about 100 words a minute). A key released at once is often released after the
  // frame that shows it has begun: its keyup is then presented with the next frame, and the
  // interaction counts that frame (on slotscope the pipeline waits for a frame with no key in
  // it, so that frame is not the pipeline's: issue 17, `KeyStore::edited`).
  const typeRounds = async (gap, hold = 0) => {
    const durs = [];
    for (let round = 0; round < 4; round++) {
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Backspace');
      // Emptying the field is not typing: its entry (reported after its frame) is let through
      // before the keys' are counted. Pressed 6 ms after Ctrl+A, it often lands in Ctrl+A's
      // frame and waits for the next, 24 ms on slotscope: four such entries in 64 were the
      // typing row's p95 until this wait.
      await frame(page);
      await page.waitForTimeout(300);
      durs.push(...await interactions(page, async () => {
        for (const ch of `user:${1000 + round}:{tag}x`) {
          if (hold) {
            await page.keyboard.down(ch);
            await page.waitForTimeout(hold);
            await page.keyboard.up(ch);
          } else {
            await page.keyboard.press(ch);
          }
          await page.waitForTimeout(gap);
        }
      }));
    }
    return durs;
  };
  const typed = await typeRounds(30);
  const typedPaced = await typeRounds(120);
  const typedHeld = await typeRounds(60, 60);
  // The clipboard holds a 64 KB key; each paste replaces the field's text with it (two keys
  // taken in turn, so every paste changes the text).
  const big = ['k', 'j'].map((c) => c.repeat(64 * 1024));
  const pasted = [];
  for (let i = 0; i < 16; i++) {
    const text = big[i % 2];
    await page.evaluate((t) => navigator.clipboard.writeText(t), text);
    await page.keyboard.press('Control+A');
    pasted.push(...await interactions(page, () => page.keyboard.press('Control+V')));
    const got = await input.inputValue();
    if (got.length !== text.length) throw new Error(`the paste did not reach the field of ${url} (${got.length} characters)`);
  }
  // One character typed at the end of the pasted key.
  const afterPaste = [];
  await page.keyboard.press('End');
  for (let i = 0; i < 12; i++) {
    afterPaste.push(...await interactions(page, () => page.keyboard.press(String.fromCharCode(97 + (i % 26)))));
  }
  await context.close();
  return { typed, typedPaced, typedHeld, pasted, afterPaste };
}

/**
 * The 64 KB paste's own interaction (the V of Ctrl+V, whose keydown holds the paste) on each
 * of `pages` ({ name: [url, ready, style] }), the pages taken in turn `per` pastes at a time for
 * `rounds` rounds, each round in the other order: the paste row above counts Ctrl's own
 * interaction too, and its p95 of 16 pastes, each page's in one stretch, moved by a frame from
 * run to run. Returns { name: durations }.
 */
async function pastesInTurn(browser, pages, rounds = 8, per = 10) {
  const open = {};
  for (const [name, [url, ready, style]] of Object.entries(pages)) {
    const { context, page } = await openField(browser, url, ready, style);
    open[name] = { context, page, durs: [] };
  }
  const big = ['k', 'j'].map((c) => c.repeat(64 * 1024));
  for (let round = 0; round < rounds; round++) {
    const order = Object.values(open);
    for (const { page, durs } of round % 2 ? order.reverse() : order) {
      await page.bringToFront();
      for (let i = 0; i < per; i++) {
        await page.evaluate((t) => navigator.clipboard.writeText(t), big[i % 2]);
        await page.keyboard.press('Control+A');
        await frame(page);
        await page.waitForTimeout(100);
        await page.evaluate(() => { window.__events.length = 0; });
        await page.keyboard.press('Control+V');
        await frame(page);
        await page.waitForTimeout(300);
        const events = await page.evaluate(() => window.__events.splice(0));
        // The interaction of the keydown just before the paste's beforeinput.
        const at = events.findIndex((e) => e.name === 'beforeinput');
        const id = events.slice(0, at + 1).reverse().find((e) => e.name === 'keydown')?.id;
        durs.push(Math.max(8, ...events.filter((e) => id && e.id === id).map((e) => e.dur)));
      }
    }
  }
  const out = {};
  for (const [name, { context, durs }] of Object.entries(open)) {
    await context.close();
    out[name] = durs;
  }
  return out;
}

/**
 * INP of slotscope's key field, of the plain page, and of the plain page with its input styled
 * as the key field, in one run.
 */
export async function measureInp(browser, url, plainUrl) {
  const style = await keyFieldStyle(browser, url);
  const plain = await inpOf(browser, plainUrl, '[data-testid=key-input]');
  const styled = await inpOf(browser, plainUrl, '[data-testid=key-input]', style);
  const page = await inpOf(browser, url, '[data-testid=slot]');
  const rows = [];
  for (const [what, key] of [['typing in the key field, keys released at once, 30 ms apart', 'typed'], ['typing in the key field, keys released at once, 120 ms apart', 'typedPaced'], ['typing in the key field, keys held 60 ms, 60 ms apart', 'typedHeld'], ['pasting a 64 KB key', 'pasted'], ['a key typed after the 64 KB key', 'afterPaste']]) {
    rows.push([what, plain[key], styled[key], page[key]]);
  }
  const turns = await pastesInTurn(browser, {
    plain: [plainUrl, '[data-testid=key-input]', ''],
    styled: [plainUrl, '[data-testid=key-input]', style],
    slotscope: [url, '[data-testid=slot]', ''],
  });
  rows.push(['pasting a 64 KB key: the paste\'s own interaction, the pages in turn', turns.plain, turns.styled, turns.slotscope, 'mean']);
  return rows;
}

/**
 * `time(selector, how, value)` in `page`: sets a field's value (or a select's) and dispatches
 * event `how`, or clicks (`how` 'click'); resolves to the milliseconds until the frame after it.
 * The element is scrolled into view first (untimed): a reader acts on what is on screen, and
 * the cards far below are not laid out until they come near it. `painted`: until the end of
 * the next frame's work instead (an animation frame, then a task set from it, which runs before
 * any the page set from its own frame callbacks): work a page leaves for a task after that
 * frame is not counted.
 */
export function timer(page, painted = false) {
  return (selector, how, value) => page.evaluate(({ selector, how, value, painted }) => new Promise((done) => {
    const el = document.querySelector(selector);
    if (!el) throw new Error(`no ${selector}`);
    el.scrollIntoView({ block: 'center' });
    el.getBoundingClientRect();
    const t0 = performance.now();
    if (how === 'click') el.click();
    else {
      el.value = value;
      el.dispatchEvent(new Event(how, { bubbles: true }));
    }
    if (painted) requestAnimationFrame(() => setTimeout(() => done(performance.now() - t0)));
    else requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now() - t0)));
  }), { selector, how, value, painted });
}

/** `repeat(what, f)`: runs `f(i)` `runs` times and adds `[what, median, worst]` to `rows`. */
export function repeater(rows, runs) {
  return async (what, f) => {
    const xs = [];
    for (let i = 0; i < runs; i++) xs.push(await f(i));
    rows.push([what, p50(xs), Math.max(...xs)]);
  };
}

/** The heavy interactions: each dispatched in the page, timed to the frame after it. */
export async function measureHeavy(browser, url, runs = 5) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(url);
  await page.getByTestId('key-input').waitFor();
  const time = timer(page);
  const rows = [];
  const repeat = repeater(rows, runs);
  // A switch's sections out of view come over one a frame after it (src/ui/late_lang.rs):
  // each switch below waits, untimed, until `<html lang>` names its language and a frame has
  // passed, so the next one starts from a page that speaks one language.
  const spoken = async (lang) => {
    await page.waitForFunction((l) => document.documentElement.lang === l, lang === 'zh' ? 'zh-Hans' : 'en');
    await frame(page);
  };
  const switchTo = (timing) => async (i) => {
    const ms = await timing('[data-testid=lang-select]', 'change', i % 2 ? 'en' : 'zh');
    await spoken(i % 2 ? 'en' : 'zh');
    return ms;
  };
  const backToEn = async () => {
    await time('[data-testid=lang-select]', 'change', 'en');
    await spoken('en');
  };
  await repeat('language switch, the fixtures\' cluster (en → zh, zh → en)', switchTo(time));
  await backToEn();
  // The row above times to the start of the second frame, so it counts the task after the
  // first paint that rewords the first section out of view (src/ui/late_lang.rs); the frame that
  // shows the switch, the sections on screen reworded, ends sooner.
  const painted = timer(page, true);
  const switchPainted = () => repeat('  ... to the end of the frame that shows it (the sections out of view follow, one a frame)',
    switchTo(painted)).then(backToEn);
  await switchPainted();
  // The same switch made as a reader makes it (the focused switch, an arrow key: trusted
  // input), as INP: to the paint that shows it. Sections out of view take the new language
  // one a frame after that paint (src/ui/late_lang.rs); the row above still counts the first.
  await page.evaluate(observeEvents);
  const switchByKeys = (what) => repeat(`language switch with the keyboard (INP), ${what}`, async (i) => {
    await page.getByTestId('lang-select').focus();
    const durs = await interactions(page, () => page.keyboard.press(i % 2 ? 'ArrowUp' : 'ArrowDown'));
    const want = i % 2 ? 'en' : 'zh';
    if (await page.getByTestId('lang-select').inputValue() !== want) throw new Error(`the arrow key did not switch the language to ${want}`);
    await spoken(want);
    return Math.max(...durs);
  }).then(backToEn);
  await switchByKeys('the fixtures\' cluster');
  await page.getByTestId('cluster-select').selectOption('create');
  await repeat('created cluster, 6 → 1000 masters', async () => {
    await time('[data-testid=n-masters]', 'input', '6');
    return time('[data-testid=n-masters]', 'input', '1000');
  });
  await repeat('language switch at 1000 masters', switchTo(time));
  await backToEn();
  await switchPainted();
  // What the rows above stop short of: the frames after the first paint, which reword the
  // sections out of view (src/ui/late_lang.rs), until `<html lang>` names the new language.
  // The longest frame of the switch, its first included, by the Long Animation Frames API (a
  // frame and the tasks before it, reported over 50 ms), and how long until every section
  // speaks it.
  const settled = (i) => page.evaluate((want) => new Promise((done) => {
    const frames = [];
    const loaf = new PerformanceObserver((l) => { for (const e of l.getEntries()) frames.push(e); });
    loaf.observe({ type: 'long-animation-frame' });
    const select = document.querySelector('[data-testid=lang-select]');
    select.scrollIntoView({ block: 'center' });
    select.getBoundingClientRect();
    const t0 = performance.now();
    select.value = want;
    select.dispatchEvent(new Event('change', { bubbles: true }));
    const bcp47 = want === 'zh' ? 'zh-Hans' : 'en';
    const wait = () => {
      if (document.documentElement.lang !== bcp47) return requestAnimationFrame(wait);
      const spoken = performance.now() - t0;
      // The frame that shows the last change, then the observer's report.
      requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => {
        loaf.takeRecords().forEach((e) => frames.push(e));
        loaf.disconnect();
        const mine = frames.filter((e) => e.startTime + e.duration > t0);
        done({ longest: Math.max(0, ...mine.map((e) => e.duration)), spoken });
      }, 20)));
    };
    requestAnimationFrame(wait);
  }), i % 2 ? 'en' : 'zh');
  {
    const xs = [];
    for (let i = 0; i < runs; i++) xs.push(await settled(i));
    await backToEn();
    const longest = xs.map((x) => x.longest);
    const spoken = xs.map((x) => x.spoken);
    rows.push(['  ... its longest animation frame, from the switch until every section speaks it (over 50 ms; 0: none)', p50(longest), Math.max(...longest)]);
    rows.push(['  ... until every section speaks it (`<html lang>` set; the page answering meanwhile)', p50(spoken), Math.max(...spoken)]);
  }
  await switchByKeys('1000 masters');
  await page.getByTestId('reshard-slots').fill('1000');
  await page.getByTestId('reshard-from').selectOption('all');
  // A large cluster's list of masters is rendered whole while the reader is at the select
  // (src/ui/components/master_options.rs): focused to choose, then left.
  await page.getByTestId('reshard-to').focus();
  await page.getByTestId('reshard-to').selectOption({ index: 3 });
  await page.getByTestId('reshard-to').evaluate((el) => el.blur());
  const reshards = [];
  const rebalances = [];
  for (let i = 0; i < runs; i++) {
    reshards.push(await time('[data-testid=reshard]', 'click'));
    rebalances.push(await time('[data-testid=rebalance]', 'click'));
  }
  rows.push(['reshard 1000 slots from all at 1000 masters', p50(reshards), Math.max(...reshards)]);
  rows.push(['rebalance at 1000 masters', p50(rebalances), Math.max(...rebalances)]);
  await repeat('16 tags per master at 1000 masters', async () => {
    await time('[data-testid=tags-per-master]', 'input', '15');
    return time('[data-testid=tags-per-master]', 'input', '16');
  });
  await repeat('hot spot, a new k (100,000 keys), 1000 masters', (i) => time('[data-testid=hotspot-k]', 'input', String(50 + i)));
  // 2,000 lines is the planner's limit of commands answered one by one (MAX_LINES); 20,000 are
  // refused as too many, so only their text is taken in.
  for (const n of [2000, 20000]) {
    const commands = Array.from({ length: n }, (_, i) => `GET user:${i}:{t${i % 97}}`).join('\n');
    await repeat(`planner, ${n.toLocaleString('en')} commands set into the field by script${n > 2000 ? ' (over its 2,000 lines: refused)' : ''}, 1000 masters`, async (i) => {
      await time('[data-testid=batch-input]', 'input', 'GET a');
      return time('[data-testid=batch-input]', 'input', commands + '\n'.repeat(i % 2));
    });
    if (n > 2000) continue;
    // Many commands are answered a task after the frame that shows their text (the row above
    // counts that task, which comes before its second frame): the frame itself.
    await repeat('  ... to the end of the frame that shows their text (its replies follow in a task of their own)', async (i) => {
      await time('[data-testid=batch-input]', 'input', 'GET a');
      return painted('[data-testid=batch-input]', 'input', commands + '\n'.repeat(i % 2));
    });
    // A reader editing such a batch: a key typed at its end, as INP.
    await repeat('planner, a key typed at the end of 2,000 commands in the field (INP), 1000 masters', async (i) => {
      await time('[data-testid=batch-input]', 'input', commands + 'x'.repeat(i % 2));
      await page.waitForFunction(() => document.querySelector('[data-testid=verdicts]')?.dataset.rows === '2000');
      await page.getByTestId('batch-input').focus();
      await page.keyboard.press('Control+End');
      return Math.max(...await interactions(page, () => page.keyboard.press('y')));
    });
  }
  // Just under the planner's 4 MB limit (4 << 20 bytes), and just over it: keys for MGET, one
  // per line (up to 1,000,000 keys; commands stop at 2,000 lines).
  await page.getByTestId('command-select').selectOption('MGET');
  const line = 'user:{hot}:aaaaaaaaaaaaaaaaaaaaaaaa\n';
  const limit = 4 << 20;
  const atLimit = line.repeat(Math.floor(limit / line.length));
  await repeat('planner, 4 MB of keys set into the field by script (just under its limit; no paste event, so the browser lays it all out), 1000 masters', async () => {
    await time('[data-testid=batch-input]', 'input', 'GET a');
    return time('[data-testid=batch-input]', 'input', atLimit);
  });
  await repeat('planner, keys over its 4 MB limit set into the field by script (refused after the browser laid them out), 1000 masters', async () => {
    await time('[data-testid=batch-input]', 'input', 'GET a');
    return time('[data-testid=batch-input]', 'input', atLimit + line.repeat(2));
  });
  await time('[data-testid=batch-input]', 'input', 'GET a');
  // The same texts pasted as a reader does (a trusted Ctrl+V over the field's text), timed by
  // the Event Timing API like the key field: a paste too long for the field is held by the
  // planner, which shows its start (src/ui/planner_state.rs, FIELD_LINES).
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
  const twentyCommands = Array.from({ length: 20000 }, (_, i) => `GET user:${i}:{t${i % 97}}`).join('\n');
  for (const [what, command, text] of [['20,000 commands', 'commands', twentyCommands], ['a 4 MB paste of keys (just under its limit)', 'MGET', atLimit], ['a paste of keys over its 4 MB limit (refused)', 'MGET', atLimit + line.repeat(2)]]) {
    await page.getByTestId('command-select').selectOption(command);
    const xs = [];
    const untilShown = [];
    const longest = [];
    for (let i = 0; i < runs; i++) {
      await time('[data-testid=batch-input]', 'input', 'GET a');
      await page.evaluate((t) => navigator.clipboard.writeText(t), text + '\n'.repeat(i % 2));
      await page.getByTestId('batch-input').focus();
      await page.keyboard.press('Control+A');
      // The tasks the paste leaves after its frame (taken in, read in slices, planned, the
      // copied plan written): until the plan and its commands are shown, and the longest.
      await page.evaluate(() => {
        window.__longest = 0;
        window.__longTasks = new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longest = Math.max(window.__longest, e.duration); });
        window.__longTasks.observe({ type: 'longtask' });
        window.__pasted = performance.now();
        window.__doneAt = undefined;
        window.__notes = new MutationObserver(() => {
          const working = document.querySelector('[data-testid=batch-working], [data-testid=plan-commands-writing]');
          window.__doneAt = working ? undefined : (window.__doneAt ?? performance.now());
        });
        window.__notes.observe(document.body, { subtree: true, childList: true });
      });
      xs.push(Math.max(...await interactions(page, () => page.keyboard.press('Control+V'))));
      await page.waitForFunction(() => !document.querySelector('[data-testid=batch-working], [data-testid=plan-commands-writing]'));
      const { shown, long } = await page.evaluate(() => {
        window.__longTasks.disconnect();
        window.__notes.disconnect();
        return { shown: window.__doneAt - window.__pasted, long: window.__longest };
      });
      untilShown.push(Math.round(shown));
      longest.push(Math.round(long));
    }
    rows.push([`planner, ${what} pasted with Ctrl+V (INP), 1000 masters`, p50(xs), Math.max(...xs)]);
    rows.push([`  ... until its plan and copied plan are shown (the page answering meanwhile)`, p50(untilShown), Math.max(...untilShown)]);
    rows.push([`  ... its longest task meanwhile (long tasks are over 50 ms; 0: none)`, p50(longest), Math.max(...longest)]);
  }
  await time('[data-testid=batch-input]', 'input', 'GET a');
  await page.getByTestId('command-select').selectOption('commands');
  const scenarios = await page.getByTestId('scenario-select').evaluate((s) => [...s.options].map((o) => o.value));
  await repeat('scenario switch, 1000 masters', (i) => time('[data-testid=scenario-select]', 'change', scenarios[(i + 1) % scenarios.length]));
  // The browser's own share of the big pastes: the same texts set into a bare <textarea> of
  // the planner's size, on a blank page, timed the same way (no script listens).
  const bare = await context.newPage();
  await bare.setContent('<textarea rows="7" spellcheck="false" style="width:640px;font:13px monospace"></textarea>');
  const bareTime = (value) => bare.evaluate((value) => new Promise((done) => {
    const el = document.querySelector('textarea');
    const t0 = performance.now();
    el.value = value;
    el.dispatchEvent(new Event('input', { bubbles: true }));
    requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now() - t0)));
  }), value);
  const twenty = Array.from({ length: 20000 }, (_, i) => `GET user:${i}:{t${i % 97}}`).join('\n');
  const twoThousand = Array.from({ length: 2000 }, (_, i) => `GET user:${i}:{t${i % 97}}`).join('\n');
  for (const [what, text] of [['the 2,000 commands', twoThousand], ['the 20,000 commands', twenty], ['the 4 MB of keys', atLimit]]) {
    await repeat(`a bare <textarea> on a blank page, ${what} set (the browser's own cost)`, async () => {
      await bareTime('GET a');
      return bareTime(text);
    });
  }
  await context.close();
  return rows;
}

/**
 * A page's first switch to 简体中文, as INP, on `pages` fresh pages (a second switch reuses what
 * the first one drew: the repeated rows above are mostly second switches). The switch is
 * reached with Tab from the tour button, as a keyboard reader reaches it, and the arrow key
 * comes after a reader's pause of 300 ms, or at once: the page paints the Chinese first
 * screen unseen when the reader reaches for the switch (src/ui/lang_warm.rs), which 0 ms
 * leaves no time for.
 */
export async function measureFirstSwitch(browser, url, pages = 8) {
  const rows = [];
  for (const pause of [300, 0]) {
    const xs = [];
    for (let i = 0; i < pages; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await page.goto(url);
      await page.waitForFunction(() => window.wasmBindings !== undefined);
      await page.waitForTimeout(500);
      await page.evaluate(observeEvents);
      await page.getByTestId('tour-start').focus();
      await page.keyboard.press('Tab');
      if (!await page.getByTestId('lang-select').evaluate((el) => el === document.activeElement)) throw new Error('Tab from the tour button did not reach the language switch');
      await page.waitForTimeout(pause);
      const durs = await interactions(page, () => page.keyboard.press('ArrowDown'));
      if (await page.getByTestId('lang-select').inputValue() !== 'zh') throw new Error('the arrow key did not switch the language to zh');
      xs.push(Math.max(...durs));
      await context.close();
    }
    rows.push([`first language switch of a fresh page with the keyboard (INP): Tab to it, ${pause ? `${pause} ms, ` : ''}an arrow key${pause ? '' : ' at once'} (${pages} pages)`, p50(xs), Math.max(...xs)]);
  }
  return rows;
}

/** Prints INP rows: p50 / p95 of the plain page and of slotscope. */
export function printInp(inp) {
  console.log('\ninteraction to next paint (Event Timing, trusted input; ms, p50 / p95; under 16 counts as 8):');
  console.log('(plain page styled: its one input given the key field\'s computed style, so it costs what the field\'s look costs)');
  console.log('   plain page    plain page,  slotscope   interactions');
  console.log('                 styled');
  for (const [what, plain, styled, ours, mean] of inp) {
    const f = (xs) => `${String(p50(xs)).padStart(4)} / ${String(p95(xs)).padEnd(4)}`;
    const means = mean ? `; means ${[plain, styled, ours].map((xs) => (xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(1)).join(', ')}` : '';
    console.log(`  ${f(plain)}  ${f(styled)}  ${f(ours)}  ${what} (${ours.length}${means})`);
  }
}

/** Prints the heavy interactions: median and worst, starred over 100 ms. */
export function printHeavy(heavy) {
  console.log('\nheavy interactions, dispatch to the frame after it (ms, median and worst of 5; * over 100; rows');
  console.log('under "..." follow the interaction above them after its frame, the page answering: no star)');
  for (const [what, med, worst] of heavy) {
    const star = worst > 100 && !what.includes('... ') ? '*' : ' ';
    console.log(`${med.toFixed(1).padStart(8)} ${worst.toFixed(1).padStart(8)} ${star} ${what}`);
  }
}
