import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@platform/testing';
import { sdk } from './support/context';
import { ffprobe } from './support/media';
import { Encoder, eventually, pushRtmp, receiveRtmp, RtmpReceiver } from './support/encoder';
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
    encoder = pushRtmp(stream.stream_key!);
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
      async () =>
        receivedWebhooks()
          .filter((w) => objectOf(w) === target.id)
          .map(typeOf),
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
    encoder = pushRtmp(stream.stream_key!);
    expect(await eventually(targetNow, (t) => t.status === 'errored', 30_000)).toMatchObject({ status: 'errored', error_severity: 'normal' });
    expect((await mux.video.liveStreams.retrieve(stream.id)).status).toBe('active');
    await encoder.stop();
    expect((await eventually(targetNow, (t) => t.status === 'idle', 30_000)).status).toBe('idle');
  });
});
