#!/usr/bin/env node
// Sums the jest JSON reports of one `npm test` run into the closing lines CI reads: per level its
// counts and wall time, the slowest files (where the CI budget goes), and the totals.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const SLOWEST = 12;
const [dir, seconds] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
const files = [];
for (const file of fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()) {
  const r = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  const level = path.basename(file, '.json');
  const ends = r.testResults.map((t) => t.perfStats?.end ?? t.endTime ?? r.startTime);
  const wall = ends.length > 0 ? Math.round((Math.max(...ends) - r.startTime) / 1000) : 0;
  console.log(`${level.padEnd(16)} ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped in ${wall} s`);
  for (const t of r.testResults) {
    const start = t.perfStats?.start ?? t.startTime;
    const end = t.perfStats?.end ?? t.endTime;
    if (start && end) files.push({ level, name: path.relative(process.cwd(), t.name), seconds: (end - start) / 1000 });
  }
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  skipped += r.numPendingTests;
}
console.log(`slowest files:`);
for (const f of files.sort((a, b) => b.seconds - a.seconds).slice(0, SLOWEST)) {
  console.log(`  ${f.seconds.toFixed(0).padStart(4)} s  ${f.level.padEnd(16)} ${f.name}`);
}
console.log(`took ${seconds} s`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
