//! The cluster-bus simulator's speed in Chromium (not a test: it asserts nothing, it measures).
//! `node e2e/bench_bus.mjs [N ...]` after `trunk build --release`. For N = 6, 100 and 1000
//! nodes (half masters, half replicas, cluster-node-timeout 15000, per-message events off) it
//! runs the page's own wasm (`window.wasmBindings.bench_bus`, src/wasm_api.rs): a warm-up, then
//! a timed stretch, and prints simulated seconds per wall second and per CPU second of the
//! page's main thread (the machine may be busy), the messages simulated per
//! simulated second, and the wasm linear memory and JS heap (Chromium's performance.memory)
//! after each size. Each N runs in a fresh page so its memory is its own.
//!
//! Before the measured call each page first runs a small cluster (100 nodes, 10 simulated s)
//! and waits a moment: V8 compiles wasm with its baseline compiler (Liftoff) first and swaps
//! in optimised code only for later calls (no on-stack replacement for wasm), so one long
//! call would otherwise time the outer loop in baseline code. The page plays in per-frame
//! slices, so it runs optimised code after its first frames. `--cold` skips that warm-up.
import { serveDist, launch } from './harness.mjs';
import { readFileSync, readdirSync } from 'node:fs';

// Linux: the CPU time (ms) of every renderer process's main thread, from /proc (its tid is its
// pid), so the timed stretch's own CPU time can be read while the page is busy in it.
const rendererCpu = () => {
  const out = new Map();
  let pids = [];
  try { pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d)); } catch { return out; }
  for (const pid of pids) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('--type=renderer')) continue;
      const f = readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1].split(' ');
      out.set(pid, (Number(f[11]) + Number(f[12])) * 10);
    } catch { /* gone */ }
  }
  return out;
};

// N → [warm-up simulated ms, timed simulated ms]: past NT/2 = 7.5 s every link has been pinged.
// `--warm=MS` / `--timed=MS` override both for every size run (e.g. `1000 --warm=16000
// --timed=4000` times 1000 nodes in full steady state, where each node hears ~35 messages a
// second, instead of the lighter stretch right after the NT/2 burst). `--reps=K`: see below.
const PLAN = { 6: [16000, 3600000], 100: [16000, 600000], 1000: [8000, 4000] };
const flag = (name) => {
  const a = process.argv.find((x) => x.startsWith(`--${name}=`));
  return a ? Number(a.split('=')[1]) : undefined;
};
for (const n of Object.keys(PLAN)) {
  PLAN[n] = [flag('warm') ?? PLAN[n][0], flag('timed') ?? PLAN[n][1]];
}
const cold = process.argv.includes('--cold');
const reps = Math.max(1, flag('reps') ?? 1);
const only = process.argv.slice(2).filter((a) => !a.startsWith('--')).map(Number).filter((n) => PLAN[n]);
const sizes = only.length ? only : [6, 100, 1000];

const server = await serveDist();
const browser = await launch();
const mb = (b) => (b / 1048576).toFixed(1);
try {
  for (const n of sizes) {
    const page = await browser.newPage();
    await page.goto(server.url);
    await page.waitForFunction(() => window.wasmBindings?.bench_bus);
    const [warm, timed] = PLAN[n];
    if (!cold) {
      await page.evaluate(() => window.wasmBindings.bench_bus(100, 2000, 10000));
      await page.waitForTimeout(500);
    }
    // CPU time of the page's main thread (Chromium's `ThreadTime`), so a busy machine does not
    // read as a slow simulator: the same build and warm-up run without the timed stretch, then
    // with it, and the difference is the timed stretch's CPU time.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const cpu = async () => (await cdp.send('Performance.getMetrics')).metrics
      .find((m) => m.name === 'ThreadTime')?.value ?? NaN;
    // While the page runs, /proc is sampled every 20 ms; afterwards the renderer main thread's
    // CPU time over the timed stretch's own wall window (it ends when bench_bus returns, less
    // the cluster's drop) is `windowCpu` (NaN off Linux).
    const run = async (timedMs) => {
      const samples = [];
      const timer = setInterval(() => samples.push([Date.now(), rendererCpu()]), 20);
      const r = await page.evaluate(({ n, warm, timed }) => {
        const { bench_bus, wasm_memory } = window.wasmBindings;
        const r = bench_bus(n, warm, timed);
        return {
          rate: r[0], wall: r[1], sim: r[2], msgs: r[3], end: Date.now(),
          wasm: wasm_memory().buffer.byteLength,
          heap: performance.memory ? performance.memory.usedJSHeapSize : NaN,
        };
      }, { n, warm, timed: timedMs });
      clearInterval(timer);
      const at = (t, pid) => {
        // The last sample at or before t.
        let v = NaN;
        for (const [ts, m] of samples) if (ts <= t && m.has(pid)) v = m.get(pid);
        return v;
      };
      let windowCpu = NaN;
      const last = samples.at(-1)?.[1] ?? new Map();
      for (const pid of last.keys()) {
        const d = (at(r.end, pid) - at(r.end - r.wall, pid)) / 1000;
        if (Number.isFinite(d) && !(d <= windowCpu)) windowCpu = d;
      }
      return { ...r, windowCpu };
    };
    // The first run grows the wasm memory (and Chromium commits its pages); the second and
    // third reuse it, so their difference is the simulator's own work. `--reps=K` repeats
    // that pair K times in the same page and prints each and the median per CPU s (on a busy
    // machine one pair's difference can be off by seconds either way).
    await run(0);
    const rates = [];
    for (let rep = 0; rep < reps; rep++) {
      const c0 = await cpu();
      await run(0);
      const c1 = await cpu();
      const out = await run(timed);
      const c2 = await cpu();
      const timedCpu = (c2 - c1) - (c1 - c0);
      const perCpu = out.sim / 1000 / Math.max(timedCpu, 0.001);
      const perWindowCpu = out.sim / 1000 / Math.max(out.windowCpu, 0.001);
      rates.push(Number.isFinite(perWindowCpu) ? perWindowCpu : perCpu);
      console.log(
        `bus N=${String(n).padStart(4)} in Chromium: ${out.rate.toFixed(1).padStart(9)} simulated s per wall s, `
        + `${perCpu.toFixed(1).padStart(9)} per CPU s `
        + `[${perWindowCpu.toFixed(1)} per CPU s of its own window, ${out.windowCpu.toFixed(2)} CPU s] `
        + `(${out.sim / 1000} s simulated in ${(out.wall / 1000).toFixed(2)} s, ${timedCpu.toFixed(2)} CPU s; `
        + `${out.msgs.toFixed(0)} msgs per simulated s); `
        + `wasm memory ${mb(out.wasm)} MB, JS heap ${mb(out.heap)} MB`,
      );
    }
    if (reps > 1) {
      rates.sort((a, b) => a - b);
      console.log(`bus N=${String(n).padStart(4)} in Chromium: median ${rates[rates.length >> 1].toFixed(1)} per CPU s (own window) over ${reps} pairs`);
    }
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}
