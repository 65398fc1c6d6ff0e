import type Mux from '@mux/mux-node';
import { assetBody } from '@platform/testing';
import { definitionOf, EVENT_DEFINITIONS, EVENT_TYPES, EventData, EventType, isKnownEventType, topicOf } from './event-registry';
import { newEvent } from './new-event';
import { Emit } from './unit-of-work';

type MuxEvent = Mux.Webhooks.UnwrapWebhookEvent;

type MuxType = MuxEvent['type'];
type MuxData<T extends MuxType> = Extract<MuxEvent, { type: T }>['data'];

/** Our own events, which Mux does not send as webhooks (its SDK has no type for them). */
type PlatformOnly =
  | `system.signing_key.${'created' | 'deleted'}`
  | `video.${'playback_restriction' | 'transcription_vocabulary'}.${'created' | 'updated' | 'deleted'}`
  | `video.web_input.${'created' | 'updated' | 'launching' | 'streaming' | 'idle' | 'deleted'}`
  // Mux sent these until Spaces' sunset (2023-12-31); SDK v9 dropped their types
  | `video.space.${'created' | 'active' | 'idle' | 'deleted'}`
  | `video.space.broadcast.${'created' | 'active' | 'idle' | 'deleted'}`;
type MuxCovered = Exclude<EventType, PlatformOnly>;

type Equal<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
/** Fields of our data that Mux's webhook type does not have. */
type Extra<T extends MuxCovered> = Exclude<keyof EventData<T>, keyof MuxData<T>>;
/** Fields both have whose values ours would not fit in Mux's type. */
type Mismatched<T extends MuxCovered> = {
  [K in keyof EventData<T> & keyof MuxData<T>]-?: NonNullable<EventData<T>[K]> extends NonNullable<MuxData<T>[K]> ? never : K;
}[keyof EventData<T> & keyof MuxData<T>];

/**
 * The payloads against @mux/mux-node's webhook types, at compile time (`npx tsc -p
 * scripts/tsconfig.typecheck.json`): every registered type is Mux's or one of PlatformOnly, and
 * each payload differs from Mux's type only where docs/decisions.md ("Event payloads") says so.
 * Data is the API body of the object: `created_at` is the REST string (Mux's webhook types say
 * number), `recording_times[].started_at` the REST ISO string (the webhook type says {seconds,
 * nanos}), `updated_at`, `max_channel_layout` and an upload's `error` are fields our API has.
 */
export type PayloadsAgainstMux = [
  Assert<Equal<MuxCovered extends MuxType ? true : false, true>>,
  Assert<Equal<Extra<'video.asset.created'>, 'updated_at'>>,
  // static_renditions.files[].filesize: a string as the REST body has it (spec 2.1; SDK StaticRendition), the webhook type says number
  Assert<Equal<Mismatched<'video.asset.created'>, 'created_at' | 'recording_times' | 'static_renditions'>>,
  Assert<Equal<Mismatched<'video.asset.static_renditions.ready'>, 'created_at' | 'recording_times' | 'static_renditions'>>,
  Assert<Equal<Mismatched<'video.asset.master.ready'>, 'created_at' | 'recording_times' | 'static_renditions'>>,
  // Mux's file has an `error` too; ours is the file as GET shows it (errors are in the status)
  Assert<Equal<Extra<'video.asset.static_rendition.ready'>, never>>,
  Assert<Equal<Mismatched<'video.asset.static_rendition.ready'>, never>>,
  Assert<Equal<Exclude<keyof MuxData<'video.asset.static_rendition.errored'>, keyof EventData<'video.asset.static_rendition.errored'>>, 'error'>>,
  Assert<Equal<Extra<'video.asset.track.ready'>, 'max_channel_layout'>>,
  Assert<Equal<Mismatched<'video.asset.track.ready'>, never>>,
  Assert<Equal<Extra<'video.upload.created'>, 'error'>>,
  Assert<Equal<Mismatched<'video.upload.created'>, never>>,
  Assert<Equal<Extra<'video.live_stream.active'>, never>>,
  Assert<Equal<Mismatched<'video.live_stream.active'>, 'created_at' | 'embedded_subtitles' | 'generated_subtitles'>>,
  Assert<Equal<Extra<'video.live_stream.simulcast_target.errored'>, never>>,
  Assert<Equal<Mismatched<'video.live_stream.simulcast_target.errored'>, never>>,
  // Mux's warning data is a few asset fields and `warning`; ours is the whole body and `warning` (source_asset_id on clips)
  Assert<Equal<Exclude<keyof MuxData<'video.asset.warning'>, keyof EventData<'video.asset.warning'>>, never>>,
  Assert<Equal<Mismatched<'video.asset.warning'>, never>>,
];

describe('event registry', () => {
  it('names each topic <type>.v<version>, one definition per type', () => {
    expect(new Set(EVENT_TYPES).size).toBe(EVENT_DEFINITIONS.length);
    for (const d of EVENT_DEFINITIONS) expect(topicOf(d.type)).toBe(`${d.type}.v${d.version}`);
    expect(topicOf('video.asset.ready')).toBe('video.asset.ready.v1');
  });

  it('gives every event of a kind of object the same object type, Mux’s name for it', () => {
    const objectOf = (prefix: string) => new Set(EVENT_DEFINITIONS.filter((d) => d.type.startsWith(prefix)).map((d) => d.objectType));
    expect(objectOf('video.asset.track.')).toEqual(new Set(['track']));
    expect(objectOf('video.asset.static_rendition.')).toEqual(new Set(['static_rendition']));
    expect(objectOf('video.asset.static_renditions.')).toEqual(new Set(['asset']));
    expect(objectOf('video.asset.master.')).toEqual(new Set(['asset']));
    expect(objectOf('video.live_stream.simulcast_target.')).toEqual(new Set(['simulcast_target']));
    expect(objectOf('video.upload.')).toEqual(new Set(['upload']));
    expect(new Set(EVENT_DEFINITIONS.filter((d) => /^video\.live_stream\.[a-z_]+$/.test(d.type)).map((d) => d.objectType))).toEqual(new Set(['live']));
  });

  it('knows only its own types', () => {
    expect(isKnownEventType('video.asset.ready')).toBe(true);
    expect(isKnownEventType('video.asset.track.skipped')).toBe(false); // Mux's, never emitted here
    expect(definitionOf('video.widget.created')).toBeUndefined();
  });

  it('types emit by the registry: an unregistered type or data of another shape does not compile', () => {
    const emitted: string[] = [];
    const emit: Emit = (type, data) => void emitted.push(newEvent(type, data).type);
    emit('video.asset.created', assetBody('a1'));
    // @ts-expect-error not a registered event type
    expect(() => emit('video.asset.exploded', assetBody('a1'))).toThrow('video.asset.exploded is not a registered event type');
    // @ts-expect-error an upload is not an asset
    expect(() => emit('video.upload.created', assetBody('a1'))).toThrow(/^video\.upload\.created: data does not match its schema/);
    // @ts-expect-error `status` of an asset is one of three values
    expect(() => emit('video.asset.ready', { ...assetBody('a1'), status: 'done' })).toThrow(/status: /);
    expect(emitted).toEqual(['video.asset.created']);
  });
});
