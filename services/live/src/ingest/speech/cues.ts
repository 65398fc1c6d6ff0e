/** A word the recognizer heard, in seconds from the start of the audio it was given. */
export interface SpokenWord {
  text: string;
  start: number;
  end: number;
}

/** One utterance: words between two pauses (or cut at the recognizer's longest utterance). */
export interface Utterance {
  start: number;
  end: number;
  words: SpokenWord[];
}

export interface Cue {
  start: number;
  end: number;
  /** One or two lines. */
  text: string;
}

/** Caption layout: two lines of at most 32 characters (as CEA-608 and most style guides), at most 5 s on screen. */
export const CUE_LINE_CHARS = 32;
export const CUE_MAX_SECONDS = 5;
/** A pause this long between words starts a new cue. */
const CUE_BREAK_SECONDS = 1;

/** Splits an utterance into cues that fit two lines and a few seconds, breaking at pauses first. */
export function cuesFromUtterance(utterance: Utterance): Cue[] {
  const cues: Cue[] = [];
  let words: SpokenWord[] = [];
  const flush = () => {
    if (words.length === 0) return;
    cues.push({ start: words[0].start, end: words[words.length - 1].end, text: twoLines(words.map((w) => w.text)) });
    words = [];
  };
  for (const word of utterance.words) {
    const previous = words[words.length - 1];
    const tooLong = words.length > 0 && (!fits([...words, word].map((w) => w.text)) || word.end - words[0].start > CUE_MAX_SECONDS);
    if (tooLong || (previous && word.start - previous.end >= CUE_BREAK_SECONDS)) flush();
    words.push(word);
  }
  flush();
  return cues;
}

/** The words on one line, or on two lines broken where the longer of the two is shortest. */
export function twoLines(words: readonly string[]): string {
  const line = words.join(' ');
  if (line.length <= CUE_LINE_CHARS || words.length < 2) return line;
  let best = 1;
  const longer = (i: number) => Math.max(words.slice(0, i).join(' ').length, words.slice(i).join(' ').length);
  for (let i = 2; i < words.length; i++) if (longer(i) < longer(best)) best = i;
  return `${words.slice(0, best).join(' ')}\n${words.slice(best).join(' ')}`;
}

/** Whether the words fit a cue's two lines. */
function fits(words: readonly string[]): boolean {
  return twoLines(words)
    .split('\n')
    .every((l) => l.length <= CUE_LINE_CHARS);
}

/** `HH:MM:SS.mmm`, as WebVTT writes times. */
export function vttTime(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}

/**
 * A WebVTT document. `mpegTs` adds the HLS `X-TIMESTAMP-MAP` header that puts cue time 0 at that
 * MPEG-TS presentation time (90 kHz), so a segmented subtitle track lines up with its video.
 */
export function webVtt(cues: readonly Cue[], mpegTs?: number): string {
  const header = mpegTs === undefined ? 'WEBVTT\n' : `WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:${Math.round(mpegTs)},LOCAL:00:00:00.000\n`;
  return [header, ...cues.map((c) => `${vttTime(c.start)} --> ${vttTime(c.end)}\n${c.text}\n`)].join('\n');
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

function vttSeconds(text: string): number | undefined {
  const m = VTT_TIME.exec(text.trim());
  if (!m) return undefined;
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
