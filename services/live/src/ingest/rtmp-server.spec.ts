import { ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@platform/testing';
import { PublishSession, redactStreamPaths, RtmpServer } from './rtmp-server';

jest.setTimeout(30_000);

const run = promisify(execFile);
const FFMPEG = process.env.FFMPEG_PATH ?? 'ffmpeg';
const FFPROBE = process.env.FFPROBE_PATH ?? 'ffprobe';

/** What ffprobe finds at an RTMP URL (its streams' codecs), or the error when it is refused. */
async function probe(url: string): Promise<string[] | 'refused'> {
  try {
    const { stdout } = await run(FFPROBE, ['-v', 'error', '-rw_timeout', '5000000', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', url]);
    return stdout.trim().split('\n').filter(Boolean);
  } catch {
    return 'refused';
  }
}

describe('RtmpServer', () => {
  let server: RtmpServer;
  let port: number;
  let dataDir: string;
  const logged: string[] = [];
  const published: PublishSession[] = [];
  const signals = { term: 0, int: 0 };
  let encoder: ChildProcess | undefined;
  let logSpy: jest.SpyInstance;

  beforeAll(async () => {
    port = await freePort();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rtmp-server-'));
    // what node-media-server's store wrote before: stream paths with stream keys
    fs.mkdirSync(path.join(dataDir, 'rtmp-server'));
    fs.writeFileSync(path.join(dataDir, 'rtmp-server', 'stream_history.json'), '[{"streamPath":"/app/old-key"}]');
    signals.term = process.listenerCount('SIGTERM');
    signals.int = process.listenerCount('SIGINT');
    logSpy = jest.spyOn(console, 'log').mockImplementation((line: string) => void logged.push(line));
    jest.spyOn(console, 'error').mockImplementation((line: string) => void logged.push(line));
    server = new RtmpServer({
      port,
      host: '127.0.0.1',
      dataDir,
      logLevel: 'debug',
      onPublish: (s) => published.push(s),
      onUnpublish: () => undefined,
    });
    await server.start();
  });

  afterAll(async () => {
    if (encoder && encoder.exitCode === null) {
      const exited = new Promise((resolve) => encoder!.once('exit', resolve));
      encoder.kill('SIGKILL');
      await exited;
    }
    await server.stop();
    await new Promise((r) => setTimeout(r, 100)); // node-media-server reports the publisher gone on a timer
    logSpy.mockRestore();
    jest.restoreAllMocks();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('adds no SIGTERM/SIGINT handler of its own (node-media-server’s store re-raised the signal and killed the process)', () => {
    expect(process.listenerCount('SIGTERM')).toBe(signals.term);
    expect(process.listenerCount('SIGINT')).toBe(signals.int);
  });

  it('keeps no files under DATA_DIR, and removes the stream history an older version left there', () => {
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('lets loopback tools play a session only under its pull alias, never under the stream key', async () => {
    encoder = spawn(
      FFMPEG,
      [
        '-v',
        'error',
        '-re',
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=160x120:rate=10',
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-g',
        '10',
        '-f',
        'flv',
        `rtmp://127.0.0.1:${port}/app/secret-key-1`,
      ],
      { stdio: 'ignore' },
    );
    const deadline = Date.now() + 10_000;
    while (published.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const session = published[0];
    expect(session.streamPath).toBe('/app/secret-key-1');
    expect(session.pullUrl).toMatch(new RegExp(`^rtmp://127\\.0\\.0\\.1:${port}/internal/[0-9a-f]{32}$`));
    expect(session.pullUrl).not.toContain('secret-key-1');
    expect(session.remoteAddress).toMatch(/127\.0\.0\.1$/);

    expect(await probe(session.pullUrl)).toEqual(['h264']);
    expect(await probe(`rtmp://127.0.0.1:${port}/app/secret-key-1`)).toBe('refused');
    expect(await probe(`rtmp://127.0.0.1:${port}/internal/${'0'.repeat(32)}`)).toBe('refused');
  });

  it('logs (LOG_LEVEL=debug) without the stream paths’ keys', () => {
    expect(logged.some((l) => l.includes('/app/…'))).toBe(true);
    expect(logged.filter((l) => l.includes('secret-key-1') || /internal\/[0-9a-f]{32}/.test(l))).toEqual([]);
  });
});

describe('redactStreamPaths', () => {
  it('leaves the application and drops the stream name', () => {
    expect(redactStreamPaths('RTMP session x 127.0.0.1:5 start push /app/abc-123')).toBe('RTMP session x 127.0.0.1:5 start push /app/…');
    expect(redactStreamPaths('invalid stream path characters: app=app, name=k.e.y')).toBe('invalid stream path characters: app=app, name=…');
  });
});
