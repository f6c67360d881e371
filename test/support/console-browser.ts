import type { HttpEvent, HttpResult } from '../../functions/http/types.ts';

/**
 * A cookie jar in front of the console's handler: requests shaped as API Gateway sends them
 * (HTTP API payload 2.0), cookies kept as a browser keeps them from Set-Cookie.
 */
export class ConsoleBrowser {
  readonly jar = new Map<string, string>();
  /** Every Set-Cookie seen, as sent. */
  readonly setCookies: string[] = [];

  constructor(
    private readonly handle: (event: HttpEvent) => Promise<HttpResult>,
    private readonly sourceIp = '203.0.113.10',
  ) {}

  async request(method: 'GET' | 'POST', target: string, form?: Record<string, string>): Promise<HttpResult & { text: string }> {
    const url = new URL(target, 'https://console.test');
    const event = {
      routeKey: method === 'GET' && url.pathname === '/console' ? 'GET /console' : `${method} /console/{proxy+}`,
      rawPath: url.pathname,
      rawQueryString: url.search.slice(1),
      queryStringParameters: url.search ? Object.fromEntries(url.searchParams) : undefined,
      cookies: [...this.jar].map(([name, value]) => `${name}=${value}`),
      headers: form ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
      body: form ? new URLSearchParams(form).toString() : undefined,
      isBase64Encoded: false,
      requestContext: { http: { method, path: url.pathname, sourceIp: this.sourceIp }, requestId: `req-${Math.random()}` },
    } as unknown as HttpEvent;
    const result = await this.handle(event);
    for (const cookie of result.cookies ?? []) {
      this.setCookies.push(cookie);
      const [pair] = cookie.split(';');
      const name = pair!.slice(0, pair!.indexOf('='));
      const value = pair!.slice(pair!.indexOf('=') + 1);
      if (/max-age=0/i.test(cookie)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    const text = result.isBase64Encoded ? '' : String(result.body ?? '');
    return { ...result, text };
  }

  get(target: string) {
    return this.request('GET', target);
  }

  post(target: string, form: Record<string, string>) {
    return this.request('POST', target, form);
  }

  /** The CSRF token of the last page's forms. */
  static csrfOf(page: { text: string }): string {
    const token = /name="csrf" value="([^"]+)"/.exec(page.text)?.[1];
    if (!token) throw new Error('no CSRF token on the page');
    return token;
  }
}
