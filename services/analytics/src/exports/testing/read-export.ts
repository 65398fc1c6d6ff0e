import { gunzipSync } from 'node:zlib';

/** Parses RFC 4180 CSV text into records (quoted fields may hold commas, quotes and line breaks). */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (quoted) {
      field += c;
    } else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      records.push([...record, field]);
      record = [];
      field = '';
      i++;
    } else {
      field += c;
    }
  }
  if (field !== '' || record.length > 0) records.push([...record, field]);
  return records;
}

/** A gzip CSV export as objects keyed by its header row. */
export function readExport(gzip: Buffer): { header: string[]; rows: Record<string, string>[] } {
  const [header, ...records] = parseCsv(gunzipSync(gzip).toString('utf8'));
  return { header, rows: records.map((r) => Object.fromEntries(header.map((name, i) => [name, r[i]]))) };
}
