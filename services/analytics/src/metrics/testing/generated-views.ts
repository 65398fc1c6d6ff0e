import { formatDateTime64 } from '../../views/view-row';

/** 2026-11-27 00:00 UTC: the generated views start here, one every 10 minutes. */
export const T0 = 1_795_737_600;

/**
 * Twelve closed views with known values, for hand computation (i = 0…11):
 * - view_start T0 + i·10 min, view_end 5 min later; browser Chrome/Firefox/Safari by i mod 3;
 *   country DE for i < 6, else US; viewer `viewer-(i mod 5)`; watch_time 60 000·(i+1) ms.
 * - i mod 4 = 3 never reach the first frame: 3 and 11 exit before start, 7 is a playback failure;
 *   they play 0 ms and have no startup, rebuffer or score values.
 * - The others: time_to_first_frame 200·(i+1), playing time watch − 1000, one 1000 ms rebuffer
 *   when i is odd (none when even), viewer experience score 0.5 + i/100.
 * Plus one open view (no view_end) and one that ended a day earlier: neither counts.
 */
export function generatedViews(): Record<string, unknown>[] {
  const rows = Array.from({ length: 12 }, (_, i) => {
    const start = (T0 + i * 600) * 1000;
    const played = i % 4 !== 3;
    const watch = 60_000 * (i + 1);
    const rebuffer = played ? (i % 2) * 1000 : null;
    return {
      ...common(`gen-${i}`, start, start + 300_000),
      viewer_application_name: ['Chrome', 'Firefox', 'Safari'][i % 3],
      country_code: i < 6 ? 'DE' : 'US',
      mux_viewer_id: `viewer-${i % 5}`,
      watch_time: watch,
      view_playing_time: played ? watch - 1000 : 0,
      watched: played,
      time_to_first_frame: played ? 200 * (i + 1) : null,
      buffering_count: played ? i % 2 : null,
      buffering_duration: rebuffer,
      buffering_rate: played ? (i % 2) / (watch / 60_000) : null,
      rebuffer_percentage: played ? (rebuffer as number) / watch : null,
      exit_before_video_start: i === 3 || i === 11,
      playback_failure: i === 7,
      viewer_experience_score: played ? 0.5 + i / 100 : i === 7 ? 0 : null,
    };
  });
  const open = { ...common('gen-open', T0 * 1000, null), time_to_first_frame: 99_999, watched: true, mux_viewer_id: 'viewer-open' };
  const yesterday = { ...common('gen-old', (T0 - 86_400) * 1000, (T0 - 86_000) * 1000), time_to_first_frame: 99_999, watched: true };
  return [...rows, open, yesterday];
}

function common(viewId: string, startMs: number, endMs: number | null): Record<string, unknown> {
  return {
    view_id: viewId,
    view_start: formatDateTime64(startMs),
    view_end: endMs === null ? null : formatDateTime64(endMs),
    last_beacon_at: formatDateTime64(endMs ?? startMs),
    inserted_at: formatDateTime64(startMs),
    updated_at: formatDateTime64(endMs ?? startMs),
    version: 1,
    event_count: 1,
  };
}
