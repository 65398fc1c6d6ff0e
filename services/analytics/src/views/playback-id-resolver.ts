/** What a playback id belongs to (the app implements this over gRPC to the assets and live services). */
export interface PlaybackIdResolution {
  asset_id: string | null;
  live_stream_id: string | null;
  /** The environment the view is attributed to when the beacon carries no env key. */
  environment_id?: string | null;
}

export interface PlaybackIdResolver {
  /** Undefined when the id is unknown; a rejection is retried on the view's next batch. */
  resolve(playbackId: string): Promise<PlaybackIdResolution | undefined>;
}

/** Nest injection token of the process's PlaybackIdResolver. */
export const PLAYBACK_ID_RESOLVER = Symbol('PLAYBACK_ID_RESOLVER');

/** Until the app provides one: views keep their playback id, with no asset or live stream. */
export class UnresolvedPlaybackIds implements PlaybackIdResolver {
  resolve(): Promise<PlaybackIdResolution | undefined> {
    return Promise.resolve(undefined);
  }
}
