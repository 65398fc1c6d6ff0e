import { analytics } from '@platform/proto';

/** A Data API reply as its RPCs carry it: the rows as JSON, and the total row count when the call pages. */
export const dataRows = (data: unknown, total?: number): analytics.DataRows => ({
  data_json: JSON.stringify(data),
  ...(total === undefined ? {} : { total_row_count: total }),
});
