import { KeyframeSummary } from './probe.types';

/** One row of `ffprobe -select_streams v:0 -show_entries packet=pts_time,dts_time,size,flags -print_format json`. */
export interface FfprobePacket {
  pts_time?: string;
  dts_time?: string;
  size?: string;
  flags?: string; // 'K__' for a key frame
}

/**
 * Longest key-frame interval and the highest average bitrate of one interval (bytes of the packets
 * from a key frame up to the next, over the time between them). The last interval ends at the last
 * packet's timestamp. Undefined when there is no key frame with a timestamp.
 */
export function summarizeKeyframes(packets: FfprobePacket[]): KeyframeSummary | undefined {
  const rows = packets
    .map((p) => ({ time: Number(p.pts_time ?? p.dts_time), size: Number(p.size ?? 0), key: p.flags?.startsWith('K') ?? false }))
    .filter((p) => Number.isFinite(p.time));
  if (!rows.some((r) => r.key)) return undefined;
  const end = Math.max(...rows.map((r) => r.time));
  rows.sort((a, b) => a.time - b.time);
  let maxIntervalSeconds = 0;
  let maxIntervalBitrate = 0;
  let start: number | undefined;
  let bytes = 0;
  const close = (until: number) => {
    if (start === undefined) return;
    const seconds = until - start;
    maxIntervalSeconds = Math.max(maxIntervalSeconds, seconds);
    if (seconds > 0) maxIntervalBitrate = Math.max(maxIntervalBitrate, (bytes * 8) / seconds);
  };
  for (const row of rows) {
    if (row.key) {
      close(row.time);
      start = row.time;
      bytes = 0;
    }
    bytes += row.size;
  }
  close(end);
  return { maxIntervalSeconds, maxIntervalBitrate: Math.round(maxIntervalBitrate) };
}
