import { isDeepStrictEqual } from 'node:util';
import { ObjectStates, ObservedState } from './object-states';
import { ReceivedWebhook } from './webhook-receiver';

/** A webhook body as the platform POSTs it. */
export interface WebhookEvent {
  id: string;
  type: string;
  created_at: string;
  object: { type: string; id: string };
  data: Record<string, unknown>;
}

export const webhookEvent = (w: ReceivedWebhook): WebhookEvent => JSON.parse(w.body) as WebhookEvent;

/** A state lasting less than this can go unseen by GETs (the watch reads each object every few ms; a loaded machine is slower). */
export const BRIEF_MS = 300;
/** Clock and scheduling slack when placing a seen state around an event's time. */
const SLACK_MS = 150;

export interface ShapeReport {
  /** Webhooks whose data equals what GET showed at that moment, by type. */
  compared: Map<string, number>;
  /** Webhooks of states too brief for GET to have seen them, or of objects watched only later: not compared. */
  unseen: Array<{ event: WebhookEvent; why: string }>;
  /** Webhooks whose data no GET of that moment showed. */
  mismatches: Array<{ event: WebhookEvent; closest?: unknown }>;
}

/** Events about an object an asset's body holds (a track, a static rendition), with where the body holds it. */
const CHILD_EVENTS: ReadonlyArray<{ prefix: string; children: (asset: Record<string, unknown>) => Array<{ id?: string }> }> = [
  { prefix: 'video.asset.track.', children: (a) => (a.tracks ?? []) as Array<{ id: string }> },
  {
    prefix: 'video.asset.static_rendition.',
    children: (a) => (a.static_renditions as { files?: Array<{ id?: string }> } | undefined)?.files ?? [],
  },
];
const childKind = (e: WebhookEvent) => CHILD_EVENTS.find((c) => e.type.startsWith(c.prefix));

/** `deleted` events of a part of an asset, not of the asset: their data is the asset after the change, as any other event's. */
const PART_DELETIONS: ReadonlySet<string> = new Set(['video.asset.static_renditions.deleted', 'video.asset.master.deleted']);

/**
 * The API body a webhook's data should equal, at each state seen of its object (track and static
 * rendition events: the object in its asset, plus asset_id).
 */
function candidates(event: WebhookEvent, states: ObjectStates): Array<{ state: ObservedState; value: unknown }> {
  const child = childKind(event);
  if (child) {
    const assetId = event.data.asset_id as string;
    // a deleted track leaves its asset: its event carries it as it last was, with status `deleted`
    const deleted = event.type === 'video.asset.track.deleted' ? { status: 'deleted' } : {};
    return states.states(assetId).flatMap((state) => {
      const held = child.children(state.body).find((t) => t.id === event.object.id);
      return held ? [{ state, value: { ...held, ...deleted, asset_id: assetId } }] : [];
    });
  }
  if (event.type.startsWith('video.live_stream.simulcast_target.')) {
    return states.states(event.object.id).map((state) => ({ state, value: { ...state.body, live_stream_id: event.data.live_stream_id } }));
  }
  if (event.type.startsWith('video.space.broadcast.')) {
    return states.states(event.object.id).map((state) => ({ state, value: { ...state.body, space_id: event.data.space_id } }));
  }
  if (event.type === 'video.asset.warning') {
    return states.states(event.object.id).map((state) => ({ state, value: { ...state.body, warning: event.data.warning } }));
  }
  return states.states(event.object.id).map((state) => ({ state, value: state.body }));
}

/**
 * The object whose GET shows this event's state (track and static rendition events: their asset, whose
 * body holds them), which is also the object whose next event ends that state.
 */
const watchedId = (event: WebhookEvent) => (childKind(event) ? (event.data.asset_id as string) : event.object.id);

/** Whether `later` shows another state of `event`'s subject: other data of the same object, or of a track or rendition its asset's data holds otherwise. */
function changes(event: WebhookEvent, later: WebhookEvent): boolean {
  if (later.object.id === event.object.id) return !isDeepStrictEqual(later.data, event.data);
  const child = childKind(later);
  if (childKind(event) || !child || later.data.asset_id !== event.object.id) return false;
  const { asset_id: _assetId, ...laterChild } = later.data;
  const held = child.children(event.data).find((t) => t.id === later.object.id);
  return !isDeepStrictEqual(held, laterChild);
}

/**
 * Holds each webhook's data against the bodies GET answered for its object: equal to a state seen
 * between the event's time and its subject's next change (the next event of the same object with
 * other data, or of one of an asset's tracks that its data holds otherwise); a `deleted` event's,
 * to the last state seen before it. Events of one change (`connected`,
 * `recording`, `active` in one transaction) carry the same data and share that state. A webhook is
 * left uncompared only when GET could not have seen its state: the next change came within
 * BRIEF_MS, or the watch began after it.
 */
export function compareWithStates(events: WebhookEvent[], states: ObjectStates): ShapeReport {
  const report: ShapeReport = { compared: new Map(), unseen: [], mismatches: [] };
  const sorted = [...events].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
  for (const [i, event] of sorted.entries()) {
    const at = Date.parse(event.created_at);
    const id = watchedId(event);
    const change = sorted.slice(i + 1).find((later) => changes(event, later));
    const next = change ? Date.parse(change.created_at) : (states.goneAt(id) ?? Infinity);
    const all = candidates(event, states);
    // a deleted object's data is its last state before the delete (a GET racing the delete may
    // have seen it half gone, after the event's time)
    const deleted = event.type.endsWith('.deleted') && !PART_DELETIONS.has(event.type);
    const seen = deleted
      ? all.filter(({ state }) => state.firstSeen <= at).slice(-1)
      : all.filter(({ state }) => state.lastSeen >= at - SLACK_MS && state.firstSeen <= next + SLACK_MS);
    if (seen.some(({ value }) => isDeepStrictEqual(value, event.data))) {
      report.compared.set(event.type, (report.compared.get(event.type) ?? 0) + 1);
      continue;
    }
    const since = states.watchingSince(id);
    if (since === undefined || since > next) report.unseen.push({ event, why: 'its object was watched only after its next change' });
    else if (!deleted && next - at < BRIEF_MS) report.unseen.push({ event, why: `its object changed again ${next - at} ms later` });
    else report.mismatches.push({ event, closest: seen.map((c) => c.value) });
  }
  return report;
}
