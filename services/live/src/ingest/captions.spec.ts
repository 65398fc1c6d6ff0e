import { captionChannels, captionExtractionArgs, closedCaptionMedia, hasCues } from './captions';
import { liveMasterPlaylist } from './live-playlists';

describe('captionChannels', () => {
  it('applies spec 2.3’s defaults: language en, channel cc1, a name from the language', () => {
    expect(captionChannels([{}, { name: 'Deutsch', language_code: 'de', language_channel: 'cc3', passthrough: 'p' }])).toEqual([
      { name: 'en CC', languageCode: 'en', channel: 'cc1' },
      { name: 'Deutsch', languageCode: 'de', channel: 'cc3', passthrough: 'p' },
    ]);
  });
});

describe('closedCaptionMedia', () => {
  it('names each channel as a CLOSED-CAPTIONS rendition, the first the default', () => {
    expect(closedCaptionMedia(captionChannels([{ name: 'English "CC"' }, { language_code: 'es', language_channel: 'cc2' }]))).toEqual([
      '#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="English \'CC\'",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,INSTREAM-ID="CC1"',
      '#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="es CC",LANGUAGE="es",AUTOSELECT=YES,INSTREAM-ID="CC2"',
    ]);
  });

  it('goes into the live master with the variant pointing at the group, only when there is video', () => {
    const captions = captionChannels([{ name: 'English CC' }]);
    expect(liveMasterPlaylist([{ uri: 'live/index.m3u8', bandwidth: 3_000_000, width: 1280, height: 720 }], { captions })).toBe(
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n' +
        '#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="English CC",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,INSTREAM-ID="CC1"\n' +
        '#EXT-X-STREAM-INF:BANDWIDTH=3000000,RESOLUTION=1280x720,CLOSED-CAPTIONS="cc"\nlive/index.m3u8\n',
    );
    expect(liveMasterPlaylist([{ uri: 'live/index.m3u8', bandwidth: 128_000 }], { captions })).not.toContain('CLOSED-CAPTIONS');
  });
});

describe('captionExtractionArgs', () => {
  it('reads the field of the channel (cc1/cc2 first, cc3/cc4 second) from the concatenated segments as WebVTT', () => {
    expect(captionExtractionArgs('list.txt', 'cc1')).toEqual([
      '-v',
      'error',
      '-data_field',
      'first',
      '-f',
      'lavfi',
      '-i',
      'movie=list.txt:f=concat[out0+subcc]',
      '-map',
      '0:1',
      '-c:s',
      'webvtt',
      '-f',
      'webvtt',
      '-',
    ]);
    expect(captionExtractionArgs('list.txt', 'cc4')).toContain('second');
  });
});

describe('hasCues', () => {
  it('is true for a WebVTT document with a cue only', () => {
    expect(hasCues('WEBVTT\n\n')).toBe(false);
    expect(hasCues('WEBVTT\n\n00:00.300 --> 00:01.867\nCAPTION 1\n')).toBe(true);
  });
});
