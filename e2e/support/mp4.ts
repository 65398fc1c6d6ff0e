/** The types of an MP4's top-level boxes, in file order, from its bytes (as a player reading it would meet them). */
export function topLevelBoxes(bytes: Buffer): string[] {
  const types: string[] = [];
  for (let offset = 0; offset + 8 <= bytes.length;) {
    const small = bytes.readUInt32BE(offset);
    const size = small === 1 ? Number(bytes.readBigUInt64BE(offset + 8)) : small === 0 ? bytes.length - offset : small;
    if (size < 8) break;
    types.push(bytes.toString('latin1', offset + 4, offset + 8));
    offset += size;
  }
  return types;
}

/** Faststart: the index (`moov`) before the media (`mdat`). */
export function isFaststart(bytes: Buffer): boolean {
  const types = topLevelBoxes(bytes);
  return types.includes('moov') && types.indexOf('moov') < types.indexOf('mdat');
}
