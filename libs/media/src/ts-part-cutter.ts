import { isRandomAccess, isVideoStreamType, PAT_PID, payloadOffset, pesDts, pidOf, pmtPidOf, programStreamsOf, startsUnit, TS_PACKET_SIZE } from './mpegts';

const SYNC_BYTE = 0x47;
const TICKS_PER_SECOND = 90_000;

/** A part cut from a TS stream: whole packets, the program tables first, its first frame a cut point. */
export interface TsPart {
  bytes: Buffer;
  /** 90 kHz decode time of its first frame (of the clock stream). */
  startDts: number;
  /** Seconds to the next part's first frame (the last part: its frames' span plus one frame). */
  duration: number;
  /** Its first frame is a key frame (or the stream has no picture): a player may start decoding there. */
  independent: boolean;
}

/**
 * Cuts a live MPEG-TS stream (ffmpeg's muxer, one PES per frame) into LL-HLS parts as it comes: a part
 * ends before the first frame at least `partSeconds` after its own first, or before a frame that would
 * take it past `maxSeconds` (the PART-TARGET every part must stay within), and before every key frame
 * (so each key frame starts a part, and segments can be made of whole parts starting at one). The
 * clock is the picture's PID, or the first stream's when there is no picture. Decisions depend only on
 * the frames' decode times and key flags, so rungs encoded with the same key frames are cut alike.
 */
export class TsPartCutter {
  private pending = Buffer.alloc(0);
  private pat?: Buffer;
  private pmt?: Buffer;
  private pmtPid?: number;
  private clockPid?: number;
  private clockIsVideo = false;
  private packets: Buffer[] = [];
  private start?: number;
  private independent = false;
  private lastDts?: number;
  private frameTicks = 0;

  constructor(
    private readonly partSeconds: number,
    private readonly maxSeconds = Infinity,
  ) {}

  /** Feeds bytes of the stream; returns the parts they completed. */
  push(chunk: Uint8Array): TsPart[] {
    this.pending = this.pending.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.pending, chunk]);
    const parts: TsPart[] = [];
    let at = 0;
    for (; at + TS_PACKET_SIZE <= this.pending.length; at += TS_PACKET_SIZE) {
      const packet = Buffer.from(this.pending.subarray(at, at + TS_PACKET_SIZE));
      if (packet[0] !== SYNC_BYTE) throw new Error('not an MPEG-TS stream (no sync byte)');
      const part = this.add(packet);
      if (part) parts.push(part);
    }
    this.pending = this.pending.subarray(at);
    return parts;
  }

  /** The stream ended: its last part, if it had a frame. */
  end(): TsPart | undefined {
    if (this.start === undefined || this.lastDts === undefined) return undefined;
    const part = this.cut(this.lastDts + this.frameTicks);
    this.start = undefined;
    return part;
  }

  private add(packet: Buffer): TsPart | undefined {
    const pid = pidOf(packet);
    if (pid === PAT_PID) {
      this.pat = packet;
      this.pmtPid = pmtPidOf(packet) ?? this.pmtPid;
    } else if (pid === this.pmtPid) {
      this.pmt = packet;
      if (this.clockPid === undefined) this.chooseClock(packet);
    } else if (pid === this.clockPid && startsUnit(packet)) {
      const offset = payloadOffset(packet);
      const dts = offset < 0 ? undefined : pesDts(packet, offset);
      if (dts !== undefined) return this.frame(packet, dts);
    }
    this.packets.push(packet);
    return undefined;
  }

  private chooseClock(pmt: Buffer): void {
    const streams = programStreamsOf(pmt);
    const video = streams.find((s) => isVideoStreamType(s.streamType));
    this.clockPid = (video ?? streams[0])?.pid;
    this.clockIsVideo = video !== undefined;
  }

  /** A frame of the clock stream begins with `packet`: the part so far ends before it when it is a cut point. */
  private frame(packet: Buffer, dts: number): TsPart | undefined {
    const key = !this.clockIsVideo || isRandomAccess(packet);
    if (this.lastDts !== undefined && dts > this.lastDts) this.frameTicks = dts - this.lastDts;
    this.lastDts = dts;
    let part: TsPart | undefined;
    if (this.start === undefined) {
      this.start = dts;
      this.independent = key;
    } else if ((key && this.clockIsVideo) || this.full(dts)) {
      part = this.cut(dts);
      this.packets = [this.pat, this.pmt].filter((p): p is Buffer => p !== undefined);
      this.start = dts;
      this.independent = key;
    }
    this.packets.push(packet);
    return part;
  }

  /** Whether the part ends before the frame at `dts`: long enough, or the frame would take it past the maximum. */
  private full(dts: number): boolean {
    const held = dts - this.start!;
    return held >= this.partSeconds * TICKS_PER_SECOND || held + this.frameTicks > this.maxSeconds * TICKS_PER_SECOND;
  }

  private cut(endDts: number): TsPart {
    const start = this.start!;
    return { bytes: Buffer.concat(this.packets), startDts: start, duration: (endDts - start) / TICKS_PER_SECOND, independent: this.independent };
  }
}
