import { sampleEvent } from './event-bus.contract';
import { assignPartitions } from './kafka-assigner';
import { KafkaBus } from './kafka-bus';
import { deadLetterHeaders, eventHeaders, headerText, parseEnvelope } from './kafka-envelope';

describe('parseEnvelope', () => {
  const valid = sampleEvent('obj-1');

  it('accepts a PlatformEvent and returns it unchanged', () => {
    expect(parseEnvelope(Buffer.from(JSON.stringify(valid)))).toEqual({ ok: true, event: valid });
  });

  it.each([
    [null, 'empty message value'],
    ['', 'empty message value'],
    ['{not json', 'message value is not JSON'],
    ['[1,2]', 'envelope is not a JSON object'],
    [JSON.stringify({ ...valid, id: '' }), 'envelope id must be a non-empty string'],
    [JSON.stringify({ ...valid, type: 7 }), 'envelope type must be a non-empty string'],
    [JSON.stringify({ ...valid, occurred_at: 'yesterday' }), 'envelope occurred_at must be an ISO 8601 timestamp'],
    [JSON.stringify({ ...valid, object: { type: 'thing' } }), 'envelope object must have a non-empty type and id'],
    [JSON.stringify({ ...valid, object: undefined }), 'envelope object must have a non-empty type and id'],
    [JSON.stringify({ ...valid, data: [1] }), 'envelope data must be a JSON object'],
    [JSON.stringify({ ...valid, data: null }), 'envelope data must be a JSON object'],
  ])('rejects %s as poison: %s', (value, reason) => {
    expect(parseEnvelope(value === null ? null : Buffer.from(value))).toEqual({ ok: false, reason });
  });
});

describe('headers', () => {
  it('names the event id and type on every published message', () => {
    const event = sampleEvent('x');
    expect(eventHeaders(event)).toEqual({ 'event-id': event.id, 'event-type': 'test.thing.updated' });
  });

  it('keeps the original headers of a dead letter and adds why, where from and for which group', () => {
    const headers = deadLetterHeaders(
      { 'event-id': Buffer.from('e1'), 'event-type': Buffer.from('video.asset.ready') },
      { reason: 'handler failed 5 times: boom', group: 'webhooks', topic: 'video.asset.ready.v1', partition: 2, offset: '41' },
    );
    expect(Object.fromEntries(Object.keys(headers).map((k) => [k, headerText(headers, k)]))).toEqual({
      'event-id': 'e1',
      'event-type': 'video.asset.ready',
      'dlq-reason': 'handler failed 5 times: boom',
      'dlq-group': 'webhooks',
      'original-topic': 'video.asset.ready.v1',
      'original-partition': '2',
      'original-offset': '41',
    });
  });
});

describe('assignPartitions', () => {
  it('spreads the partitions of a topic over its members, least loaded first', () => {
    const members = [
      { memberId: 'm-b', topics: ['t'] },
      { memberId: 'm-a', topics: ['t'] },
    ];
    expect(assignPartitions(members, { t: [2, 0, 1] })).toEqual({ 'm-a': { t: [0, 2] }, 'm-b': { t: [1] } });
  });

  it('gives a member only topics it subscribed to', () => {
    const members = [
      { memberId: 'one', topics: ['x'] },
      { memberId: 'two', topics: ['y'] },
      { memberId: 'three', topics: ['x', 'y'] },
    ];
    expect(assignPartitions(members, { x: [0, 1, 2], y: [0, 1, 2] })).toEqual({
      one: { x: [0, 2] },
      three: { x: [1], y: [1] },
      two: { y: [0, 2] },
    });
  });

  it('leaves a member without partitions when there are more members than partitions', () => {
    const members = ['a', 'b', 'c'].map((memberId) => ({ memberId, topics: ['t'] }));
    expect(assignPartitions(members, { t: [0, 1] })).toEqual({ a: { t: [0] }, b: { t: [1] }, c: {} });
  });
});

describe('KafkaBus', () => {
  it('connects lazily, closes idempotently and refuses to publish or subscribe after close', async () => {
    // Nothing listens on port 1: any connection attempt would fail the test.
    const bus = new KafkaBus({ brokers: ['127.0.0.1:1'], clientId: 'unit' }, 3);
    await bus.close();
    await bus.close();
    await expect(bus.publish('t.v1', 'k', sampleEvent('k'))).rejects.toThrow('event bus is closed');
    await expect(bus.subscribe({ group: 'g', topics: ['t.v1'], handle: async () => undefined })).rejects.toThrow('event bus is closed');
  });
});
