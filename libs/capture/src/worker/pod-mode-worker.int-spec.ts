import { freePort } from '@platform/testing';
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { findChromium } from '../find-chromium';
import { CaptureJobSpec } from '../capture-job';
import { CAPTURE_WORKER_SCRIPT } from '../local-process-launcher';

/**
 * The real capture worker (Xvfb, PulseAudio, Chromium, ffmpeg) started as a capture Pod starts it: no IPC channel,
 * the job in CAPTURE_JOB, the termination log and the annotations file where the Pod's environment says. Reports
 * are read from its stdout, a reload is asked by rewriting the annotations file as the kubelet would, and a stop is
 * SIGTERM, what a Pod's deletion sends.
 */
const ROOT = path.resolve(__dirname, '../../../..');
const tool = (script: string) => execFileSync('bash', [path.join(ROOT, 'scripts/infra', script)], { encoding: 'utf8' }).trim();

jest.setTimeout(120_000);

describe('the capture worker in Pod mode', () => {
  let ffmpeg: string;
  let server: http.Server;
  let pageUrl: string;
  let dir: string;

  beforeAll(async () => {
    expect(fs.existsSync(CAPTURE_WORKER_SCRIPT)).toBe(true); // built by `npm run build`
    tool('capture.sh');
    tool('chromium.sh');
    ffmpeg = tool('ffmpeg.sh');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pod-worker-'));
    server = http.createServer((req, res) => {
      if (req.url === '/missing') return void res.writeHead(404).end('gone');
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><body style="background:#0a0">page</body>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    pageUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/page`;
  });
  afterAll(() => {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const annotations = (generation: number) => `kubernetes.io/config.seen="2026-11-28T10:00:00Z"\nvideo-platform/reload-generation="${generation}"\n`;

  /** Starts the worker as the Pod's container does; collects its stdout lines. */
  const startWorker = (name: string, spec: Partial<CaptureJobSpec>) => {
    const files = { terminationLog: path.join(dir, `${name}.termination-log`), annotations: path.join(dir, `${name}.annotations`) };
    fs.writeFileSync(files.annotations, annotations(0));
    const job: CaptureJobSpec = {
      jobId: name,
      url: pageUrl,
      width: 640,
      height: 360,
      fps: 15,
      rtmpUrl: 'rtmp://127.0.0.1:9/app/key',
      timeoutSeconds: 60,
      ffmpegPath: ffmpeg,
      chromiumPath: findChromium(),
      outboundAllow: 'loopback',
      ...spec,
    };
    const env = {
      PATH: process.env.PATH,
      HOME: dir,
      CAPTURE_JOB: JSON.stringify(job),
      CAPTURE_TERMINATION_LOG: files.terminationLog,
      CAPTURE_ANNOTATIONS_FILE: files.annotations,
    };
    const child = spawn(process.execPath, [CAPTURE_WORKER_SCRIPT], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    const lines: Array<Record<string, unknown>> = [];
    let partial = '';
    child.stdout.on('data', (c: Buffer) => {
      const text = partial + c.toString();
      const parts = text.split('\n');
      partial = parts.pop()!;
      for (const line of parts.filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
    });
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const until = async (what: (l: Record<string, unknown>) => boolean) => {
      const deadline = Date.now() + 60_000;
      while (!lines.some(what)) {
        if (Date.now() > deadline) throw new Error(`not reported; got ${JSON.stringify(lines)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    return { child, lines, exit, until, files };
  };

  /** An RTMP server taking the one session it gets. */
  const receiver = async (): Promise<{ url: string; process: ChildProcess }> => {
    const port = await freePort();
    const url = `rtmp://127.0.0.1:${port}/app/key`;
    const child = spawn(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-listen', '1', '-i', url, '-c', 'copy', '-f', 'null', '-'], { stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 500));
    return { url, process: child };
  };

  it('reports on stdout, reloads when the reload-generation annotation rises, and on SIGTERM stops cleanly with its reason in the termination log', async () => {
    const rtmp = await receiver();
    const worker = startWorker('streams', { rtmpUrl: rtmp.url });
    await worker.until((l) => l.type === 'encoding');
    fs.writeFileSync(worker.files.annotations, annotations(1));
    await worker.until((l) => l.type === 'page_loaded' && l.loads === 2);
    worker.child.kill('SIGTERM');
    expect(await worker.exit).toBe(0);
    expect(worker.lines.filter((l) => l.type !== 'browser')).toEqual([
      { type: 'page_loaded', loads: 1 },
      { type: 'encoding' },
      { type: 'page_loaded', loads: 2 },
      { type: 'ended', reason: 'stopped (SIGTERM)', failed: false },
    ]);
    expect(fs.readFileSync(worker.files.terminationLog, 'utf8')).toBe('stopped (SIGTERM)');
    rtmp.process.kill('SIGKILL');
  });

  it('exits 1 on a failure (the Pod turns Failed), the reason in the termination log', async () => {
    const worker = startWorker('missing', { url: pageUrl.replace('/page', '/missing') });
    expect(await worker.exit).toBe(1);
    const reason = fs.readFileSync(worker.files.terminationLog, 'utf8');
    expect(reason).toMatch(/^could not load http:\/\/127\.0\.0\.1:\d+\/missing: the page answered HTTP 404$/);
    expect(worker.lines.at(-1)).toEqual({ type: 'ended', reason, failed: true });
  });
});
