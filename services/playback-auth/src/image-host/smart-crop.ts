import { Size } from './image-geometry';

/** Windows whose detail is within this share of the busiest count as busy as it: the most central of them wins. */
const TIE_SHARE = 0.98;

/**
 * `fit_mode=smartcrop`, cheaply: where in a frame scaled to cover the box the window of the box's size holds
 * the most detail, measured as the sum of luma gradients (|dx| + |dy|) of the pixels it covers. The frame is
 * larger than the window along one axis only (it was scaled to cover), so the window slides along that axis;
 * among windows about as busy as the busiest, the most central is chosen, so a flat picture is cropped around
 * its centre as `crop` does. `rgb` is the frame as packed RGB24 rows.
 */
export function busiestWindow(rgb: Uint8Array, frame: Size, window: Size): { x: number; y: number } {
  if (rgb.length < frame.width * frame.height * 3)
    throw new Error(`a ${frame.width}x${frame.height} RGB frame needs ${frame.width * frame.height * 3} bytes, got ${rgb.length}`);
  const slack = { x: frame.width - window.width, y: frame.height - window.height };
  if (slack.x <= 0 && slack.y <= 0) return { x: 0, y: 0 };
  const horizontal = slack.x >= slack.y;
  const detail = lineDetail(rgb, frame, horizontal);
  const length = horizontal ? window.width : window.height;
  const offset = bestOffset(detail, length);
  return horizontal ? { x: offset, y: Math.max(0, Math.floor(slack.y / 2)) } : { x: Math.max(0, Math.floor(slack.x / 2)), y: offset };
}

/** The detail of each column (horizontal) or row of the frame. */
export function lineDetail(rgb: Uint8Array, frame: Size, horizontal: boolean): Float64Array {
  const { width, height } = frame;
  const luma = new Float64Array(width * height);
  for (let i = 0; i < width * height; i++) luma[i] = (rgb[i * 3] + 2 * rgb[i * 3 + 1] + rgb[i * 3 + 2]) / 4;
  const detail = new Float64Array(horizontal ? width : height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = y * width + x;
      const dx = x + 1 < width ? Math.abs(luma[at + 1] - luma[at]) : 0;
      const dy = y + 1 < height ? Math.abs(luma[at + width] - luma[at]) : 0;
      detail[horizontal ? x : y] += dx + dy;
    }
  }
  return detail;
}

/** The start of the window of `length` lines with the most detail (the most central of near ties). */
export function bestOffset(detail: ArrayLike<number>, length: number): number {
  const positions = detail.length - length + 1;
  if (positions <= 1) return 0;
  const sums = new Float64Array(positions);
  let sum = 0;
  for (let i = 0; i < length; i++) sum += detail[i];
  sums[0] = sum;
  for (let start = 1; start < positions; start++) {
    sum += detail[start + length - 1] - detail[start - 1];
    sums[start] = sum;
  }
  const best = Math.max(...sums);
  const centre = (positions - 1) / 2;
  let chosen = Math.round(centre);
  let distance = Infinity;
  for (let start = 0; start < positions; start++) {
    if (sums[start] >= best * TIE_SHARE && Math.abs(start - centre) < distance) {
      chosen = start;
      distance = Math.abs(start - centre);
    }
  }
  return chosen;
}

/** The `window` of a packed RGB24 frame at `at`, as packed RGB24. */
export function cropRgb(rgb: Uint8Array, frame: Size, window: Size, at: { x: number; y: number }): Buffer {
  const out = Buffer.alloc(window.width * window.height * 3);
  for (let row = 0; row < window.height; row++) {
    const from = ((at.y + row) * frame.width + at.x) * 3;
    out.set(rgb.subarray(from, from + window.width * 3), row * window.width * 3);
  }
  return out;
}
