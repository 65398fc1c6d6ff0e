import { bridgeArgs, bridgeInput, redactPassphrase } from './srt-front-door';
import {
  callerSocketId,
  cookieOf,
  encodeStreamIdExtension,
  HANDSHAKE_CONCLUSION,
  HANDSHAKE_INDUCTION,
  handshakeType,
  inductionResponse,
  isHandshake,
  rejection,
  REJECT_FORBIDDEN,
  shutdown,
  streamIdOf,
  streamKeyOfStreamId,
  withCookie,
} from './srt-packets';

/** A handshake as libsrt's caller sends it: header, the 48 bytes of handshake fields, then extensions. */
function handshake(type: number, socketId: number, cookie: number, extensions: Buffer[] = []): Buffer {
  const packet = Buffer.alloc(64);
  packet.writeUInt16BE(0x8000, 0);
  packet.writeUInt32BE(type === HANDSHAKE_INDUCTION ? 4 : 5, 16);
  packet.writeUInt16BE(type === HANDSHAKE_INDUCTION ? 2 : 5, 22);
  packet.writeUInt32BE(0x1234567, 24); // initial sequence number
  packet.writeUInt32BE(1500, 28);
  packet.writeUInt32BE(8192, 32);
  packet.writeUInt32BE(type, 36);
  packet.writeUInt32BE(socketId, 40);
  packet.writeUInt32BE(cookie, 44);
  return Buffer.concat([packet, ...extensions]);
}

/** An HSREQ extension (type 1, three words), as precedes the stream id in a real conclusion. */
const hsreq = Buffer.from([0, 1, 0, 3, 0, 1, 5, 3, 0, 0, 0, 0xbf, 0, 0x78, 0, 0x78]);

describe('SRT handshakes', () => {
  it('reads the stream id of a conclusion (32-bit words, bytes reversed), after other extensions', () => {
    const conclusion = handshake(HANDSHAKE_CONCLUSION, 77, 9, [hsreq, encodeStreamIdExtension('6b1e8c1e-1f2a-4d4e-9a57')]);
    expect(isHandshake(conclusion)).toBe(true);
    expect(handshakeType(conclusion)).toBe(HANDSHAKE_CONCLUSION);
    expect(streamIdOf(conclusion)).toBe('6b1e8c1e-1f2a-4d4e-9a57');
    // on the wire: "6b1e" travels as "e1b6"
    expect(encodeStreamIdExtension('6b1e').subarray(4).toString()).toBe('e1b6');
  });

  it('finds no stream id where the caller sent none', () => {
    expect(streamIdOf(handshake(HANDSHAKE_CONCLUSION, 77, 9, [hsreq]))).toBeUndefined();
  });

  it('answers an induction as an HSv5 listener: version 5, the SRT magic, the caller as destination, our cookie', () => {
    const induction = handshake(HANDSHAKE_INDUCTION, 0x0abcdef0, 0);
    const reply = inductionResponse(induction, 42, 0xdeadbeef);
    expect(reply.length).toBe(64);
    expect(reply.readUInt32BE(12)).toBe(0x0abcdef0);
    expect(reply.readUInt32BE(16)).toBe(5);
    expect(reply.readUInt16BE(22)).toBe(0x4a17);
    expect(handshakeType(reply)).toBe(HANDSHAKE_INDUCTION);
    expect(callerSocketId(reply)).toBe(42);
    expect(cookieOf(reply)).toBe(0xdeadbeef);
    expect(reply.readUInt32BE(24)).toBe(0x1234567); // the caller's initial sequence number, kept
  });

  it('rewrites only the cookie of a forwarded conclusion', () => {
    const conclusion = handshake(HANDSHAKE_CONCLUSION, 77, 9, [hsreq, encodeStreamIdExtension('k')]);
    const forwarded = withCookie(conclusion, 0xfeedface);
    expect(cookieOf(forwarded)).toBe(0xfeedface);
    expect(cookieOf(conclusion)).toBe(9);
    expect(Buffer.compare(forwarded.subarray(48), conclusion.subarray(48))).toBe(0);
    expect(Buffer.compare(forwarded.subarray(0, 44), conclusion.subarray(0, 44))).toBe(0);
  });

  it('rejects a conclusion with a reason code in the handshake type, addressed to the caller', () => {
    const reply = rejection(handshake(HANDSHAKE_CONCLUSION, 77, 9, [hsreq]), REJECT_FORBIDDEN);
    expect(handshakeType(reply)).toBe(1403);
    expect(reply.readUInt32BE(12)).toBe(77);
    expect(reply.length).toBe(64);
  });

  it('shuts a caller’s connection down with a control packet of type 5', () => {
    const packet = shutdown(77);
    expect(packet.readUInt16BE(0)).toBe(0x8005);
    expect(packet.readUInt32BE(12)).toBe(77);
    expect(isHandshake(packet)).toBe(false);
  });
});

describe('streamKeyOfStreamId', () => {
  it('takes the stream id itself as the key (Mux: streamid={stream_key})', () => {
    expect(streamKeyOfStreamId('abc-123')).toBe('abc-123');
  });

  it('takes r= of the access-control syntax, for publishing only', () => {
    expect(streamKeyOfStreamId('#!::r=abc-123,m=publish')).toBe('abc-123');
    expect(streamKeyOfStreamId('#!::m=publish,r=abc-123')).toBe('abc-123');
    expect(streamKeyOfStreamId('#!::r=abc-123,m=request')).toBeUndefined();
    expect(streamKeyOfStreamId('#!::m=publish')).toBeUndefined();
  });

  it('has no key for a missing or over-long id', () => {
    expect(streamKeyOfStreamId(undefined)).toBeUndefined();
    expect(streamKeyOfStreamId('')).toBeUndefined();
    expect(streamKeyOfStreamId('k'.repeat(256))).toBeUndefined();
  });
});

describe('the SRT bridge', () => {
  it('reads its listener (loopback, the passphrase URL-encoded, 5 s to get a caller) from stdin, never from its arguments, and passes its MPEG-TS on', () => {
    const args = bridgeArgs();
    expect(args).toEqual([
      '-v',
      'error',
      '-analyzeduration',
      '1000000',
      '-f',
      'concat',
      '-safe',
      '0',
      '-protocol_whitelist',
      'pipe,srt,udp',
      '-i',
      'pipe:0',
      '-map',
      '0',
      '-c',
      'copy',
      '-f',
      'mpegts',
      'pipe:1',
    ]);
    expect(bridgeInput(40000, "a+b/c='")).toBe(
      "ffconcat version 1.0\nfile 'srt://127.0.0.1:40000?mode=listener&passphrase=a%2Bb%2Fc%3D%27&listen_timeout=5000000'\noption analyzeduration 1000000\n",
    );
  });

  it('takes the passphrase out of what ffmpeg says before it is logged', () => {
    const said = "[concat @ 0x1] Impossible to open 'srt://127.0.0.1:4?mode=listener&passphrase=a%2Bb&listen_timeout=5' | a+b";
    expect(redactPassphrase(said, 'a+b')).toBe("[concat @ 0x1] Impossible to open 'srt://127.0.0.1:4?mode=listener&passphrase=…&listen_timeout=5' | …");
  });
});
