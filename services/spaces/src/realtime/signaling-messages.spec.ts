import { MAX_SDP_CHARS, parseClientMessage, serializeServerMessage, SignalingError } from './signaling-messages';

const sdp = 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n';

describe('parseClientMessage', () => {
  it('accepts each message the browser client sends', () => {
    expect(parseClientMessage('{"type":"join","publish":true}')).toEqual({ type: 'join', publish: true });
    expect(parseClientMessage(JSON.stringify({ type: 'publishOffer', sdp }))).toEqual({ type: 'publishOffer', sdp });
    expect(parseClientMessage(JSON.stringify({ type: 'subscribeAnswer', sdp }))).toEqual({ type: 'subscribeAnswer', sdp });
    const candidate = { candidate: 'candidate:1 1 udp 2122260223 10.0.0.2 50000 typ host', sdpMid: '0', sdpMLineIndex: 0, usernameFragment: 'abcd' };
    expect(parseClientMessage(JSON.stringify({ type: 'candidate', target: 'subscribe', candidate }))).toEqual({
      type: 'candidate',
      target: 'subscribe',
      candidate,
    });
    expect(parseClientMessage('{"type":"candidate","target":"publish","candidate":null}')).toEqual({ type: 'candidate', target: 'publish', candidate: null });
    expect(parseClientMessage('{"type":"leave"}')).toEqual({ type: 'leave' });
  });

  it.each([
    ['not json', 'message is not JSON'],
    ['[]', 'invalid message: Invalid input: expected object, received array'],
    ['{"type":"dance"}', 'invalid message: type: '],
    ['{"type":"join"}', 'invalid message: publish: Invalid input: expected boolean, received undefined'],
    ['{"type":"join","publish":"yes"}', 'invalid message: publish: Invalid input: expected boolean, received string'],
    ['{"type":"join","publish":true,"hidden":true}', 'invalid message: Unrecognized key: "hidden"'],
    ['{"type":"publishOffer","sdp":""}', 'invalid message: sdp: '],
    ['{"type":"candidate","target":"both","candidate":null}', 'invalid message: target: '],
    ['{"type":"candidate","target":"publish","candidate":{"candidate":"x","sdpMLineIndex":-1}}', 'invalid message: candidate.sdpMLineIndex: '],
  ])('rejects %s', (raw, message) => {
    expect(() => parseClientMessage(raw)).toThrow(SignalingError);
    expect(() => parseClientMessage(raw)).toThrow(message);
  });

  it('rejects an SDP longer than the limit', () => {
    const long = JSON.stringify({ type: 'subscribeAnswer', sdp: 'a'.repeat(MAX_SDP_CHARS + 1) });
    expect(() => parseClientMessage(long)).toThrow('invalid message: sdp: ');
    expect(parseClientMessage(JSON.stringify({ type: 'subscribeAnswer', sdp: 'a'.repeat(MAX_SDP_CHARS) })).type).toBe('subscribeAnswer');
  });
});

describe('serializeServerMessage', () => {
  it('writes the JSON the browser client reads', () => {
    expect(serializeServerMessage({ type: 'activeSpeaker', participantId: null })).toBe('{"type":"activeSpeaker","participantId":null}');
    expect(JSON.parse(serializeServerMessage({ type: 'subscribeOffer', sdp, tracks: [{ mid: '1', participantId: 'p1', kind: 'video' }] }))).toEqual({
      type: 'subscribeOffer',
      sdp,
      tracks: [{ mid: '1', participantId: 'p1', kind: 'video' }],
    });
  });
});
