import { payloadOffset, pidOf, pmtPidOf, readTimestamp, TS_PACKET_SIZE, videoStreamOf } from './mpegts';

/** The H.264 stream type of a PMT (ISO/IEC 13818-1 table 2-34). */
export const H264_STREAM_TYPE = 0x1b;

/** One coded picture of a segment's video stream, as its PES packet carried it. */
export interface AccessUnit {
  /** Presentation time, 90 kHz. */
  pts: number;
  /** Decoding time, 90 kHz (the PTS when the PES has no DTS). */
  dts: number;
  /** An IDR picture: decoding can start here with nothing before it. */
  idr: boolean;
  /** Another picture may refer to it (`nal_ref_idc` ≠ 0 on its slices): it cannot be left out of a decode that goes past it. */
  reference: boolean;
  /** Its Annex B bytes (start codes, access unit delimiter, parameter sets, slices), the PES payload. */
  data: Buffer;
}

/** A segment's video: its stream type and its access units in decoding order (the order of the file). */
export interface SegmentVideo {
  streamType: number;
  units: AccessUnit[];
}

/**
 * Reads the video access units of one MPEG-TS segment (as ffmpeg's muxer writes them: one picture per
 * PES packet). Pictures are classified from their H.264 NAL headers only; for any other codec every unit
 * counts as a non-IDR reference (a caller then decodes the segment whole). Throws when the data are not
 * whole TS packets or carry no video.
 */
export function segmentVideo(segment: Uint8Array): SegmentVideo {
  if (segment.length % TS_PACKET_SIZE !== 0) throw new Error(`MPEG-TS data of ${segment.length} bytes is not whole ${TS_PACKET_SIZE}-byte packets`);
  let pmtPid: number | undefined;
  let video: { pid: number; streamType: number } | undefined;
  const units: AccessUnit[] = [];
  let current: { pts: number; dts: number; chunks: Uint8Array[] } | undefined;
  const finish = () => {
    if (current) units.push(accessUnit(current.pts, current.dts, Buffer.concat(current.chunks), video?.streamType === H264_STREAM_TYPE));
    current = undefined;
  };

  for (let at = 0; at < segment.length; at += TS_PACKET_SIZE) {
    const packet = segment.subarray(at, at + TS_PACKET_SIZE);
    if (packet[0] !== 0x47) throw new Error('not an MPEG-TS packet (no sync byte)');
    const pid = pidOf(packet);
    if (pid === 0) pmtPid = pmtPidOf(packet) ?? pmtPid;
    else if (pid === pmtPid && !video) video = videoStreamOf(packet);
    if (!video || pid !== video.pid) continue;
    const offset = payloadOffset(packet);
    if (offset < 0) continue;
    if ((packet[1] & 0x40) !== 0) {
      finish();
      const header = pesHeader(packet, offset);
      if (header) current = { pts: header.pts, dts: header.dts, chunks: [packet.subarray(header.payloadAt)] };
    } else if (current) current.chunks.push(packet.subarray(offset));
  }
  finish();
  if (!video) throw new Error('the segment has no video stream');
  return { streamType: video.streamType, units };
}

function pesHeader(packet: Uint8Array, at: number): { pts: number; dts: number; payloadAt: number } | undefined {
  if (at + 9 > packet.length || packet[at] !== 0 || packet[at + 1] !== 0 || packet[at + 2] !== 1) return undefined;
  const flags = packet[at + 7];
  if ((flags & 0x80) === 0) return undefined; // a picture without a PTS cannot be placed in time
  const pts = readTimestamp(packet, at + 9);
  const dts = (flags & 0x40) !== 0 ? readTimestamp(packet, at + 14) : pts;
  return { pts, dts, payloadAt: at + 9 + packet[at + 8] };
}

function accessUnit(pts: number, dts: number, data: Buffer, h264: boolean): AccessUnit {
  if (!h264) return { pts, dts, idr: false, reference: true, data };
  // every slice of a picture has the same nal_ref_idc and type (ITU-T H.264 7.4.1): its first slice decides
  const slice = nalHeaders(data, (header) => (header & 0x1f) === 1 || (header & 0x1f) === 5).pop();
  const idr = slice !== undefined && (slice & 0x1f) === 5;
  return { pts, dts, idr, reference: idr || (slice !== undefined && (slice & 0x60) !== 0), data };
}

/** The first byte of each NAL unit of an Annex B byte stream (after each 00 00 01 start code), up to the first that `until` accepts. */
export function nalHeaders(data: Uint8Array, until?: (header: number) => boolean): number[] {
  const headers: number[] = [];
  for (let i = data.indexOf(0); i >= 0 && i + 3 < data.length; i = data.indexOf(0, i + 1)) {
    if (data[i + 1] === 0 && data[i + 2] === 1) {
      headers.push(data[i + 3]);
      if (until?.(data[i + 3])) break;
      i += 3;
    }
  }
  return headers;
}

/** What to decode to get some pictures, and where they come out. */
export interface PictureCuts {
  /** The access units to feed the decoder, in decoding order, as one Annex B stream. */
  stream: Buffer;
  /** For each picture asked for, its index among the decoder's outputs (presentation order within each IDR's run). */
  outputIndexes: number[];
  /** Each picture's PTS. */
  pts: number[];
  /** Pictures the decoder will decode for them. */
  decoded: number;
}

/** A picture to cut: the one shown at `pts` in a segment's access units. */
export interface PictureWanted {
  units: readonly AccessUnit[];
  pts: number;
}

/**
 * The fewest access units that decode the pictures shown at the times asked (each the last picture presented
 * at or before its `pts`, or the segment's first when earlier): for each run of pictures sharing a segment and
 * the IDR they decode from, that IDR, every reference picture up to the last of them in decoding order, and
 * the pictures themselves. Pictures no other refers to are left out, so a picture late in a GOP costs about
 * half its decoding. Each run starts with an IDR, so the decoder outputs one run's pictures before the next's.
 * Pictures must be asked for in presentation order and each once. Undefined when a picture has no IDR before
 * it in its segment (the caller decodes that segment whole).
 */
export function cutPictures(wanted: readonly PictureWanted[]): PictureCuts | undefined {
  const runs: Array<{ units: readonly AccessUnit[]; start: number; targets: number[] }> = [];
  for (const { units, pts } of wanted) {
    if (units.length === 0) return undefined;
    const target = shownAt(units, pts);
    let start = target;
    while (start >= 0 && !units[start].idr) start--;
    if (start < 0) return undefined;
    const last = runs[runs.length - 1];
    if (last && last.units === units && last.start === start) last.targets.push(target);
    else runs.push({ units, start, targets: [target] });
  }
  const chunks: Buffer[] = [];
  const outputIndexes: number[] = [];
  const ptsOut: number[] = [];
  let decoded = 0;
  for (const run of runs) {
    const end = Math.max(...run.targets);
    const targets = new Set(run.targets);
    const fed = run.units.slice(run.start, end + 1).filter((u, i) => u.reference || targets.has(run.start + i));
    const presented = fed.map((u) => u.pts).sort((a, b) => a - b);
    for (const target of run.targets) {
      outputIndexes.push(decoded + presented.indexOf(run.units[target].pts));
      ptsOut.push(run.units[target].pts);
    }
    chunks.push(...fed.map((u) => u.data));
    decoded += fed.length;
  }
  return { stream: Buffer.concat(chunks), outputIndexes, pts: ptsOut, decoded };
}

/** `cutPictures` for one picture. */
export function cutPicture(units: readonly AccessUnit[], pts: number): PictureCuts | undefined {
  return cutPictures([{ units, pts }]);
}

/** Index (in decoding order) of the picture shown at `pts`. */
export function shownAt(units: readonly AccessUnit[], pts: number): number {
  let best = -1;
  let earliest = 0;
  for (let i = 0; i < units.length; i++) {
    if (units[i].pts <= pts && (best < 0 || units[i].pts > units[best].pts)) best = i;
    if (units[i].pts < units[earliest].pts) earliest = i;
  }
  return best < 0 ? earliest : best;
}

/** The earliest presentation time of a segment's pictures. */
export function firstPts(units: readonly AccessUnit[]): number | undefined {
  return units.length === 0 ? undefined : Math.min(...units.map((u) => u.pts));
}
