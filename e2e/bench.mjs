//! Browser timings of the release build (not a test: it asserts nothing, it measures).
//! `node e2e/bench.mjs` after `trunk build --release`. Prints medians in milliseconds of:
//!  - cluster switch: typing a master count until the next frame has painted (reducer, node
//!    list DOM and the full 16384-slot canvas repaint), for 3 and 1000 masters;
//!  - hover: a pointer move over the map until the next frame (overlay repaint + readout);
//!  - keystroke: typing one character into the key field until the next frame;
//!  - redirections playing at 4x: frame times from requestAnimationFrame (median, p95, slow);
//!  - map repaint: the time the page spends repainting all 16384 slots of the base canvas
//!    (from its clearRect to its last fillRect in the same task), for 3 and 1000 masters.
import { serveDist, launch } from './harness.mjs';

const RUNS = 9;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const server = await serveDist();
const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  // Record when the base canvas starts (clearRect) and ends (last fillRect) each repaint.
  await page.addInitScript(() => {
    window.__paints = [];
    const proto = CanvasRenderingContext2D.prototype;
    const clear = proto.clearRect;
    const fill = proto.fillRect;
    proto.clearRect = function (...a) {
      if (this.canvas.dataset.testid === 'slot-map') window.__paints.push([performance.now(), performance.now()]);
      return clear.apply(this, a);
    };
    proto.fillRect = function (...a) {
      const r = fill.apply(this, a);
      if (this.canvas.dataset.testid === 'slot-map' && window.__paints.length) window.__paints[window.__paints.length - 1][1] = performance.now();
      return r;
    };
  });
  // Reduced motion: each change repaints once, so a repaint is one task to time.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(server.url);
  await page.getByTestId('key-input').waitFor();
  await page.getByTestId('cluster-select').selectOption('create');
  const n = page.getByTestId('n-masters');

  // Time from an input event to the frame after it (two rAFs: the effects have run and painted).
  const timeInput = (selector, value) => page.evaluate(({ selector, value }) => new Promise((done) => {
    const el = document.querySelector(selector);
    const t0 = performance.now();
    el.value = value;
    el.dispatchEvent(new Event('input', { bubbles: true }));
    requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now() - t0)));
  }), { selector, value });

  const rows = [];
  for (const masters of [3, 1000]) {
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      await timeInput('[data-testid=n-masters]', String(masters - 1));
      times.push(await timeInput('[data-testid=n-masters]', String(masters)));
    }
    rows.push([`cluster switch to ${masters} masters`, median(times)]);
    const paints = await page.evaluate(() => window.__paints.splice(0).map(([a, b]) => b - a));
    rows.push([`map repaint, ${masters} masters (${paints.length} repaints)`, median(paints)]);

    const canvas = page.getByTestId('slot-map');
    await canvas.scrollIntoViewIfNeeded();
    const box = await canvas.boundingBox();
    const hover = [];
    for (let i = 0; i < RUNS * 3; i++) {
      const x = box.x + ((i * 37) % 120 + 4) / 128 * box.width;
      const y = box.y + ((i * 53) % 120 + 4) / 128 * box.height;
      const t0 = await page.evaluate(() => performance.now());
      await page.mouse.move(x, y);
      const t1 = await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now())))));
      hover.push(t1 - t0);
    }
    rows.push([`hover over the map, ${masters} masters (incl. protocol round trip)`, median(hover)]);

    const keys = [];
    for (let i = 0; i < RUNS; i++) keys.push(await timeInput('[data-testid=key-input]', `user:${i}:{tag${i}}`));
    rows.push([`keystroke in the key field, ${masters} masters`, median(keys)]);
  }
  // The planner's cards, with 1000 masters: 16 tags per master, and the hot-spot recompute.
  await timeInput('[data-testid=n-masters]', '1000');
  const tagTimes = [];
  for (let i = 0; i < RUNS; i++) {
    await timeInput('[data-testid=tags-per-master]', '15');
    tagTimes.push(await timeInput('[data-testid=tags-per-master]', '16'));
  }
  rows.push(['16 tags per master for 1000 masters, input to painted frame', median(tagTimes)]);
  await timeInput('[data-testid=n-masters]', '3');
  const hot = [];
  for (let i = 0; i < RUNS; i++) hot.push(await timeInput('[data-testid=hotspot-k]', String(60 + i)));
  rows.push(['hot spot, 100,000 keys recomputed for a new k, input to painted frame', median(hot)]);
  // Frame times while the redirections view plays at 4x, with the travel animation on.
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await page.getByTestId('scenario-select').selectOption('live-migration');
  await page.locator('.redir__player').focus();
  for (let i = 0; i < 2; i++) await page.keyboard.press('+');
  const frames = await page.evaluate(() => new Promise((done) => {
    const times = [];
    let last = performance.now();
    document.querySelector('[data-testid=play]').click();
    const tick = (now) => {
      times.push(now - last);
      last = now;
      if (times.length < 240) requestAnimationFrame(tick); else done(times);
    };
    requestAnimationFrame(tick);
  }));
  const sortedFrames = [...frames].sort((a, b) => a - b);
  rows.push(['redirections playing: median frame', median(frames)]);
  rows.push(['redirections playing: 95th percentile frame', sortedFrames[Math.floor(frames.length * 0.95)]]);
  const slow = frames.filter((f) => f > 20).length;
  await n.fill('3');
  console.log('median of', RUNS, 'runs, Chromium', browser.version());
  for (const [what, ms] of rows) console.log(`${ms.toFixed(1).padStart(8)} ms  ${what}`);
  console.log(`${String(slow).padStart(8)}     redirections playing: frames over 20 ms, of ${frames.length}`);
} finally {
  await browser.close();
  await server.close();
}
