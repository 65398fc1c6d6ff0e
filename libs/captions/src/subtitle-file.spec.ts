import { webVtt } from './cues';
import { decodeSubtitleText, describeProblems, readSubtitleFile, srtSeconds, SubtitleFileError } from './subtitle-file';

const read = (text: string) => readSubtitleFile(Buffer.from(text, 'utf8'));
const asVtt = (text: string) => {
  const file = read(text);
  return webVtt(file.cues, undefined, file.blocks);
};

describe('readSubtitleFile: SubRip', () => {
  it('converts timing and text to WebVTT (comma milliseconds, indices dropped, CRLF lines)', () => {
    const srt = '1\r\n00:00:01,000 --> 00:00:02,500\r\nHello there.\r\n\r\n2\r\n00:01:03,250 --> 01:00:04,000\r\nTwo\r\nlines\r\n';
    expect(asVtt(srt)).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nHello there.\n\n00:01:03.250 --> 01:00:04.000\nTwo\nlines\n');
    expect(read(srt)).toMatchObject({ format: 'srt', total: 2, skipped: [] });
  });

  it('keeps <b>, <i>, <u> and makes {b}-style tags, <br> and font colours WebVTT', () => {
    const srt = [
      '1',
      '00:00:01,000 --> 00:00:02,000',
      '<B>bold</B> <i>italic</i> {u}under{/u}<br>next',
      '',
      '2',
      '00:00:03,000 --> 00:00:04,000',
      '<font color="#FF0000">red</font> <font color=yellow face="Arial">yellow</font> <font size="3">plain</font>',
    ].join('\n');
    const file = read(srt);
    expect(file.cues.map((c) => c.text)).toEqual(['<b>bold</b> <i>italic</i> <u>under</u>\nnext', '<c.color_ff0000>red</c> <c.color_ffff00>yellow</c> plain']);
    expect(file.blocks).toEqual(['STYLE\n::cue(.color_ff0000) {\n  color: #ff0000;\n}', 'STYLE\n::cue(.color_ffff00) {\n  color: #ffff00;\n}']);
  });

  it('drops unknown tags and ASS overrides, turns {\\anN} into a position, escapes <, > and &', () => {
    const srt = '1\n00:00:01,000 --> 00:00:02,000\n{\\an8}{\\pos(10,10)}<span>Tom & Jerry</span> say 1 < 2 --> 3\n';
    const [cue] = read(srt).cues;
    expect(cue).toEqual({ start: 1, end: 2, text: 'Tom &amp; Jerry say 1 &lt; 2 --&gt; 3', settings: 'line:0' });
    expect(read('1\n00:00:01,000 --> 00:00:02,000\n{\\an1}left\n').cues[0].settings).toBe('position:10% align:start');
    expect(read('1\n00:00:01,000 --> 00:00:02,000\n{\\an6}right\n').cues[0].settings).toBe('line:50% position:90% align:end');
  });

  it('closes a <font> span left open, and keeps character references', () => {
    expect(read('1\n00:00:01,000 --> 00:00:02,000\n<font color="blue">open &amp; &#233;\n').cues[0].text).toBe('<c.color_0000ff>open &amp; &#233;</c>');
  });

  it('skips bad cues and says which and why; the rest is kept, sorted by time', () => {
    const srt = [
      '1',
      '00:00:05,000 --> 00:00:06,000',
      'later',
      '',
      '2',
      '00:00:03,000 --> 00:00:02,000',
      'backwards',
      '',
      '3',
      '00:00:07,000 -> 00:00:08,000',
      'bad arrow',
      '',
      '4',
      '00:00:01,000 --> 00:00:02,000',
      '<i></i>',
      '',
      '5',
      '00:00:01,000 --> 00:00:01,500',
      'first',
      '',
      '6',
      '00:61:00,000 --> 00:62:00,000',
      'bad minutes',
    ].join('\n');
    const file = read(srt);
    expect(file.cues.map((c) => c.text)).toEqual(['first', 'later']);
    expect(file.total).toBe(6);
    expect(file.skipped).toEqual([
      { cue: 2, line: 6, reason: 'it ends before it starts (or when it starts)' },
      { cue: 3, line: 10, reason: 'its timing line is not "00:00:01,000 --> 00:00:02,000"' },
      { cue: 4, line: 14, reason: 'it has no text' },
      { cue: 6, line: 22, reason: 'its start time is not a valid timestamp' },
    ]);
    expect(describeProblems(file)).toBe(
      '4 of 6 cues skipped: cue 2 (line 6): it ends before it starts (or when it starts); cue 3 (line 10): its timing line is not "00:00:01,000 --> 00:00:02,000"; cue 4 (line 14): it has no text; cue 6 (line 22): its start time is not a valid timestamp',
    );
  });

  it('splits cues whose blank line is missing, and reads dots and short fractions', () => {
    const file = read('1\n00:00:01.5 --> 00:00:02,25\none\n2\n00:00:03,000 --> 00:00:04,000\ntwo\n');
    expect(file.cues).toEqual([
      { start: 1.5, end: 2.25, text: 'one' },
      { start: 3, end: 4, text: 'two' },
    ]);
    expect(srtSeconds('1:02:03,4')).toBe(3723.4);
    expect(srtSeconds('00:00:60,000')).toBeUndefined();
  });

  it('lists at most five problems, then how many more', () => {
    const bad = Array.from({ length: 7 }, (_, i) => `${i + 1}\n00:00:0${i},000 --> 00:00:00,000\nx`).join('\n\n');
    const file = readSubtitleFile(Buffer.from(`${bad}\n\n8\n00:00:09,000 --> 00:00:10,000\nok\n`));
    expect(describeProblems(file)).toMatch(/^7 of 8 cues skipped: cue 1 \(line 2\).*cue 5 \(line 18\): [^;]+; and 2 more$/);
  });
});

describe('readSubtitleFile: WebVTT', () => {
  it('keeps identifiers, valid cue settings, voice and class tags, STYLE and REGION blocks; drops NOTEs and bad settings', () => {
    const vtt = [
      'WEBVTT - a title',
      'Kind: captions',
      '',
      'STYLE',
      '::cue(.loud) { color: yellow }',
      '',
      'REGION',
      'id:top width:40% lines:3',
      '',
      'NOTE written by hand',
      '',
      'intro',
      '00:01.000 --> 00:02.500 line:0 align:middle position:20%,line-left size:50% region:top vertical:xx bogus',
      '<v.loud Esme>Hi <00:01.500><b>there</b></v> <span>x</span>',
      '',
      '00:00:03.000 --> 00:00:04.000',
      '<c.loud>second</c> &nbsp;&amp; <lang fr>oui</lang> <ruby>漢<rt>kan</rt></ruby>',
      '',
      'STYLE',
      '::cue { color: red }',
    ].join('\n');
    const file = read(vtt);
    expect(file.format).toBe('webvtt');
    expect(file.blocks).toEqual(['STYLE\n::cue(.loud) { color: yellow }', 'REGION\nid:top width:40% lines:3']);
    expect(file.cues).toEqual([
      {
        start: 1,
        end: 2.5,
        id: 'intro',
        settings: 'line:0 align:center position:20%,line-left size:50% region:top',
        text: '<v.loud Esme>Hi <00:01.500><b>there</b></v> x',
      },
      { start: 3, end: 4, text: '<c.loud>second</c> &nbsp;&amp; <lang fr>oui</lang> <ruby>漢<rt>kan</rt></ruby>' },
    ]);
    expect(file.skipped).toEqual([]);
  });

  it('reports cues without timing, with bad times, or without text', () => {
    const vtt =
      'WEBVTT\n\n00:01.000 --> 00:00.500\nbackwards\n\nno timing here\n\n1\n00:00:01.000 --> 00:00:02.000\n\n00:00:02.000 --> 00:00:03.000\nok\n\nid\n00:00:aa.000 --> 00:00:04.000\nbad\n';
    const file = read(vtt);
    expect(file.cues.map((c) => c.text)).toEqual(['ok']);
    expect(file.skipped).toEqual([
      { cue: 1, line: 3, reason: 'it ends before it starts (or when it starts)' },
      { cue: 2, line: 6, reason: 'it has no timing line' },
      { cue: 3, line: 9, reason: 'it has no text' },
      { cue: 5, line: 15, reason: 'its start time is not a valid timestamp' },
    ]);
  });

  it('writes back what it read as a valid document (the timestamp map of a segment is dropped)', () => {
    const vtt = 'WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000\n\n00:00:01.000 --> 00:00:02.000 align:start\n<i>hello</i>\n';
    expect(asVtt(vtt)).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:02.000 align:start\n<i>hello</i>\n');
  });
});

describe('readSubtitleFile: not subtitles', () => {
  it('refuses a file without cue timing, naming both formats', () => {
    expect(() => read('just some text\nwith lines\n')).toThrow(
      new SubtitleFileError(
        'The file is neither SubRip (SRT) nor WebVTT: it has no cue timing such as "00:00:01,000 --> 00:00:02,000" and does not begin with WEBVTT.',
      ),
    );
  });

  it('refuses a file with no usable cue, giving the reasons', () => {
    expect(() => read('1\n00:00:02,000 --> 00:00:01,000\nbackwards\n')).toThrow(
      'The SubRip (SRT) file has no valid cue: 1 of 1 cues skipped: cue 1 (line 2): it ends before it starts (or when it starts)',
    );
    expect(() => read('WEBVTT\n\nNOTE nothing\n')).toThrow('The WebVTT file has no valid cue.');
  });

  it('refuses binary files', () => {
    expect(() => readSubtitleFile(Buffer.from([0x00, 0x00, 0x01, 0xba, 0x44]))).toThrow('not a text file');
  });
});

describe('decodeSubtitleText', () => {
  it('reads UTF-8 (its BOM dropped), UTF-16 with a BOM, and Windows-1252 otherwise', () => {
    expect(decodeSubtitleText(Buffer.from('\uFEFFcafé', 'utf8'))).toBe('café');
    expect(decodeSubtitleText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('café', 'utf16le')]))).toBe('café');
    expect(decodeSubtitleText(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x93, 0x71, 0x94]))).toBe('café “q”');
  });

  it('reads a UTF-8 SRT with a BOM', () => {
    expect(readSubtitleFile(Buffer.from('\uFEFF1\n00:00:01,000 --> 00:00:02,000\nhé\n', 'utf8')).cues[0].text).toBe('hé');
  });
});
