import fs from 'node:fs';
import https from 'node:https';
import { parse } from 'yaml';

/**
 * A minimal Kubernetes API client for the cluster tests: the admin's client certificate from a kubeconfig,
 * or a ServiceAccount's bearer token (to see what that account may do). Plain HTTPS, no client library.
 */
export interface KubeResponse<T = KubeObject> {
  status: number;
  body: T;
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
  data?: Record<string, string>;
  items?: KubeObject[];
  message?: string;
  reason?: string;
}

interface Kubeconfig {
  clusters: Array<{ cluster: { server: string; 'certificate-authority-data': string } }>;
  users: Array<{ user: { 'client-certificate-data': string; 'client-key-data': string } }>;
}

const fromBase64 = (value: string) => Buffer.from(value, 'base64');

export class KubeApi {
  private constructor(
    readonly server: string,
    private readonly ca: Buffer,
    private readonly identity: { cert: Buffer; key: Buffer } | { token: string },
  ) {}

  static fromKubeconfig(file: string): KubeApi {
    const config = parse(fs.readFileSync(file, 'utf8')) as Kubeconfig;
    const { server, 'certificate-authority-data': ca } = config.clusters[0].cluster;
    const user = config.users[0].user;
    return new KubeApi(server, fromBase64(ca), { cert: fromBase64(user['client-certificate-data']), key: fromBase64(user['client-key-data']) });
  }

  /** The same server, as whoever holds `token`. */
  withToken(token: string): KubeApi {
    return new KubeApi(this.server, this.ca, { token });
  }

  get<T = KubeObject>(path: string): Promise<KubeResponse<T>> {
    return this.request<T>('GET', path);
  }

  post<T = KubeObject>(path: string, body: unknown): Promise<KubeResponse<T>> {
    return this.request<T>('POST', path, body);
  }

  delete<T = KubeObject>(path: string): Promise<KubeResponse<T>> {
    return this.request<T>('DELETE', path);
  }

  request<T>(method: string, path: string, body?: unknown): Promise<KubeResponse<T>> {
    const url = new URL(path, this.server);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if ('token' in this.identity) headers.authorization = `Bearer ${this.identity.token}`;
    const tls = 'cert' in this.identity ? { cert: this.identity.cert, key: this.identity.key } : {};
    return new Promise((resolve, reject) => {
      const req = https.request(url, { method, headers, ca: this.ca, ...tls }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, body: (text ? JSON.parse(text) : {}) as T });
        });
      });
      req.on('error', reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
  }
}
