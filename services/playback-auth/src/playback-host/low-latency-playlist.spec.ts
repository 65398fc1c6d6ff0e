import { deliveryDirectives, deltaUpdate, playlistEdge, reaches, tooFarAhead } from './low-latency-playlist';

/** A live edge as the live service writes it: segments 10–17 of 1 s, parts of the last three, two parts under way. */
const segment = (n: number, parts: boolean, discontinuity = false) => [
  ...(discontinuity ? ['#EXT-X-DISCONTINUITY'] : []),
  ...(parts ? [`#EXT-X-PART:DURATION=0.500000,URI="../live/p${n}a.ts",INDEPENDENT=YES`, `#EXT-X-PART:DURATION=0.500000,URI="../live/p${n}b.ts"`] : []),
  '#EXTINF:1.000000,',
  `../live/s${n}.ts`,
];
const LIVE = [
  '#EXTM3U',
  '#EXT-X-VERSION:9',
  '#EXT-X-TARGETDURATION:1',
  '#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=6.0,PART-HOLD-BACK=1.500',
  '#EXT-X-PART-INF:PART-TARGET=0.500',
  '#EXT-X-MEDIA-SEQUENCE:10',
  '#EXT-X-DISCONTINUITY-SEQUENCE:0',
  ...segment(10, false),
  ...segment(11, false, true),
  ...[12, 13, 14].flatMap((n) => segment(n, false)),
  ...[15, 16, 17].flatMap((n) => segment(n, true)),
  '#EXT-X-PART:DURATION=0.500000,URI="../live/p18a.ts",INDEPENDENT=YES',
  '#EXT-X-PART:DURATION=0.500000,URI="../live/p18b.ts"',
  '#EXT-X-PRELOAD-HINT:TYPE=PART,URI="../live/p18c.ts"',
  '#EXT-X-RENDITION-REPORT:URI="../window-360p/index.m3u8",LAST-MSN=18,LAST-PART=1',
  '',
].join('\n');

describe('LL-HLS delivery directives', () => {
  it('reads the directives of a query, refusing malformed ones', () => {
    expect(deliveryDirectives({ grant: 'x' })).toBeUndefined();
    expect(deliveryDirectives({ _HLS_msn: '18', _HLS_part: '2', _HLS_skip: 'YES' })).toEqual({ msn: 18, part: 2, skip: true });
    expect(deliveryDirectives({ _HLS_msn: '18' })).toEqual({ msn: 18 });
    expect(deliveryDirectives({ _HLS_skip: 'v2' })).toEqual({ skip: true });
    expect(deliveryDirectives({ _HLS_part: '1' })).toEqual({ error: '_HLS_part needs _HLS_msn' });
    expect(deliveryDirectives({ _HLS_msn: '-1' })).toEqual({ error: '_HLS_msn must be a media sequence number' });
    expect(deliveryDirectives({ _HLS_msn: ['1', '2'] })).toEqual({ error: '_HLS_msn must be a media sequence number' });
    expect(deliveryDirectives({ _HLS_msn: '3', _HLS_part: 'x' })).toEqual({ error: '_HLS_part must be a part index' });
    expect(deliveryDirectives({ _HLS_skip: 'NO' })).toEqual({ error: '_HLS_skip must be YES or v2' });
  });

  it('finds the live edge: the segment under way and its parts', () => {
    expect(playlistEdge(LIVE)).toEqual({ canBlock: true, canSkipUntil: 6, targetSeconds: 1, partTarget: 0.5, nextMsn: 18, partsOfNext: 2, ended: false });
    expect(playlistEdge('#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na.ts\n#EXT-X-ENDLIST\n')).toMatchObject({ canBlock: false, nextMsn: 1, ended: true });
  });

  it('tells whether a blocking reload’s segment or part is there, and when it asks too far ahead', () => {
    const edge = playlistEdge(LIVE);
    expect(reaches(edge, 17)).toBe(true);
    expect(reaches(edge, 18)).toBe(false); // under way: not complete
    expect(reaches(edge, 18, 1)).toBe(true);
    expect(reaches(edge, 18, 2)).toBe(false);
    expect(reaches(edge, 19, 0)).toBe(false);
    expect(tooFarAhead(edge, 19, 0)).toBe(false);
    expect(tooFarAhead(edge, 20)).toBe(true);
    // the Advance Part Limit with 0.5 s parts: 3 ÷ 0.5 = 6 parts past the last listed (part 1 of 18)
    expect(tooFarAhead(edge, 18, 7)).toBe(false);
    expect(tooFarAhead(edge, 18, 8)).toBe(true);
    expect(tooFarAhead(edge, 19, 5)).toBe(false);
    expect(tooFarAhead(edge, 19, 6)).toBe(true);
    // without PART-INF (no parts): 3
    const plain = { ...edge, partTarget: undefined };
    expect(tooFarAhead(plain, 18, 4)).toBe(false);
    expect(tooFarAhead(plain, 18, 5)).toBe(true);
  });

  it('skips the segments more than CAN-SKIP-UNTIL from the end in a delta update, their discontinuities with them', () => {
    const delta = deltaUpdate(LIVE);
    // 8 segments of 1 s: 10 and 11 end 6 s or more before the last segment's end
    expect(delta).toContain('#EXT-X-MEDIA-SEQUENCE:10\n#EXT-X-DISCONTINUITY-SEQUENCE:0\n#EXT-X-SKIP:SKIPPED-SEGMENTS=2\n#EXTINF:1.000000,\n../live/s12.ts\n');
    expect(delta).not.toContain('s11.ts');
    expect(delta).not.toContain('#EXT-X-DISCONTINUITY\n');
    expect(delta.endsWith(LIVE.slice(LIVE.indexOf('#EXTINF:1.000000,\n../live/s12.ts')))).toBe(true);
    expect(playlistEdge(delta)).toMatchObject({ nextMsn: 16, partsOfNext: 2 }); // what the client adds to its copy
  });

  it('leaves a playlist that offers no delta updates, or has nothing old enough, as it is', () => {
    const plain = '#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:4,\na.ts\n';
    expect(deltaUpdate(plain)).toBe(plain);
    const short = LIVE.replace('CAN-SKIP-UNTIL=6.0', 'CAN-SKIP-UNTIL=60.0');
    expect(deltaUpdate(short)).toBe(short);
  });
});
