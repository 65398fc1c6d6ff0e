import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { Encoder, rtmpPort, spawnEncoder } from './encoder';

const run = promisify(execFile);
const SPEECH_SCRIPT = path.resolve(__dirname, '../../scripts/infra/speech.sh');

/** English the platform's recognizer (PocketSphinx, en-us) hears in espeak-ng's en-us voice. */
export const SPOKEN = 'Hello world. The weather is nice today. One two three four five six seven eight nine ten. Good morning and welcome to the show.';
/** The words of SPOKEN it hears reliably (it misses or mishears the others). */
export const HEARD_WORDS = ['weather', 'three', 'four', 'five', 'six', 'morning', 'show'];

export const wordsHeardIn = (text: string): string[] => HEARD_WORDS.filter((w) => new RegExp(`\\b${w}\\b`, 'i').test(text));

/** SPOKEN as a WAV file made by espeak-ng (installed by scripts/infra/speech.sh). */
export async function spokenEnglish(dir: string): Promise<string> {
  const espeak = (await run('bash', [SPEECH_SCRIPT, 'voice'])).stdout.trim();
  const wav = path.join(dir, 'spoken.wav');
  await run(espeak, ['-v', 'en-us', '-s', '130', '-w', wav, SPOKEN]);
  return wav;
}

/** An encoder pushing a test pattern with `wav` as its sound, `times` over, in real time over RTMP. */
export function pushRtmpSpeech(streamKey: string, wav: string, times: number, port = rtmpPort()): Encoder {
  return spawnEncoder([
    '-v',
    'error',
    '-re',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=640x360:rate=30',
    '-stream_loop',
    String(times - 1),
    '-i',
    wav,
    '-filter_complex',
    '[1:a]apad=pad_dur=2[a]',
    '-map',
    '0:v',
    '-map',
    '[a]',
    '-shortest',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-tune',
    'zerolatency',
    '-g',
    '60',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-ar',
    '48000',
    '-ac',
    '2',
    '-f',
    'flv',
    `rtmp://127.0.0.1:${port}/app/${streamKey}`,
  ]);
}

/** The text of a WebVTT document's cues, lines joined. */
export function cueText(vtt: string): string {
  return vtt
    .split('\n')
    .filter((l) => l !== '' && !l.includes('-->') && !l.startsWith('WEBVTT') && !l.startsWith('X-TIMESTAMP-MAP'))
    .join(' ');
}
