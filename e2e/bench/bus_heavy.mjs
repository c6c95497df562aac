//! The cluster-bus section's heavy interactions (issue 17, goal 2: "and the cluster bus"),
//! called by `bench.mjs` and `bench/interactions.mjs` after `measureHeavy`: each event
//! dispatched in the page and timed to the frame after it (two requestAnimationFrames), as
//! `measureHeavy` times the others. A big cluster is built a piece at a time
//! (src/ui/components/bus/building.rs), so its row is the event's own task and first piece;
//! the time until the run is shown is a row of its own. Asserts nothing.
import { p50, timer, repeater } from './inp.mjs';

/** Rows `[what, median ms, worst ms]`, `runs` of each. */
export async function measureBusHeavy(browser, url, runs = 5) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(`${url}#bus`);
  await page.getByTestId('bus-scenario-select').waitFor();
  const time = timer(page);
  const rows = [];
  const repeat = repeater(rows, runs);
  const scenarios = await page.getByTestId('bus-scenario-select').evaluate((s) => [...s.options].map((o) => o.value).filter((v) => v !== 'free'));
  await repeat('bus: ready-made scenario switch (6 to 10 nodes)', (i) => time('[data-testid=bus-scenario-select]', 'change', scenarios[(i + 1) % scenarios.length]));
  await repeat('bus: step to the next event (6 nodes)', () => time('[data-testid=bus-step-next]', 'click'));
  await page.locator('#bus .bus__settings summary').click();
  const knobs = async (masters, nt) => {
    await page.getByTestId('bus-masters').fill(String(masters));
    await page.getByTestId('bus-replicas').fill('1');
    await page.getByTestId('bus-node-timeout').fill(String(nt));
  };
  const shown = (n) => page.waitForFunction((k) => document.querySelectorAll('[data-testid=bus-node]').length === k
    && !document.querySelector('[data-testid=bus-building]'), n, { timeout: 300_000 });
  await knobs(50, 2000);
  await repeat('bus: run again with 50 masters + 1 replica each (100 nodes)', async () => {
    const ms = await time('[data-testid=bus-apply]', 'click');
    await shown(100);
    return ms;
  });
  await repeat('bus: crash a node, then restart it, at 100 nodes (an action replays the run)', async (i) => {
    const ms = await time(`[data-testid=bus-${i % 2 ? 'restart' : 'crash'}]`, 'click');
    await page.waitForFunction(() => !document.querySelector('[data-testid=bus-building]'), null, { timeout: 300_000 });
    return ms;
  });
  await repeat('bus: step to the previous event at 100 nodes (the cursor replays)', async () => {
    await time('[data-testid=bus-step-next]', 'click');
    return time('[data-testid=bus-step-next]', 'click').then(() => time('[data-testid=bus-step-prev]', 'click'));
  });
  // 1000 nodes at Redis's default node timeout: the event's task (the build's first piece),
  // then how long until the run is shown while the page keeps answering.
  await knobs(500, 15000);
  const first = [];
  const whole = [];
  for (let i = 0; i < Math.min(runs, 3); i++) {
    const t0 = Date.now();
    first.push(await time('[data-testid=bus-apply]', 'click'));
    await shown(1000);
    whole.push(Date.now() - t0);
    await knobs(500, 15000);
  }
  rows.push(['bus: run again with 500 masters + 1 replica each (1000 nodes, NT 15000), first piece', p50(first), Math.max(...first)]);
  rows.push(['bus: ... until that 1000-node run is shown (built in pieces, the page answering)', p50(whole), Math.max(...whole)]);
  await context.close();
  return rows;
}
