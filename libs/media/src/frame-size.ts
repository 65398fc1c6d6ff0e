/** Greatest common divisor (an aspect ratio's reduction). */
export function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** The even number at or below `n` (H.264 in 4:2:0 needs even dimensions), at least 2. */
export function floorEven(n: number): number {
  return Math.max(2, Math.floor(n / 2) * 2);
}

/** `W:H` in lowest terms. */
export function aspectRatioOf(width: number, height: number): string {
  const divisor = gcd(width, height) || 1;
  return `${width / divisor}:${height / divisor}`;
}

/** Deprecated `max_stored_resolution`, from the short side of the stored frame (portrait-safe). */
export function storedResolutionName(width: number, height: number): 'SD' | 'HD' | 'FHD' | 'UHD' {
  const shortSide = Math.min(width, height);
  if (shortSide < 720) return 'SD';
  if (shortSide < 1080) return 'HD';
  if (shortSide < 2160) return 'FHD';
  return 'UHD';
}
