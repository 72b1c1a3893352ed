import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * HTTP to addresses a company typed in (Typebot, n8n, a webhook, Typebot's media). A company's admin must
 * not reach the server's own network through them (SSRF): every address the host name resolves to is
 * checked when the connection is made (so a DNS answer that changes between a check and the connection
 * changes nothing), and private, loopback, link-local and other non-public ranges are refused unless
 * INTEGRATIONS_ALLOW_PRIVATE_NETWORK is on (local set-ups and tests). Redirects are not followed.
 */
export class RefusedAddressError extends Error {
  constructor(readonly address: string) {
    super('ERR_INTEGRATION_URL_REFUSED');
    this.name = 'RefusedAddressError';
  }
}

export class HttpTimeoutError extends Error {
  constructor() {
    super('timeout');
    this.name = 'HttpTimeoutError';
  }
}

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['2001:db8::', 32],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** Whether an address is outside the public internet (an IPv4-mapped IPv6 address is judged as IPv4). */
export const isPrivateAddress = (address: string): boolean => {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
};

const guardedLookup =
  (allowPrivate: boolean): LookupFunction =>
  (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const refused = allowPrivate ? undefined : addresses.find((a) => isPrivateAddress(a.address));
      if (refused) return callback(new RefusedAddressError(refused.address), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0];
      callback(null, first.address, first.family);
    });
  };

export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body as JSON, or undefined when it is not JSON. */
  json<T = unknown>(): T | undefined;
  text(): string;
}

export interface HttpOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  timeoutMs: number;
  /** A larger answer is cut off (an error). */
  maxBytes?: number;
  allowPrivateNetwork: boolean;
}

/** Refuses a URL whose host is a literal private address before any connection (the lookup is skipped for those). */
export const assertPublicUrl = (url: string, allowPrivateNetwork: boolean): URL => {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new RefusedAddressError(parsed.protocol);
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivateNetwork && (isIP(host) !== 0 ? isPrivateAddress(host) : /^localhost\.?$/i.test(host))) throw new RefusedAddressError(host);
  return parsed;
};

export const httpRequest = (url: string, options: HttpOptions): Promise<HttpAnswer> =>
  new Promise((resolve, reject) => {
    let parsed: URL;
    try {
      parsed = assertPublicUrl(url, options.allowPrivateNetwork);
    } catch (err) {
      reject(err);
      return;
    }
    const maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
    const client = parsed.protocol === 'https:' ? https : http;
    const req = client.request(
      parsed,
      {
        method: options.method ?? 'GET',
        headers: { 'user-agent': 'Atrium-Integrations/1', ...options.headers },
        lookup: guardedLookup(options.allowPrivateNetwork),
        timeout: options.timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            req.destroy(new Error('answer too large'));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          clearTimeout(deadline);
          const body = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            text: () => body.toString('utf8'),
            json: <T>() => {
              try {
                return JSON.parse(body.toString('utf8')) as T;
              } catch {
                return undefined;
              }
            },
          });
        });
        res.on('error', reject);
      },
    );
    // The socket timeout covers silence; this covers a slow trickle too.
    const deadline = setTimeout(() => req.destroy(new HttpTimeoutError()), options.timeoutMs);
    req.on('timeout', () => req.destroy(new HttpTimeoutError()));
    req.on('error', (err) => {
      clearTimeout(deadline);
      reject(err);
    });
    req.end(options.body);
  });
