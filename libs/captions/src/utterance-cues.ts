import { Cue } from './cues';

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
