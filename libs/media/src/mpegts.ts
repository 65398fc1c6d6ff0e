/**
 * Just enough MPEG-TS (ISO/IEC 13818-1) to copy whole GOPs of a stored rendition without ffmpeg: the
 * program tables, the video elementary stream's PID, and each video PES packet's PTS. ffmpeg's muxer
 * (which wrote every segment the platform stores) puts one access unit (frame) in each video PES, so
 * keeping the PES packets whose PTS is in a range keeps exactly those frames, with their timestamps.
 */

export const TS_PACKET_SIZE = 188;
const SYNC_BYTE = 0x47;
export const PAT_PID = 0;
/** Stream types of video in a PMT: MPEG-1/2, MPEG-4 part 2, H.264, HEVC. */
const VIDEO_STREAM_TYPES = new Set([0x01, 0x02, 0x10, 0x1b, 0x24]);

/** A PTS range in 90 kHz ticks: `from` included, `to` excluded. */
export interface PtsRange {
  from: number;
  to: number;
}

/** What a filter found: the PIDs of the program and how many video frames it kept. */
export interface TsFilterReport {
  pmtPid?: number;
  videoPid?: number;
  keptFrames: number;
}

/** Offset of a TS packet's payload (after its header and any adaptation field); -1 when it has none. */
export function payloadOffset(packet: Uint8Array): number {
  const adaptation = (packet[3] >> 4) & 0x3;
  if ((adaptation & 0x1) === 0) return -1;
  const offset = adaptation & 0x2 ? 5 + packet[4] : 4;
  return offset < TS_PACKET_SIZE ? offset : -1;
}

export const pidOf = (packet: Uint8Array): number => ((packet[1] & 0x1f) << 8) | packet[2];
export const startsUnit = (packet: Uint8Array): boolean => (packet[1] & 0x40) !== 0;

/** The 33-bit timestamp encoded in 5 bytes at `at` (PTS or DTS of a PES header). */
export function readTimestamp(bytes: Uint8Array, at: number): number {
  const high = (bytes[at] >> 1) & 0x7; // bits 32..30
  const mid = (bytes[at + 1] << 7) | (bytes[at + 2] >> 1); // bits 29..15
  const low = (bytes[at + 3] << 7) | (bytes[at + 4] >> 1); // bits 14..0
  return high * 2 ** 30 + mid * 2 ** 15 + low;
}

/** The PTS of a PES packet starting at `at` in `packet`; undefined when it carries none. */
export function pesPts(packet: Uint8Array, at: number): number | undefined {
  if (at + 14 > packet.length || packet[at] !== 0 || packet[at + 1] !== 0 || packet[at + 2] !== 1) return undefined;
  const hasPts = (packet[at + 7] & 0x80) !== 0;
  return hasPts ? readTimestamp(packet, at + 9) : undefined;
}

/** The DTS of a PES packet starting at `at` (its PTS when it has no DTS); undefined when it carries neither. */
export function pesDts(packet: Uint8Array, at: number): number | undefined {
  if (at + 19 <= packet.length && packet[at] === 0 && packet[at + 1] === 0 && packet[at + 2] === 1 && (packet[at + 7] & 0xc0) === 0xc0) {
    return readTimestamp(packet, at + 14);
  }
  return pesPts(packet, at);
}

/** The section of a PSI packet (PAT or PMT) that starts in it, after its pointer field. */
function sectionOf(packet: Uint8Array): { start: number; end: number } | undefined {
  const offset = payloadOffset(packet);
  if (offset < 0 || !startsUnit(packet)) return undefined;
  const start = offset + 1 + packet[offset];
  if (start + 3 > TS_PACKET_SIZE) return undefined;
  const length = ((packet[start + 1] & 0x0f) << 8) | packet[start + 2];
  // the section ends with a 4-byte CRC; ffmpeg's tables fit in one packet
  return { start, end: Math.min(start + 3 + length - 4, TS_PACKET_SIZE) };
}

/** The PMT's PID from a PAT packet (its first program that is not the network PID). */
export function pmtPidOf(packet: Uint8Array): number | undefined {
  const section = sectionOf(packet);
  if (!section) return undefined;
  for (let i = section.start + 8; i + 4 <= section.end; i += 4) {
    const program = (packet[i] << 8) | packet[i + 1];
    if (program !== 0) return ((packet[i + 2] & 0x1f) << 8) | packet[i + 3];
  }
  return undefined;
}

/** The first video elementary stream's PID from a PMT packet. */
export function videoPidOf(packet: Uint8Array): number | undefined {
  return videoStreamOf(packet)?.pid;
}

/** The first video elementary stream of a PMT packet: its PID and stream type (0x1b H.264, 0x24 HEVC, …). */
export function videoStreamOf(packet: Uint8Array): { pid: number; streamType: number } | undefined {
  return programStreamsOf(packet).find((s) => isVideoStreamType(s.streamType));
}

/** Every elementary stream a PMT packet lists: its PID and stream type (0x1b H.264, 0x24 HEVC, 0x0f AAC, …). */
export function programStreamsOf(packet: Uint8Array): Array<{ pid: number; streamType: number }> {
  const section = sectionOf(packet);
  if (!section) return [];
  const streams: Array<{ pid: number; streamType: number }> = [];
  const programInfoLength = ((packet[section.start + 10] & 0x0f) << 8) | packet[section.start + 11];
  for (let i = section.start + 12 + programInfoLength; i + 5 <= section.end;) {
    streams.push({ pid: ((packet[i + 1] & 0x1f) << 8) | packet[i + 2], streamType: packet[i] });
    i += 5 + (((packet[i + 3] & 0x0f) << 8) | packet[i + 4]);
  }
  return streams;
}

/** Whether an MPEG-TS stream type is a picture (MPEG-1/2, MPEG-4 Part 2, H.264, HEVC). */
export const isVideoStreamType = (streamType: number): boolean => VIDEO_STREAM_TYPES.has(streamType);

/**
 * The stream types of a TS stream's program as its first packets tell them (PAT, then PMT), or
 * undefined until the PMT has been seen. Feed it whole packets from the start of the stream.
 */
export class ProgramSniffer {
  private pending = Buffer.alloc(0);
  private pmtPid?: number;
  streams?: Array<{ pid: number; streamType: number }>;

  push(chunk: Uint8Array): Array<{ pid: number; streamType: number }> | undefined {
    this.pending = Buffer.concat([this.pending, chunk]);
    let at = 0;
    for (; at + TS_PACKET_SIZE <= this.pending.length && !this.streams; at += TS_PACKET_SIZE) {
      const packet = this.pending.subarray(at, at + TS_PACKET_SIZE);
      if (packet[0] !== SYNC_BYTE) throw new Error('not an MPEG-TS stream (no sync byte)');
      const pid = pidOf(packet);
      if (pid === PAT_PID) this.pmtPid = pmtPidOf(packet) ?? this.pmtPid;
      else if (pid === this.pmtPid) this.streams = programStreamsOf(packet);
    }
    this.pending = this.pending.subarray(at);
    return this.streams;
  }
}

/**
 * Keeps the program tables (PAT, PMT) and the video PES packets whose PTS is in `range`; drops every
 * other stream (audio is cut separately) and every packet before the tables are known. Feed it the
 * stream's packets in order, across segment files, with `push`.
 */
export class VideoPesFilter {
  private pmtPid?: number;
  private videoPid?: number;
  private keeping = false;
  private keptFrames = 0;

  constructor(private readonly range: PtsRange) {}

  /** Whether to keep this 188-byte packet. */
  push(packet: Uint8Array): boolean {
    if (packet[0] !== SYNC_BYTE) throw new Error('not an MPEG-TS packet (no sync byte)');
    const pid = pidOf(packet);
    if (pid === PAT_PID) {
      this.pmtPid = pmtPidOf(packet) ?? this.pmtPid;
      return true;
    }
    if (pid === this.pmtPid) {
      this.videoPid = videoPidOf(packet) ?? this.videoPid;
      return true;
    }
    if (pid !== this.videoPid) return false;
    if (startsUnit(packet)) {
      const offset = payloadOffset(packet);
      const pts = offset < 0 ? undefined : pesPts(packet, offset);
      this.keeping = pts !== undefined && pts >= this.range.from && pts < this.range.to;
      if (this.keeping) this.keptFrames += 1;
    }
    return this.keeping;
  }

  report(): TsFilterReport {
    return { pmtPid: this.pmtPid, videoPid: this.videoPid, keptFrames: this.keptFrames };
  }
}

/** The PIDs of a TS stream's program (its PMT and first video stream), read from its first packets. */
export function programPids(buffer: Uint8Array): { pmtPid?: number; videoPid?: number } {
  let pmtPid: number | undefined;
  for (let at = 0; at + TS_PACKET_SIZE <= buffer.length; at += TS_PACKET_SIZE) {
    const packet = buffer.subarray(at, at + TS_PACKET_SIZE);
    if (packet[0] !== SYNC_BYTE) break;
    const pid = pidOf(packet);
    if (pid === PAT_PID) pmtPid = pmtPidOf(packet) ?? pmtPid;
    else if (pid === pmtPid) {
      const videoPid = videoPidOf(packet);
      if (videoPid !== undefined) return { pmtPid, videoPid };
    }
  }
  return { pmtPid };
}

/** The kept packets of a buffer of whole TS packets (one segment file), as one buffer. */
export function filterPackets(buffer: Uint8Array, filter: VideoPesFilter): Buffer {
  if (buffer.length % TS_PACKET_SIZE !== 0) throw new Error(`MPEG-TS data of ${buffer.length} bytes is not whole ${TS_PACKET_SIZE}-byte packets`);
  const kept: Uint8Array[] = [];
  for (let at = 0; at < buffer.length; at += TS_PACKET_SIZE) {
    const packet = buffer.subarray(at, at + TS_PACKET_SIZE);
    if (filter.push(packet)) kept.push(packet);
  }
  return Buffer.concat(kept);
}

/** Whether a TS packet's adaptation field sets random_access_indicator (ffmpeg's muxer does on key frames). */
export function isRandomAccess(packet: Uint8Array): boolean {
  return (packet[3] & 0x20) !== 0 && packet[4] > 0 && (packet[5] & 0x40) !== 0;
}
