//! Takes screenshots of the release build as a reader sees it: `node e2e/screenshot.mjs [DIR]`.
//! Writes page-light.png, page-dark.png and page-phone.png (full page) into DIR (default: .).
import { serveDist, launch, typeKey, appReady } from './harness.mjs';
import { join } from 'node:path';

const out = process.argv[2] ?? '.';
const key = process.argv[3] ?? '{user1}:profile';
const server = await serveDist();
const browser = await launch();
try {
  for (const [name, viewport, colorScheme] of [
    ['page-light.png', { width: 1280, height: 900 }, 'light'],
    ['page-dark.png', { width: 1280, height: 900 }, 'dark'],
    ['page-phone.png', { width: 390, height: 844 }, 'light'],
  ]) {
    const context = await browser.newContext({ viewport, colorScheme, deviceScaleFactor: 1 });
    const page = await context.newPage();
    await page.goto(server.url);
    await appReady(page);
    await typeKey(page, key);
    await page.getByTestId('key-input').blur();
    await page.screenshot({ path: join(out, name), fullPage: true });
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
