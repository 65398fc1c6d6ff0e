import { randomUUID } from 'node:crypto';
import { sdk } from './support/context';
import { eventually } from './support/encoder';

jest.setTimeout(90_000);

type Counts = { status: number; body: { data?: { views: number; viewers: number; updated_at: string }[] } };

const collector = () => process.env.E2E_COLLECTOR_URL ?? '';

async function counts(token?: string): Promise<Counts> {
  const res = await fetch(`${collector()}/counts${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`);
  return { status: res.status, body: (await res.json()) as Counts['body'] };
}

/**
 * Real-time engagement counts (issue 16): the SDK signs a viewer-counts token with a signing key,
 * mux-embed-shaped beacons (minified keys, as services/analytics' captured fixture) open a view of a
 * live stream's playback id on the collector, and `/counts` on the collector port shows it.
 */
describe('Viewer counts: signViewerCounts → GET /counts on the collector', () => {
  const mux = sdk();
  const viewId = randomUUID();
  const viewer = `viewer-counts-e2e-${Date.now()}`;
  let sequence = 0;
  let liveStreamId: string;
  let playbackId: string;
  let key: { id: string; private_key?: string };

  async function beacon(e: string, extra: Record<string, unknown> = {}): Promise<void> {
    sequence++;
    const source = `http://localhost:8081/${playbackId}.m3u8`;
    const event = {
      e,
      xid: viewId,
      xsqno: sequence,
      psqno: sequence,
      uti: Date.now(),
      mvrid: `cookie-${viewer}`,
      uusid: viewer,
      vsour: source,
      psour: source,
      vsmty: 'live',
      ...extra,
    };
    const res = await fetch(`${collector()}/`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ metadata: { transmission_timestamp: Date.now() }, events: [event] }),
    });
    expect(res.status).toBeLessThan(300);
  }

  beforeAll(async () => {
    const [signingKey, stream] = await Promise.all([mux.system.signingKeys.create(), mux.video.liveStreams.create({ playback_policies: ['public'] })]);
    key = signingKey;
    liveStreamId = stream.id;
    playbackId = stream.playback_ids![0].id;
  });

  const sign = (id: string, type: 'live_stream' | 'playback') =>
    mux.jwt.signViewerCounts(id, { type, keyId: key.id, keySecret: key.private_key, expiration: '1h' });

  it('shows the open view of a live stream and its playback id within seconds, then none once it ends', async () => {
    const [byStream, byPlaybackId] = await Promise.all([sign(liveStreamId, 'live_stream'), sign(playbackId, 'playback')]);
    const before = await counts(byStream);
    expect(before.status).toBe(200);
    expect(before.body.data).toEqual([{ views: 0, viewers: 0, updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }]);

    await beacon('playerready');
    await beacon('viewstart');
    // mux-embed's view_time_to_first_frame: 1 ms, so the view is past its first frame at any later instant
    await beacon('playing', { xtitofifr: 1 });
    const started = Date.now();
    const one = (c: Counts) => c.body.data?.[0]?.views === 1 && c.body.data[0].viewers === 1;
    expect((await eventually(() => counts(byStream), one, 8_000)).body.data?.[0]).toMatchObject({ views: 1, viewers: 1 });
    expect(Date.now() - started).toBeLessThan(8_000);
    expect((await counts(byPlaybackId)).body.data?.[0]).toMatchObject({ views: 1, viewers: 1 });

    // the monitoring (real-time) API sees the same viewer: the SDK's deprecated realTime and its monitoring
    const filters = [`viewer_user_id:${viewer}`];
    const series = await eventually(
      () => mux.data.realTime.retrieveTimeseries('current-concurrent-viewers', { filters }),
      (s) => s.data.at(-1)?.concurrent_viewers === 1,
      10_000,
    );
    expect(series.data.at(-1)).toEqual({ date: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/), value: 1, concurrent_viewers: 1 });
    expect(series.data).toHaveLength(361); // 30 minutes every 5 s, both ends
    expect(series.timeframe[1] - series.timeframe[0]).toBe(1800);
    // its `playing` may reach the store a little after its start (Kafka in production)
    const live = await eventually(
      () => mux.data.monitoring.metrics.getBreakdown('current-concurrent-viewers', { dimension: 'stream_type', filters }),
      (b) => b.data[0]?.starting_up_viewers === 0,
      10_000,
    );
    expect(live.data).toEqual([{ value: 'live', metric_value: 1, negative_impact: 0, concurrent_viewers: 1, starting_up_viewers: 0 }]); // its first frame was shown: not starting up

    await beacon('hb');
    await beacon('viewend');
    const none = (c: Counts) => c.body.data?.[0]?.views === 0;
    expect((await eventually(() => counts(byStream), none, 8_000)).body.data?.[0]).toMatchObject({ views: 0, viewers: 0 });
    // ended within the last minute: still listed, with no one watching
    // the ended view reaches the analytics store after the collector's counts (in production through Kafka)
    const ended = await eventually(
      () => mux.data.monitoring.metrics.getBreakdown('current-concurrent-viewers', { dimension: 'stream_type', filters }),
      (b) => b.data[0]?.concurrent_viewers === 0,
      10_000,
    );
    expect(ended.data).toEqual([expect.objectContaining({ value: 'live', concurrent_viewers: 0 })]);
  });

  it('refuses a missing token (401), a playback token, a garbage token and a deleted key (403)', async () => {
    expect((await counts()).status).toBe(401);
    const playbackToken = await mux.jwt.signPlaybackId(playbackId, { keyId: key.id, keySecret: key.private_key, expiration: '1h' });
    const refused = await counts(playbackToken);
    expect(refused).toEqual({ status: 403, body: { error: { type: 'forbidden', messages: [expect.stringContaining('audience')] } } });
    expect((await counts('not.a.jwt')).status).toBe(403);
    const token = await sign(liveStreamId, 'live_stream');
    await mux.system.signingKeys.delete(key.id);
    expect((await counts(token)).status).toBe(403);
  });
});
