#!/usr/bin/env node
// mux-embed's key dictionary, read from the installed package's dist: the first-word table (1 letter, `a:"env",
// b:"beacon",…`) and the later-word table (2 letters, `ad:"ad",af:"affiliate",…`) its minifier uses for every beacon
// key. `node scripts/mux-embed-dictionary.js` writes services/analytics/src/collector/mux-embed-keys.json (committed);
// the collector's unit test compares that file with a fresh extraction, so a mux-embed upgrade that changes the
// tables fails until the file is regenerated.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const PACKAGE_DIR = path.join(ROOT, 'node_modules', 'mux-embed');
const DIST = path.join(PACKAGE_DIR, 'dist', 'mux.mjs');
const OUTPUT = path.join(ROOT, 'services', 'analytics', 'src', 'collector', 'mux-embed-keys.json');
const FIRST_WORDS_MARKER = 'a:"env",b:"beacon"';

/** The object literal `{…}` that starts at `start` (no nesting: the tables are flat). */
function objectLiteralAt(text, start) {
  if (text[start] !== '{') throw new Error(`no object literal at offset ${start}`);
  const end = text.indexOf('}', start);
  if (end < 0) throw new Error('unterminated object literal');
  return text.slice(start, end + 1);
}

/** `{a:"env",b:"beacon"}` → { a: 'env', b: 'beacon' }, refusing anything that is not such a flat table. */
function parseTable(literal, codeLength) {
  const entry = new RegExp(`^([a-z0-9]{${codeLength}}):"([a-z0-9]+)"$`);
  const table = {};
  for (const part of literal.slice(1, -1).split(',')) {
    const match = entry.exec(part);
    if (!match) throw new Error(`unexpected table entry ${JSON.stringify(part)} in ${literal.slice(0, 80)}…`);
    table[match[1]] = match[2];
  }
  return table;
}

/** Both tables out of a dist file's text: the first-word table, then the next object literal (`oi=lr(ni),si={…}`). */
function extractTables(distText) {
  const marker = distText.indexOf(FIRST_WORDS_MARKER);
  if (marker < 0) throw new Error(`${FIRST_WORDS_MARKER} not found: mux-embed's dictionary moved`);
  const firstLiteral = objectLiteralAt(distText, marker - 1);
  const firstWords = parseTable(firstLiteral, 1);
  const afterFirst = marker - 1 + firstLiteral.length;
  const secondStart = distText.indexOf('{', afterFirst);
  // what lies between is `,oi=lr(ni),si=` in 5.19: short, and no other code
  if (secondStart < 0 || secondStart - afterFirst > 40) throw new Error('the later-word table does not follow the first-word table');
  const words = parseTable(objectLiteralAt(distText, secondStart), 2);
  return { firstWords, words };
}

/** The dictionary of the installed mux-embed: `{muxEmbedVersion, firstWords, words}`. */
function extractInstalled() {
  const { version } = JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8'));
  return { muxEmbedVersion: version, ...extractTables(fs.readFileSync(DIST, 'utf8')) };
}

module.exports = { extractTables, extractInstalled, OUTPUT };

if (require.main === module) {
  const dictionary = extractInstalled();
  fs.writeFileSync(OUTPUT, `${JSON.stringify(dictionary, null, 2)}\n`);
  console.log(
    `mux-embed ${dictionary.muxEmbedVersion}: ${Object.keys(dictionary.firstWords).length} first words, ${Object.keys(dictionary.words).length} words → ${path.relative(ROOT, OUTPUT)}`,
  );
}
