import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TargetState } from '../live-streams/simulcast-targets.service';
import { publishUrl, relayArgs, severityOf, SimulcastRelay } from './simulcast-relay';

describe('publishUrl', () => {
  it('appends the stream key to the application URL', () => {
    expect(publishUrl({ id: 't', url: 'rtmp://live.example.com/app', streamKey: 'abc' })).toBe('rtmp://live.example.com/app/abc');
    expect(publishUrl({ id: 't', url: 'rtmps://live.example.com:443/app/', streamKey: 'abc' })).toBe('rtmps://live.example.com:443/app/abc');
  });

  it('uses the URL as it is without a stream key', () => {
    expect(publishUrl({ id: 't', url: 'rtmp://live.example.com/app/key', streamKey: null })).toBe('rtmp://live.example.com/app/key');
  });
});

describe('relayArgs', () => {
  it('stream-copies every track of the source to FLV at the destination, reporting progress on stdout', () => {
    expect(relayArgs('rtmp://127.0.0.1:1935/app/k', 'rtmp://x/app/y')).toEqual([
      '-v',
      'error',
      '-nostats',
      '-progress',
      'pipe:1',
      '-stats_period',
      '0.5',
      '-rw_timeout',
      '5000000',
      '-i',
      'rtmp://127.0.0.1:1935/app/k',
      '-map',
      '0',
      '-c',
      'copy',
      '-f',
      'flv',
      'rtmp://x/app/y',
    ]);
  });
});

describe('severityOf', () => {
  it('is fatal when the target cannot carry the input’s codec, normal otherwise', () => {
    expect(severityOf('[flv @ 0x1] Could not find tag for codec hevc in stream #0, codec not currently supported in container')).toBe('fatal');
    expect(severityOf('rtmp://127.0.0.1:1/app/x: Connection refused')).toBe('normal');
    expect(severityOf('av_interleaved_write_frame(): Broken pipe')).toBe('normal');
  });
});

/** A stand-in ffmpeg: a shell script that prints what the real one would, then exits. */
function fakeFfmpeg(body: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-'));
  const file = path.join(dir, 'ffmpeg');
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}

describe('SimulcastRelay', () => {
  const target = { id: 'target-1', url: 'rtmp://127.0.0.1:1/app', streamKey: 'k' };

  it('goes starting → broadcasting once output is written, errored (normal) when it drops, and retries back to broadcasting', async () => {
    const ffmpegPath = fakeFfmpeg('echo out_time_us=0; sleep 0.1; echo out_time_us=500000; sleep 0.2; echo "Broken pipe" >&2; exit 1');
    const states: TargetState[] = [];
    const relay = new SimulcastRelay({ ffmpegPath, sourceUrl: 'rtmp://src', target, onState: async (s) => void states.push(s), retryDelayMs: () => 50 });
    relay.start();
    await until(() => states.filter((s) => s.status === 'broadcasting').length >= 2);
    await relay.stop();
    expect(states.slice(0, 4)).toEqual([
      { status: 'starting' },
      { status: 'broadcasting' },
      { status: 'errored', severity: 'normal' },
      { status: 'broadcasting' },
    ]);
    expect(relay.isFatal).toBe(false);
  });

  it('stays errored (normal) while connecting keeps failing, retrying with the given backoff', async () => {
    const ffmpegPath = fakeFfmpeg('echo "Connection refused" >&2; exit 1');
    const states: TargetState[] = [];
    const attempts: number[] = [];
    const relay = new SimulcastRelay({
      ffmpegPath,
      sourceUrl: 'rtmp://src',
      target,
      onState: async (s) => void states.push(s),
      retryDelayMs: (n) => (attempts.push(n), 20),
    });
    relay.start();
    await until(() => attempts.length >= 3);
    await relay.stop();
    expect(attempts.slice(0, 3)).toEqual([1, 2, 3]);
    expect(states[0]).toEqual({ status: 'starting' });
    expect(states.slice(1).every((s) => s.status === 'errored' && s.severity === 'normal')).toBe(true);
  });

  it('gives up on a fatal error: errored (fatal), no retry', async () => {
    const ffmpegPath = fakeFfmpeg('echo "Could not find tag for codec hevc in stream #0, codec not currently supported in container" >&2; exit 1');
    const states: TargetState[] = [];
    let retries = 0;
    const relay = new SimulcastRelay({
      ffmpegPath,
      sourceUrl: 'rtmp://src',
      target,
      onState: async (s) => void states.push(s),
      retryDelayMs: () => (retries++, 10),
    });
    relay.start();
    await until(() => states.length >= 2);
    await new Promise((r) => setTimeout(r, 100));
    await relay.stop();
    expect(states).toEqual([{ status: 'starting' }, { status: 'errored', severity: 'fatal' }]);
    expect(retries).toBe(0);
    expect(relay.isFatal).toBe(true);
  });

  it('reports nothing after stop, even though its ffmpeg exits then', async () => {
    const ffmpegPath = fakeFfmpeg('trap "exit 255" INT; echo out_time_us=1000; while true; do sleep 0.05; done');
    const states: TargetState[] = [];
    const relay = new SimulcastRelay({ ffmpegPath, sourceUrl: 'rtmp://src', target, onState: async (s) => void states.push(s) });
    relay.start();
    await until(() => states.length >= 2);
    await relay.stop();
    expect(states).toEqual([{ status: 'starting' }, { status: 'broadcasting' }]);
  });
});
