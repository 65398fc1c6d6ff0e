import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { OBJECT_STORE, ObjectStore } from '@platform/storage';
import { ANALYTICS_STORE, AnalyticsStore } from '../clickhouse/analytics-store.port';
import { ExportDate, dayBounds, oldestRetainedDay, retainedDays, utcDayOf } from './export-day';
import { EXPORT_VERSION, VIEW_EXPORTS_PREFIX, exportDayPrefix, exportFileName, exportKey, parseExportFile, parseExportKey } from './export-keys';
import { ExportUrlSigner, UrlCheck } from './export-url-signer';
import { VIEW_EXPORTS_OPTIONS, ViewExportsOptions } from './view-exports.options';
import { writeViewsCsvGzip } from './views-csv-writer';

/** Spec 001 §2.4 export day item, as the gateway's ListViewExports returns it. */
export interface ExportDayItem {
  export_date: ExportDate;
  files: { version: number; type: 'csv'; path: string }[];
}

/** An export file opened for download. */
export interface ExportDownload {
  fileName: string;
  size: number;
  lastModified: Date;
  open(): Promise<NodeJS.ReadableStream>;
}

export const EXPORT_CONTENT_TYPE = 'application/gzip';

/** Download URLs are `<base URL>/exports/views/<date>/<file>`. */
export const DOWNLOAD_PATH_PREFIX = '/exports/views/';

/**
 * Daily view exports: one gzip CSV per UTC day of the closed views that ended on it, in the object
 * store under `analytics/exports/views/`, listed behind expiring URLs. The store listing is the record
 * of what exists. Exporting a day again replaces its file atomically (an object store put), so two
 * processes exporting the same day at once is harmless: the last put wins, with the same views.
 */
@Injectable()
export class ViewExportsService {
  constructor(
    @Inject(ANALYTICS_STORE) private readonly store: AnalyticsStore,
    @Inject(OBJECT_STORE) private readonly objects: ObjectStore,
    @Inject(VIEW_EXPORTS_OPTIONS) private readonly options: ViewExportsOptions,
    @Inject(ExportUrlSigner) private readonly signer: ExportUrlSigner,
  ) {}

  /** Writes (or rewrites) the export of `date`; returns its key and view count. */
  async exportDay(date: ExportDate): Promise<{ key: string; views: number }> {
    dayBounds(date);
    await fs.mkdir(this.options.workDir, { recursive: true });
    const file = path.join(this.options.workDir, `${date}-${randomUUID()}.csv.gz`);
    try {
      const views = await writeViewsCsvGzip(this.store, date, file, this.options.pageSize);
      const key = exportKey(date);
      await this.objects.putFile(key, file, EXPORT_CONTENT_TYPE);
      return { key, views };
    } finally {
      await fs.rm(file, { force: true });
    }
  }

  /** Exports `date` now, whatever the schedule (tests, operators). */
  exportNow(date: ExportDate): Promise<{ key: string; views: number }> {
    return this.exportDay(date);
  }

  /** The stored exports: day → versions, whatever their age. */
  async storedExports(): Promise<Map<ExportDate, number[]>> {
    const days = new Map<ExportDate, number[]>();
    for (const object of await this.objects.list(VIEW_EXPORTS_PREFIX)) {
      const parsed = parseExportKey(object.key);
      if (parsed) days.set(parsed.date, [...(days.get(parsed.date) ?? []), parsed.version]);
    }
    return days;
  }

  /** The retained days that have an export, newest first, each file behind a URL valid from `nowMs`. */
  async listExportDays(nowMs = Date.now()): Promise<ExportDayItem[]> {
    const oldest = oldestRetainedDay(nowMs, this.options.retentionDays);
    const stored = [...(await this.storedExports())].filter(([date]) => date >= oldest);
    return stored
      .sort(([a], [b]) => (a < b ? 1 : -1))
      .map(([date, versions]) => ({
        export_date: date,
        files: [...versions]
          .sort((a, b) => a - b)
          .map((version) => ({ version, type: 'csv' as const, path: this.signer.sign(downloadPath(date, version), nowMs) })),
      }));
  }

  /** Exports each retained day that has no current-version file yet (oldest first); returns those days. */
  async exportMissingDays(nowMs = Date.now()): Promise<ExportDate[]> {
    const stored = await this.storedExports();
    const missing = retainedDays(nowMs, this.options.retentionDays, this.options.settleMs)
      .filter((date) => !stored.get(date)?.includes(EXPORT_VERSION))
      .reverse();
    if (this.options.includeToday) missing.push(utcDayOf(nowMs));
    for (const date of missing) await this.exportDay(date);
    return missing;
  }

  /** Deletes the exports of days before the retention window; returns those days. */
  async deleteExpired(nowMs = Date.now()): Promise<ExportDate[]> {
    const oldest = oldestRetainedDay(nowMs, this.options.retentionDays);
    const expired = [...(await this.storedExports()).keys()].filter((date) => date < oldest).sort();
    for (const date of expired) await this.objects.deletePrefix(exportDayPrefix(date));
    return expired;
  }

  /** Checks a download request's `expires` and `signature` for `/exports/views/<date>/<file>`. */
  checkDownload(date: string, file: string, expires: string | undefined, signature: string | undefined, nowMs = Date.now()): UrlCheck {
    return this.signer.check(`${DOWNLOAD_PATH_PREFIX}${date}/${file}`, expires, signature, nowMs);
  }

  /** The stored file for a download path, or undefined when there is none (or the name is not an export's). */
  async findDownload(date: string, file: string): Promise<ExportDownload | undefined> {
    const parsed = parseExportFile(date, file);
    if (!parsed) return undefined;
    const key = exportKey(parsed.date, parsed.version);
    const info = await this.objects.stat(key);
    if (!info) return undefined;
    return {
      fileName: `views-${parsed.date}-${file}`,
      size: info.size,
      lastModified: info.lastModified,
      open: () => this.objects.getStream(key),
    };
  }
}

/** The path a download URL signs and the handler serves. */
export function downloadPath(date: ExportDate, version: number): string {
  return `${DOWNLOAD_PATH_PREFIX}${date}/${exportFileName(version)}`;
}
