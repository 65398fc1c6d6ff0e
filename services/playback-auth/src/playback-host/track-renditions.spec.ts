import { assets } from '@platform/proto';
import { SDH_CHARACTERISTICS, withTrackRenditions } from './track-renditions';

const LADDER = [
  '#EXTM3U',
  '#EXT-X-VERSION:3',
  '#EXT-X-INDEPENDENT-SEGMENTS',
  '#EXT-X-STREAM-INF:BANDWIDTH=900000,AVERAGE-BANDWIDTH=800000,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=640x360,FRAME-RATE=25.000',
  '360p/index.m3u8',
  '#EXT-X-STREAM-INF:BANDWIDTH=500000,CODECS="avc1.64001e,mp4a.40.2",RESOLUTION=480x270',
  '270p/index.m3u8',
  '',
].join('\n');

const text = (id: string, fields: Partial<assets.Track> = {}): assets.Track => ({
  id,
  type: 'text',
  status: 'ready',
  name: 'English',
  language_code: 'en',
  ...fields,
});
const primary: assets.Track = { id: 'a1', type: 'audio', primary: true, name: 'English', language_code: 'en' };
const french: assets.Track = { id: 'fr', type: 'audio', primary: false, status: 'ready', name: 'Français', language_code: 'fr' };

describe('withTrackRenditions', () => {
  it('leaves a master without tracks as it is', () => {
    expect(withTrackRenditions(LADDER, [])).toBe(LADDER);
    expect(withTrackRenditions(LADDER, [primary])).toBe(LADDER);
  });

  it('adds a SUBTITLES group of the text tracks, SDH characteristics for closed captions, and names it on every variant', () => {
    const master = withTrackRenditions(LADDER, [text('t1'), text('t2', { name: 'Español "CC"', language_code: 'es', closed_captions: true })]);
    expect(master.split('\n')).toEqual([
      '#EXTM3U',
      '#EXT-X-VERSION:3',
      '#EXT-X-INDEPENDENT-SEGMENTS',
      '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=YES,URI="text-t1/index.m3u8"',
      `#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Español 'CC'",LANGUAGE="es",DEFAULT=NO,AUTOSELECT=YES,CHARACTERISTICS="${SDH_CHARACTERISTICS}",URI="text-t2/index.m3u8"`,
      '#EXT-X-STREAM-INF:BANDWIDTH=900000,AVERAGE-BANDWIDTH=800000,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=640x360,FRAME-RATE=25.000,SUBTITLES="subs"',
      '360p/index.m3u8',
      '#EXT-X-STREAM-INF:BANDWIDTH=500000,CODECS="avc1.64001e,mp4a.40.2",RESOLUTION=480x270,SUBTITLES="subs"',
      '270p/index.m3u8',
      '',
    ]);
  });

  it('adds an AUDIO group: the primary audio muxed in the variants (no URI, the default), then the alternates', () => {
    const master = withTrackRenditions(LADDER, [primary, french]).split('\n');
    expect(master.filter((l) => l.startsWith('#EXT-X-MEDIA'))).toEqual([
      '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="audio",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES',
      '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="audio",NAME="Français",LANGUAGE="fr",DEFAULT=NO,AUTOSELECT=YES,URI="audio-fr/index.m3u8"',
    ]);
    expect(master.filter((l) => l.startsWith('#EXT-X-STREAM-INF')).every((l) => l.endsWith(',AUDIO="audio"'))).toBe(true);
  });

  it('calls an unnamed primary audio "Default", as Mux does, without a language', () => {
    const master = withTrackRenditions(LADDER, [{ id: 'a1', type: 'audio', primary: true }, french]);
    expect(master).toContain('#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="audio",NAME="Default",DEFAULT=YES,AUTOSELECT=YES\n');
  });

  it('makes the first alternate the default of a video without audio, and adds its codec to the variants', () => {
    const silent = '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000,CODECS="avc1.64001f",RESOLUTION=640x360\n360p/index.m3u8\n';
    const master = withTrackRenditions(silent, [french]);
    expect(master).toContain('NAME="Français",LANGUAGE="fr",DEFAULT=YES,AUTOSELECT=YES,URI="audio-fr/index.m3u8"');
    expect(master).toContain('#EXT-X-STREAM-INF:BANDWIDTH=1000,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=640x360,AUDIO="audio"');
  });

  it('puts text tracks in the SUBTITLES group a live recording’s master already has, keeping its renditions', () => {
    const live = [
      '#EXTM3U',
      '#EXT-X-VERSION:3',
      '#EXT-X-INDEPENDENT-SEGMENTS',
      '#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="en CC",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,INSTREAM-ID="CC1"',
      '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English (generated)",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=YES,URI="subs/index.m3u8"',
      '#EXT-X-STREAM-INF:BANDWIDTH=2000000,RESOLUTION=1280x720,CLOSED-CAPTIONS="cc",SUBTITLES="subs"',
      'live/index.m3u8',
      '',
    ].join('\n');
    expect(withTrackRenditions(live, [text('t1', { name: 'Uploaded' })]).split('\n')).toEqual([
      ...live.split('\n').slice(0, 5),
      '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Uploaded",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=YES,URI="text-t1/index.m3u8"',
      '#EXT-X-STREAM-INF:BANDWIDTH=2000000,RESOLUTION=1280x720,CLOSED-CAPTIONS="cc",SUBTITLES="subs"',
      'live/index.m3u8',
      '',
    ]);
  });
});
