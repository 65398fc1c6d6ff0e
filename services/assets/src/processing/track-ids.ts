import { newId } from '@platform/ids';
import { assets } from '@platform/proto';

/**
 * Gives each probed track an id. A track keeps the id of the stored track of the same type
 * at the same position among tracks of that type, so recording the same probe again (a
 * crashed job redone) changes no id and creates no track. Ids sent by the caller are ignored.
 */
export function withTrackIds(
  stored: readonly assets.Track[],
  probed: readonly assets.Track[],
  makeId: () => string = newId,
): { tracks: assets.Track[]; added: assets.Track[] } {
  const storedByType = new Map<string, assets.Track[]>();
  for (const t of stored) storedByType.set(t.type, [...(storedByType.get(t.type) ?? []), t]);
  const seen = new Map<string, number>();
  const added: assets.Track[] = [];
  const tracks = probed.map((t) => {
    const index = seen.get(t.type) ?? 0;
    seen.set(t.type, index + 1);
    const previous = storedByType.get(t.type)?.[index];
    const track = withoutUndefined({ ...t, id: previous?.id ?? makeId() });
    if (!previous) added.push(track);
    return track;
  });
  return { tracks, added };
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
