import { streamUrl } from './assets';

/** The media playlist a playback id's master points at (its only variant), or '' before there is one. */
export async function variantPlaylist(playbackId: string): Promise<string> {
  const master = await fetch(streamUrl(`${playbackId}.m3u8`));
  if (master.status !== 200) return '';
  const variant = (await master.text()).split('\n').find((l) => l.startsWith(`${playbackId}/`));
  return variant ? (await fetch(streamUrl(variant))).text() : '';
}

/** How many segments a playback id's live playlist lists now (0 before it plays). */
export async function segmentsListed(playbackId: string): Promise<number> {
  return (await variantPlaylist(playbackId)).split('\n').filter((l) => l.includes('.ts')).length;
}
