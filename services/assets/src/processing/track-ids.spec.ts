import { withTrackIds } from './track-ids';

const counter = () => {
  let n = 0;
  return () => `t${++n}`;
};

describe('withTrackIds', () => {
  it('gives every track of a first probe a new id, dropping absent fields and ids sent by the caller', () => {
    const { tracks, added } = withTrackIds(
      [],
      [
        { id: '', type: 'video', max_width: 1280, max_height: 720, max_frame_rate: 30, duration: undefined },
        { id: 'from-caller', type: 'audio', max_channels: 2, primary: true },
      ],
      counter(),
    );
    expect(tracks).toEqual([
      { id: 't1', type: 'video', max_width: 1280, max_height: 720, max_frame_rate: 30 },
      { id: 't2', type: 'audio', max_channels: 2, primary: true },
    ]);
    expect(added).toEqual(tracks);
  });

  it('keeps the ids of a probe recorded again, adding none', () => {
    const first = withTrackIds(
      [],
      [
        { id: '', type: 'video' },
        { id: '', type: 'audio' },
        { id: '', type: 'audio' },
      ],
      counter(),
    );
    const again = withTrackIds(
      first.tracks,
      [
        { id: '', type: 'video' },
        { id: '', type: 'audio' },
        { id: '', type: 'audio' },
      ],
      () => 'never',
    );
    expect(again.tracks.map((t) => t.id)).toEqual(['t1', 't2', 't3']);
    expect(again.added).toEqual([]);
  });

  it('matches by type and position within the type, so a new track of a type gets a new id and the others keep theirs', () => {
    const stored = [
      { id: 'v', type: 'video' },
      { id: 'a1', type: 'audio' },
    ];
    const { tracks, added } = withTrackIds(
      stored,
      [
        { id: '', type: 'audio', max_channels: 6 },
        { id: '', type: 'audio' },
        { id: '', type: 'video' },
      ],
      counter(),
    );
    expect(tracks.map((t) => t.id)).toEqual(['a1', 't1', 'v']);
    expect(tracks[0]).toEqual({ id: 'a1', type: 'audio', max_channels: 6 });
    expect(added.map((t) => t.id)).toEqual(['t1']);
  });
});
