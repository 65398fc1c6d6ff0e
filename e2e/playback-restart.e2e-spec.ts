import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Mux from '@mux/mux-node';
import { settledAsset } from './support/assets';
import { platform } from './support/context';
import { FileServer, makeClip, serveFiles } from './support/media';
import { RunningPlatform, startPlatform } from './support/platform-process';

jest.setTimeout(240_000);

const client = (p: RunningPlatform) => new Mux({ tokenId: p.tokenId, tokenSecret: p.tokenSecret, baseURL: p.baseUrl, maxRetries: 0 });
const portsOf = (p: RunningPlatform) => Object.fromEntries(Object.entries(p.env).filter(([k]) => k.endsWith('_PORT') || k.endsWith('_GRPC_URL')));

/**
 * Drill 10 of issue 12: a restart broke every playback URL already handed out, because the key of
 * the grants on child playlist and segment URLs was random per process. Embedded mode keeps a
 * generated key in DATA_DIR, so a player that fetched the master before the restart goes on after it.
 */
const embeddedOnly = platform.mode === 'embedded' ? describe : describe.skip;
embeddedOnly('playback URLs handed out before a restart', () => {
  let dir: string;
  let files: FileServer;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-restart-'));
    await makeClip(dir, 'clip', { seconds: 4, width: 320, height: 240, fps: 25, videoCodec: 'libx264', audioCodec: 'aac', extension: 'mp4' });
    files = await serveFiles(dir);
  });
  afterAll(async () => {
    await files?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('still play after the platform restarts on the same DATA_DIR', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-restart-data-'));
    let own: RunningPlatform | undefined = await startPlatform('embedded', { DATA_DIR: dataDir });
    try {
      const asset = await client(own).video.assets.create({ inputs: [{ url: files.url('clip.mp4') }], playback_policies: ['public'] });
      expect((await settledAsset(client(own), asset.id)).status).toBe('ready');
      const masterUrl = `${own.env.STREAM_PORT ? `http://127.0.0.1:${own.env.STREAM_PORT}` : ''}/${asset.playback_ids![0].id}.m3u8`;
      const master = await (await fetch(masterUrl)).text();
      const child = new URL(
        master.split('\n').find((l) => l !== '' && !l.startsWith('#'))!,
        masterUrl,
      ).toString();
      expect(child).toMatch(/[?&]/); // the child URL carries its grant
      expect((await fetch(child)).status).toBe(200);

      await own.stop();
      own = await startPlatform('embedded', { DATA_DIR: dataDir, ...portsOf(own) });
      const after = await fetch(child);
      expect(after.status).toBe(200);
      expect(await after.text()).toMatch(/^#EXTM3U/);
      expect(fs.statSync(path.join(dataDir, 'secrets', 'playback-grant.key')).mode & 0o777).toBe(0o600);
    } finally {
      await own?.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
