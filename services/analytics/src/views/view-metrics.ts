import { countOf, numberOf } from './beacon-values';
import { weightedAverageBitrate } from './rendition-timeline';
import { ViewState } from './view-state';

/** Values derived from a folded view (research note §1 and §3); ms unless named otherwise. */
export interface ViewMetrics {
  watch_time: number | null;
  view_playing_time: number | null;
  time_to_first_frame: number | null;
  player_startup_time: number | null;
  page_load_time: number | null;
  aggregate_startup_time: number | null;
  buffering_count: number | null;
  buffering_duration: number | null;
  /** Rebuffers per minute of watch time. */
  buffering_rate: number | null;
  /** rebuffer duration ÷ watch time, a fraction. */
  rebuffer_percentage: number | null;
  view_seek_count: number | null;
  view_seek_duration: number | null;
  /** Mean ms per seek. */
  seek_latency: number | null;
  /** Σ(upscale × playback ms) ÷ content playback ms, a fraction (1 = 100 %: 320 px shown at 640). */
  upscale_percentage: number | null;
  downscale_percentage: number | null;
  view_max_upscale_percentage: number | null;
  view_max_downscale_percentage: number | null;
  weighted_average_bitrate: number | null;
  rendition_change_count: number;
  rendition_upshift_count: number;
  rendition_downshift_count: number;
  watched: boolean;
  exit_before_video_start: boolean;
  playback_failure: boolean;
  video_startup_failure: boolean;
  playback_business_exception: boolean;
  video_startup_business_exception: boolean;
  view_dropped: boolean;
}

function ratio(numerator: number | null, denominator: number | null): number | null {
  if (numerator === null || denominator === null || denominator <= 0) return null;
  return numerator / denominator;
}

export function viewMetrics(state: ViewState): ViewMetrics {
  const f = state.fields;
  const played = state.firstFrame;
  const watchTime = countOf(f.view_watch_time);
  const ttff = countOf(f.view_time_to_first_frame);
  const playerStartup = countOf(f.player_startup_time);
  const pageLoad = countOf(f.page_load_time);
  // mux-embed sends the rebuffer and seek counters once they are non-zero; a view that played without them had none.
  const zeroIfPlayed = (value: number | null) => value ?? (played ? 0 : null);
  const rebufferCount = zeroIfPlayed(countOf(f.view_rebuffer_count));
  const rebufferDuration = zeroIfPlayed(countOf(f.view_rebuffer_duration));
  const seekCount = zeroIfPlayed(countOf(f.view_seek_count));
  const seekDuration = zeroIfPlayed(countOf(f.view_seek_duration));
  const contentMs = numberOf(f.view_total_content_playback_time);
  const playbackFailure = state.fatalError !== null;
  const businessException = state.businessError !== null;
  const started = state.viewStartTime !== null;
  return {
    watch_time: watchTime,
    view_playing_time: countOf(f.view_playing_time_ms_cumulative),
    time_to_first_frame: ttff,
    player_startup_time: playerStartup,
    page_load_time: pageLoad,
    aggregate_startup_time:
      countOf(f.view_aggregate_startup_time) ?? (ttff !== null && playerStartup !== null && pageLoad !== null ? pageLoad + playerStartup + ttff : null),
    buffering_count: rebufferCount,
    buffering_duration: rebufferDuration,
    buffering_rate: played ? ratio(rebufferCount, watchTime === null ? null : watchTime / 60_000) : null,
    rebuffer_percentage: played ? ratio(rebufferDuration, watchTime) : null,
    view_seek_count: seekCount,
    view_seek_duration: seekDuration,
    seek_latency: seekCount ? ratio(seekDuration, seekCount) : null,
    upscale_percentage: ratio(numberOf(f.view_total_upscaling), contentMs),
    downscale_percentage: ratio(numberOf(f.view_total_downscaling), contentMs),
    view_max_upscale_percentage: numberOf(f.view_max_upscale_percentage),
    view_max_downscale_percentage: numberOf(f.view_max_downscale_percentage),
    weighted_average_bitrate: weightedAverageBitrate(state.rendition),
    rendition_change_count: state.rendition.changeCount,
    rendition_upshift_count: state.rendition.upshiftCount,
    rendition_downshift_count: state.rendition.downshiftCount,
    watched: played,
    // Not played, and not because of an error (a failure or a business exception).
    exit_before_video_start: started && !played && !playbackFailure && !businessException,
    playback_failure: playbackFailure,
    video_startup_failure: state.fatalError?.beforeFirstFrame === true,
    playback_business_exception: businessException,
    video_startup_business_exception: state.businessError?.beforeFirstFrame === true,
    view_dropped: state.closedBySilence && state.viewEndTime === null,
  };
}
