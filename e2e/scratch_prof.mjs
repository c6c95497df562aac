// scratch: where the language switch at 1000 masters goes (deleted after use)
import { serveDist, launch } from './harness.mjs';
import { timer } from './bench/inp.mjs';
const server = await serveDist();
const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(server.url);
  await page.getByTestId('key-input').waitFor();
  const time = timer(page);
  await page.getByTestId('cluster-select').selectOption('create');
  await time('[data-testid=n-masters]', 'input', '1000');
  for (let i = 0; i < 2; i++) await time('[data-testid=lang-select]', 'change', i % 2 ? 'en' : 'zh');
  await page.waitForTimeout(300);
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'v8.execute', 'toplevel'] });
  const xs = [];
  for (let i = 0; i < 4; i++) { xs.push(await time('[data-testid=lang-select]', 'change', i % 2 ? 'en' : 'zh')); await page.waitForTimeout(300); }
  const buf = await browser.stopTracing();
  console.log('times', xs.map((x) => x.toFixed(1)).join(' '));
  const ev = JSON.parse(buf.toString()).traceEvents;
  const main = ev.find((e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain');
  const mine = ev.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X');
  const names = ['FunctionCall', 'EventDispatch', 'TimerFire', 'FireAnimationFrame', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'Commit', 'HitTest', 'RunMicrotasks'];
  const tasks = mine.filter((e) => e.name === 'ThreadControllerImpl::RunTask' && e.dur > 3000);
  const t0 = Math.min(...mine.map((e) => e.ts));
  for (const t of tasks) {
    const inside = mine.filter((e) => e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur && names.includes(e.name) && e.dur > 500);
    console.log(((t.ts - t0) / 1000).toFixed(0).padStart(6), (t.dur / 1000).toFixed(1).padStart(6), inside.map((e) => `${e.name}${e.args?.data?.type ? ':' + e.args.data.type : ''} ${(e.dur / 1000).toFixed(1)}${e.name === 'Layout' ? ` (${e.args?.beginData?.dirtyObjects}/${e.args?.beginData?.totalObjects})` : ''}${e.name === 'UpdateLayoutTree' ? ` (${e.args?.elementCount ?? ''})` : ''}`).join(' | '));
  }
} finally { await browser.close(); await server.close(); }
