import { sheetSize, storyboardJson, storyboardLayout, storyboardTileCount, storyboardVtt, tileTargets, vttTime } from './storyboard-layout';

describe('storyboard layout', () => {
  it('has Mux’s tile counts: 50 under 15 minutes, 100 from there, evenly spaced from the start', () => {
    expect(storyboardTileCount(60)).toBe(50);
    expect(storyboardTileCount(899.9)).toBe(50);
    expect(storyboardTileCount(900)).toBe(100);
    expect(tileTargets({ start: 0, end: 100 }, 50).slice(0, 3)).toEqual([0, 2, 4]);
    expect(tileTargets({ start: 10, end: 20 }, 5)).toEqual([10, 12, 14, 16, 18]);
  });

  it('lays tiles five to a row, the first at 0', () => {
    const layout = storyboardLayout({ width: 256, height: 144 }, [0.033, 2, 4, 6, 8, 10, 12], 14);
    expect(layout).toMatchObject({ columns: 5, rows: 2, duration: 14 });
    expect(layout.tiles).toEqual([
      { start: 0, x: 0, y: 0 },
      { start: 2, x: 256, y: 0 },
      { start: 4, x: 512, y: 0 },
      { start: 6, x: 768, y: 0 },
      { start: 8, x: 1024, y: 0 },
      { start: 10, x: 0, y: 144 },
      { start: 12, x: 256, y: 144 },
    ]);
    expect(sheetSize(layout)).toEqual({ width: 1280, height: 288 });
    expect(sheetSize(storyboardLayout({ width: 256, height: 144 }, [0, 1], 2))).toEqual({ width: 512, height: 144 });
  });

  it('writes the WebVTT players read: a cue per tile to the next tile (the last to the end), the sheet URL with #xywh', () => {
    const layout = storyboardLayout({ width: 256, height: 160 }, [0, 66.066667, 134.066667], 200.5);
    expect(storyboardVtt(layout, 'http://img.test/pid/storyboard.jpg?token=abc')).toBe(
      [
        'WEBVTT',
        '',
        '00:00:00.000 --> 00:01:06.067',
        'http://img.test/pid/storyboard.jpg?token=abc#xywh=0,0,256,160',
        '',
        '00:01:06.067 --> 00:02:14.067',
        'http://img.test/pid/storyboard.jpg?token=abc#xywh=256,0,256,160',
        '',
        '00:02:14.067 --> 00:03:20.500',
        'http://img.test/pid/storyboard.jpg?token=abc#xywh=512,0,256,160',
        '',
      ].join('\n'),
    );
  });

  it('gives Mux’s storyboard.json shape', () => {
    const layout = storyboardLayout({ width: 256, height: 160 }, [0, 66.066667], 6744.1);
    expect(storyboardJson(layout, 'https://img/pid/storyboard.jpg')).toEqual({
      url: 'https://img/pid/storyboard.jpg',
      tile_width: 256,
      tile_height: 160,
      duration: 6744.1,
      tiles: [
        { start: 0, x: 0, y: 0 },
        { start: 66.067, x: 256, y: 0 },
      ],
    });
  });

  it('writes WebVTT times as HH:MM:SS.mmm', () => {
    expect(vttTime(0)).toBe('00:00:00.000');
    expect(vttTime(3725.4567)).toBe('01:02:05.457');
    expect(vttTime(-1)).toBe('00:00:00.000');
  });
});
