import { FinishedSegment, HlsPackager, SpanPackager } from './hls-packager';
import { SegmentOfParts } from './low-latency/part-segmenter';
import { FinishedPart, PartsPackager } from './low-latency/parts-packager';
import { PackagerArgsOptions, packagerArgs, rungDir } from './media/packager-args';

interface PackagerTools {
  ffmpegPath: string;
  ffprobePath: string;
  warn(message: string): void;
}

/**
 * The packager of one span of a recording: with `onPart` (low latency) each rung comes through a pipe
 * and is cut into LL-HLS parts as it comes; otherwise ffmpeg's HLS muxer writes the segments.
 */
export function spanPackager(
  tools: PackagerTools,
  args: Omit<PackagerArgsOptions, 'output'>,
  onPart: ((part: FinishedPart) => Promise<void>) | undefined,
  onSegment: (segment: FinishedSegment, parts?: SegmentOfParts) => Promise<void>,
): SpanPackager {
  const common = {
    ffmpegPath: tools.ffmpegPath,
    ffprobePath: tools.ffprobePath,
    warn: (message: string) => tools.warn(message),
    rungDirs: args.rungs.map((rung, i) => rungDir(args.workDir, rung, i)),
    segmentPrefix: args.segmentPrefix,
    onSegment,
  };
  if (!onPart) return new HlsPackager({ ...common, args: packagerArgs(args) });
  return new PartsPackager({ ...common, args: packagerArgs({ ...args, output: 'pipes' }), segmentSeconds: args.segmentSeconds, onPart });
}
