import { z } from 'zod';

type Issue = z.core.$ZodIssue;

/** `referrer.allowed_domains[2]`: the path of a field as a caller writes it. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => {
    if (typeof key === 'number') return `${out}[${key}]`;
    return out === '' ? String(key) : `${out}.${String(key)}`;
  }, '');
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number' && !Number.isInteger(value)) return 'a non-integer number';
  return `a ${typeof value}`;
}

const ARTICLE: Record<string, string> = { int: 'an integer', number: 'a number', object: 'an object', array: 'an array' };

/**
 * Messages for the issues that zod words generically, used for every parse in the
 * gateway (passed per parse, never set globally: other code in the process uses zod too).
 * A message a schema sets itself wins over these.
 */
export const gatewayErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      // JSON numbers too large for a double (1e400) parse as Infinity, which z.number() refuses
      if (typeof issue.input === 'number' && !Number.isFinite(issue.input)) return 'must be a finite number';
      return `must be ${ARTICLE[issue.expected] ?? `a ${issue.expected}`}, not ${kindOf(issue.input)}`;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${issue.maximum} characters`;
      if (issue.origin === 'array') return `must have at most ${issue.maximum} entries`;
      return `must be at most ${issue.maximum}`;
    case 'too_small':
      if (issue.origin === 'string') return issue.minimum === 1 ? 'must not be empty' : `must be at least ${issue.minimum} characters`;
      if (issue.origin === 'array') return `must have at least ${issue.minimum} ${issue.minimum === 1 ? 'entry' : 'entries'}`;
      return `must be at least ${issue.minimum}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return undefined;
  }
};

/** An issue that says the value is of another kind than the schema (an array given to an enum of strings, say). */
function isWrongKind(issue: Issue): boolean {
  return issue.code === 'invalid_type' || (issue.code === 'invalid_value' && typeof issue.input === 'object' && issue.input !== null);
}

/** One message per problem, each starting with the field it concerns (`root` when the whole value is wrong). */
export function formatIssues(issues: readonly Issue[], root: string): string[] {
  return issues.flatMap((issue) => {
    const at = fieldPath(issue.path);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map(
        (key) => `${fieldPath([...issue.path, key]) || '(a field with an empty name)'}: is not a known ${root === 'query' ? 'parameter' : 'field'}`,
      );
    }
    if (issue.code === 'invalid_union') {
      // a value of one option's type (an array where "an array or a string" is allowed) is
      // judged by that option alone, so the message names the bad entry
      const fitting = issue.errors.filter((branch) => !branch.every((i) => i.path.length === 0 && isWrongKind(i)));
      if (fitting.length === 1)
        return formatIssues(
          fitting[0].map((i) => ({ ...i, path: [...issue.path, ...i.path] })),
          root,
        );
    }
    return [`${at || root}: ${issue.message}`];
  });
}

/** Parses with the gateway's messages; throws nothing, returns the messages instead. */
export function parseWith<T extends z.ZodType>(schema: T, value: unknown, root: string): { ok: true; value: z.output<T> } | { ok: false; messages: string[] } {
  const result = schema.safeParse(value, { error: gatewayErrorMap, reportInput: true });
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, messages: formatIssues(result.error.issues, root) };
}
