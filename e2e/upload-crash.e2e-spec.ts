import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import Mux from '@mux/mux-node';
import { platform, sdk } from './support/context';
import { RunningPlatform, startPlatform } from './support/platform-process';
import { childPid, gone } from './support/processes';
import { uploadWhen } from './support/uploads';

jest.setTimeout(180_000);

const MiB = 1024 * 1024;
const file = randomBytes(2 * MiB);

/** A chunk PUT that sends `sent` bytes of its body and then stalls, as a request does when the server is killed under it. */
function stalledChunk(url: string, chunk: Buffer, range: string, sent: number): Promise<void> {
  return new Promise((resolve) => {
    const req = http.request(url, { method: 'PUT', headers: { 'content-length': String(chunk.length), 'content-range': range } });
    req.on('error', () => resolve()); // the server dies under it
    req.on('response', () => resolve());
    req.write(chunk.subarray(0, sent));
  });
}

/** One chunk as UpChunk 3 sends it: retried on 408/502/503/504, 5 attempts, 1 s apart; anything else is final. */
async function upchunkPut(url: string, chunk: Buffer, range: string): Promise<{ status: number; attempts: number }> {
  for (let attempt = 1; ; attempt++) {
    const status = await fetch(url, { method: 'PUT', body: chunk, headers: { 'content-range': range } }).then(
      (r) => r.status,
      () => 0, // no answer at all (the server is still coming back): UpChunk retries that too
    );
    if (![0, 408, 502, 503, 504].includes(status) || attempt === 5) return { status, attempts: attempt };
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/**
 * Waits until the stalled request holds the upload. The probe is a chunk past the bytes the upload
 * has (none yet): refused with 503 while the upload is held, and with 409 (nothing written) when it
 * is not, so a probe that arrives before the stalled request does not write the first chunk itself.
 */
async function claimHeld(url: string, chunk: Buffer, range: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  const seen: number[] = [];
  while (Date.now() < deadline) {
    const res = await fetch(url, { method: 'PUT', body: chunk, headers: { 'content-range': range } });
    if (res.status === 503) {
      expect(res.headers.get('retry-after')).toMatch(/^[1-5]$/);
      return;
    }
    expect(res.status).toBe(409); // not held yet: the chunk is refused, nothing is written
    seen.push(res.status);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the stalled request never held the upload (the probe got ${seen.join(', ')})`);
}

/**
 * Drill 8 of issue 12: the platform (or, in production mode, the uploads service) is killed while
 * a chunk is being written. After the restart the upload must not be locked out for a minute
 * with a 409 UpChunk gives up on: the dead request's claim lapses within UpChunk's retries.
 */
describe('a direct upload whose chunk was cut by a crash', () => {
  const first = file.subarray(0, MiB);
  const firstRange = `bytes 0-${MiB - 1}/${file.length}`;
  const secondRange = `bytes ${MiB}-${file.length - 1}/${file.length}`;

  async function uploadThroughCrash(mux: Mux, crash: () => Promise<Mux>): Promise<void> {
    const upload = await mux.video.uploads.create({ cors_origin: '*', new_asset_settings: { playback_policies: ['public'] } });
    const url = upload.url;
    if (!url) throw new Error('the upload has no url');
    const stalled = stalledChunk(url, first, firstRange, 256 * 1024);
    await claimHeld(url, file.subarray(MiB), secondRange);
    const after = await crash();
    await stalled;

    const resent = await upchunkPut(url, first, firstRange);
    expect(resent.status).toBe(308);
    const last = await upchunkPut(url, file.subarray(MiB), secondRange);
    expect(last.status).toBe(200);
    const done = await uploadWhen(after, upload.id, (u) => u.status !== 'waiting');
    expect(done.status).toBe('asset_created');
    expect(done.asset_id).toEqual(expect.any(String));
  }

  if (platform.mode === 'production') {
    it('kill -9 of the uploads service mid-chunk: restarted, the upload goes on as UpChunk retries', async () => {
      const pid = childPid(Number(process.env.E2E_PLATFORM_PID), 'services/uploads/dist/main.js');
      expect(pid).toEqual(expect.any(Number));
      const mux = sdk();
      await uploadThroughCrash(mux, async () => {
        process.kill(pid!, 'SIGKILL');
        await gone(pid!);
        return mux;
      });
    });
  } else {
    it('kill -9 of the embedded platform mid-chunk: restarted on the same DATA_DIR, the upload goes on as UpChunk retries', async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-upload-crash-'));
      let own: RunningPlatform | undefined = await startPlatform('embedded', { DATA_DIR: dataDir });
      const client = (p: RunningPlatform) => new Mux({ tokenId: p.tokenId, tokenSecret: p.tokenSecret, baseURL: p.baseUrl, maxRetries: 0 });
      try {
        await uploadThroughCrash(client(own), async () => {
          await own!.kill();
          own = await startPlatform('embedded', own!.env);
          return client(own);
        });
      } finally {
        await own?.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }
});
