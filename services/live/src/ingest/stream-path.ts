/** The RTMP application encoders publish to: `rtmp://host:RTMP_PORT/app/{stream_key}` (Mux's shape). */
export const RTMP_APP = 'app';

/** The stream key of a publish path `/app/{key}`, or undefined for any other path. */
export function streamKeyOf(streamPath: string): string | undefined {
  const match = /^\/([^/]+)\/([^/?]+)$/.exec(streamPath);
  if (!match || match[1] !== RTMP_APP || match[2].length > 255) return undefined;
  return match[2];
}
