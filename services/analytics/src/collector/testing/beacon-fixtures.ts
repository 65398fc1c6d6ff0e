import fs from 'node:fs';
import path from 'node:path';
import type { MinifiedEvent } from '../beacon-payload';

/** A view's POSTs as mux-embed sent them (scripts/testing/capture-beacons.js). */
export interface BeaconFixture {
  description: string;
  user_agent: string;
  posts: Array<{ path: string; content_type: string; body: { metadata: Record<string, number>; events: MinifiedEvent[] } }>;
}

export const FIXTURE_NAMES = ['playback-view', 'error-view'] as const;

export function loadFixture(name: (typeof FIXTURE_NAMES)[number]): BeaconFixture {
  return JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'fixtures', `${name}.json`), 'utf8')) as BeaconFixture;
}

/** mux-embed's minifier (`ye` in the 5.19 dist), rewritten: the tests check expansion is its inverse. */
export function minifyKey(key: string, dict: { firstWords: Record<string, string>; words: Record<string, string> }): string {
  const codeOf = (table: Record<string, string>) => Object.fromEntries(Object.entries(table).map(([code, word]) => [word, code]));
  const first = codeOf(dict.firstWords);
  const later = codeOf(dict.words);
  const [head, ...rest] = key.split('_');
  let out = first[head] ?? `${head}_`;
  for (const word of rest) out += later[word] ?? (Number.isInteger(Number(word)) ? word : `_${word}_`);
  return out;
}
