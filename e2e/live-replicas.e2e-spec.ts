import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { freePort, until } from '@platform/testing';
import { platform, sdk } from './support/context';
import { Encoder, eventually, pushRtmp } from './support/encoder';
import { streamWhen } from './support/live-drills';
import { segmentsListed } from './support/live-playlists';
import { gone } from './support/processes';

jest.setTimeout(240_000);

const ROOT = path.resolve(__dirname, '..');

/** Resolves once something accepts TCP connections on the port (or rejects after `timeoutMs`). */
async function listening(port: number, timeoutMs = 60_000): Promise<void> {
  const accepts = () =>
    new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
  await until(`something to listen on 127.0.0.1:${port}`, accepts, { timeoutMs, intervalMs: 250 });
}

/**
 * Two live replicas (issue 17, state across replicas): in production mode a second live service
 * process runs beside the platform's, on ports of its own, as a second pod would. An encoder that
 * leaves replica A and reconnects to replica B within the reconnect window continues the same
 * recording: A lets it go unclosed, B restores it from the object store and records on.
 */
(platform.mode === 'production' ? describe : describe.skip)('a reconnect to another live replica', () => {
  const mux = sdk();
  let second: ChildProcess | undefined;
  let secondRtmp: number;
  const encoders: Encoder[] = [];

  beforeAll(async () => {
    const env = JSON.parse(process.env.E2E_PLATFORM_ENV ?? '{}') as Record<string, string>;
    secondRtmp = await freePort();
    const log = fs.openSync(`${process.env.E2E_LOG_FILE ?? '/tmp/e2e'}.live-b.log`, 'a');
    second = spawn(process.execPath, [path.join(ROOT, 'services/live/dist/main.js')], {
      env: {
        ...process.env,
        ...env,
        EMBEDDED: 'false',
        RTMP_PORT: String(secondRtmp),
        SRT_PORT: String(await freePort()),
        LIVE_GRPC_URL: `127.0.0.1:${await freePort()}`,
      },
      stdio: ['ignore', log, log],
    });
    await listening(secondRtmp);
  });

  afterAll(async () => {
    await Promise.all(encoders.map((e) => e.stop()));
    if (second?.pid) {
      second.kill('SIGTERM');
      await gone(second.pid, 30_000);
    }
  });

  it('continues the same asset: one recording with a discontinuity, the stream active throughout, ready on complete', async () => {
    const stream = await mux.video.liveStreams.create({
      playback_policies: ['public'],
      reconnect_window: 60,
      new_asset_settings: { playback_policies: ['public'] },
    });
    const playbackId = stream.playback_ids![0].id;
    const onA = pushRtmp(stream.stream_key);
    encoders.push(onA);
    const active = await streamWhen(mux, stream.id, (s) => s.status === 'active' && s.active_asset_id !== undefined);
    const assetId = active.active_asset_id!;
    await eventually(
      () => segmentsListed(playbackId),
      (n) => n >= 2,
      60_000,
    );
    await onA.stop();
    await eventually(
      () => mux.video.liveStreams.retrieve(stream.id),
      (s) => s.status === 'active', // the window holds it
      10_000,
    );

    // the same key on replica B, within the window
    const onB = pushRtmp(stream.stream_key, { port: String(secondRtmp) });
    encoders.push(onB);
    const before = await segmentsListed(playbackId);
    await eventually(
      () => segmentsListed(playbackId),
      (n) => n >= before + 2,
      90_000,
    );
    const during = await mux.video.liveStreams.retrieve(stream.id);
    expect(during).toMatchObject({ status: 'active', active_asset_id: assetId });
    expect(during.recent_asset_ids).toEqual([assetId]);

    await mux.video.liveStreams.complete(stream.id);
    const asset = await eventually(
      () => mux.video.assets.retrieve(assetId),
      (a) => a.status !== 'preparing',
      90_000,
    );
    expect(asset.status).toBe('ready');
    // two sessions of content in one asset (slate is off for standard latency)
    expect((asset.recording_times ?? []).map((t) => t.type)).toEqual(['content', 'content']);
    const recording = await (await fetch(`${process.env.E2E_STREAM_URL}/${asset.playback_ids![0].id}.m3u8`)).text();
    expect(recording).toContain('RESOLUTION=640x360');
  });
});
