import { PublishNameRewriter } from './rtmp-publish-rewriter';

/** An RTMP message as a client writes it: a type-0 chunk, then type-3 continuations (extended timestamps repeated). */
function chunked(csid: number, typeId: number, payload: Buffer, chunkSize: number, timestamp = 0): Buffer {
  const parts: Buffer[] = [];
  const extended = timestamp >= 0xffffff;
  const ext = Buffer.alloc(4);
  ext.writeUInt32BE(timestamp);
  for (let off = 0; off < payload.length || off === 0; off += chunkSize) {
    if (off === 0) {
      const header = Buffer.alloc(12);
      header[0] = csid;
      header.writeUIntBE(extended ? 0xffffff : timestamp, 1, 3);
      header.writeUIntBE(payload.length, 4, 3);
      header[7] = typeId;
      header.writeUInt32LE(1, 8);
      parts.push(header);
    } else parts.push(Buffer.from([0xc0 | csid]));
    if (extended) parts.push(ext);
    parts.push(payload.subarray(off, off + chunkSize));
    if (payload.length === 0) break;
  }
  return Buffer.concat(parts);
}

const amfString = (s: string) => {
  const b = Buffer.from(s);
  return Buffer.concat([Buffer.from([0x02, b.length >> 8, b.length & 0xff]), b]);
};
const amfNumber = (n: number) => {
  const b = Buffer.alloc(9);
  b[0] = 0x00;
  b.writeDoubleBE(n, 1);
  return b;
};
const command = (name: string, id: number, ...strings: string[]) =>
  Buffer.concat([amfString(name), amfNumber(id), Buffer.from([0x05]), ...strings.map(amfString)]);
const setChunkSize = (size: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(size);
  return chunked(2, 1, b, 128);
};

function session(streamName: string, chunkSize: number): Buffer {
  const handshake = Buffer.alloc(3073, 7);
  handshake[0] = 3;
  return Buffer.concat([
    handshake,
    setChunkSize(chunkSize),
    chunked(3, 20, command('connect', 1, 'app'), chunkSize),
    chunked(3, 20, command('releaseStream', 2, streamName), chunkSize),
    chunked(3, 20, command('FCPublish', 3, streamName), chunkSize),
    chunked(4, 9, Buffer.alloc(300, 0xab), chunkSize, 0x1000000), // media with extended timestamps, interleaved
    chunked(3, 20, command('publish', 5, streamName, 'live'), chunkSize),
    chunked(4, 9, Buffer.alloc(200, 0xcd), chunkSize),
    chunked(3, 20, command('FCUnpublish', 6, streamName), chunkSize),
  ]);
}

function through(rewriter: PublishNameRewriter, input: Buffer, piece: number): Buffer {
  const out: Buffer[] = [];
  for (let i = 0; i < input.length; i += piece) out.push(rewriter.push(input.subarray(i, i + piece)));
  return Buffer.concat(out);
}

describe('PublishNameRewriter', () => {
  const standIn = 'Q7fZ2kLm9XwP0aBcD3eF';
  const key = 'live_123456789_abcdE'; // the same length

  it.each([
    ['whole chunks of 4096', 4096, 100_000],
    ['small chunks (the name split across chunk boundaries), bytes one at a time', 16, 1],
    ['the default chunk size, arriving 7 bytes at a time', 128, 7],
  ])('puts the key in place of the stand-in in every command, the rest byte for byte: %s', (_name, chunkSize, piece) => {
    const output = through(new PublishNameRewriter(standIn, key), session(standIn, chunkSize), piece);
    expect(output.equals(session(key, chunkSize))).toBe(true);
  });

  it('holds back an incomplete command until its last chunk arrives', () => {
    const rewriter = new PublishNameRewriter(standIn, key);
    const input = session(standIn, 16);
    const publishAt = input.indexOf(Buffer.from('publish')) - 3 - 12; // its first chunk's header
    const out1 = rewriter.push(input.subarray(0, publishAt + 20));
    expect(out1.includes(Buffer.from(standIn.slice(0, 8)))).toBe(false);
    const out2 = rewriter.push(input.subarray(publishAt + 20));
    expect(Buffer.concat([out1, out2]).equals(session(key, 16))).toBe(true);
  });

  it('passes a stream it cannot follow on unchanged (never a partial rewrite)', () => {
    const rewriter = new PublishNameRewriter(standIn, key);
    const garbage = Buffer.concat([Buffer.alloc(3073, 1), Buffer.from([0x43, 1, 2, 3]), amfString(standIn)]); // a type-3 chunk on an unknown stream
    expect(rewriter.push(garbage).equals(garbage)).toBe(true);
  });

  it('refuses a stand-in whose length differs from the name', () => {
    expect(() => new PublishNameRewriter('abc', 'abcd')).toThrow('same length');
  });
});
