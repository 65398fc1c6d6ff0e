/** Settings of the daily view exports (the module builds them from PlatformConfig). */
export interface ViewExportsOptions {
  /** Public base URL of the analytics HTTP port (COLLECTOR_BASE_URL) that serves the downloads. */
  baseUrl: string;
  /** Lifetime of a download URL (EXPORT_URL_SECONDS). */
  urlSeconds: number;
  /** Complete days kept, before today (EXPORT_RETENTION_DAYS). */
  retentionDays: number;
  /** How often the scheduler looks for a missing day and expired ones (EXPORT_CHECK_MS). */
  checkMs: number;
  /**
   * How long after a day's end it is exported: views close up to the 60-minute silence timeout
   * (plus a sweep) after their last beacon, and a view's `view_end` is its last activity.
   */
  settleMs: number;
  /** Also keep an export of the current UTC day so far, rewritten at every check (EXPORT_INCLUDE_TODAY: previews, tests). */
  includeToday: boolean;
  /** Views per store query. */
  pageSize: number;
  /** Where a file is written before it is put into the object store (on DATA_DIR: a hard link, no copy). */
  workDir: string;
}

export const VIEW_EXPORTS_OPTIONS = Symbol('VIEW_EXPORTS_OPTIONS');

/** 60 min silence + a sweep interval + margin. */
export const DEFAULT_SETTLE_MS = 75 * 60_000;
