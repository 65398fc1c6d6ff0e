import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TargetState } from '../live-streams/simulcast-targets.service';
import { OutboundRefusedError } from '@platform/outbound';
import { readUntil } from '@platform/testing';
import { RelayEndpoint, relayArgs, severityOf, SimulcastRelay } from './simulcast-relay';

describe('relayArgs', () => {
  it('stream-copies every track of the source to FLV with the given output, reporting progress on stdout', () => {
    expect(relayArgs('rtmp://127.0.0.1:1935/internal/a1', ['-rtmp_playpath', 'Xy9', 'rtmp://127.0.0.1:4000/relay'])).toEqual([
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
      'rtmp://127.0.0.1:1935/internal/a1',
      '-map',
      '0',
      '-c',
      'copy',
      '-f',
      'flv',
      '-rtmp_playpath',
      'Xy9',
      'rtmp://127.0.0.1:4000/relay',
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

/** onState that keeps the states in order. */
const recordInto = (states: TargetState[]) => (state: TargetState) => {
  states.push(state);
  return Promise.resolve();
};

/** A stand-in ffmpeg: a shell script that prints what the real one would, then exits. */
function fakeFfmpeg(body: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'relay-'));
  const file = path.join(dir, 'ffmpeg');
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

describe('SimulcastRelay', () => {
  const target = { id: 'target-1', url: 'rtmp://127.0.0.1:1/app', streamKey: 'k' };
  const closed: string[] = [];
  const open = (): Promise<RelayEndpoint> => Promise.resolve({ output: ['rtmp://127.0.0.1:1/relay'], close: () => void closed.push('closed') });

  it('goes starting → broadcasting once output is written, errored (normal) when it drops, and retries back to broadcasting', async () => {
    const ffmpegPath = fakeFfmpeg('echo out_time_us=0; sleep 0.1; echo out_time_us=500000; sleep 0.2; echo "Broken pipe" >&2; exit 1');
    const states: TargetState[] = [];
    const relay = new SimulcastRelay({ ffmpegPath, sourceUrl: 'rtmp://src', target, open, onState: recordInto(states), retryDelayMs: () => 50 });
    relay.start();
    await readUntil(
      () => states.filter((s) => s.status === 'broadcasting').length,
      (n) => n >= 2,
    );
    await relay.stop();
    expect(states.slice(0, 4)).toEqual([
      { status: 'starting' },
      { status: 'broadcasting' },
      { status: 'errored', severity: 'normal', reason: 'Broken pipe' },
      { status: 'broadcasting' },
    ]);
    expect(closed.length).toBeGreaterThanOrEqual(2); // each attempt's endpoint is closed when its ffmpeg exits
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
      open,
      onState: recordInto(states),
      retryDelayMs: (n) => (attempts.push(n), 20),
    });
    relay.start();
    await readUntil(
      () => attempts.length,
      (n) => n >= 3,
    );
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
      open,
      onState: recordInto(states),
      retryDelayMs: () => (retries++, 10),
    });
    relay.start();
    await readUntil(
      () => states.length,
      (n) => n >= 2,
    );
    await new Promise((r) => setTimeout(r, 100));
    await relay.stop();
    expect(states).toEqual([
      { status: 'starting' },
      { status: 'errored', severity: 'fatal', reason: 'Could not find tag for codec hevc in stream #0, codec not currently supported in container' },
    ]);
    expect(retries).toBe(0);
    expect(relay.isFatal).toBe(true);
  });

  it('reports nothing after stop, even though its ffmpeg exits then', async () => {
    const ffmpegPath = fakeFfmpeg('trap "exit 255" INT; echo out_time_us=1000; while true; do sleep 0.05; done');
    const states: TargetState[] = [];
    const relay = new SimulcastRelay({ ffmpegPath, sourceUrl: 'rtmp://src', target, open, onState: recordInto(states) });
    relay.start();
    await readUntil(
      () => states.length,
      (n) => n >= 2,
    );
    await relay.stop();
    expect(states).toEqual([{ status: 'starting' }, { status: 'broadcasting' }]);
  });

  it('is errored (fatal) without running ffmpeg when the target is refused (OUTBOUND_ALLOW, the own ingest), and never retried', async () => {
    const ffmpegPath = fakeFfmpeg('touch "$0.ran"; exit 1');
    const states: TargetState[] = [];
    let retries = 0;
    const relay = new SimulcastRelay({
      ffmpegPath,
      sourceUrl: 'rtmp://src',
      target,
      open: () => Promise.reject(new OutboundRefusedError("it is this platform's own RTMP ingest")),
      onState: recordInto(states),
      retryDelayMs: () => (retries++, 10),
    });
    relay.start();
    await readUntil(
      () => states.length,
      (n) => n >= 2,
    );
    await new Promise((r) => setTimeout(r, 100));
    await relay.stop();
    expect(states).toEqual([{ status: 'starting' }, { status: 'errored', severity: 'fatal', reason: "refused: it is this platform's own RTMP ingest" }]);
    expect(retries).toBe(0);
    expect(fs.existsSync(`${ffmpegPath}.ran`)).toBe(false);
  });

  it('retries (normal) when the target cannot be resolved now', async () => {
    const ffmpegPath = fakeFfmpeg('exit 1');
    const states: TargetState[] = [];
    let opens = 0;
    const relay = new SimulcastRelay({
      ffmpegPath,
      sourceUrl: 'rtmp://src',
      target,
      open: () => (opens++, Promise.reject(new Error('host not found: live.example'))),
      onState: recordInto(states),
      retryDelayMs: () => 10,
    });
    relay.start();
    await readUntil(
      () => opens,
      (n) => n >= 3,
    );
    await relay.stop();
    expect(states[1]).toEqual({ status: 'errored', severity: 'normal', reason: 'host not found: live.example' });
  });
});
