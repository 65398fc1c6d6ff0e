/** A cue as WebVTT writes it: times in seconds on the media's timeline, WebVTT cue text (tags and entities as WebVTT has them). */
export interface Cue {
  start: number;
  end: number;
  /** One or more lines of WebVTT cue text. */
  text: string;
  /** The cue's identifier line, when it has one. */
  id?: string;
  /** Cue settings (`line:0 position:10% align:start`), written after the timing. */
  settings?: string;
}

/** `HH:MM:SS.mmm`, as WebVTT writes times. */
export function vttTime(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}

/** One cue block: identifier, timing with settings, text. */
export function vttCue(c: Cue): string {
  return `${c.id ? `${c.id}\n` : ''}${vttTime(c.start)} --> ${vttTime(c.end)}${c.settings ? ` ${c.settings}` : ''}\n${c.text}\n`;
}

/** The `X-TIMESTAMP-MAP` header line that puts cue time `local` (seconds; 0 unless given) at that MPEG-TS presentation time (90 kHz). */
export function timestampMap(mpegTs: number, local = 0): string {
  return `X-TIMESTAMP-MAP=MPEGTS:${Math.round(mpegTs)},LOCAL:${vttTime(local)}`;
}

/**
 * A WebVTT document. `mpegTs` adds the HLS `X-TIMESTAMP-MAP` header that puts cue time 0 at that
 * MPEG-TS presentation time (90 kHz), so a segmented subtitle track lines up with its video.
 * `blocks` are STYLE or REGION blocks, written before the first cue.
 */
export function webVtt(cues: readonly Cue[], mpegTs?: number, blocks: readonly string[] = []): string {
  const header = mpegTs === undefined ? 'WEBVTT\n' : `WEBVTT\n${timestampMap(mpegTs)}\n`;
  return [header, ...blocks.map((b) => `${b}\n`), ...cues.map(vttCue)].join('\n');
}

/** The cues shown during [start, end): those a subtitle segment of that time range carries. */
export function cuesWithin(cues: readonly Cue[], start: number, end: number): Cue[] {
  return cues.filter((c) => c.end > start && c.start < end);
}

/** The cues moved by `seconds` (a span's place in the whole recording). */
export function shiftCues(cues: readonly Cue[], seconds: number): Cue[] {
  return cues.map((c) => ({ ...c, start: c.start + seconds, end: c.end + seconds }));
}

const VTT_TIME = /^(?:(\d+):)?(\d{2}):(\d{2})\.(\d{3})$/;

/** Seconds of a WebVTT timestamp (`HH:MM:SS.mmm` or `MM:SS.mmm`), or undefined. */
export function vttSeconds(text: string): number | undefined {
  const m = VTT_TIME.exec(text.trim());
  if (!m || Number(m[2]) > 59 || Number(m[3]) > 59) return undefined;
  return Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]) + Number(m[4]) / 1000;
}

/** The cues of a WebVTT document as `webVtt` writes them (timing line, then text up to a blank line). */
export function parseWebVtt(text: string): Cue[] {
  const cues: Cue[] = [];
  for (const block of text.replace(/\r\n/g, '\n').split(/\n\n+/)) {
    const lines = block.split('\n');
    const at = lines.findIndex((l) => l.includes('-->'));
    if (at < 0) continue;
    const [from, to] = lines[at].split('-->').map((t) => t.trim().split(/\s+/)[0]);
    const start = vttSeconds(from);
    const end = vttSeconds(to);
    const cueText = lines
      .slice(at + 1)
      .join('\n')
      .trim();
    if (start !== undefined && end !== undefined && cueText !== '') cues.push({ start, end, text: cueText });
  }
  return cues;
}

/** The `MPEGTS` time of a segmented WebVTT's `X-TIMESTAMP-MAP`, or undefined. */
export function vttMpegTs(text: string): number | undefined {
  const m = /X-TIMESTAMP-MAP=MPEGTS:(\d+)/.exec(text);
  return m ? Number(m[1]) : undefined;
}
