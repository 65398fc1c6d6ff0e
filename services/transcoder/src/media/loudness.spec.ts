import { buildLoudnessMeasureArgs, loudnormFilter, LoudnessMeasurement, outputSampleRate, parseLoudnormMeasurement } from './loudness';

/** What ffmpeg 5.1 prints at the end of a measuring pass (stderr tail, verbatim but for the address). */
const FIRST_PASS = `size=N/A time=00:00:03.00 bitrate=N/A speed=  19x
video:0kB audio:2256kB subtitle:0kB other streams:0kB global headers:0kB muxing overhead: unknown
[Parsed_loudnorm_1 @ 0x55eeea1a0700] 
{
\t"input_i" : "-51.81",
\t"input_tp" : "-50.28",
\t"input_lra" : "0.10",
\t"input_thresh" : "-61.81",
\t"output_i" : "-23.01",
\t"output_tp" : "-21.48",
\t"output_lra" : "0.00",
\t"output_thresh" : "-33.01",
\t"normalization_type" : "dynamic",
\t"target_offset" : "0.01"
}
`;

const SILENCE = `[Parsed_loudnorm_1 @ 0x5621539a1b80] 
{
\t"input_i" : "-inf",
\t"input_tp" : "-inf",
\t"input_lra" : "0.00",
\t"input_thresh" : "-70.00",
\t"output_i" : "-inf",
\t"output_tp" : "-inf",
\t"output_lra" : "0.00",
\t"output_thresh" : "-70.00",
\t"normalization_type" : "linear",
\t"target_offset" : "inf"
}
`;

describe('buildLoudnessMeasureArgs', () => {
  it('runs the first audio stream, as the encodes mix it (stereo), through loudnorm with the EBU R128 target, writing nothing', () => {
    expect(buildLoudnessMeasureArgs('/w/input')).toEqual([
      '-hide_banner',
      '-nostdin',
      '-nostats',
      '-i',
      '/w/input',
      '-map',
      '0:a:0',
      '-af',
      'aformat=channel_layouts=stereo,loudnorm=I=-23:TP=-1:LRA=11:print_format=json',
      '-f',
      'null',
      '-',
    ]);
  });

  it('measures only what a test asset publishes, and mono when the encodes are mono', () => {
    const args = buildLoudnessMeasureArgs('/w/input', { maxSeconds: 10, channels: 1 });
    expect(args.slice(3, 7)).toEqual(['-t', '10', '-i', '/w/input']);
    expect(args).toContain('aformat=channel_layouts=mono,loudnorm=I=-23:TP=-1:LRA=11:print_format=json');
  });
});

describe('parseLoudnormMeasurement', () => {
  it('reads the input figures of the last loudnorm block', () => {
    expect(parseLoudnormMeasurement(FIRST_PASS)).toEqual({ integrated: -51.81, truePeak: -50.28, range: 0.1, threshold: -61.81, targetOffset: 0.01 });
  });

  it('reads the block that follows other log lines and a second filter instance', () => {
    const earlier = FIRST_PASS.replace('-51.81', '-10.00').replace('Parsed_loudnorm_1', 'Parsed_loudnorm_0');
    expect(parseLoudnormMeasurement(`${earlier}${FIRST_PASS}`)?.integrated).toBe(-51.81);
  });

  it('gives nothing to normalize for silence (integrated loudness -inf)', () => {
    expect(parseLoudnormMeasurement(SILENCE)).toBeUndefined();
  });

  it('fails when there is no measurement or a figure is missing', () => {
    expect(() => parseLoudnormMeasurement('Conversion failed!')).toThrow('loudnorm printed no measurement');
    expect(() => parseLoudnormMeasurement(FIRST_PASS.replace('"input_tp" : "-50.28",', ''))).toThrow('loudnorm measurement has no input_tp');
  });
});

describe('loudnormFilter', () => {
  const measured: LoudnessMeasurement = { integrated: -51.81, truePeak: -50.28, range: 0.1, threshold: -61.81, targetOffset: 0.01 };

  it('is the second pass: measured figures, linear mode, back to the output sample rate', () => {
    expect(loudnormFilter(measured, { sampleRate: 44_100 })).toBe(
      'aformat=channel_layouts=stereo,loudnorm=I=-23:TP=-1:LRA=11:measured_I=-51.81:measured_TP=-50.28:measured_LRA=0.10:measured_thresh=-61.81:offset=0.01:linear=true:print_format=none,aresample=44100',
    );
  });

  it('raises the range target to the measured range (so the range alone never forbids linear mode), up to 50', () => {
    expect(loudnormFilter({ ...measured, range: 14.2 })).toContain(':LRA=15:measured_I=');
    expect(loudnormFilter({ ...measured, range: 80 })).toContain(':LRA=50:measured_I=');
  });

  it('gives a steady tone (range 0) a range of 0.01, which loudnorm does not read as "not measured"', () => {
    expect(loudnormFilter({ ...measured, range: 0 })).toContain(':measured_LRA=0.01:');
  });

  it('clamps figures into loudnorm option ranges, defaults to 48 kHz stereo', () => {
    expect(loudnormFilter({ integrated: -120, truePeak: 3.2, range: 120, threshold: -130, targetOffset: -200 })).toBe(
      'aformat=channel_layouts=stereo,loudnorm=I=-23:TP=-1:LRA=50:measured_I=-99.00:measured_TP=3.20:measured_LRA=99.00:measured_thresh=-99.00:offset=-99.00:linear=true:print_format=none,aresample=48000',
    );
    expect(loudnormFilter(measured, { channels: 1 })).toMatch(/^aformat=channel_layouts=mono,/);
  });
});

describe('outputSampleRate', () => {
  it('keeps 44.1 and 48 kHz, anything else is 48 kHz', () => {
    expect(outputSampleRate('44100')).toBe(44_100);
    expect(outputSampleRate(48_000)).toBe(48_000);
    expect(outputSampleRate('22050')).toBe(48_000);
    expect(outputSampleRate(undefined)).toBe(48_000);
  });
});
