/* eslint-disable no-console -- a benchmark reports on the console */
// First-screen load of the web build from the local server, in headless Chromium (cold cache each time).
import { chromium } from 'playwright-core';
const url = process.argv[2] ?? 'http://localhost:8080';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
const times = [];
for (let i = 0; i < 5; i++) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const start = Date.now();
  await page.goto(url + '/login', { waitUntil: 'load' });
  await page.getByTestId('login-email').waitFor({ state: 'visible' });
  times.push(Date.now() - start);
  await context.close();
}
console.log('first screen (login form visible), ms:', times.join(', '), ' median', times.sort((a, b) => a - b)[2]);
await browser.close();
