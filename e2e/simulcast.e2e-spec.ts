import { lookup } from 'node:dns/promises';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@platform/testing';
import { api, sdk } from './support/context';
import { ffprobe } from './support/media';
import { Encoder, eventually, pushRtmp, receiveRtmp, RtmpReceiver, rtmpPort } from './support/encoder';
import { ReceivedWebhook, receivedWebhooks } from './support/webhook-receiver';

jest.setTimeout(120_000);

const typeOf = (w: ReceivedWebhook) => (JSON.parse(w.body) as { type: string }).type;
const objectOf = (w: ReceivedWebhook) => (JSON.parse(w.body) as { object: { id: string } }).object.id;

/** Simulcast (spec 2.3, 3): while live, each target gets the stream relayed over RTMP. */
describe('simulcast relaying', () => {
  const mux = sdk();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'simulcast-'));
  let encoder: Encoder | undefined;
  const receivers: RtmpReceiver[] = [];
  const receive = (port: number, file: string) => {
    const receiver = receiveRtmp(port, 'live', 'relay-key', path.join(dir, file));
    receivers.push(receiver);
    return receiver;
  };

  afterAll(async () => {
    await encoder?.stop();
    await Promise.all(receivers.map((r) => r.kill()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('relays to a second RTMP server: idle → starting → broadcasting, errored (normal) when it goes away, broadcasting again after the retry, idle at the end', async () => {
    const port = await freePort();
    const stream = await mux.video.liveStreams.create({ playback_policies: ['public'], reconnect_window: 0 });
    const target = await mux.video.liveStreams.createSimulcastTarget(stream.id, {
      url: `rtmp://127.0.0.1:${port}/live`,
      stream_key: 'relay-key',
      passthrough: 'second server',
    });
    expect(target).toMatchObject({ status: 'idle', url: `rtmp://127.0.0.1:${port}/live`, stream_key: 'relay-key', passthrough: 'second server' });
    expect(target.error_severity).toBeUndefined();
    const targetNow = () => mux.video.liveStreams.retrieveSimulcastTarget(stream.id, target.id);

    const first = receive(port, 'first.flv');
    encoder = pushRtmp(stream.stream_key);
    expect((await eventually(targetNow, (t) => t.status === 'broadcasting', 30_000)).status).toBe('broadcasting');
    const live = await mux.video.liveStreams.retrieve(stream.id);
    expect(live.simulcast_targets).toEqual([expect.objectContaining({ id: target.id, status: 'broadcasting' })]);
    await expect(mux.video.liveStreams.createSimulcastTarget(stream.id, { url: 'rtmp://127.0.0.1:1/live' })).rejects.toMatchObject({ status: 409 });

    // the third party goes away mid-broadcast: a normal error, retried
    await new Promise((r) => setTimeout(r, 3000));
    await first.kill();
    const errored = await eventually(targetNow, (t) => t.status === 'errored', 30_000);
    expect(errored).toMatchObject({ status: 'errored', error_severity: 'normal' });

    // it comes back: the retry reaches it
    const second = receive(port, 'second.flv');
    expect((await eventually(targetNow, (t) => t.status === 'broadcasting', 40_000)).status).toBe('broadcasting');
    await new Promise((r) => setTimeout(r, 4000));

    await encoder.stop();
    const idle = await eventually(targetNow, (t) => t.status === 'idle', 30_000);
    expect(idle.status).toBe('idle');
    expect(idle.error_severity).toBeUndefined();

    // what the second server received is the stream itself, stream-copied
    await second.exited;
    const probe = await ffprobe(second.file);
    expect(probe.streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
    expect(probe.streams.find((s) => s.codec_type === 'video')).toMatchObject({ width: 640, height: 360 });
    expect(Number(probe.format.duration)).toBeGreaterThan(2);

    const hooks = await eventually(
      () =>
        Promise.resolve(
          receivedWebhooks()
            .filter((w) => objectOf(w) === target.id)
            .map(typeOf),
        ),
      (types) => types.includes('video.live_stream.simulcast_target.idle'),
    );
    expect(hooks).toEqual([
      'video.live_stream.simulcast_target.created',
      'video.live_stream.simulcast_target.starting',
      'video.live_stream.simulcast_target.broadcasting',
      'video.live_stream.simulcast_target.errored',
      'video.live_stream.simulcast_target.broadcasting',
      'video.live_stream.simulcast_target.idle',
    ]);
  });

  it('marks an unreachable target errored (normal) while live, and idle once the encoder leaves', async () => {
    const port = await freePort(); // nothing listens there
    const stream = await mux.video.liveStreams.create({
      reconnect_window: 0,
      simulcast_targets: [{ url: `rtmp://127.0.0.1:${port}/live`, stream_key: 'nobody' }],
    });
    const targetId = stream.simulcast_targets![0].id;
    const targetNow = () => mux.video.liveStreams.retrieveSimulcastTarget(stream.id, targetId);
    encoder = pushRtmp(stream.stream_key);
    expect(await eventually(targetNow, (t) => t.status === 'errored', 30_000)).toMatchObject({ status: 'errored', error_severity: 'normal' });
    expect((await mux.video.liveStreams.retrieve(stream.id)).status).toBe('active');
    await encoder.stop();
    expect((await eventually(targetNow, (t) => t.status === 'idle', 30_000)).status).toBe('idle');
  });

  it("refuses a target on the platform's own RTMP ingest (issue 12, drill 5): 400 at create, and the other stream never goes active", async () => {
    const victim = await mux.video.liveStreams.create({ playback_policies: ['public'] });
    const stream = await mux.video.liveStreams.create({ playback_policies: ['public'], reconnect_window: 0 });
    for (const url of [`rtmp://127.0.0.1:${rtmpPort()}/app`, `rtmp://localhost:${rtmpPort()}/app`]) {
      const refused = await api('POST', `/video/v1/live-streams/${stream.id}/simulcast-targets`, { body: { url, stream_key: victim.stream_key } });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ error: { type: 'invalid_parameters', messages: ["url: it is this platform's own RTMP ingest"] } });
    }
    const atCreate = await api('POST', '/video/v1/live-streams', {
      body: { simulcast_targets: [{ url: `rtmp://127.0.0.1:${rtmpPort()}/app/${victim.stream_key}` }] },
    });
    expect(atCreate.status).toBe(400);
    expect((await mux.video.liveStreams.retrieve(stream.id)).simulcast_targets ?? []).toEqual([]);
    // the slate image is an outbound URL too: the cloud metadata address is never fetched
    const slate = await api('POST', '/video/v1/live-streams', { body: { reconnect_slate_url: 'http://169.254.169.254/latest/meta-data/' } });
    expect(slate.status).toBe(400);
    expect(slate.body).toEqual({
      error: {
        type: 'invalid_parameters',
        messages: ['reconnect_slate_url: 169.254.169.254 is a cloud metadata address, which this platform does not connect to'],
      },
    });
    expect((await mux.video.liveStreams.retrieve(victim.id)).status).toBe('idle');
  });

  it('refuses, when its relay starts, a target whose host name resolves to the platform itself: errored (fatal), the other stream stays idle', async () => {
    const name = os.hostname();
    const { address } = await lookup(name);
    const local = address.startsWith('127.') || Object.values(os.networkInterfaces()).some((l) => (l ?? []).some((i) => i.address === address));
    if (!local) return; // this machine's name does not resolve to itself: nothing to try it with
    const victim = await mux.video.liveStreams.create({ playback_policies: ['public'] });
    const stream = await mux.video.liveStreams.create({
      reconnect_window: 0,
      simulcast_targets: [{ url: `rtmp://${name}:${rtmpPort()}/app`, stream_key: victim.stream_key }],
    });
    const targetId = stream.simulcast_targets![0].id;
    encoder = pushRtmp(stream.stream_key);
    const errored = await eventually(
      () => mux.video.liveStreams.retrieveSimulcastTarget(stream.id, targetId),
      (t) => t.status === 'errored',
      30_000,
    );
    expect(errored).toMatchObject({ status: 'errored', error_severity: 'fatal' });
    await new Promise((r) => setTimeout(r, 3000));
    expect((await mux.video.liveStreams.retrieve(victim.id)).status).toBe('idle');
    await encoder.stop();
    expect(
      (
        await eventually(
          () => mux.video.liveStreams.retrieveSimulcastTarget(stream.id, targetId),
          (t) => t.status === 'idle',
          30_000,
        )
      ).status,
    ).toBe('idle');
  });
});
