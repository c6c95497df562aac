//! Frame rate of the cluster-bus view while it plays (not a test: it asserts nothing, it
//! measures). `node e2e/bench_fps.mjs [--seconds S] [--faster 1,4] [--trace DIR]` after
//! `trunk build --release`. For the 6-node `master-crash` scenario and a 100-node cluster (50
//! masters, one replica each) it presses Play at 1× and at the fastest speed, 20× (`--faster`:
//! the presses of + from the opening 0.5×) and records, for S seconds (default 6), every
//! animation frame's interval (requestAnimationFrame timestamps) and the long tasks Chromium
//! reports (PerformanceObserver 'longtask', over 50 ms): frames per second, the median, 95th
//! percentile and worst interval, and the share of frames over 1.5 × 16.7 ms (a dropped
//! frame at 60 Hz). Headless Chromium paces frames at 60 Hz, so 60 fps is the ceiling.
//! `--trace DIR` also records a Chromium trace of each run (CDP Tracing; DIR/bus-N-speed.json,
//! to open in DevTools' Performance panel) and prints the renderer main thread's time per
//! frame by phase: script (the animation frame), style and layout, paint, commit.
//! Each run also reports the simulated milliseconds the clock covered per wall second
//! (bus-timeline's data-time-ms read at the first and the last recorded frame): `sim 2.3×`.
//! `--nodes 6,100,1000` picks the cases (default 6,100); 1000 is a 1000-node cluster (500
//! masters, one replica each) at node timeout 15000, measured once its build has finished.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveDist, launch, openPage } from './harness.mjs';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const seconds = arg('--seconds', 6);
// `--faster 1,4`: the speed presses to measure (from 0.5×: 1 is 1×, 4 the fastest, 20×).
const fasterArg = process.argv.indexOf('--faster');
const presses = fasterArg > 0 ? process.argv[fasterArg + 1].split(',').map(Number) : [1, 4];
const traceArg = process.argv.indexOf('--trace');
const traceDir = traceArg > 0 ? process.argv[traceArg + 1] : null;
const nodesArg = process.argv.indexOf('--nodes');
// `--warm MS`: the 1000-node case plays this far (simulated ms) before it is measured: the
// cluster is created all at once, so its first NT/2 every node pings all 999 others in the
// same few hundred ms (the burst `bench_bus.mjs --warm` also skips); 0 measures from Play.
const warm1000 = arg('--warm', 12000);
const cases = nodesArg > 0 ? process.argv[nodesArg + 1].split(',').map(Number) : [6, 100];

/** Main-thread milliseconds per frame by phase, from a trace's complete events. */
function phases(events) {
  const main = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
    .map((e) => `${e.pid}:${e.tid}`));
  const sum = new Map();
  for (const e of events) {
    if (e.ph !== 'X' || !e.dur || !main.has(`${e.pid}:${e.tid}`)) continue;
    const s = sum.get(e.name) ?? { n: 0, ms: 0 };
    s.n += 1; s.ms += e.dur / 1000; sum.set(e.name, s);
  }
  const frames = sum.get('ProxyMain::BeginMainFrame')?.n ?? 0;
  const per = (name) => (sum.get(name)?.ms ?? 0) / Math.max(1, frames);
  return {
    frames, main: per('ProxyMain::BeginMainFrame'), script: per('FireAnimationFrame'),
    layout: per('LocalFrameView::RunStyleAndLayoutLifecyclePhases'), paint: per('Paint'),
    prePaint: per('PrePaint'), layerize: per('Layerize'), commit: per('Commit'),
  };
}

/** Plays the bus section at speed index `faster` presses above the default, records frames. */
async function measure(page, faster, tracePath, warmMs) {
  const player = page.locator('#bus .bus__player');
  await player.focus();
  for (let i = 0; i < faster; i++) await page.keyboard.press('+');
  const speed = await page.getByTestId('bus-speed').textContent();
  if (warmMs > 0) {
    // Played (unmeasured) until the clock passes `warmMs`, then measured while it goes on.
    await page.getByTestId('bus-play').click();
    await page.waitForFunction((w) => Number(document.querySelector('[data-testid=bus-timeline]')?.dataset.timeMs) >= w,
      warmMs, { timeout: 900_000, polling: 200 });
  }
  let cdp = null;
  let traced = null;
  if (tracePath) {
    cdp = await page.context().newCDPSession(page);
    const events = [];
    cdp.on('Tracing.dataCollected', (d) => events.push(...d.value));
    traced = new Promise((ok) => cdp.once('Tracing.tracingComplete', () => ok(events)));
    await cdp.send('Tracing.start', {
      categories: 'devtools.timeline,disabled-by-default-devtools.timeline,blink,cc,toplevel',
      transferMode: 'ReportEvents',
    });
  }
  if (!(warmMs > 0)) await page.getByTestId('bus-play').click();
  const out = await page.evaluate((ms) => new Promise((done) => {
    const gaps = [];
    const long = [];
    const obs = new PerformanceObserver((l) => { for (const e of l.getEntries()) long.push(e.duration); });
    try { obs.observe({ type: 'longtask', buffered: false }); } catch { /* not supported */ }
    let last = null;
    const start = performance.now();
    // The simulated clock as the page shows it, at the first and the last frame recorded.
    const clock = () => Number(document.querySelector('[data-testid=bus-timeline]')?.dataset.timeMs);
    let first = null;
    const tick = (ts) => {
      if (last !== null) gaps.push(ts - last);
      else first = { ts, sim: clock() };
      last = ts;
      if (ts - start < ms) requestAnimationFrame(tick);
      else {
        obs.disconnect();
        done({ gaps, long, simRate: (clock() - first.sim) / (ts - first.ts) });
      }
    };
    requestAnimationFrame(tick);
  }), seconds * 1000);
  let trace = null;
  if (cdp) {
    await cdp.send('Tracing.end');
    const events = await traced;
    writeFileSync(tracePath, JSON.stringify({ traceEvents: events }));
    trace = phases(events);
  }
  // Still playing at the end (the player stops only where the recording cannot grow).
  const pause = page.getByTestId('bus-pause');
  const playing = (await pause.count()) > 0;
  if (playing) await pause.click();
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
    simulatedMs: Number(time), simRate: out.simRate, playing, trace,
  };
}

const server = await serveDist();
const browser = await launch();
const f = (x) => x.toFixed(1);
try {
  // The settings form's free play: masters, one replica each, node timeout; measured once
  // built (the build goes in pieces: its status line is gone and every node is drawn).
  const cluster = (masters, nt) => async (page) => {
    await page.locator('#bus .bus__settings summary').click();
    // A render just after the page opens can put the form's values back: fill until they hold.
    const want = [['bus-masters', String(masters)], ['bus-replicas', '1']];
    if (nt) want.push(['bus-node-timeout', String(nt)]);
    const holds = async () => (await Promise.all(want.map(async ([id, v]) => await page.getByTestId(id).inputValue() === v))).every(Boolean);
    for (let i = 0; i < 20; i++) {
      for (const [id, v] of want) await page.getByTestId(id).fill(v);
      await page.waitForTimeout(500);
      if (await holds()) break;
    }
    await page.getByTestId('bus-apply').click();
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=bus-node]').length === n
      && !document.querySelector('[data-testid=bus-building]'), 2 * masters, { timeout: 180_000 });
  };
  const all = {
    6: ['6 nodes, master-crash', 0, async (page) => {
      await page.getByTestId('bus-scenario-select').selectOption('master-crash');
    }],
    100: ['100 nodes (50 masters + 50 replicas)', 0, cluster(50, null)],
    1000: ['1000 nodes (500 masters + 500 replicas, NT 15000)', warm1000, cluster(500, 15000)],
  };
  for (const [label, warm, setup] of cases.map((n) => all[n])) {
    for (const faster of presses) {
      const { page, context } = await openPage(browser, `${server.url}#bus`);
      await page.locator('#bus').scrollIntoViewIfNeeded();
      await setup(page);
      const tracePath = traceDir ? join(traceDir, `bus-${label.split(' ')[0]}-${faster}.json`) : null;
      const r = await measure(page, faster, tracePath, warm);
      console.log(
        `bus view, ${label}, at ${r.speed}: ${f(r.fps)} fps; frame interval p50 ${f(r.p50)} ms, `
        + `p95 ${f(r.p95)} ms, worst ${f(r.worst)} ms; ${(r.dropped * 100).toFixed(1)}% frames over 25 ms; `
        + `${warm ? `measured after ${warm} simulated ms; ` : ''}${r.long} long tasks (worst ${f(r.longMax)} ms); sim ${r.simRate.toFixed(2)}×; clock at ${r.simulatedMs} ms`
        + `${r.playing ? '' : ' (the player had stopped)'}`,
      );
      if (r.trace) {
        const t = r.trace;
        console.log(
          `  trace ${tracePath}: ${t.frames} frames; main thread ${f(t.main)} ms a frame: script ${f(t.script)}, `
          + `style+layout ${f(t.layout)}, paint ${f(t.paint)}, pre-paint ${f(t.prePaint)}, layerize ${f(t.layerize)}, `
          + `commit ${f(t.commit)}`,
        );
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
  server.close();
}
