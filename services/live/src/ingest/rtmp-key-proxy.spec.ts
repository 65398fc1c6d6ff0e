import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { freePort } from '@platform/testing';
import { RtmpKeyProxy } from './rtmp-key-proxy';
import { PublishSession, RtmpServer } from './rtmp-server';
import { standIn } from './rtmp-target';

jest.setTimeout(30_000);

const FFMPEG = process.env.FFMPEG_PATH ?? 'ffmpeg';

/** A short test pattern published with ffmpeg to `url`, with extra output options (as a relay's). */
function publish(options: string[], url: string): ChildProcess {
  const args = [
    '-v',
    'error',
    '-re',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=160x120:rate=10',
    '-t',
    '4',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-f',
    'flv',
    ...options,
    url,
  ];
  const child = spawn(FFMPEG, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr?.resume();
  return child;
}

/**
 * The key proxy in front of a real RTMP server (the ingest's own node-media-server): ffmpeg
 * publishes under a stand-in, the server sees the real stream key, and the key is never among
 * ffmpeg's arguments.
 */
describe('RtmpKeyProxy', () => {
  let server: RtmpServer;
  let port: number;
  let dir: string;
  const published: PublishSession[] = [];

  beforeAll(async () => {
    port = await freePort();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'key-proxy-'));
    server = new RtmpServer({
      port,
      host: '127.0.0.1',
      dataDir: dir,
      logLevel: 'error',
      onPublish: (s) => published.push(s),
      onUnpublish: () => undefined,
    });
    await server.start();
  });

  afterAll(async () => {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function relayThrough(proxyOptions: { tls: boolean; host: string; port: number; ca?: string }): Promise<{ args: string[]; streamPath: string }> {
    const key = `relay-key-${Date.now()}`;
    const alias = standIn(key.length);
    let upstreamPort = 0;
    const proxy = await RtmpKeyProxy.listen({ address: '127.0.0.1', standIn: alias, streamName: key, onUpstream: (p) => (upstreamPort = p), ...proxyOptions });
    const before = published.length;
    const child = publish(
      ['-rtmp_app', 'app', '-rtmp_tcurl', `rtmp://${proxyOptions.host}:${proxyOptions.port}/app`, '-rtmp_playpath', alias],
      `rtmp://127.0.0.1:${proxy.port}/relay`,
    );
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    proxy.close();
    expect(code).toBe(0);
    expect(upstreamPort).toBeGreaterThan(0);
    expect(published.length).toBe(before + 1);
    expect(child.spawnargs.join(' ')).not.toContain(key);
    return { args: child.spawnargs, streamPath: published[published.length - 1].streamPath.replace(key, '{key}') };
  }

  it('publishes to the target under the real stream key, which is nowhere in ffmpeg’s arguments', async () => {
    const { streamPath } = await relayThrough({ tls: false, host: '127.0.0.1', port });
    expect(streamPath).toBe('/app/{key}');
  });

  it('speaks TLS to an rtmps target (server name and certificate checked), plain RTMP to ffmpeg', async () => {
    const certDir = fs.mkdtempSync(path.join(os.tmpdir(), 'key-proxy-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=rtmps.test',
        '-addext',
        'subjectAltName=DNS:rtmps.test',
        '-keyout',
        path.join(certDir, 'key.pem'),
        '-out',
        path.join(certDir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    const cert = fs.readFileSync(path.join(certDir, 'cert.pem'), 'utf8');
    // a TLS front of the RTMP server, as an rtmps service has
    const front = tls.createServer({ key: fs.readFileSync(path.join(certDir, 'key.pem')), cert }, (socket) => {
      const back = net.connect(port, '127.0.0.1');
      socket.pipe(back).pipe(socket);
      socket.on('error', () => back.destroy());
      back.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    try {
      const tlsPort = (front.address() as net.AddressInfo).port;
      const { streamPath } = await relayThrough({ tls: true, host: 'rtmps.test', port: tlsPort, ca: cert });
      expect(streamPath).toBe('/app/{key}');
    } finally {
      front.close();
      fs.rmSync(certDir, { recursive: true, force: true });
    }
  });
});
