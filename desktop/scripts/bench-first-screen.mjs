/* eslint-disable no-console -- a benchmark reports on the console */
// First-screen load of the web build from the local server, in headless Chromium (cold cache each time):
// the time until the login form is visible, and what went over the wire (requests, bytes as sent).
// The browser: E2E_CHROMIUM, else Debian's /usr/bin/chromium (the e2e lookup in desktop/e2e/support
// finds more; point E2E_CHROMIUM at what it prints).
import { chromium } from 'playwright-core';

const url = process.argv[2] ?? 'http://localhost:8080';
const executablePath = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium';
const browser = await chromium.launch({
  executablePath,
  args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
const runs = [];
for (let i = 0; i < 5; i++) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  let bytes = 0;
  let requests = 0;
  cdp.on('Network.loadingFinished', (e) => {
    bytes += e.encodedDataLength;
    requests += 1;
  });
  const start = Date.now();
  await page.goto(url + '/login', { waitUntil: 'load' });
  await page.getByTestId('login-email').waitFor({ state: 'visible' });
  runs.push({ ms: Date.now() - start, requests, kib: Math.round(bytes / 1024) });
  await context.close();
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log('first screen (login form visible), ms:', runs.map((r) => r.ms).join(', '), ' median', median(runs.map((r) => r.ms)));
console.log('on the wire: requests', median(runs.map((r) => r.requests)), ', KiB transferred', median(runs.map((r) => r.kib)));
await browser.close();
