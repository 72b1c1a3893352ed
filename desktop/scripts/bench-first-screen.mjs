/* eslint-disable no-console -- a benchmark reports on the console */
// First-screen load of the web build from the local server, in headless Chromium (cold cache each time):
// the time until the login form is visible, and what went over the wire (requests, bytes as sent).
// With BENCH_WEB_EMAIL and BENCH_WEB_PASSWORD, a signed-in reload of /tickets too.
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

// A signed-in reload, with BENCH_WEB_EMAIL and BENCH_WEB_PASSWORD (an agent or admin of a company): a cold
// cache holding a session (the refresh cookie and the app's session hints, as a login leaves them), until
// the ticket list's tabs show. Each run logs in anew (one session per user, and a refresh token is used once).
const email = process.env.BENCH_WEB_EMAIL;
const password = process.env.BENCH_WEB_PASSWORD;
if (email && password) {
  const signedIn = [];
  for (let i = 0; i < 5; i++) {
    const context = await browser.newContext();
    const response = await context.request.post(url + '/auth/login', { data: { email, password } });
    if (!response.ok()) throw new Error(`login for the signed-in runs: HTTP ${response.status()}`);
    const { user } = await response.json();
    await context.addInitScript(({ userId, companyId }) => {
      localStorage.setItem('userId', String(userId));
      localStorage.setItem('companyId', String(companyId));
    }, { userId: user.id, companyId: user.companyId });
    const page = await context.newPage();
    const start = Date.now();
    await page.goto(url + '/tickets', { waitUntil: 'load' });
    await page.getByTestId('tickets-tab-open').waitFor({ state: 'visible' });
    signedIn.push(Date.now() - start);
    await context.close();
  }
  console.log('signed-in reload (the ticket list tabs visible), ms:', signedIn.join(', '), ' median', median(signedIn));
}
await browser.close();
