import { sdk } from './support/context';
import { Encoder, endsWithin, eventually, pushRtmp } from './support/encoder';
import { ReceivedWebhook, receivedWebhooks } from './support/webhook-receiver';

jest.setTimeout(120_000);

const typeOf = (w: ReceivedWebhook) => (JSON.parse(w.body) as { type: string }).type;
const objectOf = (w: ReceivedWebhook) => (JSON.parse(w.body) as { object: { id: string } }).object.id;

/** RTMP ingest (spec 3, 4.3): who may publish, and the stream's status while an encoder is on. */
describe('RTMP ingest', () => {
  const mux = sdk();
  const encoders: Encoder[] = [];
  const push = (key: string) => {
    const encoder = pushRtmp(key);
    encoders.push(encoder);
    return encoder;
  };
  const statusOf = async (id: string) => mux.video.liveStreams.retrieve(id);
  // Started first, checked last: the shortest max_continuous_duration (60 s) runs out meanwhile.
  let limited: { id: string; encoder: Encoder; startedAt: number };

  beforeAll(async () => {
    const stream = await mux.video.liveStreams.create({ max_continuous_duration: 60 });
    limited = { id: stream.id, encoder: pushRtmp(stream.stream_key!), startedAt: Date.now() };
  });

  afterAll(async () => {
    await limited?.encoder.stop();
  });

  afterEach(async () => {
    await Promise.all(encoders.splice(0).map((e) => e.stop()));
  });

  it('makes the stream active while ffmpeg pushes to /app/{stream_key}, idle when it stops, with the events in order', async () => {
    const stream = await mux.video.liveStreams.create({ playback_policies: ['public'] });
    const encoder = push(stream.stream_key!);
    const active = await eventually(() => statusOf(stream.id), (s) => s.status === 'active');
    expect(active).toMatchObject({ status: 'active', active_ingest_protocol: 'rtmp' });

    await encoder.stop();
    const idle = await eventually(() => statusOf(stream.id), (s) => s.status === 'idle');
    expect(idle.status).toBe('idle');
    expect(idle.active_ingest_protocol).toBeUndefined();

    const hooks = await eventually(
      async () => receivedWebhooks().filter((w) => objectOf(w) === stream.id).map(typeOf),
      (types) => types.includes('video.live_stream.idle'),
    );
    expect(hooks).toEqual(['video.live_stream.created', 'video.live_stream.connected', 'video.live_stream.active', 'video.live_stream.disconnected', 'video.live_stream.idle']);
  });

  it('refuses an unknown key and a disabled stream: the encoder is dropped and nothing turns active', async () => {
    const unknown = push('not-a-key-of-any-stream');
    expect(await endsWithin(unknown, 15_000)).toBe(true);

    const stream = await mux.video.liveStreams.create({});
    await mux.video.liveStreams.disable(stream.id);
    const refused = push(stream.stream_key!);
    expect(await endsWithin(refused, 15_000)).toBe(true);
    expect((await statusOf(stream.id)).status).toBe('disabled');
  });

  it('drops the encoder when the key is reset, refuses the old key, takes the new one', async () => {
    const stream = await mux.video.liveStreams.create({});
    const first = push(stream.stream_key!);
    await eventually(() => statusOf(stream.id), (s) => s.status === 'active');
    const reset = await mux.video.liveStreams.resetStreamKey(stream.id);
    expect(await endsWithin(first, 15_000)).toBe(true);
    expect((await eventually(() => statusOf(stream.id), (s) => s.status === 'idle')).status).toBe('idle');

    const old = push(stream.stream_key!);
    expect(await endsWithin(old, 15_000)).toBe(true);
    push(reset.stream_key!);
    expect((await eventually(() => statusOf(stream.id), (s) => s.status === 'active')).status).toBe('active');
  });

  it('drops the encoder of a stream that is disabled while live; enable lets it back in', async () => {
    const stream = await mux.video.liveStreams.create({});
    const encoder = push(stream.stream_key!);
    await eventually(() => statusOf(stream.id), (s) => s.status === 'active');
    await mux.video.liveStreams.disable(stream.id);
    expect(await endsWithin(encoder, 15_000)).toBe(true);
    expect((await statusOf(stream.id)).status).toBe('disabled');
    await mux.video.liveStreams.enable(stream.id);
    push(stream.stream_key!);
    expect((await eventually(() => statusOf(stream.id), (s) => s.status === 'active')).status).toBe('active');
  });

  it('drops the encoder of a stream deleted while live', async () => {
    const stream = await mux.video.liveStreams.create({});
    const encoder = push(stream.stream_key!);
    await eventually(() => statusOf(stream.id), (s) => s.status === 'active');
    await mux.video.liveStreams.delete(stream.id);
    expect(await endsWithin(encoder, 15_000)).toBe(true);
  });

  it('disconnects an encoder at max_continuous_duration', async () => {
    expect((await eventually(() => statusOf(limited.id), (s) => s.status === 'active')).status).toBe('active');
    expect(await endsWithin(limited.encoder, 80_000)).toBe(true);
    const ranFor = (Date.now() - limited.startedAt) / 1000;
    expect(ranFor).toBeGreaterThanOrEqual(59);
    expect((await eventually(() => statusOf(limited.id), (s) => s.status === 'idle')).status).toBe('idle');
  });
});
