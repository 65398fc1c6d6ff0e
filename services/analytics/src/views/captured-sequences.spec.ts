import { beaconBatches } from '../collector/beacon-batches';
import { loadFixture } from '../collector/testing/beacon-fixtures';
import { BeaconBatch } from './beacon-values';
import { UnresolvedPlaybackIds } from './playback-id-resolver';
import { InMemoryViewRepository } from './testing/in-memory-view-repository';
import { ViewBuilder } from './view-builder';
import { ViewRow } from './view-row';
import { DEFAULT_VIEWS_OPTIONS } from './views.options';

/** The captured POSTs (real mux-embed 5.19 + hls.js in Chromium) through the collector's expansion. */
function capturedBatches(name: 'playback-view' | 'error-view'): BeaconBatch[] {
  const fixture = loadFixture(name);
  return fixture.posts.flatMap(
    (post) => beaconBatches(post.body.events, { viewer_application_name: 'Chrome' }, post.body.metadata.transmission_timestamp + 10).batches,
  );
}

async function fold(batches: BeaconBatch[]): Promise<ViewRow> {
  const repository = new InMemoryViewRepository();
  const builder = new ViewBuilder(repository, new UnresolvedPlaybackIds(), DEFAULT_VIEWS_OPTIONS, () => 1_795_784_500_000);
  for (const batch of batches) await builder.ingest(batch);
  expect(new Set(repository.rows.map((r) => r.view_id)).size).toBe(1);
  return repository.latest(repository.rows[0].view_id) as ViewRow;
}

describe('view builder on captured mux-embed beacons', () => {
  it('the playback view: startup, rebuffer, seek, rendition switch and weighted average bitrate', async () => {
    const row = await fold(capturedBatches('playback-view'));
    expect(row).toMatchObject({
      watch_time: 20_321,
      view_playing_time: 16_925,
      time_to_first_frame: 255,
      buffering_count: 1,
      buffering_duration: 4112,
      view_seek_count: 1,
      view_seek_duration: 45,
      seek_latency: 45,
      rendition_change_count: 1,
      rendition_upshift_count: 1,
      video_source_bitrate: 1_060_400,
      video_source_bitrate_initial: 400_400,
      view_max_upscale_percentage: 1,
      view_total_content_playback_time: 15_727,
      exit_before_video_start: false,
      playback_failure: false,
      view_dropped: false,
      watched: true,
      event_count: 56,
      video_title: 'Captured test source',
      viewer_user_id: 'capture-viewer-1',
      custom_1: 'custom one',
      viewer_application_name: 'Chrome',
      video_stream_type: 'on-demand',
      player_mux_plugin_name: 'VideoElementMonitor',
    });
    // 400 400 b/s until the switch at 5 021 ms of playing time, then 1 060 400 b/s to 16 925 ms.
    expect(row.weighted_average_bitrate).toBeCloseTo((5021 * 400_400 + (16_925 - 5021) * 1_060_400) / 16_925, 3);
    expect(row.upscale_percentage).toBeCloseTo(4996 / 15_727, 6);
    expect(row.view_end).not.toBeNull();
    expect(row.playback_id).not.toBeNull();
  });

  it('the playback view is the same whatever the order and repetition of its POSTs', async () => {
    const batches = capturedBatches('playback-view');
    const reference = await fold(batches);
    const scrambled = await fold([batches[2], batches[0], batches[3], batches[1], batches[2], batches[0]]);
    expect({ ...scrambled, updated_at: undefined }).toEqual({ ...reference, updated_at: undefined });
  });

  it('the error view: a fatal manifest error before the first frame, attributed by playback id', async () => {
    const row = await fold(capturedBatches('error-view'));
    expect(row).toMatchObject({
      playback_failure: true,
      video_startup_failure: true,
      exit_before_video_start: false,
      player_error_code: 'networkError',
      player_error_message: 'manifestLoadError',
      player_error_severity: 'fatal',
      playback_id: 'n0tAPlaybackId404',
      watched: false,
      playback_score: 0,
      viewer_experience_score: 0,
    });
    expect(row.player_error_context).toContain('404');
    expect(row.view_end).not.toBeNull();
  });
});
