import { Cue, segmentCues, subtitlePlaylist, webVtt } from '@platform/captions';
import { assetKeys, ObjectStore, trackPaths } from '@platform/storage';
import { TaskContext } from '../tasks/task-handler';
import { StoredRenditions } from './stored-renditions';

/**
 * A text track's files: the whole WebVTT (`text/{id}.vtt`, as the runtime contract has it) and its
 * rendition, segmented like the asset's video with the video's timestamp map (`text-{id}/…`), its
 * playlist written last so no player sees a playlist of segments not yet stored.
 */
export async function storeSubtitles(
  ctx: TaskContext,
  deps: { store: ObjectStore; renditions: StoredRenditions },
  track: { cues: readonly Cue[]; blocks?: readonly string[] },
  run: { onSpawn: (pid: number) => void },
): Promise<void> {
  const timeline = await deps.renditions.videoTimeline(ctx.assetId, ctx.workDir, { signal: ctx.signal, ...run });
  const segments = segmentCues(track.cues, timeline.segments);
  const folder = trackPaths.rendition('text', ctx.target);
  await ctx.checkpoint();
  await deps.store.putBuffer(assetKeys.hls(ctx.assetId, trackPaths.textFile(ctx.target)), webVtt(track.cues, undefined, track.blocks));
  for (const s of segments) await deps.store.putBuffer(assetKeys.hls(ctx.assetId, `${folder}/${s.name}`), s.text);
  await ctx.checkpoint();
  await deps.store.putBuffer(assetKeys.hls(ctx.assetId, trackPaths.playlist('text', ctx.target)), subtitlePlaylist(segments));
}
