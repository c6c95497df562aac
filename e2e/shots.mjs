import { launch, serveDist, openPage } from './harness.mjs';
const server = await serveDist();
const browser = await launch();
const out = '/tmp/shots';
if (process.argv[2] !== 'bus') {
// 1. the prerendered page (wasm held) on a phone, top and scrolled
{
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  let release; const held = new Promise((ok) => { release = ok; });
  await page.route('**/*.wasm', async (r) => { await held; await r.continue(); });
  await page.goto(server.url, { waitUntil: 'domcontentloaded' });
  await page.waitForTimeout(500);
  await page.screenshot({ path: `${out}/pre-top.png` });
  await page.evaluate(() => window.scrollTo(0, 2600)); await page.waitForTimeout(400);
  await page.screenshot({ path: `${out}/pre-2600.png` });
  release(); await context.close();
}
}
// 2. bus two-masters-die
for (const [w, scheme, lang] of [[1280, 'dark', 'zh'], [390, 'light', 'en']]) {
  const context = await browser.newContext({ viewport: { width: w, height: 900 }, colorScheme: scheme });
  const page = await context.newPage();
  await page.goto(server.url); await page.waitForFunction(() => window.wasmBindings !== undefined);
  if (lang === 'zh') await page.getByTestId('lang-select').selectOption('zh');
  await page.getByTestId('bus-scenario-select').selectOption('two-masters-die');
  await page.locator('#bus').scrollIntoViewIfNeeded();
  const tl = page.getByTestId('bus-timeline');
  await tl.evaluate((el) => { el.value = '3420'; el.dispatchEvent(new Event('input', { bubbles: true })); });
  await page.waitForTimeout(300);
  console.log(w, scheme, lang, 't=', await tl.getAttribute('data-time-ms'), 'seed', await page.getByTestId('bus-seed').inputValue().catch(() => '?'));
  const logs = await page.getByTestId('bus-log-line').allTextContents();
  console.log(logs.filter((l) => /auth|election|epoch/i.test(l)).slice(-8).join('\n'));
  console.log('narration:', await page.locator('#bus .bus__player').innerText().then((t) => t.slice(0, 600)));
  await page.locator('#bus').screenshot({ path: `${out}/bus-${w}-${scheme}-${lang}.png` });
  await context.close();
}
// 3. numbers at 300 masters, 4. planner table
if (process.argv[2] !== 'bus') {
  const { page, context, problems } = await openPage(browser, server.url, { width: 1280, height: 900 });
  await page.getByTestId('bus-numbers').locator('summary').click();
  const t0 = Date.now();
  await page.getByTestId('bus-numbers-masters').selectOption('300');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=bus-traffic][data-masters="300"]').length === 2, null, { timeout: 60000 });
  console.log('300 masters measured in', Date.now() - t0, 'ms');
  await page.getByTestId('bus-numbers').screenshot({ path: `${out}/numbers-300.png` });
  await page.locator('.planner').scrollIntoViewIfNeeded();
  await page.locator('.planner').screenshot({ path: `${out}/planner-en.png` });
  console.log('chunk:', await page.getByTestId('chunk-stats').textContent());
  console.log('problems', problems);
  await context.close();
}
await browser.close(); await server.close();
