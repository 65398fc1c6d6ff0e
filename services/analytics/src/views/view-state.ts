import { BeaconValue } from './beacon-values';
import { RenditionTimeline, emptyRenditionTimeline } from './rendition-timeline';
import { ViewError } from './view-errors';

/**
 * What a view knows after folding its events in sequence order. mux-embed sends a key only when
 * its value changed (full state on viewstart, viewend and after 10 min), so `fields` carries every
 * key's latest value forward; the rest is what single events say (first frame, errors, renditions).
 */
export interface ViewState {
  viewId: string;
  /** Latest value of each beacon key (except the per-event ones: event, errors, requests). */
  fields: Record<string, BeaconValue>;
  /** First value of the keys Mux reports with an `_initial` twin (video_source_bitrate, …). */
  initial: Record<string, BeaconValue>;
  appliedSequences: Set<number>;
  maxSequence: number;
  /** Smallest `received_at − viewer_time` seen: the player's clock to ours. */
  clockOffsetMs: number | null;
  firstEventTime: number | null;
  lastEventTime: number | null;
  firstReceivedAt: number | null;
  lastReceivedAt: number | null;
  viewStartTime: number | null;
  viewEndTime: number | null;
  /** `playing` or `adplaying` seen, or view_time_to_first_frame set. */
  firstFrame: boolean;
  rendition: RenditionTimeline;
  /** First fatal error that is not a business exception. */
  fatalError: ViewError | null;
  /** First fatal error flagged `player_error_business_exception`. */
  businessError: ViewError | null;
  lastWarning: ViewError | null;
  errorCount: number;
  usedFullscreen: boolean;
  usedCaptions: boolean;
  usedPip: boolean;
  /** The sweeper closed it after the silence limit (no viewend); restored from the `views` row. */
  closedBySilence: boolean;
}

export function emptyViewState(viewId: string): ViewState {
  return {
    viewId,
    fields: {},
    initial: {},
    appliedSequences: new Set(),
    maxSequence: 0,
    clockOffsetMs: null,
    firstEventTime: null,
    lastEventTime: null,
    firstReceivedAt: null,
    lastReceivedAt: null,
    viewStartTime: null,
    viewEndTime: null,
    firstFrame: false,
    rendition: emptyRenditionTimeline(),
    fatalError: null,
    businessError: null,
    lastWarning: null,
    errorCount: 0,
    usedFullscreen: false,
    usedCaptions: false,
    usedPip: false,
    closedBySilence: false,
  };
}

/** A view has a row once it was started (viewstart: play or autoplay) or failed. */
export function isStarted(state: ViewState): boolean {
  return state.viewStartTime !== null || state.fatalError !== null || state.businessError !== null;
}

export function isClosed(state: ViewState): boolean {
  return state.viewEndTime !== null || state.closedBySilence;
}
