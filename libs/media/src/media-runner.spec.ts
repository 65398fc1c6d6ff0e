import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MediaAbortedError, MediaProcessError } from './media-errors';
import { MediaRunner } from './media-runner';
import { MediaProgress } from './progress';

/** Stand-ins for ffmpeg/ffprobe: shell scripts that behave as the test needs. */
describe('MediaRunner', () => {
  let dir: string;
  const script = (name: string, body: string): string => {
    const path = join(dir, name);
    writeFileSync(path, `#!/bin/sh\n${body}\n`);
    chmodSync(path, 0o755);
    return path;
  };
  const runnerWith = (ffmpeg: string, ffprobe = ffmpeg, killGraceMs = 200) => new MediaRunner({ ffmpeg, ffprobe }, { killGraceMs });

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'runner-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('passes the argv unchanged (spaces, quotes and %v kept as single arguments)', async () => {
    const out = join(dir, 'argv.txt');
    const runner = runnerWith(script('argv', `for a in "$@"; do printf '%s\\n' "$a" >> ${out}; done`));
    const args = ['-i', '/in/a file.mp4', '-filter_complex', "[0:v]drawtext=text='TEST ASSET'[v]", '/out/%v/index.m3u8'];
    await runner.ffmpeg(args);
    expect(readFileSync(out, 'utf8')).toBe(`${args.join('\n')}\n`);
  });

  it('turns -progress output on stdout into progress callbacks', async () => {
    const runner = runnerWith(
      script('progress', `printf 'frame=1\\nout_time_us=1000000\\nprogress=continue\\n'; printf 'out_time_us=4000000\\nprogress=end\\n'`),
    );
    const seen: MediaProgress[] = [];
    await runner.ffmpeg([], { onProgress: (p) => seen.push(p), durationSeconds: 4 });
    expect(seen).toEqual([
      { outTimeSeconds: 1, fraction: 0.25, done: false },
      { outTimeSeconds: 4, fraction: 1, done: true },
    ]);
  });

  it('rejects a non-zero exit with a MediaProcessError carrying the last stderr lines', async () => {
    const runner = runnerWith(script('fail', `for i in 1 2 3 4 5; do echo "line $i" >&2; done; echo >&2; exit 3`));
    const error = await runner.ffmpeg(['-x']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaProcessError);
    expect(error).toMatchObject({ tool: 'ffmpeg', exitCode: 3, signal: null, stderrTail: 'line 3 / line 4 / line 5' });
    expect((error as Error).message).toBe('ffmpeg exited with status 3: line 3 / line 4 / line 5');
  });

  it('returns the end of what ffmpeg logged (ffmpegLog), beyond the 4 KiB kept for errors', async () => {
    // 10,000 lines of filler (~ 60 KB), then a report at the very end
    const runner = runnerWith(script('log', `i=0; while [ $i -lt 10000 ]; do echo "filler" >&2; i=$((i+1)); done; echo '{"input_i" : "-20.00"}' >&2`));
    const log = await runner.ffmpegLog(['-af', 'loudnorm']);
    expect(log.length).toBeGreaterThan(4096);
    expect(log.startsWith('filler')).toBe(true);
    expect(log.trimEnd().endsWith('{"input_i" : "-20.00"}')).toBe(true);
  });

  it('says a binary that does not exist could not be started', async () => {
    const error = await runnerWith(join(dir, 'missing'))
      .ffmpeg([])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaProcessError);
    expect(error).toMatchObject({ exitCode: null, signal: null });
    expect((error as Error).message).toMatch(/^ffmpeg could not be started: spawn .*missing ENOENT$/);
  });

  it('on abort sends SIGTERM, then SIGKILL to a process that ignores it, and rejects with the reason', async () => {
    const marker = join(dir, 'term.txt');
    const runner = runnerWith(script('stubborn', `trap 'echo term > ${marker}' TERM; echo started; while true; do sleep 0.05; done`));
    const controller = new AbortController();
    const reason = new Error('lease lost');
    let pid = 0;
    const started = Date.now();
    const pending = runner.ffmpeg([], { signal: controller.signal, onSpawn: (p) => (pid = p) });
    setTimeout(() => controller.abort(reason), 100);
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaAbortedError);
    expect((error as MediaAbortedError).reason).toBe(reason);
    expect(readFileSync(marker, 'utf8')).toBe('term\n');
    expect(Date.now() - started).toBeGreaterThanOrEqual(300); // 100 ms + the 200 ms grace
    expect(pid).toBeGreaterThan(0);
    expect(() => process.kill(pid, 0)).toThrow(); // gone
  });

  it('does not start at all when the signal is already aborted', async () => {
    const marker = join(dir, 'never.txt');
    const runner = runnerWith(script('never', `touch ${marker}`));
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    await expect(runner.ffmpeg([], { signal: controller.signal })).rejects.toBeInstanceOf(MediaAbortedError);
    expect(existsSync(marker)).toBe(false);
  });

  it('parses ffprobe JSON, and refuses output that is not JSON', async () => {
    const good = runnerWith('unused', script('probe', `echo '{"format":{"duration":"2.5"}}'`));
    expect(await good.probeJson(['x'])).toEqual({ format: { duration: '2.5' } });
    const bad = runnerWith('unused', script('garbage', `echo 'not json'`));
    await expect(bad.probeJson(['x'])).rejects.toThrow('ffprobe exited with status 0: its output is not JSON');
  });

  it('stops ffprobe when its JSON passes the size limit', async () => {
    const runner = new MediaRunner({ ffmpeg: 'unused', ffprobe: script('chatty', 'yes "{}"') }, { maxJsonBytes: 10_000, killGraceMs: 200 });
    const error = await runner.probeJson(['x']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaAbortedError);
    expect((error as Error).message).toBe('ffprobe was stopped: ffprobe printed more than 10000 bytes');
  });

  it('hands ffprobe output over line by line, the last line without newline included', async () => {
    const runner = runnerWith('unused', script('lines', `printf 'a\\nb\\nc'`));
    const lines: string[] = [];
    await runner.probeLines([], (l) => lines.push(l));
    expect(lines).toEqual(['a', 'b', 'c']);
  });

  it('pipes input to stdin and returns stdout as bytes (ffmpegPipe), from a buffer or from chunks', async () => {
    const runner = runnerWith(script('reverse', 'tr "abc" "xyz"'));
    expect((await runner.ffmpegPipe(['-i', 'pipe:0'], { input: Buffer.from('aabbcc') })).toString()).toBe('xxyyzz');
    async function* chunks() {
      yield Buffer.from('ab');
      yield Buffer.from('ca');
    }
    expect((await runner.ffmpegPipe([], { input: chunks() })).toString()).toBe('xyzx');
    const binary = runnerWith(script('bytes', `printf '\\377\\000\\330'`));
    expect([...(await binary.ffmpegPipe([]))]).toEqual([0xff, 0x00, 0xd8]);
  });

  it('is not failed by a process that exits without reading all its input (EPIPE), only by its status', async () => {
    const done = runnerWith(script('early', 'head -c 2'));
    expect((await done.ffmpegPipe([], { input: Buffer.alloc(4 * 1024 * 1024, 0x61) })).toString()).toBe('aa');
    const failing = runnerWith(script('fails', 'echo "Invalid data found when processing input" >&2; exit 1'));
    await expect(failing.ffmpegPipe([], { input: Buffer.alloc(1024) })).rejects.toThrow(
      'ffmpeg exited with status 1: Invalid data found when processing input',
    );
  });

  it('stops ffmpeg when its output passes the size limit', async () => {
    const runner = runnerWith(script('endless', 'yes'));
    const error = await runner.ffmpegPipe([], { maxOutputBytes: 1000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaAbortedError);
    expect((error as Error).message).toBe('ffmpeg was stopped: ffmpeg wrote more than 1000 bytes');
  });
});
