import { randomBytes } from 'node:crypto';

/** The RTMP application encoders publish to: `rtmp://host:RTMP_PORT/app/{stream_key}` (Mux's shape). */
export const RTMP_APP = 'app';
/** Where the SRT bridges republish: `/srt/{token}`, a one-time token standing for an admitted SRT caller. */
export const SRT_BRIDGE_APP = 'srt';

export type IngestPath = { app: typeof RTMP_APP; streamKey: string } | { app: typeof SRT_BRIDGE_APP; token: string };

/** What a publish path names: a stream key (`/app/{key}`), an SRT bridge (`/srt/{token}`), or undefined for any other path. */
export function ingestPathOf(streamPath: string): IngestPath | undefined {
  const match = /^\/([^/]+)\/([^/?]+)$/.exec(streamPath);
  if (!match || match[2].length > 255) return undefined;
  if (match[1] === RTMP_APP) return { app: RTMP_APP, streamKey: match[2] };
  if (match[1] === SRT_BRIDGE_APP) return { app: SRT_BRIDGE_APP, token: match[2] };
  return undefined;
}

/** How long an admitted SRT caller's bridge has to publish. */
const BRIDGE_TOKEN_MS = 30_000;

/** One-time tokens for SRT bridges: issued when the caller is admitted, redeemed once by its publish. */
export class SrtBridgeTokens {
  private readonly tokens = new Map<string, { streamKey: string; expires: number }>();

  issue(streamKey: string, now = Date.now()): string {
    for (const [token, t] of this.tokens) if (t.expires < now) this.tokens.delete(token);
    const token = randomBytes(16).toString('hex');
    this.tokens.set(token, { streamKey, expires: now + BRIDGE_TOKEN_MS });
    return token;
  }

  /** The stream key the token stands for, once; undefined when unknown or expired. */
  redeem(token: string, now = Date.now()): string | undefined {
    const t = this.tokens.get(token);
    this.tokens.delete(token);
    return t && t.expires >= now ? t.streamKey : undefined;
  }
}
