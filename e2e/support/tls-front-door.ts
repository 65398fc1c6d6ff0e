import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** The domain the front door answers for: `stream.video.test`, `image.video.test`. */
export const FRONT_DOOR_DOMAIN = 'video.test';

/** Chromium flags that send `*.video.test` to the front door on loopback and accept its self-signed certificate. */
export const FRONT_DOOR_CHROMIUM_ARGS = [`--host-resolver-rules=MAP *.${FRONT_DOOR_DOMAIN} 127.0.0.1`, '--ignore-certificate-errors'];

let certificate: { key: Buffer; cert: Buffer } | undefined;

/** A self-signed certificate for `*.video.test`, made once per run with the openssl CLI. */
function selfSignedCertificate(): { key: Buffer; cert: Buffer } {
  if (certificate) return certificate;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-front-door-'));
  try {
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2'],
        ...['-keyout', key, '-out', cert, '-subj', `/CN=*.${FRONT_DOOR_DOMAIN}`],
        ...['-addext', `subjectAltName=DNS:*.${FRONT_DOOR_DOMAIN},DNS:${FRONT_DOOR_DOMAIN}`],
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    certificate = { key: fs.readFileSync(key), cert: fs.readFileSync(cert) };
    return certificate;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Hop-by-hop headers (RFC 9110 7.6.1) belong to one connection: a proxy does not pass them on. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);
const endToEnd = (headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));

export interface FrontDoorRequest {
  /** The name asked for (the Host header, port included). */
  host: string;
  method: string;
  /** Path and query. */
  url: string;
  /** The upstream's status; 502 when it could not be reached, 421 for a name the front door does not serve. */
  status: number;
}

export interface TlsFrontDoor {
  port: number;
  /** What to give Mux Player as `custom-domain`: it then builds `https://stream.{domain}/…` and `https://image.{domain}/…`. */
  domain: string;
  /** Origins of the two names, as the browser sees them. */
  streamOrigin: string;
  imageOrigin: string;
  requests: FrontDoorRequest[];
  close(): Promise<void>;
}

/**
 * What a real deployment puts in front of the platform: an ingress terminating TLS for `stream.<domain>` and
 * `image.<domain>` and passing plain HTTP to the playback host ({stream_url}) and the image host ({image_url}),
 * which is what Mux Player's `custom-domain` expects (it hard-codes https and those two names). Here a Node https
 * server with a self-signed certificate for `*.video.test`: it forwards the method, path, query, headers (the
 * name asked for as X-Forwarded-Host, `https` as X-Forwarded-Proto) and body to the upstream of the name, and
 * streams the upstream's status, headers and body back.
 */
export async function startTlsFrontDoor(upstreams: { stream: string; image: string }): Promise<TlsFrontDoor> {
  const requests: FrontDoorRequest[] = [];
  const server = https.createServer(selfSignedCertificate(), (req, res) => {
    const host = req.headers.host ?? '';
    const name = host.replace(/:\d+$/, '').toLowerCase();
    const upstream = name === `stream.${FRONT_DOOR_DOMAIN}` ? upstreams.stream : name === `image.${FRONT_DOOR_DOMAIN}` ? upstreams.image : undefined;
    const entry: FrontDoorRequest = { host, method: req.method ?? 'GET', url: req.url ?? '/', status: 0 };
    requests.push(entry);
    if (!upstream) {
      entry.status = 421;
      res.writeHead(421, { 'content-type': 'text/plain' }).end(`no upstream for ${host}\n`);
      return;
    }
    const target = new URL(req.url ?? '/', upstream);
    const headers: http.OutgoingHttpHeaders = { ...endToEnd(req.headers), host: target.host, 'x-forwarded-host': host, 'x-forwarded-proto': 'https' };
    const forwarded = http.request(target, { method: req.method, headers }, (upstreamRes) => {
      entry.status = upstreamRes.statusCode ?? 502;
      res.writeHead(entry.status, endToEnd(upstreamRes.headers));
      upstreamRes.pipe(res);
    });
    forwarded.on('error', (err) => {
      entry.status = 502;
      if (res.headersSent) return void res.destroy(err);
      res.writeHead(502, { 'content-type': 'text/plain' }).end(`upstream ${upstream}: ${err.message}\n`);
    });
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    domain: `${FRONT_DOOR_DOMAIN}:${port}`,
    streamOrigin: `https://stream.${FRONT_DOOR_DOMAIN}:${port}`,
    imageOrigin: `https://image.${FRONT_DOOR_DOMAIN}:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
