// scratch: key field INP with CSS variants
import { serveDist, launch } from './harness.mjs';
import { readFile } from 'node:fs/promises';
const p50 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.5)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];
const plainJs = await readFile('bench/plain.js');
const plainHtml = await readFile('bench/plain.html');
const { url, close } = await serveDist({ '/__bench/plain.js': { body: plainJs, type: 'text/javascript' }, '/__bench/plain.html': { body: plainHtml, type: 'text/html' } });
const browser = await launch();
function observeEvents() {
  window.__events = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__events.push({ id: e.interactionId, dur: e.duration }); }).observe({ type: 'event', durationThreshold: 16, buffered: true });
}
const frame = (page) => page.evaluate(() => new Promise((d) => requestAnimationFrame(() => requestAnimationFrame(d))));
async function interactions(page, act) {
  await page.evaluate(() => { window.__events.length = 0; window.__count0 = performance.interactionCount; });
  await act(); await frame(page); await page.waitForTimeout(250);
  const { events, count } = await page.evaluate(() => ({ events: window.__events.splice(0), count: performance.interactionCount - window.__count0 }));
  const byId = new Map(); for (const e of events) if (e.id) byId.set(e.id, Math.max(byId.get(e.id) ?? 0, e.dur));
  const d = [...byId.values()]; while (d.length < count) d.push(8); return d;
}
async function run(css, target = url, ready = '[data-testid=slot]') {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
  const page = await context.newPage();
  await page.addInitScript(observeEvents);
  await page.goto(target);
  await page.locator(ready).waitFor();
  await page.waitForTimeout(1500);
  if (css && css.startsWith('JS:')) await page.evaluate(css.slice(3)); else if (css) await page.addStyleTag({ content: css });
  const input = page.getByTestId('key-input');
  await input.click(); await frame(page);
  const typed = [];
  for (let round = 0; round < 3; round++) {
    await page.keyboard.press('Control+A'); await page.keyboard.press('Backspace');
    typed.push(...await interactions(page, async () => { for (const ch of `user:${1000 + round}:{tag}x`) { await page.keyboard.press(ch); await page.waitForTimeout(30); } }));
  }
  const big = ['k', 'j'].map((c) => c.repeat(64 * 1024));
  const pasted = [];
  for (let i = 0; i < 12; i++) {
    await page.evaluate((t) => navigator.clipboard.writeText(t), big[i % 2]);
    await page.keyboard.press('Control+A');
    pasted.push(...await interactions(page, () => page.keyboard.press('Control+V')));
  }
  await context.close();
  return `typed ${p50(typed)}/${p95(typed)}  pasted ${p50(pasted)}/${p95(pasted)}`;
}
const F = '.key-input__field';
const styled = `#key { box-sizing: border-box; width: 1032px; font: 1.45rem ui-monospace, "SFMono-Regular", "JetBrains Mono", Menlo, Consolas, "DejaVu Sans Mono", "Noto Sans Mono CJK SC", monospace; padding: 12px 16px; border: 1.5px solid #ccc; border-radius: 8px; } #key:focus { outline: none; box-shadow: 0 0 0 3px rgba(0,0,255,.25); }`;
const variants = { plain: null, base: '', plainstyled: 'PLAIN' };
for (const rep of [0, 1]) for (const [name, css] of Object.entries(variants)) {
  const r = css === null ? await run('', `${url}__bench/plain.html`, '[data-testid=key-input]') : css === 'PLAIN' ? await run(styled, `${url}__bench/plain.html`, '[data-testid=key-input]') : await run(css);
  console.log(rep, name.padEnd(9), r);
}
await browser.close(); await close();
