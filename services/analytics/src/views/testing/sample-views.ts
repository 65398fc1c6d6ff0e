import { BeaconBatch, BeaconValue } from '../beacon-values';
import { BeaconSequence, batchOf } from './beacon-sequence';

export const PLAYER_STATE: Record<string, BeaconValue> = {
  env_key: 'env123',
  mux_viewer_id: 'viewer-cookie-1',
  viewer_user_id: 'user-42',
  session_id: 'session-1',
  video_id: 'video-1',
  video_title: 'Big Buck Bunny',
  player_name: 'test page',
  player_software: 'hls.js',
  player_software_version: '1.5.0',
  player_mux_plugin_name: 'mux-embed',
  player_mux_plugin_version: '5.19.0',
  player_autoplay_on: false,
  player_preload_on: true,
  player_width: 1280,
  player_height: 720,
  player_source_url: 'http://localhost:8081/pbid123.m3u8',
  playback_id: 'pbid123',
  viewer_application_name: 'Chrome',
  viewer_os_family: 'Linux',
  viewer_device_category: 'desktop',
  country_code: 'DE',
  city: 'Berlin',
  asn: '',
};

/**
 * A view that plays 3.5 min: startup 500 ms; 60 s at 1 Mbps (640×360 in a 1280×720 player,
 * upscaled 100 %), then 150 s at 2 Mbps; one 2 s rebuffer; one 300 ms seek; paused, ended.
 * Weighted average bitrate: (60 s × 1 M + 150 s × 2 M) / 210 s = 1 714 285.7 b/s.
 */
export function playedView(viewId = 'view-played', clockSkewMs = 0): BeaconBatch[] {
  const s = new BeaconSequence(viewId, undefined, PLAYER_STATE);
  const b = (events: ReturnType<BeaconSequence['event']>[]) => batchOf(viewId, events, clockSkewMs);
  return [
    b([
      s.event('playerready', 0, { player_startup_time: 120, page_load_time: 800 }),
      s.event('viewstart', 1000, { view_start: s.startTime + 1000, video_source_is_live: false }),
      s.event('renditionchange', 1000, { video_source_bitrate: 1_000_000, video_source_width: 640, video_source_height: 360 }),
      s.event('playing', 1500, { view_time_to_first_frame: 500, view_watch_time: 500, view_playing_time_ms_cumulative: 0 }),
    ]),
    b([
      s.event('hb', 61_500, {
        view_watch_time: 60_500,
        view_playing_time_ms_cumulative: 60_000,
        view_total_content_playback_time: 60_000,
        view_total_upscaling: 60_000,
        view_max_upscale_percentage: 1,
      }),
      s.event('renditionchange', 61_500, { video_source_bitrate: 2_000_000, video_source_width: 1280, video_source_height: 720 }),
      s.event('rebufferstart', 91_500, { view_watch_time: 90_500, view_playing_time_ms_cumulative: 90_000 }),
      s.event('rebufferend', 93_500, { view_watch_time: 92_500, view_rebuffer_count: 1, view_rebuffer_duration: 2000 }),
    ]),
    b([
      s.event('seeking', 183_500, { view_watch_time: 182_500, view_playing_time_ms_cumulative: 180_000, view_seek_count: 1 }),
      s.event('seeked', 183_800, { view_watch_time: 182_800, view_seek_duration: 300 }),
      s.event('playing', 184_000),
      s.event('pause', 213_800, { view_watch_time: 212_800, view_playing_time_ms_cumulative: 210_000, view_total_content_playback_time: 210_000 }),
    ]),
    b([s.event('viewend', 215_000)]),
  ];
}

/** Play pressed, no first frame after 5 s, the viewer leaves. */
export function exitBeforeStartView(viewId = 'view-ebvs', waitedMs = 5000): BeaconBatch[] {
  const s = new BeaconSequence(viewId, undefined, PLAYER_STATE);
  return [
    batchOf(viewId, [s.event('playerready', 0), s.event('viewstart', 100, { view_start: s.startTime + 100 })]),
    batchOf(viewId, [s.event('viewend', 100 + waitedMs, { view_watch_time: waitedMs })]),
  ];
}

/** Play pressed, then a fatal network error before any frame. */
export function failedView(viewId = 'view-failed', error: Record<string, BeaconValue> = {}): BeaconBatch[] {
  const s = new BeaconSequence(viewId, undefined, PLAYER_STATE);
  return [
    batchOf(viewId, [s.event('playerready', 0), s.event('viewstart', 100, { view_start: s.startTime + 100 })]),
    batchOf(viewId, [
      s.event('error', 1200, {
        view_watch_time: 1100,
        player_error_code: 2,
        player_error_message: 'networkError: manifestLoadError',
        player_error_severity: 'fatal',
        ...error,
      }),
    ]),
    batchOf(viewId, [s.event('viewend', 1300)]),
  ];
}

/** Plays for 20 s and goes silent: no viewend (a closed tab whose last beacon was lost). */
export function silentView(viewId = 'view-silent'): BeaconBatch[] {
  const s = new BeaconSequence(viewId, undefined, PLAYER_STATE);
  return [
    batchOf(viewId, [
      s.event('viewstart', 0, { view_start: s.startTime }),
      s.event('playing', 800, { view_time_to_first_frame: 800, view_watch_time: 800, view_playing_time_ms_cumulative: 0 }),
    ]),
    batchOf(viewId, [s.event('hb', 20_800, { view_watch_time: 20_800, view_playing_time_ms_cumulative: 20_000 })]),
  ];
}
