import fs from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { readUntil } from '@platform/testing';
import { settledAsset } from './support/assets';
import { sdk } from './support/context';
import { jobWhen, ladderEncoding, mediaProcessesNaming, platformDatabaseUrl } from './support/jobs';
import { FileServer, makeClip, serveFiles } from './support/media';
import { putBytes, uploadWhen } from './support/uploads';

jest.setTimeout(300_000);

/**
 * Drill 4 of issue 12: one input URL that sent its headers and then stalled held the only worker slot
 * for up to an hour, and an upload waited behind another asset's whole ladder. Global setup runs the
 * platform with INPUT_DOWNLOAD_IDLE_SECONDS=10 and one encode slot (TRANSCODER_CONCURRENCY=1).
 */
describe('a stalled download or a long ladder does not hold back making other assets playable', () => {
  const mux = sdk();
  let dir: string;
  let files: FileServer;
  let stall: http.Server;
  let stallUrl: string;
  let stalledRequests = 0;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-hol-'));
    await makeClip(dir, 'quick', { seconds: 4, width: 640, height: 360, fps: 30 });
    // MPEG-4 Part 2 is not standard: no quick rendition, its asset plays only once the whole ladder is encoded
    await makeClip(dir, 'long', { seconds: 60, width: 1280, height: 720, fps: 30, videoCodec: 'mpeg4', audioCodec: 'libmp3lame', extension: 'mkv' });
    files = await serveFiles(dir);
    stall = http.createServer((_req, res) => {
      stalledRequests++;
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(50 * 1024 * 1024) });
      res.write(Buffer.alloc(1024)); // and nothing more
    });
    await new Promise<void>((r) => stall.listen(0, '127.0.0.1', r));
    stallUrl = `http://127.0.0.1:${(stall.address() as AddressInfo).port}/stalled.mp4`;
  });

  afterAll(async () => {
    stall?.closeAllConnections();
    await new Promise((r) => stall?.close(r));
    await files?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('makes an asset ready while another input stalls after its headers, and gives the stalled one up after the idle time', async () => {
    const stalled = await mux.video.assets.create({ inputs: [{ url: stallUrl }], playback_policies: ['public'] });
    await readUntil(
      () => stalledRequests,
      (n) => n > 0,
      { timeoutMs: 30_000, intervalMs: 50 },
    );
    expect(stalledRequests).toBe(1); // its download is under way, holding nothing but its own ingest slot

    const normal = await mux.video.assets.create({ inputs: [{ url: files.url('quick.mp4') }], playback_policies: ['public'] });
    expect((await settledAsset(mux, normal.id, 60_000)).status).toBe('ready');
    expect((await mux.video.assets.retrieve(stalled.id)).status).toBe('preparing'); // still waiting for bytes

    const gaveUp = await settledAsset(mux, stalled.id, 60_000);
    expect(gaveUp.status).toBe('errored');
    expect(gaveUp.errors).toEqual({ type: 'invalid_input', messages: ['Unable to download input file: no data received for 10 s'] });
  });

  it("makes a direct upload playable while another asset's ladder holds the only encode slot", async () => {
    const long = await mux.video.assets.create({ inputs: [{ url: files.url('long.mkv') }], playback_policies: ['public'] });
    try {
      const job = await jobWhen(platformDatabaseUrl, long.id, (j) => j.status === 'running', 60_000);
      await ladderEncoding(job.id);

      const upload = await mux.video.uploads.create({ cors_origin: '*', new_asset_settings: { playback_policies: ['public'] } });
      expect((await putBytes(upload.url!, fs.readFileSync(path.join(dir, 'quick.mp4')))).status).toBe(200);
      const uploaded = await uploadWhen(mux, upload.id, (u) => u.status === 'asset_created');
      expect((await settledAsset(mux, uploaded.asset_id!, 60_000)).status).toBe('ready');

      // the long asset's ladder is still being encoded: the upload did not wait behind it
      expect((await mux.video.assets.retrieve(long.id)).status).toBe('preparing');
      expect(mediaProcessesNaming(job.id).filter((p) => p.includes('libx264'))).toHaveLength(1);
    } finally {
      await mux.video.assets.delete(long.id); // its ladder stops: the encode slot is free for the next test files
    }
  });
});
