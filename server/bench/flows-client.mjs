/**
 * The 1,000 customers of `bench:flows`, on a thread of their own: the figures are the server's, not those
 * of a client sharing its event loop (plain JavaScript: a worker does not inherit tsx's loader on Node 20).
 * Each customer sends its next message once the server has answered the previous one.
 */
import { Buffer } from 'node:buffer';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';

/** @type {{ url: string; email: string; password: string; token: string; customers: { from: string; name: string; phone: number; bodies: string[] }[] }} */
const { url, email, password, customers } = workerData;
let token = workerData.token;
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

const post = (path, body, bearer) =>
  new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) };
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    const req = http.request(`${url}${path}`, { method: 'POST', agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(payload);
  });

// A long run on a busy machine outlives the access token: log in again once, as a client refreshes.
let relogin = null;
const freshToken = (stale) => {
  if (token !== stale) return Promise.resolve(token);
  relogin ??= post('/auth/login', { email, password }).then((res) => {
    if (res.status !== 200) throw new Error(`login ${res.status} ${res.body}`);
    token = JSON.parse(res.body).token;
    relogin = null;
    return token;
  });
  return relogin;
};

const requestMs = [];
const started = performance.now();
await Promise.all(
  customers.map(async ({ from, name, phone, bodies }) => {
    for (const body of bodies) {
      const t0 = performance.now();
      const used = token;
      let res = await post(`/sandbox/${phone}/messages`, { from, name, body }, used);
      // Refused before anything was stored: the same message, with a new token.
      if (res.status === 403 && res.body.includes('ERR_INVALID_TOKEN')) res = await post(`/sandbox/${phone}/messages`, { from, name, body }, await freshToken(used));
      requestMs.push(performance.now() - t0);
      if (res.status !== 201) throw new Error(`inbound ${res.status} ${res.body}`);
    }
  }),
);
parentPort.postMessage({ requestMs, seconds: (performance.now() - started) / 1000 });
agent.destroy();
