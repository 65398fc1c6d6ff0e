import { MUX_EMBED_DICTIONARY } from './mux-embed-keys';

/**
 * mux-embed's tables (scripts/mux-embed-dictionary.js extracts them from the installed package):
 * a key's first word is one letter, each later word two letters.
 */
export interface KeyDictionary {
  firstWords: Readonly<Record<string, string>>;
  words: Readonly<Record<string, string>>;
}

export const MUX_EMBED_KEYS: KeyDictionary = MUX_EMBED_DICTIONARY;

/**
 * The later words of a minified key, read from `rest`: a 2-letter code, a run of digits (integer
 * words are copied: `custom_1` → `c1`) or `_word_` (a word not in the table); undefined if `rest`
 * is not such a sequence.
 */
function parseLaterWords(rest: string, dict: KeyDictionary): string[] | undefined {
  const out: string[] = [];
  let i = 0;
  while (i < rest.length) {
    const digits = /^\d+/.exec(rest.slice(i));
    if (digits) {
      out.push(digits[0]);
      i += digits[0].length;
    } else if (rest[i] === '_') {
      const close = rest.indexOf('_', i + 1);
      if (close <= i + 1) return undefined;
      out.push(rest.slice(i + 1, close));
      i = close + 1;
    } else {
      const word = dict.words[rest.slice(i, i + 2)];
      if (word === undefined) return undefined;
      out.push(word);
      i += 2;
    }
  }
  return out;
}

/**
 * One minified key back to mux-embed's full name (the reverse of its minifier, `ye` in the 5.19 dist):
 * `xsqno` → `view_sequence_number`, `e` → `event`, `c1` → `custom_1`. A first word not in the table
 * was sent as `word_` (`foo_bar` → `foo_ba…`); a key that parses neither way is kept as it came.
 */
export function expandKey(key: string, dict: KeyDictionary = MUX_EMBED_KEYS): string {
  const first = dict.firstWords[key[0] ?? ''];
  if (first !== undefined) {
    const later = parseLaterWords(key.slice(1), dict);
    if (later) return [first, ...later].join('_');
  }
  const underscore = key.indexOf('_');
  if (underscore > 0) {
    const later = parseLaterWords(key.slice(underscore + 1), dict);
    if (later) return [key.slice(0, underscore), ...later].join('_');
  }
  return key;
}

/** Keys seen are few (mux-embed's vocabulary); the cache is bounded so hostile keys cannot grow it. */
const CACHE_LIMIT = 10_000;
const cache = new Map<string, string>();

function expandCached(key: string): string {
  let full = cache.get(key);
  if (full === undefined) {
    full = expandKey(key);
    if (cache.size < CACHE_LIMIT) cache.set(key, full);
  }
  return full;
}

/** A minified event's keys expanded (values untouched); with a custom dictionary, uncached. */
export function expandKeys<V>(minified: Readonly<Record<string, V>>, dict?: KeyDictionary): Record<string, V> {
  const full: Record<string, V> = {};
  for (const [key, value] of Object.entries(minified)) full[dict ? expandKey(key, dict) : expandCached(key)] = value;
  return full;
}
