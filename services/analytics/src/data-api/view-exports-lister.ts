/** What the Data API needs of the exports module: the retained export days, newest first. */
export interface ViewExportsLister {
  listExportDays(): Promise<unknown[]>;
}

export const VIEW_EXPORTS_LISTER = Symbol('VIEW_EXPORTS_LISTER');
