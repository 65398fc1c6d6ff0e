import Mux from '@mux/mux-node';

/** The platform booted by global-setup, as the tests see it. */
export const platform = {
  get baseUrl(): string {
    return required('E2E_BASE_URL');
  },
  get tokenId(): string {
    return required('E2E_TOKEN_ID');
  },
  get tokenSecret(): string {
    return required('E2E_TOKEN_SECRET');
  },
  get mode(): string {
    return process.env.E2E_MODE ?? 'embedded';
  },
};

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run e2e tests through jest's e2e project (global setup boots the platform)`);
  return value;
}

/** The official SDK pointed at our base URL. */
export function sdk(credentials: { tokenId: string; tokenSecret: string } = platform, options: { maxRetries?: number } = {}): Mux {
  return new Mux({ tokenId: credentials.tokenId, tokenSecret: credentials.tokenSecret, baseURL: platform.baseUrl, maxRetries: options.maxRetries ?? 0 });
}

/** A raw HTTP call with Basic auth (for what the SDK hides: statuses, headers, bodies). */
export async function api(
  method: string,
  path: string,
  options: { body?: unknown; rawBody?: string; headers?: Record<string, string>; auth?: { tokenId: string; tokenSecret: string } | null } = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const auth = options.auth === undefined ? platform : options.auth;
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (auth) headers.authorization = `Basic ${Buffer.from(`${auth.tokenId}:${auth.tokenSecret}`).toString('base64')}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${platform.baseUrl}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body: parsed };
}
