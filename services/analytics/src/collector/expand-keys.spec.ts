import { expandKey, expandKeys, MUX_EMBED_KEYS } from './expand-keys';
import { FIXTURE_NAMES, loadFixture, minifyKey } from './testing/beacon-fixtures';

describe('expandKey', () => {
  it.each([
    ['ake', 'env_key'],
    ['xid', 'view_id'],
    ['e', 'event'],
    ['uti', 'viewer_time'],
    ['pphti', 'player_playhead_time'],
    ['xsqno', 'view_sequence_number'],
    ['psqno', 'player_sequence_number'],
    ['mvrid', 'mux_viewer_id'],
    ['vsour', 'video_source_url'],
    ['psour', 'player_source_url'],
    ['percd', 'player_error_code'],
    ['xtitofifr', 'view_time_to_first_frame'],
    ['xpntimscv', 'view_playing_time_ms_cumulative'],
    ['xredu', 'view_rebuffer_duration'],
    ['vsobi', 'video_source_bitrate'],
    ['wloti', 'page_load_time'],
    ['mapve', 'mux_api_version'],
    ['c1', 'custom_1'],
    ['c10', 'custom_10'],
    ['qrfls', 'request_rendition_lists'],
  ])('%s → %s', (minified, full) => {
    expect(expandKey(minified)).toBe(full);
  });

  it('reads words that are not in the table (`_word_`) and first words that are not (`word_`)', () => {
    expect(expandKey('v_brandnew_id')).toBe('video_brandnew_id');
    expect(expandKey(minifyKey('flavour_id', MUX_EMBED_KEYS))).toBe('flavour_id');
    expect(expandKey(minifyKey('flavour_odd_id', MUX_EMBED_KEYS))).toBe('flavour_odd_id');
  });

  it('keeps a key that parses neither way as it came', () => {
    expect(expandKey('zzz')).toBe('zzz');
    expect(expandKey('')).toBe('');
    expect(expandKey('x_abc')).toBe('x_abc');
  });

  it('is the inverse of mux-embed’s minifier on every key of the captured beacons', () => {
    const keys = new Set(FIXTURE_NAMES.flatMap((name) => loadFixture(name).posts.flatMap((p) => p.body.events.flatMap((e) => Object.keys(e)))));
    expect(keys.size).toBeGreaterThan(80);
    for (const key of keys) {
      const full = expandKey(key);
      expect(full).not.toBe(key);
      expect(minifyKey(full, MUX_EMBED_KEYS)).toBe(key);
    }
  });

  it('expands a captured event into mux-embed’s full names', () => {
    const first = expandKeys(loadFixture('playback-view').posts[0].body.events[0]);
    expect(first).toMatchObject({ event: 'networkchange', view_sequence_number: 1, beacon_domain: 'localhost:8084', custom_1: 'custom one' });
    expect(first.view_id).toEqual(expect.any(String));
    expect(first.mux_embed_version).toBe('5.19.0');
  });

  it('expands with another dictionary when given one (an older mux-embed)', () => {
    expect(expandKeys({ xzz: 1 }, { firstWords: { x: 'view' }, words: { zz: 'zebra' } })).toEqual({ view_zebra: 1 });
  });
});
