export interface GalleryCell {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface GalleryGrid {
  columns: number;
  rows: number;
  tileWidth: number;
  tileHeight: number;
  /** One cell per tile, row by row, the whole grid centred in the frame. */
  cells: GalleryCell[];
}

/**
 * The gallery layout of `n` tiles of aspect `aspect` in a `width`×`height` frame: the column count
 * that gives the widest tiles, fewer rows on a tie; whole pixels.
 *
 * The compositor page runs this same function: the server serves its source text as a browser
 * module (`galleryGridModuleSource`), so it must stay self-contained (no imports, no helpers
 * outside its body).
 */
export function galleryGrid(n: number, width: number, height: number, aspect: number = 16 / 9): GalleryGrid {
  if (!(n > 0) || !(width > 0) || !(height > 0) || !(aspect > 0)) return { columns: 0, rows: 0, tileWidth: 0, tileHeight: 0, cells: [] };
  const count = Math.floor(n);
  // Tile widths of different column counts can be equal up to float rounding (1280/3 vs 240·16/9).
  const tie = 1e-6;
  let best = { columns: 1, rows: count, exactWidth: 0 };
  for (let columns = 1; columns <= count; columns++) {
    const rows = Math.ceil(count / columns);
    const exactWidth = Math.min(width / columns, (height / rows) * aspect);
    const wider = exactWidth > best.exactWidth + tie;
    const sameButFewerRows = Math.abs(exactWidth - best.exactWidth) <= tie && rows < best.rows;
    if (wider || sameButFewerRows) best = { columns, rows, exactWidth };
  }
  const tileWidth = Math.floor(best.exactWidth + tie);
  const tileHeight = Math.floor(best.exactWidth / aspect + tie);
  const left = Math.floor((width - best.columns * tileWidth) / 2);
  const top = Math.floor((height - best.rows * tileHeight) / 2);
  const cells: GalleryCell[] = [];
  for (let i = 0; i < count; i++) {
    const column = i % best.columns;
    const row = Math.floor(i / best.columns);
    cells.push({ x: left + column * tileWidth, y: top + row * tileHeight, width: tileWidth, height: tileHeight });
  }
  return { columns: best.columns, rows: best.rows, tileWidth, tileHeight, cells };
}

/** `galleryGrid` as an ES module for the browser (`GET /spaces/gallery-grid.js`). */
export function galleryGridModuleSource(): string {
  return `// Generated from services/spaces/src/realtime/gallery-grid.ts\nexport ${galleryGrid.toString()}\n`;
}
