import { Cue, vttSeconds } from './cues';
import { srtCueText, srtPosition } from './srt-text';
import { vttCueSettings, vttCueText } from './vtt-text';

export type SubtitleFormat = 'srt' | 'webvtt';

/** A cue of the file left out, and why (`cue` counts the file's cue blocks from 1). */
export interface CueProblem {
  cue: number;
  line: number;
  reason: string;
}

/** A SubRip or WebVTT file read as WebVTT: the cues to keep, in time order, and what was left out. */
export interface SubtitleFile {
  format: SubtitleFormat;
  cues: Cue[];
  /** STYLE and REGION blocks: a WebVTT file's own, or the colour classes an SRT file's `<font>` tags became. */
  blocks: string[];
  /** Cue blocks the file has, good and bad. */
  total: number;
  skipped: CueProblem[];
}

/** The file cannot be read as subtitles at all (not text, neither format, or not one usable cue). */
export class SubtitleFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SubtitleFileError';
  }
}

/** Most problems a message lists before "and N more". */
export const LISTED_PROBLEMS = 5;

interface Block {
  lines: string[];
  /** 1-based line number of the block's first line in the file. */
  line: number;
}

/**
 * The text of a subtitle file: UTF-8 (a BOM dropped), UTF-16 with its BOM, and otherwise Windows-1252,
 * what SubRip files made on Windows usually are. A file with NUL bytes that is not UTF-16 is not text.
 */
export function decodeSubtitleText(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  if (bytes.includes(0)) throw new SubtitleFileError('The file is not a text file, so not SubRip (SRT) or WebVTT.');
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return windows1252(bytes);
  }
}

/** Windows-1252's characters for 0x80–0x9F (Node's `windows-1252` decoder reads those bytes as Latin-1 controls). */
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

function windows1252(bytes: Buffer): string {
  let text = '';
  for (const b of bytes) text += b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80] : String.fromCharCode(b);
  return text;
}

/**
 * Reads SubRip (SRT) or WebVTT as WebVTT cues, keeping timing, cue settings and styling (SRT's
 * `<b>`/`<i>`/`<u>`, `{b}`-style tags, `<font color>` as colour classes, `{\anN}` positions; WebVTT's
 * own tags, settings, STYLE and REGION blocks). A cue that cannot be shown (no or bad timing, an end
 * not after its start, no text) is left out and reported; no usable cue at all is an error.
 */
export function readSubtitleFile(bytes: Buffer): SubtitleFile {
  const text = decodeSubtitleText(bytes);
  const blocks = splitBlocks(text);
  const format: SubtitleFormat = /^WEBVTT(?:[ \t]|$)/.test(blocks[0]?.lines[0] ?? '') ? 'webvtt' : 'srt';
  const file = format === 'webvtt' ? readWebVtt(blocks) : readSrt(blocks);
  if (format === 'srt' && !blocks.some((b) => b.lines.some((l) => SRT_TIMING.test(l)))) {
    throw new SubtitleFileError(
      'The file is neither SubRip (SRT) nor WebVTT: it has no cue timing such as "00:00:01,000 --> 00:00:02,000" and does not begin with WEBVTT.',
    );
  }
  if (file.cues.length === 0) {
    throw new SubtitleFileError(`The ${FORMAT_NAMES[format]} file has no valid cue${file.skipped.length > 0 ? `: ${describeProblems(file)}` : '.'}`);
  }
  file.cues.sort((a, b) => a.start - b.start || a.end - b.end);
  return file;
}

const FORMAT_NAMES: Record<SubtitleFormat, string> = { srt: 'SubRip (SRT)', webvtt: 'WebVTT' };

/** `2 of 12 cues skipped: cue 3 (line 14): …; cue 7 (line 30): …`, at most LISTED_PROBLEMS listed. */
export function describeProblems(file: Pick<SubtitleFile, 'skipped' | 'total'>): string {
  const listed = file.skipped.slice(0, LISTED_PROBLEMS).map((p) => `cue ${p.cue} (line ${p.line}): ${p.reason}`);
  const more = file.skipped.length > LISTED_PROBLEMS ? `; and ${file.skipped.length - LISTED_PROBLEMS} more` : '';
  return `${file.skipped.length} of ${file.total} cues skipped: ${listed.join('; ')}${more}`;
}

/** Blocks of lines between blank lines (a line of only spaces is blank), with where each starts. */
function splitBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let current: Block | undefined;
  text
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\r|\n/)
    .forEach((raw, i) => {
      const line = raw.replace(/[ \t]+$/, '');
      if (line.trim() === '') {
        current = undefined;
        return;
      }
      if (!current) blocks.push((current = { lines: [], line: i + 1 }));
      current.lines.push(line);
    });
  return blocks;
}

function timed(start: number | undefined, end: number | undefined): string | undefined {
  if (start === undefined) return 'its start time is not a valid timestamp';
  if (end === undefined) return 'its end time is not a valid timestamp';
  if (end <= start) return 'it ends before it starts (or when it starts)';
  return undefined;
}

const VTT_TIMING = /^(\S+)[ \t]+-->[ \t]+(\S+)(?:[ \t]+(.*))?$/;

function readWebVtt(blocks: Block[]): SubtitleFile {
  const file: SubtitleFile = { format: 'webvtt', cues: [], blocks: [], total: 0, skipped: [] };
  for (const block of blocks.slice(1)) {
    const first = block.lines[0];
    if (/^NOTE(?:[ \t]|$)/.test(first)) continue;
    if ((first === 'STYLE' || first === 'REGION') && !block.lines.some((l) => l.includes('-->'))) {
      if (file.total === 0) file.blocks.push(block.lines.join('\n')); // the format allows them before the first cue only
      continue;
    }
    file.total += 1;
    const at = first.includes('-->') ? 0 : 1;
    const timing = VTT_TIMING.exec(block.lines[at] ?? '');
    const problem = (reason: string) => file.skipped.push({ cue: file.total, line: block.line + Math.min(at, block.lines.length - 1), reason });
    if (!timing) {
      problem(block.lines.length > at ? 'its timing line is not "start --> end"' : 'it has no timing line');
      continue;
    }
    const start = vttSeconds(timing[1]);
    const end = vttSeconds(timing[2]);
    const bad = timed(start, end);
    if (bad) {
      problem(bad);
      continue;
    }
    const text = vttCueText(block.lines.slice(at + 1).join('\n'));
    if (text === '') {
      problem('it has no text');
      continue;
    }
    const settings = vttCueSettings(timing[3] ?? '');
    file.cues.push({ start: start!, end: end!, text, ...(at === 1 ? { id: first } : {}), ...(settings ? { settings } : {}) });
  }
  return file;
}

const SRT_TIMING = /^\s*(\d+:\d{1,2}:\d{1,2}(?:[,.]\d{1,3})?)\s*-->\s*(\d+:\d{1,2}:\d{1,2}(?:[,.]\d{1,3})?)(?:\s+.*)?$/;
const SRT_TIME = /^(\d+):(\d{1,2}):(\d{1,2})(?:[,.](\d{1,3}))?$/;

/** Seconds of an SRT timestamp (`00:01:02,500`, also with `.`, and fewer digits as a fraction). */
export function srtSeconds(text: string): number | undefined {
  const m = SRT_TIME.exec(text.trim());
  if (!m || Number(m[2]) > 59 || Number(m[3]) > 59) return undefined;
  return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) + Number(`0.${m[4] ?? '0'}`);
}

/** A block holding several cues because the blank lines between them are missing, split before each `index` + timing pair. */
function runOnCues(block: Block): Block[] {
  const starts = [0];
  for (let i = 2; i < block.lines.length; i++) {
    if (SRT_TIMING.test(block.lines[i]) && /^\d+$/.test(block.lines[i - 1].trim()) && i - 1 > starts[starts.length - 1]) starts.push(i - 1);
  }
  return starts.map((start, k) => ({ lines: block.lines.slice(start, starts[k + 1]), line: block.line + start }));
}

function readSrt(blocks: Block[]): SubtitleFile {
  const file: SubtitleFile = { format: 'srt', cues: [], blocks: [], total: 0, skipped: [] };
  const colours = new Map<string, string>();
  for (const block of blocks.flatMap(runOnCues)) {
    file.total += 1;
    const at = SRT_TIMING.test(block.lines[0]) ? 0 : 1;
    const timing = SRT_TIMING.exec(block.lines[at] ?? '');
    const problem = (reason: string) => file.skipped.push({ cue: file.total, line: block.line + Math.min(at, block.lines.length - 1), reason });
    if (!timing) {
      problem(block.lines.length > at ? 'its timing line is not "00:00:01,000 --> 00:00:02,000"' : 'it has no timing line');
      continue;
    }
    const start = srtSeconds(timing[1]);
    const end = srtSeconds(timing[2]);
    const bad = timed(start, end);
    if (bad) {
      problem(bad);
      continue;
    }
    const raw = block.lines.slice(at + 1).join('\n');
    const text = srtCueText(raw, colours);
    if (text === '') {
      problem('it has no text');
      continue;
    }
    const settings = srtPosition(raw);
    file.cues.push({ start: start!, end: end!, text, ...(settings ? { settings } : {}) });
  }
  file.blocks = [...colours].map(([name, colour]) => `STYLE\n::cue(.${name}) {\n  color: ${colour};\n}`);
  return file;
}
