import { beaconBatches } from './beacon-batches';
import { playbackIdOf } from './playback-id-of';
import { loadFixture } from './testing/beacon-fixtures';

const enrichment = { viewer_device_category: 'desktop', viewer_application_name: 'Chrome' };

describe('beaconBatches', () => {
  it('makes one batch per view of a captured POST: full keys, enrichment on every event, in the order sent', () => {
    const post = loadFixture('playback-view').posts[0].body;
    const { batches, orphans } = beaconBatches(post.events, enrichment, 1234);
    expect(orphans).toBe(0);
    expect(batches).toHaveLength(1);
    const [batch] = batches;
    expect(batch.received_at).toBe(1234);
    expect(batch.view_id).toBe(post.events[0].xid);
    expect(batch.events.map((e) => e.view_sequence_number)).toEqual(post.events.map((e) => e.xsqno));
    for (const event of batch.events) expect(event).toMatchObject({ view_id: batch.view_id, ...enrichment });
    expect(batch.events.find((e) => e.event === 'loadstart')).toMatchObject({ playback_id: 'c4pTuReD01PlaybackId00SoUrce' });
  });

  it('splits a POST holding several views, keeping each view’s order', () => {
    const events = [
      { xid: 'a', xsqno: 1, e: 'play' },
      { xid: 'b', xsqno: 1, e: 'play' },
      { xid: 'a', xsqno: 2, e: 'pause' },
    ];
    const { batches } = beaconBatches(events, {}, 1);
    expect(batches.map((b) => [b.view_id, b.events.map((e) => e.event)])).toEqual([
      ['a', ['play', 'pause']],
      ['b', ['play']],
    ]);
  });

  it('keeps a non-empty value the player sent over the enrichment, and fills empty ones', () => {
    const { batches } = beaconBatches([{ xid: 'a', udvcg: 'tv' }, { xid: 'a', udvcg: '' }, { xid: 'a' }], enrichment, 1);
    expect(batches[0].events.map((e) => e.viewer_device_category)).toEqual(['tv', 'desktop', 'desktop']);
  });

  it('counts events without a view id apart', () => {
    const { batches, orphans } = beaconBatches([{ e: 'play' }, { xid: '', e: 'play' }, { xid: 5, e: 'play' }, { xid: 'v', e: 'play' }], {}, 1);
    expect(orphans).toBe(3);
    expect(batches).toHaveLength(1);
  });

  it('attributes through the player source URL too, and not through a foreign URL', () => {
    const { batches } = beaconBatches(
      [
        { xid: 'a', psour: 'https://stream.example.com/abc123.m3u8' },
        { xid: 'a', vsour: 'https://cdn.example.com/x/y.m3u8' },
      ],
      {},
      1,
    );
    expect(batches[0].events.map((e) => e.playback_id)).toEqual(['abc123', undefined]);
  });
});

describe('playbackIdOf', () => {
  it.each([
    ['http://localhost:8081/AbC123.m3u8?token=x', 'AbC123'],
    ['https://stream.mux.com/AbC123.m3u8', 'AbC123'],
    ['http://localhost:8081/AbC123/low.mp4', 'AbC123'],
    ['http://localhost:8081/AbC123/audio.m4a', 'AbC123'],
    ['http://localhost:8081/AbC123/1/index.m3u8', undefined],
    ['http://localhost:8081/a-b.m3u8', undefined],
    ['blob:http://localhost/abc', undefined],
    ['not a url', undefined],
    [42, undefined],
  ])('%s → %s', (url, id) => {
    expect(playbackIdOf(url)).toBe(id);
  });
});
