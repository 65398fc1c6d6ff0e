import { bestOffset, busiestWindow, cropRgb } from './smart-crop';

/** A grey frame with a busy (checkered) block at `at` of `size`. */
function frame(width: number, height: number, busy?: { x: number; y: number; w: number; h: number }): Buffer {
  const rgb = Buffer.alloc(width * height * 3, 128);
  if (busy) {
    for (let y = busy.y; y < busy.y + busy.h; y++) {
      for (let x = busy.x; x < busy.x + busy.w; x++) rgb.fill((x + y) % 2 === 0 ? 255 : 0, (y * width + x) * 3, (y * width + x) * 3 + 3);
    }
  }
  return rgb;
}

describe('smartcrop', () => {
  it('slides the window to the busiest part of the wider side', () => {
    // 178x100 frame, 100x100 window: the detail (columns 149–169 with its edges) sits near the right edge;
    // windows from 70 to 78 hold all of it, and 70 is the most central of them
    expect(busiestWindow(frame(178, 100, { x: 150, y: 40, w: 20, h: 20 }), { width: 178, height: 100 }, { width: 100, height: 100 })).toEqual({ x: 70, y: 0 });
    // near the left edge: 5 keeps the whole block (its outer left edge is within the 2 % near-tie) and is nearest the centre
    expect(busiestWindow(frame(178, 100, { x: 5, y: 40, w: 20, h: 20 }), { width: 178, height: 100 }, { width: 100, height: 100 })).toEqual({ x: 5, y: 0 });
    // a tall frame slides vertically
    expect(busiestWindow(frame(100, 178, { x: 40, y: 10, w: 20, h: 20 }), { width: 100, height: 178 }, { width: 100, height: 100 })).toEqual({ x: 0, y: 10 });
  });

  it('crops a flat picture around its centre, as crop does', () => {
    expect(busiestWindow(frame(178, 100), { width: 178, height: 100 }, { width: 100, height: 100 })).toEqual({ x: 39, y: 0 });
    expect(busiestWindow(frame(100, 100), { width: 100, height: 100 }, { width: 100, height: 100 })).toEqual({ x: 0, y: 0 });
  });

  it('chooses the most central of windows about as busy as the busiest', () => {
    // sums 5 5 5 0 5 5 5: of the ties, 2 and 4 are nearest the centre (3); the first wins
    expect(bestOffset([0, 0, 5, 0, 0, 0, 5, 0, 0], 3)).toBe(2);
    expect(bestOffset([1, 1, 1, 1, 1, 1, 1], 3)).toBe(2);
    expect(bestOffset([0, 0, 0, 0, 100, 99, 0], 2)).toBe(4);
    expect(bestOffset([9, 0, 0, 0, 0, 0, 0, 0, 0], 3)).toBe(0);
    expect(bestOffset([1, 2, 3], 3)).toBe(0);
  });

  it('cuts the window out of packed RGB rows', () => {
    const rgb = Buffer.from([...[1, 1, 1], ...[2, 2, 2], ...[3, 3, 3], ...[4, 4, 4], ...[5, 5, 5], ...[6, 6, 6]]); // 3x2
    expect([...cropRgb(rgb, { width: 3, height: 2 }, { width: 2, height: 1 }, { x: 1, y: 1 })]).toEqual([5, 5, 5, 6, 6, 6]);
    expect(() => busiestWindow(Buffer.alloc(10), { width: 3, height: 2 }, { width: 2, height: 2 })).toThrow('a 3x2 RGB frame needs 18 bytes, got 10');
  });
});
