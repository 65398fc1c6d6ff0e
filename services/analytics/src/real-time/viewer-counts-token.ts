import { SignedTokenVerifier, VerifySignedTokenClient } from '@platform/grpc';

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

/**
 * Checks a viewer-counts JWT with the signing keys' owner (playback-auth verifies it: the keys and
 * the verification code live there). No token is 401; any refusal is 403. A failure to ask rejects.
 */
export class ViewerCountsTokens {
  private readonly signedTokens: SignedTokenVerifier;

  constructor(signingKeys: VerifySignedTokenClient) {
    this.signedTokens = new SignedTokenVerifier(signingKeys);
  }

  async check(token: string | null | undefined): Promise<CountsTokenCheck> {
    if (!token) return { ok: false, status: 401, reason: 'A token (?token=) is required' };
    const verdict = await this.signedTokens.verify(token, Object.keys(COUNTED_COLUMNS));
    if (!verdict.ok) return { ok: false, status: 403, reason: verdict.reason };
    const column = COUNTED_COLUMNS[verdict.audience as keyof typeof COUNTED_COLUMNS];
    if (!column) return { ok: false, status: 403, reason: `Token audience ${verdict.audience} is not a viewer-counts audience` };
    return { ok: true, target: { column, id: verdict.subject } };
  }
}
