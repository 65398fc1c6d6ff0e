import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { assetKeys, ObjectNotFoundError } from '@platform/storage';
import { bitrateFor, parseMasterPlaylist } from '@platform/media';
import { LIVE_VARIANT, parseRecordingPlaylist } from './live-playlists';
import { LiveRung, SOURCE_RUNG_FOLDER, SOURCE_WINDOW_FOLDER } from './media/live-ladder';
import { MediaFacts, probeMedia } from './media/media-probe';
import type { RecordingTools } from './live-recording';
import type { ListedSegment, Span } from './recording-spans';

/** What a gone live process stored of a recording it left open. */
export interface StoredRecording {
  segments: ListedSegment[];
  spans: Span[];
  facts: MediaFacts;
  /** The renditions its master lists (the encoder's own, then the rungs below it). */
  rungs: LiveRung[];
}

/**
 * A recording as a live process that is gone (crashed, or stopped) left it in the store: the
 * recording playlist's segments, each span's number and type from its segment names (`s{n}_`,
 * `slate{n}_`) and its start from when its first segment was stored less that segment's length,
 * and the media of its first content segment. With `local`, every segment is also copied into the
 * work folder (captions and subtitles read them there); those still there from before are kept.
 * Undefined when nothing was stored. Segments the gone process had not stored are lost.
 */
export async function readStoredRecording(assetId: string, workDir: string, tools: RecordingTools, local: boolean): Promise<StoredRecording | undefined> {
  const { store } = tools;
  const playlist = await store.getBuffer(assetKeys.hls(assetId, `${LIVE_VARIANT}/index.m3u8`)).catch((err: unknown) => {
    if (err instanceof ObjectNotFoundError) return Buffer.alloc(0);
    throw err;
  });
  const listed = parseRecordingPlaylist(playlist.toString('utf8'));
  if (listed.length === 0) return undefined;
  await fsp.mkdir(workDir, { recursive: true });
  const found: Array<Span | undefined> = [];
  const segments: ListedSegment[] = [];
  for (const segment of listed) {
    const named = /^(s|slate)(\d+)_/.exec(segment.name);
    if (!named) throw new Error(`${segment.name} is not a segment of a recording`);
    const span = Number(named[2]) - 1;
    if (!found[span]) {
      const stored = await store.stat(assetKeys.hls(assetId, `${LIVE_VARIANT}/${segment.name}`));
      const end = stored?.lastModified.getTime() ?? Date.now();
      found[span] = { type: named[1] === 'slate' ? 'slate' : 'content', startedAt: new Date(end - segment.duration * 1000) };
    }
    segments.push({ ...segment, span });
  }
  // spans that stored nothing keep their place (the numbers of later segments name them)
  const spans = Array.from(found, (span, i) => span ?? { type: 'content' as const, startedAt: found[i - 1]?.startedAt ?? new Date() });
  const first = segments.find((s) => spans[s.span].type === 'content') ?? segments[0];
  for (const segment of segments) if (local || segment === first) await localCopy(tools, assetId, workDir, segment.name);
  const facts = await probeMedia(tools.ffprobePath, path.join(workDir, first.name));
  return { segments, spans, facts, rungs: await storedRungs(assetId, tools) };
}

/** The rungs a recording's stored master lists: `live`, then `live-{name}` folders with their sizes. */
async function storedRungs(assetId: string, tools: RecordingTools): Promise<LiveRung[]> {
  const master = await tools.store.getBuffer(assetKeys.hls(assetId, 'master.m3u8')).catch(() => Buffer.alloc(0));
  const lower = parseMasterPlaylist(master.toString('utf8')).filter((v) => v.name.startsWith(`${SOURCE_RUNG_FOLDER}-`) && v.width && v.height);
  return [
    { folder: SOURCE_RUNG_FOLDER, windowFolder: SOURCE_WINDOW_FOLDER, videoBitrate: 0 },
    ...lower.map((v) => ({
      folder: v.name,
      windowFolder: `${SOURCE_WINDOW_FOLDER}${v.name.slice(SOURCE_RUNG_FOLDER.length)}`,
      scale: { width: v.width!, height: v.height! },
      videoBitrate: bitrateFor(v.width! * v.height!),
    })),
  ];
}

/** The stored segment in the work folder (it may still be there from before). */
async function localCopy(tools: RecordingTools, assetId: string, workDir: string, name: string): Promise<void> {
  const file = path.join(workDir, name);
  if (fs.existsSync(file)) return;
  await tools.store.getFile(assetKeys.hls(assetId, `${LIVE_VARIANT}/${name}`), file);
}
