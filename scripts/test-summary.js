#!/usr/bin/env node
// Sums the jest JSON reports of one `npm test` run into the closing line CI reads.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const [dir, seconds] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()) {
  const r = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  console.log(`${path.basename(file, '.json').padEnd(16)} ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped`);
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  skipped += r.numPendingTests;
}
console.log(`took ${seconds} s`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
