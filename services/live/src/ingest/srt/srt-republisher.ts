import { ChildProcess, spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import { isVideoStreamType, ProgramSniffer } from '@platform/media';

/** MPEG-TS stream types FLV carries as they are: H.264 and AAC (ADTS, rewrapped by the FLV muxer). */
const H264 = 0x1b;
const AAC = 0x0f;
/** Bytes read without a PMT before the streams are taken as H.264/AAC. */
const SNIFF_LIMIT = 2 * 1024 * 1024;

export interface ProgramStreams {
  /** The MPEG-TS stream type of the picture and of the sound; undefined when there is none (or unknown). */
  video?: number;
  audio?: number;
  /** Not read from a PMT: each map optional. */
  guessed?: boolean;
}

/** The first picture and sound of a PMT's streams (`programStreamsOf`). */
export function programStreams(streams: ReadonlyArray<{ streamType: number }>): ProgramStreams {
  const video = streams.find((s) => isVideoStreamType(s.streamType))?.streamType;
  // 0x06 (private PES: Opus, AC-3 in DVB…) counts as sound when there is no other; 0x15 is metadata
  const others = streams.filter((s) => !isVideoStreamType(s.streamType) && s.streamType !== 0x15);
  const audio = (others.find((s) => s.streamType !== 0x06) ?? others[0])?.streamType;
  return { ...(video !== undefined ? { video } : {}), ...(audio !== undefined ? { audio } : {}) };
}

/**
 * ffmpeg republishing an SRT caller's MPEG-TS (from stdin) to the local RTMP server. FLV carries
 * H.264 and AAC only, so those are copied and anything else (HEVC, MPEG-2, MP3, AC-3…) is encoded:
 * H.264 with its key frames where the caller's are (the live ladder cuts its segments there), AAC.
 */
export function republishArgs(publishUrl: string, streams: ProgramStreams): string[] {
  const opt = streams.guessed ? '?' : '';
  const encodeVideo = [
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-tune',
    'zerolatency',
    '-pix_fmt',
    'yuv420p',
    '-force_key_frames',
    'source',
    '-sc_threshold',
    '0',
  ];
  const video = streams.video === undefined ? [] : ['-map', `0:v:0${opt}`, ...(streams.video === H264 ? ['-c:v', 'copy'] : encodeVideo)];
  const audio = streams.audio === undefined ? [] : ['-map', `0:a:0${opt}`, ...(streams.audio === AAC ? ['-c:a', 'copy'] : ['-c:a', 'aac', '-b:a', '128k'])];
  return ['-v', 'error', '-analyzeduration', '1000000', '-f', 'mpegts', '-i', 'pipe:0', ...video, ...audio, '-f', 'flv', publishUrl];
}

/**
 * Reads the bridge's MPEG-TS until its PMT tells the codecs, then starts the republisher with the
 * arguments they call for and feeds it everything from the first byte. `onExit` is called once,
 * when the republisher ends (or could not be started).
 */
export function startRepublisher(
  ffmpegPath: string,
  publishUrl: string,
  source: Readable,
  onExit: (code: number | null, stderr: string) => void,
): { stop(): void } {
  const sniffer = new ProgramSniffer();
  const held: Buffer[] = [];
  let seen = 0;
  let child: ChildProcess | undefined;
  const start = (streams: ProgramStreams) => {
    child = spawn(ffmpegPath, republishArgs(publishUrl, streams), { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    child.stdin?.on('error', () => undefined); // it exited: reported below
    child.once('exit', (code) => onExit(code, stderr));
    for (const chunk of held.splice(0)) child.stdin?.write(chunk);
    source.pipe(child.stdin!);
  };
  const sniff = (chunk: Buffer) => {
    seen += chunk.length;
    held.push(chunk);
    let streams: ReadonlyArray<{ streamType: number }> | undefined;
    try {
      streams = sniffer.push(chunk);
    } catch {
      streams = []; // not MPEG-TS: the republisher says why
    }
    if (streams === undefined && seen < SNIFF_LIMIT) return;
    source.off('data', sniff);
    source.pause();
    start(streams === undefined ? { video: H264, audio: AAC, guessed: true } : programStreams(streams));
  };
  source.on('data', sniff);
  source.once('end', () => {
    if (!child) onExit(null, 'the caller sent no media');
  });
  return {
    stop: () => {
      source.off('data', sniff);
      if (child && child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
