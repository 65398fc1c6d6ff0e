/**
 * LL-HLS delivery directives (RFC 8216bis 6.2.5) on a stored media playlist: where its live edge is,
 * whether a blocking reload's part is in it, and the delta update that skips its older segments.
 */

/** `_HLS_msn`, `_HLS_part` and `_HLS_skip` of a playlist request. */
export interface DeliveryDirectives {
  msn?: number;
  part?: number;
  skip?: boolean;
}

/** What a media playlist offers and how far it reaches. */
export interface PlaylistEdge {
  /** EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES. */
  canBlock: boolean;
  /** CAN-SKIP-UNTIL (seconds), when delta updates are offered. */
  canSkipUntil?: number;
  targetSeconds: number;
  /** EXT-X-PART-INF:PART-TARGET (seconds), when it lists parts. */
  partTarget?: number;
  /** The media sequence number of the first segment not complete in it (the one under way). */
  nextMsn: number;
  /** Parts of that segment listed. */
  partsOfNext: number;
  ended: boolean;
}

const INTEGER = /^\d{1,15}$/;

/** The directives of a query, undefined when it has none, or why they are malformed (a 400). */
export function deliveryDirectives(query: Record<string, unknown>): DeliveryDirectives | { error: string } | undefined {
  const { _HLS_msn: msn, _HLS_part: part, _HLS_skip: skip } = query;
  if (msn === undefined && part === undefined && skip === undefined) return undefined;
  if (msn !== undefined && (typeof msn !== 'string' || !INTEGER.test(msn))) return { error: '_HLS_msn must be a media sequence number' };
  if (part !== undefined && (typeof part !== 'string' || !INTEGER.test(part))) return { error: '_HLS_part must be a part index' };
  if (part !== undefined && msn === undefined) return { error: '_HLS_part needs _HLS_msn' };
  if (skip !== undefined && skip !== 'YES' && skip !== 'v2') return { error: '_HLS_skip must be YES or v2' };
  return {
    ...(msn !== undefined ? { msn: Number(msn) } : {}),
    ...(part !== undefined ? { part: Number(part) } : {}),
    ...(skip !== undefined ? { skip: true } : {}),
  };
}

export function playlistEdge(text: string): PlaylistEdge {
  let mediaSequence = 0;
  let segments = 0;
  let trailingParts = 0;
  let targetSeconds = 0;
  let canBlock = false;
  let canSkipUntil: number | undefined;
  let partTarget: number | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#EXT-X-MEDIA-SEQUENCE:')) mediaSequence = Number.parseInt(line.slice('#EXT-X-MEDIA-SEQUENCE:'.length), 10) || 0;
    else if (line.startsWith('#EXT-X-TARGETDURATION:')) targetSeconds = Number.parseFloat(line.slice('#EXT-X-TARGETDURATION:'.length)) || 0;
    else if (line.startsWith('#EXT-X-SERVER-CONTROL:')) {
      canBlock = /CAN-BLOCK-RELOAD=YES/.test(line);
      const until = /CAN-SKIP-UNTIL=([\d.]+)/.exec(line);
      canSkipUntil = until ? Number.parseFloat(until[1]) : undefined;
    } else if (line.startsWith('#EXT-X-PART-INF:')) partTarget = Number.parseFloat(/PART-TARGET=([\d.]+)/.exec(line)?.[1] ?? '') || undefined;
    else if (line.startsWith('#EXT-X-PART:')) trailingParts += 1;
    else if (line.startsWith('#EXTINF:')) {
      segments += 1;
      trailingParts = 0;
    }
  }
  return {
    canBlock,
    canSkipUntil,
    targetSeconds,
    ...(partTarget === undefined ? {} : { partTarget }),
    nextMsn: mediaSequence + segments,
    partsOfNext: trailingParts,
    ended: text.includes('#EXT-X-ENDLIST'),
  };
}

/** Whether the playlist holds segment `msn` complete, or (with `part`) that part of it. */
export function reaches(edge: PlaylistEdge, msn: number, part?: number): boolean {
  if (msn < edge.nextMsn) return true;
  return part !== undefined && msn === edge.nextMsn && part < edge.partsOfNext;
}

/**
 * Whether a blocking reload asks for more than the server waits for (a 400): a segment more than two
 * past the last complete one, or a part more than the Advance Part Limit past the last listed (RFC
 * 8216bis 6.2.5.2: 3 ÷ PART-TARGET parts when the part target is under a second, else 3).
 */
export function tooFarAhead(edge: PlaylistEdge, msn: number, part?: number): boolean {
  if (msn > edge.nextMsn + 1) return true;
  if (part === undefined || msn < edge.nextMsn) return false;
  const limit = edge.partTarget !== undefined && edge.partTarget < 1 ? Math.ceil(3 / edge.partTarget) : 3;
  const lastListed = msn === edge.nextMsn ? edge.partsOfNext - 1 : -1;
  return part - lastListed > limit;
}

/**
 * The playlist delta update (`_HLS_skip=YES`): the oldest segments, those more than CAN-SKIP-UNTIL from
 * the end, replaced by one EXT-X-SKIP. Their tags (EXTINF, DISCONTINUITY) go with them; the client keeps
 * them from its last copy. The playlist as it is when it offers no delta updates.
 */
export function deltaUpdate(text: string): string {
  const lines = text.split('\n');
  const skipUntil = playlistEdge(text).canSkipUntil;
  if (skipUntil === undefined) return text;
  const first = lines.findIndex((l) => l.startsWith('#EXTINF:') || l === '#EXT-X-DISCONTINUITY' || l.startsWith('#EXT-X-PART:'));
  if (first < 0) return text;
  // each segment: the lines from after the previous segment's URI to its own URI
  const segments: Array<{ from: number; to: number; seconds: number }> = [];
  let from = first;
  let seconds = 0;
  for (let i = first; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line.startsWith('#EXTINF:')) seconds = Number.parseFloat(line.slice('#EXTINF:'.length)) || 0;
    else if (line !== '' && !line.startsWith('#')) {
      segments.push({ from, to: i, seconds });
      from = i + 1;
    }
  }
  let fromEnd = segments.reduce((s, seg) => s + seg.seconds, 0);
  let skipped = 0;
  while (skipped < segments.length && fromEnd - segments[skipped].seconds >= skipUntil) {
    fromEnd -= segments[skipped].seconds;
    skipped += 1;
  }
  // a skipped segment's parts are never listed; a kept one's parts are its own lines
  if (skipped === 0) return text;
  const kept = lines.slice(segments[skipped - 1].to + 1);
  const header = lines.slice(0, first).map((l) => (l.startsWith('#EXT-X-VERSION:') ? '#EXT-X-VERSION:9' : l));
  return [...header, `#EXT-X-SKIP:SKIPPED-SEGMENTS=${skipped}`, ...kept].join('\n');
}
