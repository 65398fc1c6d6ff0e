import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Mux from '@mux/mux-node';
import { freePort } from '@platform/testing';
import { platform } from './support/context';
import { Encoder, eventually, pushRtmp, pushSrt, receiveRtmp, RtmpReceiver } from './support/encoder';
import { streamWhen } from './support/live-drills';
import { E2eMode, RunningPlatform, startPlatform } from './support/platform-process';
import { startWebhookReceiver, WebhookReceiver } from './support/webhook-receiver';

jest.setTimeout(300_000);

/** The command lines of the platform's processes (it and everything under it), as `ps` shows them to anyone on the machine. */
function platformCommandLines(rootPid: number): string[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((l) => /^\s*(\d+)\s+(\d+)\s(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3] }));
  const tree = new Set([rootPid]);
  let size = 0;
  while (tree.size !== size) {
    size = tree.size;
    for (const r of rows) if (tree.has(r.ppid)) tree.add(r.pid);
  }
  return rows.filter((r) => tree.has(r.pid)).map((r) => r.args);
}

/** Every file under `dir` except the database's own (embedded PGlite), with its path. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (p === path.join(dir, 'pglite') || p === path.join(dir, 'pglite.json')) continue;
      if (entry.isDirectory()) walk(p);
      else if (entry.isFile()) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** Where each secret was found: "file …", "log", "ps …". */
function findings(secrets: Record<string, string>, places: Array<{ where: string; bytes: Buffer }>): string[] {
  const found: string[] = [];
  for (const [name, secret] of Object.entries(secrets)) {
    for (const { where, bytes } of places) if (bytes.includes(secret)) found.push(`${name} in ${where}`);
  }
  return found;
}

/**
 * Issue 12, "Guards": stream keys, SRT passphrases, access-token secrets, webhook secrets and
 * private keys never appear in logs (at LOG_LEVEL=debug), in process command lines or in files
 * other than the database's. The platform is booted for this test alone with secrets of its own;
 * every kind is created and used (RTMP and SRT pushes, a simulcast relay, signed playback) while
 * `ps` is sampled, then the log, the samples and every file under DATA_DIR are searched.
 */
describe('secrets stay out of logs, command lines and files', () => {
  const mode = platform.mode as E2eMode;
  let own: RunningPlatform;
  let receiver: WebhookReceiver;
  let hooksLog: string;
  let dir: string;
  const encoders: Encoder[] = [];
  const receivers: RtmpReceiver[] = [];
  const webhookSecret = `whsec-${randomBytes(12).toString('hex')}`;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-secrets-'));
    hooksLog = path.join(dir, 'webhooks.jsonl');
    receiver = await startWebhookReceiver(hooksLog);
    own = await startPlatform(mode, {
      LOG_LEVEL: 'debug',
      WEBHOOK_URL: receiver.url,
      WEBHOOK_SECRET: webhookSecret,
      WEBHOOK_RETRY_BASE_MS: '200',
      WEBHOOK_RETRY_MAX_MS: '2000',
    });
  });

  afterAll(async () => {
    await Promise.all(encoders.map((e) => e.stop()));
    await Promise.all(receivers.map((r) => r.kill()));
    await own?.stop();
    await receiver?.close();
    if (own) fs.rmSync(own.env.DATA_DIR, { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('appear nowhere but in the database', async () => {
    const mux = new Mux({ tokenId: own.tokenId, tokenSecret: own.tokenSecret, baseURL: own.baseUrl, maxRetries: 2 });
    const samples = new Set<string>();
    const sampler = setInterval(() => {
      for (const line of platformCommandLines(own.pid)) samples.add(line);
    }, 200);
    try {
      const key = await mux.system.signingKeys.create();
      const pem = Buffer.from(key.private_key!, 'base64').toString('utf8');
      const pemBody = pem.split('\n').filter((l) => l && !l.startsWith('-----'));

      const relayPort = await freePort();
      const targetKey = `target-${randomBytes(12).toString('hex')}`;
      const rtmp = await mux.video.liveStreams.create({
        playback_policies: ['signed'],
        new_asset_settings: { playback_policies: ['public'] },
        latency_mode: 'reduced',
        simulcast_targets: [{ url: `rtmp://127.0.0.1:${relayPort}/live`, stream_key: targetKey }],
      });
      const srt = await mux.video.liveStreams.create({ playback_policies: ['public'], latency_mode: 'reduced' });
      receivers.push(receiveRtmp(relayPort, 'live', targetKey, path.join(dir, 'relayed.flv')));
      encoders.push(pushRtmp(rtmp.stream_key, { port: own.env.RTMP_PORT }));
      encoders.push(pushSrt(srt.stream_key, srt.srt_passphrase, { port: own.env.SRT_PORT }));

      await streamWhen(mux, rtmp.id, (s) => s.status === 'active', 30_000);
      await streamWhen(mux, srt.id, (s) => s.status === 'active', 30_000);
      const target = await eventually(
        () => mux.video.liveStreams.retrieveSimulcastTarget(rtmp.id, rtmp.simulcast_targets![0].id),
        (t) => t.status === 'broadcasting',
        30_000,
      );
      expect(target.status).toBe('broadcasting');

      // signed playback of the live stream, with the signing key's private key
      const token = await mux.jwt.signPlaybackId(rtmp.playback_ids![0].id, { keyId: key.id, keySecret: key.private_key!, expiration: '1h', type: 'video' });
      const master = await eventually(
        () => fetch(`${own.streamUrl}/${rtmp.playback_ids![0].id}.m3u8?token=${token}`),
        (r) => r.status === 200,
        30_000,
      );
      expect(master.status).toBe(200);
      await new Promise((r) => setTimeout(r, 4000));

      await Promise.all(encoders.splice(0).map((e) => e.stop()));
      await streamWhen(mux, rtmp.id, (s) => s.status === 'idle', 60_000);
      await streamWhen(mux, srt.id, (s) => s.status === 'idle', 60_000);
      await eventually(
        () => Promise.resolve(fs.readFileSync(hooksLog, 'utf8')),
        (text) => text.includes('video.live_stream.idle'),
        30_000,
      );
      await own.stop(); // the logs are complete once it has exited

      const secrets: Record<string, string> = {
        'the access token secret': own.tokenSecret,
        WEBHOOK_SECRET: webhookSecret,
        'the signing key (base64)': key.private_key!,
        ...Object.fromEntries(pemBody.map((line, i) => [`the signing key's PEM line ${i + 1}`, line])),
        'the RTMP stream key': rtmp.stream_key,
        'the SRT stream key': srt.stream_key,
        'the SRT passphrase': srt.srt_passphrase!,
        'the RTMP stream’s SRT passphrase': rtmp.srt_passphrase!,
        'the simulcast target’s stream key': targetKey,
      };
      const log = fs.readFileSync(own.logFile);
      expect(log.length).toBeGreaterThan(0);
      expect(log.toString('utf8')).toContain('[RtmpServer] INFO RTMP session'); // what only LOG_LEVEL=debug logs
      const files = filesUnder(own.env.DATA_DIR);
      if (mode === 'embedded') expect(files.some((f) => f.endsWith('.ts'))).toBe(true); // the recordings' segments are among them
      const places = [
        { where: 'the platform log', bytes: log },
        ...[...samples].map((args) => ({ where: `ps: ${args.slice(0, 160)}`, bytes: Buffer.from(args) })),
        ...files.map((f) => ({ where: `file ${path.relative(own.env.DATA_DIR, f)}`, bytes: fs.readFileSync(f) })),
      ];
      expect(samples.size).toBeGreaterThan(3);
      expect([...samples].some((args) => args.includes('ffmpeg'))).toBe(true); // the packagers, the SRT bridge and the relay were sampled
      expect(findings(secrets, places)).toEqual([]);
    } finally {
      clearInterval(sampler);
    }
  });
});
