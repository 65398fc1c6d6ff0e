import { Dimension, dimensionNamed } from './data-vocabulary';

/** One `filters[]` clause: `dimension:value`, or `!dimension:value` to exclude. */
export interface DimensionFilter {
  dimension: Dimension;
  value: string;
  negate: boolean;
}

export const MAX_FILTER_VALUE_LENGTH = 1_024;

/**
 * Parses one `filters[]` entry, or says why not. The trace forms (`+dim:v`, `-dim:v`, `dim:[a,b]`)
 * apply to trace dimensions (the CDN trace), which this platform does not record: refused by name.
 */
export function parseDimensionFilter(raw: string): DimensionFilter | string {
  if (raw.startsWith('+') || raw.startsWith('-')) return `${JSON.stringify(raw)}: trace filters (+ and -) are not supported: no trace dimensions are recorded`;
  const negate = raw.startsWith('!');
  const body = negate ? raw.slice(1) : raw;
  const colon = body.indexOf(':');
  if (colon <= 0) return `${JSON.stringify(raw)} is not dimension:value (or !dimension:value)`;
  const name = body.slice(0, colon);
  const value = body.slice(colon + 1);
  const dimension = dimensionNamed(name);
  if (!dimension) return `${JSON.stringify(name)} is not a dimension (GET /data/v1/dimensions lists them)`;
  if (value.startsWith('[') && value.endsWith(']')) return `${JSON.stringify(raw)}: trace filters ([…]) are not supported: no trace dimensions are recorded`;
  if (value.length > MAX_FILTER_VALUE_LENGTH) return `the value of ${name} is longer than ${MAX_FILTER_VALUE_LENGTH} characters`;
  return { dimension, value, negate };
}
