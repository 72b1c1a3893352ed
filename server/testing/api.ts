/* The test and benchmark HTTP client: a thin wrapper over fetch for the real server. */

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** A thin HTTP client for the real server. */
export class Api {
  constructor(readonly baseUrl: string) {}

  async request<T = any>(
    method: string,
    url: string,
    options: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.rawBody !== undefined) {
      body = options.rawBody;
      headers['content-type'] ??= 'application/json';
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(this.baseUrl + url, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  get = <T = any>(url: string, token?: string) => this.request<T>('GET', url, { token });
  post = <T = any>(url: string, body?: unknown, token?: string) => this.request<T>('POST', url, { body, token });
  put = <T = any>(url: string, body?: unknown, token?: string) => this.request<T>('PUT', url, { body, token });
  del = <T = any>(url: string, token?: string) => this.request<T>('DELETE', url, { token });

  async login(email: string, password: string): Promise<{ token: string; refreshToken: string; user: any }> {
    const res = await this.post('/auth/login', { email, password });
    if (res.status !== 200) throw new Error(`login ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }
}
