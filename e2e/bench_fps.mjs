//! Frame rate of the cluster-bus view while it plays (not a test: it asserts nothing, it
//! measures). `node e2e/bench_fps.mjs [--seconds S]` after `trunk build --release`. For the
//! 6-node `master-crash` scenario and a 100-node cluster (50 masters, one replica each) it
//! presses Play at 1× and at the fastest speed and records, for S seconds (default 6), every
//! animation frame's interval (requestAnimationFrame timestamps) and the long tasks Chromium
//! reports (PerformanceObserver 'longtask', over 50 ms): frames per second, the median, 95th
//! percentile and worst interval, and the share of frames over 1.5 × 16.7 ms (a dropped
//! frame at 60 Hz). Headless Chromium paces frames at 60 Hz, so 60 fps is the ceiling.
import { serveDist, launch, openPage } from './harness.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const seconds = arg('--seconds', 6);

/** Plays the bus section at speed index `faster` presses above the default, records frames. */
async function measure(page, faster) {
  const player = page.locator('#bus .bus__player');
  await player.focus();
  for (let i = 0; i < faster; i++) await page.keyboard.press('+');
  const speed = await page.getByTestId('bus-speed').textContent();
  await page.getByTestId('bus-play').click();
  const out = await page.evaluate((ms) => new Promise((done) => {
    const gaps = [];
    const long = [];
    const obs = new PerformanceObserver((l) => { for (const e of l.getEntries()) long.push(e.duration); });
    try { obs.observe({ type: 'longtask', buffered: false }); } catch { /* not supported */ }
    let last = null;
    const start = performance.now();
    const tick = (ts) => {
      if (last !== null) gaps.push(ts - last);
      last = ts;
      if (ts - start < ms) requestAnimationFrame(tick);
      else { obs.disconnect(); done({ gaps, long }); }
    };
    requestAnimationFrame(tick);
  }), seconds * 1000);
  const pause = page.getByTestId('bus-pause');
  if (await pause.count()) await pause.click();
  const time = await page.getByTestId('bus-timeline').getAttribute('data-time-ms');
  const g = out.gaps.slice().sort((a, b) => a - b);
  const pct = (p) => g[Math.min(g.length - 1, Math.floor(p * g.length))] ?? NaN;
  const sum = out.gaps.reduce((a, b) => a + b, 0);
  return {
    speed: speed.trim(),
    fps: (out.gaps.length * 1000) / sum,
    p50: pct(0.5), p95: pct(0.95), worst: g.at(-1),
    dropped: out.gaps.filter((x) => x > 25).length / Math.max(1, out.gaps.length),
    long: out.long.length, longMax: Math.max(0, ...out.long),
    simulatedMs: Number(time),
  };
}

const server = await serveDist();
const browser = await launch();
const f = (x) => x.toFixed(1);
try {
  for (const [label, setup] of [
    ['6 nodes, master-crash', async (page) => {
      await page.getByTestId('bus-scenario-select').selectOption('master-crash');
    }],
    ['100 nodes (50 masters + 50 replicas)', async (page) => {
      await page.locator('#bus .bus__settings summary').click();
      await page.getByTestId('bus-masters').fill('50');
      await page.getByTestId('bus-replicas').fill('1');
      await page.getByTestId('bus-apply').click();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid=bus-node]').length === 100, null, { timeout: 60000 });
    }],
  ]) {
    for (const faster of [0, 3]) {
      const { page, context } = await openPage(browser, `${server.url}#bus`);
      await page.locator('#bus').scrollIntoViewIfNeeded();
      await setup(page);
      const r = await measure(page, faster);
      console.log(
        `bus view, ${label}, at ${r.speed}: ${f(r.fps)} fps; frame interval p50 ${f(r.p50)} ms, `
        + `p95 ${f(r.p95)} ms, worst ${f(r.worst)} ms; ${(r.dropped * 100).toFixed(1)}% frames over 25 ms; `
        + `${r.long} long tasks (worst ${f(r.longMax)} ms); clock at ${r.simulatedMs} ms`,
      );
      await context.close();
    }
  }
} finally {
  await browser.close();
  server.close();
}
