import { launchChromium } from '@a2ui-ts/test-browser';
import { startGalleryServer } from './test/browser/gallery-server.ts';

const server = await startGalleryServer();
const { browser, close } = await launchChromium();
for (const scheme of ['light', 'dark'] as const) {
  const context = await browser.newContext({
    viewport: { width: 800, height: 900 },
    colorScheme: scheme,
  });
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1') return route.continue();
    if (url.hostname === 'images.unsplash.com')
      return route.fulfill({
        status: 200,
        contentType: 'image/svg+xml',
        body: '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="240"><rect width="400" height="240" fill="#9aa6b2"/></svg>',
      });
    return route.abort();
  });
  const page = await context.newPage();
  await page.goto(server.url + '/');
  await page.waitForFunction(() => (window as any).__gallery?.ready);
  const ids = await page.$$eval('section', (s) => s.map((e) => e.id));
  for (const id of ids) {
    if (
      scheme === 'dark' &&
      !['ex-09_login-form', 'ex-30_live-invitation-builder', 'ex-19_software-purchase'].includes(id)
    )
      continue;
    await page.locator(`#${id}`).screenshot({ path: `/tmp/shots/${scheme}-${id}.png` });
  }
  await context.close();
}
await close();
await server.close();
