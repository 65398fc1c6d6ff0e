import { assetBody } from '@platform/testing';
import { PlatformEvent } from './event-bus.port';
import { topicOf } from './event-registry';
import { checkEmittedData, EventShapeError, validateEvent } from './event-validation';
import { newEvent, toPlatformEvent } from './new-event';

const asset = assetBody('a1', {
  status: 'ready',
  progress: { state: 'completed', progress: 100 },
  tracks: [{ id: 't1', type: 'video', max_width: 640 }],
});

describe('checkEmittedData (producers)', () => {
  it('passes data that is exactly its schema’s, as JSON carries it', () => {
    const { definition, data } = checkEmittedData('video.asset.ready', { ...asset, passthrough: undefined });
    expect(definition.objectType).toBe('asset');
    expect(data).toEqual(asset);
    expect(data).not.toHaveProperty('passthrough');
  });

  it.each([
    ['an unregistered type', 'video.asset.exploded', asset, 'video.asset.exploded is not a registered event type'],
    [
      'a field the schema does not have',
      'video.asset.ready',
      { ...asset, input_info: [] },
      'video.asset.ready: data does not match its schema: input_info is not a field of the schema',
    ],
    [
      'a nested field the schema does not have',
      'video.asset.ready',
      { ...asset, tracks: [{ id: 't1', type: 'video', codec: 'h264' }] },
      'video.asset.ready: data does not match its schema: tracks.0.codec is not a field of the schema',
    ],
    [
      'a value of another type',
      'video.asset.ready',
      { ...asset, duration: '12' },
      'video.asset.ready: data does not match its schema: duration: Invalid input: expected number, received string',
    ],
    ['a missing field', 'video.asset.ready', { ...asset, status: undefined }, /^video\.asset\.ready: data does not match its schema: status: /],
    ['no data', 'system.signing_key.created', null, /^system\.signing_key\.created: data does not match its schema: \(root\): /],
  ])('refuses %s', (_what, type, data, message) => {
    expect(() => checkEmittedData(type, data)).toThrow(EventShapeError);
    expect(() => checkEmittedData(type, data)).toThrow(message);
  });

  it('derives the event’s object from the registry: its type and its key (the data’s id)', () => {
    expect(newEvent('video.asset.track.ready', { id: 't1', type: 'audio', asset_id: 'a1' }).object).toEqual({ type: 'track', id: 't1' });
    expect(newEvent('video.live_stream.simulcast_target.idle', { id: 's1', status: 'idle', url: 'rtmp://x/app', live_stream_id: 'l1' }).object).toEqual({
      type: 'simulcast_target',
      id: 's1',
    });
  });
});

describe('validateEvent (consumers)', () => {
  const event = toPlatformEvent(newEvent('video.asset.ready', asset));
  const topic = topicOf('video.asset.ready');
  const invalid = (changes: Partial<PlatformEvent>, on = topic, types?: Parameters<typeof validateEvent>[2]) =>
    validateEvent({ ...event, ...changes }, on, types);

  it('accepts a registered event on its topic, and fields a newer producer added', () => {
    expect(validateEvent(event, topic)).toBeUndefined();
    expect(invalid({ data: { ...event.data, shiny_new_field: 1 } })).toBeUndefined();
  });

  it.each([
    ['an unknown type', { type: 'video.asset.exploded' }, topic, undefined, 'type video.asset.exploded is not one this consumer reads'],
    ['a type the consumer does not read', {}, topic, ['video.asset.created'] as const, 'type video.asset.ready is not one this consumer reads'],
    [
      'another topic (or version)',
      {},
      'video.asset.ready.v2',
      undefined,
      'video.asset.ready arrived on video.asset.ready.v2; its topic is video.asset.ready.v1',
    ],
    ['another object type', { object: { type: 'track', id: 'a1' } }, topic, undefined, 'object.type track is not asset'],
    ['an object id that is not the data’s', { object: { type: 'asset', id: 'a2' } }, topic, undefined, "object.id a2 is not the data's id a1"],
    [
      'data its schema refuses',
      { data: { ...asset, status: 'done' } },
      topic,
      undefined,
      'data does not match video.asset.ready.v1: status: Invalid option: expected one of "preparing"|"ready"|"errored"',
    ],
  ])('refuses %s with the reason', (_what, changes, on, types, reason) => {
    expect(invalid(changes as Partial<PlatformEvent>, on, types)).toBe(reason);
  });
});
