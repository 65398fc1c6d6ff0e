import { open } from 'node:fs/promises';

/** A top-level box (atom) of an ISO BMFF (MP4/M4A) file: its type and where it is. */
export interface Mp4Box {
  type: string;
  offset: number;
  size: number;
}

/**
 * The size and type of the box whose header is `header` (at least 8 bytes; 16 for a 64-bit size),
 * in a file of `fileSize` bytes at `offset`: size 1 means a 64-bit size follows, 0 "to the end of the file".
 */
export function parseBoxHeader(header: Buffer, offset: number, fileSize: number): Mp4Box | undefined {
  if (header.length < 8) return undefined;
  const small = header.readUInt32BE(0);
  const type = header.toString('latin1', 4, 8);
  let size = small;
  if (small === 1) {
    if (header.length < 16) return undefined;
    size = Number(header.readBigUInt64BE(8));
  } else if (small === 0) size = fileSize - offset;
  if (size < 8 || offset + size > fileSize) return undefined;
  return { type, offset, size };
}

/** Faststart: the index (`moov`) comes before the media (`mdat`), so playback and downloads start at once. */
export function isFaststart(boxes: readonly Mp4Box[]): boolean {
  const moov = boxes.findIndex((b) => b.type === 'moov');
  const mdat = boxes.findIndex((b) => b.type === 'mdat');
  return moov >= 0 && mdat >= 0 && moov < mdat;
}

/** The top-level boxes of a file, reading only their headers. Stops at the first header that does not make sense. */
export async function readTopLevelBoxes(path: string): Promise<Mp4Box[]> {
  const file = await open(path, 'r');
  try {
    const { size: fileSize } = await file.stat();
    const boxes: Mp4Box[] = [];
    const header = Buffer.alloc(16);
    for (let offset = 0; offset + 8 <= fileSize;) {
      const { bytesRead } = await file.read(header, 0, 16, offset);
      const box = parseBoxHeader(header.subarray(0, bytesRead), offset, fileSize);
      if (!box) break;
      boxes.push(box);
      offset += box.size;
    }
    return boxes;
  } finally {
    await file.close();
  }
}
