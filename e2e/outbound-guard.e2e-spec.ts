import dns from 'node:dns/promises';
import fs from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Mux from '@mux/mux-node';
import { Client } from 'pg';
import { readUntil } from '@platform/testing';
import { runningEmbeddedPostgresUrl } from '../libs/database/src/embedded-postgres';
import { settledAsset } from './support/assets';
import { FileServer, makeClip, serveFiles } from './support/media';
import { RunningPlatform, startPlatform } from './support/platform-process';

jest.setTimeout(300_000);

const LOOPBACK_REFUSED = 'is a loopback address, which this platform does not connect to (OUTBOUND_ALLOW)';

/**
 * Drill 5 of issue 12 under the chart's default, OUTBOUND_ALLOW=public: a platform of its own, whose
 * webhook endpoint and media server sit on loopback, where it must not connect. It runs embedded in
 * both e2e modes: a second production platform would share the e2e platform's Kafka, whose consumer
 * groups (transcoder, webhooks) would then split the two platforms' events between them. The guard is
 * the same code in both modes (only the database and bus adapters differ).
 */
describe('outbound URL guard with OUTBOUND_ALLOW=public', () => {
  let own: RunningPlatform;
  let mux: Mux;
  let dir: string;
  let files: FileServer;
  let hooks: http.Server;
  let hookPosts = 0;
  let hooksUrl: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-outbound-'));
    await makeClip(dir, 'clip', { seconds: 2, width: 320, height: 180 });
    files = await serveFiles(dir);
    hooks = http.createServer((_req, res) => {
      hookPosts++;
      res.writeHead(204).end();
    });
    await new Promise<void>((r) => hooks.listen(0, '127.0.0.1', r));
    hooksUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}`;
    own = await startPlatform('embedded', {
      OUTBOUND_ALLOW: 'public',
      WEBHOOK_URL: `${hooksUrl}/hooks?token=not-for-logs`,
      WEBHOOK_SECRET: 'outbound-e2e-secret',
      WEBHOOK_RETRY_BASE_MS: '200',
      WEBHOOK_RETRY_MAX_MS: '400',
    });
    mux = new Mux({ tokenId: own.tokenId, tokenSecret: own.tokenSecret, baseURL: own.baseUrl, maxRetries: 0 });
  });

  afterAll(async () => {
    await own?.stop();
    hooks?.closeAllConnections();
    await new Promise((r) => hooks?.close(r));
    await files?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const refusal = async (url: string) => {
    const error = await mux.video.assets.create({ inputs: [{ url }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Mux.BadRequestError);
    return (error as InstanceType<typeof Mux.BadRequestError>).error as { error: { type: string; messages: string[] } };
  };

  it('answers 400 for a gRPC port on loopback, saying only that the address is loopback (no port mapping)', async () => {
    const grpcPort = own.env.ASSETS_GRPC_URL.split(':')[1];
    const body = await refusal(`http://127.0.0.1:${grpcPort}/`);
    expect(body).toEqual({ error: { type: 'invalid_parameters', messages: [`inputs[0].url: 127.0.0.1 ${LOOPBACK_REFUSED}`] } });
    expect(JSON.stringify(body)).not.toMatch(new RegExp(`${grpcPort}|Parse Error|HTTP/`));
    expect((await refusal('http://169.254.169.254/latest/meta-data/')).error.messages).toEqual([
      'inputs[0].url: 169.254.169.254 is a cloud metadata address, which this platform does not connect to',
    ]);
    expect((await mux.video.assets.list()).data).toEqual([]);
  });

  it('errors an asset whose host name resolves to a refused address, without fetching it', async () => {
    const name = os.hostname();
    const { address } = await dns.lookup(name, { family: 4 });
    expect(address).toMatch(/^127\./); // this machine's /etc/hosts names itself on loopback
    const port = new URL(files.url('clip.mp4')).port;
    const created = await mux.video.assets.create({ inputs: [{ url: `http://${name}:${port}/clip.mp4` }], playback_policies: ['public'] });
    const asset = await settledAsset(mux, created.id);
    expect(asset.status).toBe('errored');
    expect(asset.errors).toEqual({
      type: 'invalid_input',
      messages: [`Unable to download input file: ${name} resolves to ${address} ${LOOPBACK_REFUSED}`],
    });
    expect(files.requests).toEqual([]);
  });

  it('never posts a webhook to a refused WEBHOOK_URL: each attempt records why, the log says it once and warned at start', async () => {
    const databaseUrl = runningEmbeddedPostgresUrl(own.env.DATA_DIR)!;
    const pg = new Client({ connectionString: databaseUrl });
    await pg.connect();
    try {
      const attempts = await readUntil(
        async () =>
          (await pg.query('SELECT "response_status_code", "error" FROM "webhooks"."delivery_attempts" ORDER BY "attempted_at"')).rows as Array<{
            response_status_code: number;
            error: string;
          }>,
        (rows) => rows.length >= 3,
        { timeoutMs: 60_000, intervalMs: 200 },
      );
      expect(attempts.length).toBeGreaterThanOrEqual(3);
      for (const attempt of attempts) expect(attempt).toEqual({ response_status_code: 0, error: `refused: 127.0.0.1 ${LOOPBACK_REFUSED}` });
    } finally {
      await pg.end();
    }
    expect(hookPosts).toBe(0);
    const log = fs.readFileSync(own.logFile, 'utf8');
    expect(log.split('\n').filter((l) => l.includes(`webhooks to ${hooksUrl} are refused`))).toHaveLength(1);
    expect(log).toContain(`WEBHOOK_URL (${hooksUrl}) is refused (127.0.0.1 ${LOOPBACK_REFUSED})`);
    expect(log).not.toContain('not-for-logs');
  });
});
