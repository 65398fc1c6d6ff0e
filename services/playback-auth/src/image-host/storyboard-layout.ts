import { Size } from './image-geometry';

/** Mux's storyboards: 50 tiles for an asset under 15 minutes, 100 from there on, 5 to a row. */
export const STORYBOARD_COLUMNS = 5;
const LONG_ASSET_SECONDS = 15 * 60;

export function storyboardTileCount(seconds: number): number {
  return seconds < LONG_ASSET_SECONDS ? 50 : 100;
}

/** Where each tile is taken from: evenly spaced over the span, `span.start` included. */
export function tileTargets(span: { start: number; end: number }, count: number): number[] {
  const step = (span.end - span.start) / count;
  return Array.from({ length: count }, (_, i) => span.start + i * step);
}

export interface StoryboardTile {
  /** Seconds from the span's start at which this tile's picture is shown. */
  start: number;
  x: number;
  y: number;
}

export interface StoryboardLayout {
  tile: Size;
  columns: number;
  rows: number;
  /** Seconds the storyboard covers. */
  duration: number;
  tiles: StoryboardTile[];
}

/** The sheet of tiles in order, row by row; `starts` are the pictures' times from the span's start, rising. */
export function storyboardLayout(tile: Size, starts: readonly number[], duration: number): StoryboardLayout {
  const columns = Math.min(STORYBOARD_COLUMNS, Math.max(1, starts.length));
  return {
    tile,
    columns,
    rows: Math.max(1, Math.ceil(starts.length / columns)),
    duration,
    tiles: starts.map((start, i) => ({ start: i === 0 ? 0 : round3(start), x: (i % columns) * tile.width, y: Math.floor(i / columns) * tile.height })),
  };
}

/** The sheet's size in pixels. */
export function sheetSize(layout: StoryboardLayout): Size {
  return { width: layout.columns * layout.tile.width, height: layout.rows * layout.tile.height };
}

/**
 * The WebVTT metadata track players read (Mux Player, video.js, JW Player…): one cue per tile, from its
 * start to the next tile's (the last to the end), its text the sheet's absolute URL with a
 * `#xywh=x,y,w,h` fragment.
 */
export function storyboardVtt(layout: StoryboardLayout, sheetUrl: string): string {
  const cues = layout.tiles.map((tile, i) => {
    const end = i + 1 < layout.tiles.length ? layout.tiles[i + 1].start : Math.max(tile.start, layout.duration);
    return `${vttTime(tile.start)} --> ${vttTime(end)}\n${sheetUrl}#xywh=${tile.x},${tile.y},${layout.tile.width},${layout.tile.height}`;
  });
  return `WEBVTT\n\n${cues.join('\n\n')}\n`;
}

/** Mux's `storyboard.json`. */
export interface StoryboardJson {
  url: string;
  tile_width: number;
  tile_height: number;
  duration: number;
  tiles: StoryboardTile[];
}

export function storyboardJson(layout: StoryboardLayout, sheetUrl: string): StoryboardJson {
  return { url: sheetUrl, tile_width: layout.tile.width, tile_height: layout.tile.height, duration: round3(layout.duration), tiles: layout.tiles };
}

/** `HH:MM:SS.mmm`. */
export function vttTime(seconds: number): string {
  const ms = Math.round(Math.max(0, seconds) * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const rest = ms % 1000;
  return `${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)}.${pad(rest, 3)}`;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
