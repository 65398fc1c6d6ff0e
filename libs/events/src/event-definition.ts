import { z } from 'zod';

/**
 * One event type: its name, the type of object it is about, the version in its topic name and
 * the runtime schema of its `data`. The object's id (also the bus key, so an object's events keep
 * their order) is read from the data by `key`.
 */
export interface EventDefinition<T extends string = string, O extends string = string, S extends z.ZodType = z.ZodType> {
  readonly type: T;
  /** `object.type` of the event, Mux's names: `asset`, `track`, `upload`, `live`, … */
  readonly objectType: O;
  /** The topic is `<type>.v<version>`; a change of `data` that old consumers cannot read is a new version. */
  readonly version: number;
  /** The schema of `data`: the public JSON shape of the object (the API body). */
  readonly data: S;
  /** The object's id, from the data. */
  readonly key: (data: z.output<S>) => string;
}

/** A definition whose object id is `data.id` (every event so far); version 1 unless given. */
export function defineEvent<T extends string, O extends string, S extends z.ZodType<{ id: string }>>(
  type: T,
  objectType: O,
  data: S,
  version = 1,
): EventDefinition<T, O, S> {
  return { type, objectType, version, data, key: (d) => d.id };
}
