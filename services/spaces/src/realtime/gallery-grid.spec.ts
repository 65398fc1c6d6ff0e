import { runInNewContext } from 'node:vm';
import { galleryGrid, galleryGridModuleSource } from './gallery-grid';

const shape = (n: number, width = 1280, height = 720) => {
  const grid = galleryGrid(n, width, height);
  return `${grid.columns}x${grid.rows} ${grid.tileWidth}x${grid.tileHeight}`;
};

describe('galleryGrid', () => {
  it('picks the column count giving the widest 16:9 tiles at 1280x720, fewer rows on a tie', () => {
    expect(shape(1)).toBe('1x1 1280x720');
    expect(shape(2)).toBe('2x1 640x360');
    expect(shape(3)).toBe('2x2 640x360');
    expect(shape(4)).toBe('2x2 640x360');
    expect(shape(5)).toBe('3x2 426x240');
    expect(shape(6)).toBe('3x2 426x240');
    // 3x3 tiles (426 wide) beat 4x2 and 4x3 ones (320 wide) for 7 to 9 tiles.
    expect(shape(7)).toBe('3x3 426x240');
    expect(shape(9)).toBe('3x3 426x240');
    expect(shape(10)).toBe('4x3 320x180');
  });

  it('centres the grid and places tiles row by row, leaving the cells past n empty', () => {
    expect(galleryGrid(2, 1280, 720).cells).toEqual([
      { x: 0, y: 180, width: 640, height: 360 },
      { x: 640, y: 180, width: 640, height: 360 },
    ]);
    expect(galleryGrid(3, 640, 360).cells).toEqual([
      { x: 0, y: 0, width: 320, height: 180 },
      { x: 320, y: 0, width: 320, height: 180 },
      { x: 0, y: 180, width: 320, height: 180 },
    ]);
    expect(galleryGrid(5, 1280, 720).cells[0]).toEqual({ x: 1, y: 120, width: 426, height: 240 });
    expect(galleryGrid(10, 1280, 720).cells[9]).toEqual({ x: 320, y: 450, width: 320, height: 180 });
  });

  it('stacks tiles in a portrait frame and honours another aspect', () => {
    const portrait = galleryGrid(2, 1080, 1920);
    expect([portrait.columns, portrait.rows, portrait.tileWidth, portrait.tileHeight]).toEqual([1, 2, 1080, 607]);
    expect(portrait.cells[0]).toEqual({ x: 0, y: 353, width: 1080, height: 607 });
    expect(shape(2, 720, 720)).toBe('1x2 640x360');
    const square = galleryGrid(4, 720, 720, 1);
    expect([square.columns, square.rows, square.tileWidth, square.tileHeight]).toEqual([2, 2, 360, 360]);
  });

  it('gives an empty grid for no tiles or an empty frame', () => {
    expect(galleryGrid(0, 1280, 720)).toEqual({ columns: 0, rows: 0, tileWidth: 0, tileHeight: 0, cells: [] });
    expect(galleryGrid(3, 0, 720).cells).toEqual([]);
  });

  it('serves the same function to the browser', () => {
    const source = galleryGridModuleSource();
    expect(source).toMatch(/^export function galleryGrid\(/m);
    const browserGrid = runInNewContext(`${source.replace(/^export /m, '')}; galleryGrid`) as typeof galleryGrid;
    for (let n = 0; n <= 12; n++) {
      expect(JSON.stringify(browserGrid(n, 1920, 1080))).toBe(JSON.stringify(galleryGrid(n, 1920, 1080)));
      expect(JSON.stringify(browserGrid(n, 720, 1280, 4 / 3))).toBe(JSON.stringify(galleryGrid(n, 720, 1280, 4 / 3)));
    }
  });
});
