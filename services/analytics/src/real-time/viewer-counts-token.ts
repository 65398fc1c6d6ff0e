import { playbackAuth } from '@platform/proto';
import { firstValueFrom, timeout } from 'rxjs';

/** What `signViewerCounts`' `type` puts in `aud`, and the `views` column each one counts by. */
export const COUNTED_COLUMNS = {
  video_id: 'video_id',
  asset_id: 'asset_id',
  playback_id: 'playback_id',
  live_stream_id: 'live_stream_id',
} as const;

export type CountedColumn = (typeof COUNTED_COLUMNS)[keyof typeof COUNTED_COLUMNS];

/** What a token lets its holder count: the views whose `column` is `id`. */
export interface CountsTarget {
  column: CountedColumn;
  id: string;
}

export type CountsTokenCheck = { ok: true; target: CountsTarget } | { ok: false; status: 401 | 403; reason: string };

export type SignedTokenVerifier = Pick<playbackAuth.SigningKeysServiceClient, 'verifySignedToken'>;

const VERIFY_TIMEOUT_MS = 3_000;

/**
 * Checks a viewer-counts JWT with the signing keys' owner (playback-auth verifies it: the keys and
 * the verification code live there). No token is 401; any refusal is 403. A failure to ask rejects.
 */
export class ViewerCountsTokens {
  constructor(private readonly signingKeys: SignedTokenVerifier) {}

  async check(token: string | null | undefined): Promise<CountsTokenCheck> {
    if (!token) return { ok: false, status: 401, reason: 'A token (?token=) is required' };
    const reply = await firstValueFrom(this.signingKeys.verifySignedToken({ token, audiences: Object.keys(COUNTED_COLUMNS) }).pipe(timeout(VERIFY_TIMEOUT_MS)));
    if (!reply.valid) return { ok: false, status: 403, reason: reply.reason };
    const column = COUNTED_COLUMNS[reply.audience as keyof typeof COUNTED_COLUMNS];
    if (!column) return { ok: false, status: 403, reason: `Token audience ${reply.audience} is not a viewer-counts audience` };
    return { ok: true, target: { column, id: reply.subject } };
  }
}
