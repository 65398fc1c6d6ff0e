import { PlaybackOwner } from '../playback-host/playback-id-lookup';

/** What the image host was asked for, once allowed: whose media, and who owns the playback id. */
export interface ImageSubject {
  playbackId: string;
  assetId: string;
  owner: PlaybackOwner;
  /** A live stream's playback id while it is live (its recording under way). */
  liveEdge: boolean;
  signed: boolean;
}

/** How long a made image may be kept by browsers and caches. */
export type ImageLifetime = 'immutable' | 'default-time' | 'live';

/** An image to serve: where it is kept, what it is, and how to make it when it is not kept yet. */
export interface ImageJob {
  key: string;
  contentType: string;
  lifetime: ImageLifetime;
  make(): Promise<Buffer>;
}

/** The media of the owner changes while it is live: a live stream's or a live recording's images are short-lived. */
export function isLive(subject: Pick<ImageSubject, 'liveEdge' | 'owner'>): boolean {
  return subject.liveEdge || subject.owner.isLive === true;
}

export const IMAGE_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  vtt: 'text/vtt; charset=utf-8',
  json: 'application/json; charset=utf-8',
};
