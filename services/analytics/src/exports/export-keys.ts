import { ExportDate, isExportDate } from './export-day';

/** Where view exports live in the object store: `analytics/exports/views/YYYY-MM-DD/v<version>.csv.gz`. */
export const VIEW_EXPORTS_PREFIX = 'analytics/exports/views/';

/** The file format version written today; a format change writes a new version beside the old. */
export const EXPORT_VERSION = 1;

export function exportFileName(version: number): string {
  return `v${version}.csv.gz`;
}

export function exportKey(date: ExportDate, version: number = EXPORT_VERSION): string {
  return `${VIEW_EXPORTS_PREFIX}${date}/${exportFileName(version)}`;
}

/** The prefix of every file of one day. */
export function exportDayPrefix(date: ExportDate): string {
  return `${VIEW_EXPORTS_PREFIX}${date}/`;
}

/** The day and version of an export key or of a `date`/`file` pair from a download path; undefined for anything else. */
export function parseExportFile(date: string, file: string): { date: ExportDate; version: number } | undefined {
  const match = /^v([1-9]\d{0,5})\.csv\.gz$/.exec(file);
  if (!match || !isExportDate(date)) return undefined;
  return { date, version: Number(match[1]) };
}

export function parseExportKey(key: string): { date: ExportDate; version: number } | undefined {
  if (!key.startsWith(VIEW_EXPORTS_PREFIX)) return undefined;
  const parts = key.slice(VIEW_EXPORTS_PREFIX.length).split('/');
  return parts.length === 2 ? parseExportFile(parts[0], parts[1]) : undefined;
}
