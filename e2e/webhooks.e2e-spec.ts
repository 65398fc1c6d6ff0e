import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readUntil } from '@platform/testing';
import { settledAsset } from './support/assets';
import { sdk } from './support/context';
import { FileServer, makeClip, serveFiles } from './support/media';
import { ReceivedWebhook, receivedWebhooks } from './support/webhook-receiver';

jest.setTimeout(180_000);

interface WebhookBody {
  id: string;
  type: string;
  created_at: string;
  object: { type: string; id: string };
  data: { id: string; status?: string; passthrough?: string; asset_id?: string; type?: string };
}

const bodyOf = (w: ReceivedWebhook) => JSON.parse(w.body) as WebhookBody;

function webhooksOf(objectId: string, until: (types: string[]) => boolean, timeoutMs = 60_000): Promise<ReceivedWebhook[]> {
  return readUntil(
    // Track events name the track as their object and carry the asset's id in data.asset_id (as Mux's do).
    () => receivedWebhooks().filter((w) => bodyOf(w).object.id === objectId || bodyOf(w).data.asset_id === objectId),
    (mine) => until(mine.map((w) => bodyOf(w).type)),
    { timeoutMs, intervalMs: 200 },
  );
}

describe('webhooks (spec 6)', () => {
  const mux = sdk();
  const secret = process.env.E2E_WEBHOOK_SECRET!;
  let dir: string;
  let files: FileServer;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-webhooks-'));
    await makeClip(dir, 'clip', { seconds: 3, width: 640, height: 360, fps: 25 });
    files = await serveFiles(dir);
  });

  afterAll(async () => {
    await files?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('posts every asset transition, in order, signed so the SDK verifies it, with passthrough', async () => {
    const created = await mux.video.assets.create({ inputs: [{ url: files.url('clip.mp4') }], playback_policies: ['public'], passthrough: 'hook-me' });
    expect((await settledAsset(mux, created.id)).status).toBe('ready');
    await mux.video.assets.update(created.id, { passthrough: 'hook-me-too' });
    await mux.video.assets.delete(created.id);

    const hooks = await webhooksOf(created.id, (types) => types.includes('video.asset.deleted'));
    const types = hooks.map((w) => bodyOf(w).type);
    const lifecycle = types.filter((t) => ['video.asset.created', 'video.asset.ready', 'video.asset.updated', 'video.asset.deleted'].includes(t));
    expect(lifecycle).toEqual(['video.asset.created', 'video.asset.ready', 'video.asset.updated', 'video.asset.deleted']);
    expect(types).toContain('video.asset.track.created');

    for (const hook of hooks) {
      const event = (await mux.webhooks.unwrap(hook.body, hook.headers, secret)) as unknown as WebhookBody;
      if (event.type.startsWith('video.asset.track.')) {
        expect(event.object).toEqual({ type: 'track', id: event.data.id });
        expect(event.data.asset_id).toBe(created.id);
        expect(['video', 'audio']).toContain(event.data.type);
      } else {
        expect(event.object).toEqual({ type: 'asset', id: created.id });
      }
      expect(event.id).toEqual(expect.any(String));
      expect(Number.isNaN(Date.parse(event.created_at))).toBe(false);
      expect(hook.headers['content-type']).toMatch(/^application\/json/);
    }
    const byType = (t: string) => bodyOf(hooks.find((w) => bodyOf(w).type === t)!);
    expect(byType('video.asset.created').data).toMatchObject({ id: created.id, status: 'preparing', passthrough: 'hook-me' });
    expect(byType('video.asset.ready').data).toMatchObject({ id: created.id, status: 'ready', passthrough: 'hook-me' });
    expect(byType('video.asset.updated').data).toMatchObject({ passthrough: 'hook-me-too' });
  });

  it('signatures fail verification with another secret or a changed body', async () => {
    const hook = receivedWebhooks()[0];
    expect(hook).toBeDefined();
    await expect(mux.webhooks.unwrap(hook.body, hook.headers, 'not-the-secret')).rejects.toThrow();
    await expect(mux.webhooks.unwrap(hook.body.replace('"type"', '"type" '), hook.headers, secret)).rejects.toThrow();
  });

  it('reports an errored asset', async () => {
    const created = await mux.video.assets.create({ inputs: [{ url: files.url('absent.mp4') }] });
    const hooks = await webhooksOf(created.id, (types) => types.includes('video.asset.errored'));
    const errored = hooks.map(bodyOf).find((b) => b.type === 'video.asset.errored');
    expect(errored?.data).toMatchObject({ id: created.id, status: 'errored', errors: { type: 'invalid_input' } });
  });
});
