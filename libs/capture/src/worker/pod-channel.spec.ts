import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { CaptureCommand } from '../capture-job';
import { parseAnnotations, reloadGeneration, watchReloadGeneration } from './pod-annotations';
import { podChannel } from './pod-channel';

/** The Pod-mode pieces of the worker, on real files: what the Downward API and the kubelet give a worker in a Pod. */
describe('a capture worker in a Pod', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pod-channel-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
  /** As the kubelet writes it: `key="value"` lines, values quoted as Go's %q does. */
  const annotationsFile = (generation: number) =>
    [
      'kubernetes.io/config.seen="2026-11-28T10:00:00.000000000Z"',
      'note="a \\"quoted\\" line\\nand another"',
      `video-platform/reload-generation="${generation}"`,
    ].join('\n');

  it('reads the Downward API annotations file', () => {
    const annotations = parseAnnotations(annotationsFile(4));
    expect(annotations).toEqual({
      'kubernetes.io/config.seen': '2026-11-28T10:00:00.000000000Z',
      note: 'a "quoted" line\nand another',
      'video-platform/reload-generation': '4',
    });
    expect(reloadGeneration(annotations)).toBe(4);
    expect(reloadGeneration({})).toBe(0);
    expect(reloadGeneration({ 'video-platform/reload-generation': 'soon' })).toBe(0);
  });

  it('reloads once each time the reload generation rises, from where the first look found it', async () => {
    const file = path.join(dir, 'annotations');
    fs.writeFileSync(file, annotationsFile(2));
    let reloads = 0;
    const watch = watchReloadGeneration(file, 20, () => reloads++);
    await wait(80);
    expect(reloads).toBe(0);
    fs.writeFileSync(file, annotationsFile(3));
    await wait(80);
    expect(reloads).toBe(1);
    fs.writeFileSync(file, annotationsFile(3)); // rewritten for another annotation: no reload
    await wait(80);
    fs.writeFileSync(file, annotationsFile(5)); // two reloads between looks: the page reloads once
    await wait(80);
    expect(reloads).toBe(2);
    watch.stop();
    fs.writeFileSync(file, annotationsFile(6));
    await wait(80);
    expect(reloads).toBe(2);
  });

  it('waits for a file that is not there yet', async () => {
    const file = path.join(dir, 'later');
    let reloads = 0;
    const watch = watchReloadGeneration(file, 20, () => reloads++);
    await wait(60);
    fs.writeFileSync(file, annotationsFile(1));
    await wait(60);
    fs.writeFileSync(file, annotationsFile(2));
    await wait(60);
    watch.stop();
    expect(reloads).toBe(1);
  });

  const channel = () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (c: Buffer) => (text += c.toString()));
    const exits: number[] = [];
    const env = { CAPTURE_TERMINATION_LOG: path.join(dir, 'termination-log'), CAPTURE_ANNOTATIONS_FILE: path.join(dir, 'annotations') };
    fs.writeFileSync(env.CAPTURE_ANNOTATIONS_FILE, annotationsFile(0));
    const ch = podChannel({ env, out, exit: (code) => exits.push(code), pollMs: 20 });
    return {
      ch,
      env,
      exits,
      lines: () =>
        text
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as unknown),
    };
  };

  it('logs reports as JSON lines, turns a rise of the annotation into a reload command, ends in the termination log', async () => {
    const { ch, env, exits, lines } = channel();
    const commands: CaptureCommand[] = [];
    ch.onCommand((c) => commands.push(c));
    ch.report({ type: 'page_loaded', loads: 1 });
    fs.writeFileSync(env.CAPTURE_ANNOTATIONS_FILE, annotationsFile(1));
    await wait(80);
    expect(commands).toEqual([{ type: 'reload' }]);
    ch.end({ type: 'ended', reason: 'stopped (SIGTERM)', failed: false });
    await wait(20);
    expect(lines()).toEqual([
      { type: 'page_loaded', loads: 1 },
      { type: 'ended', reason: 'stopped (SIGTERM)', failed: false },
    ]);
    expect(fs.readFileSync(env.CAPTURE_TERMINATION_LOG, 'utf8')).toBe('stopped (SIGTERM)');
    expect(exits).toEqual([0]);
    fs.writeFileSync(env.CAPTURE_ANNOTATIONS_FILE, annotationsFile(2)); // ended: no longer listening
    await wait(80);
    expect(commands).toHaveLength(1);
  });

  it('exits 1 on a failure (the Pod turns Failed), the reason cut to the 4096 bytes the kubelet keeps', async () => {
    const { ch, env, exits } = channel();
    ch.end({ type: 'ended', reason: `could not load the page: ${'x'.repeat(5000)}`, failed: true });
    await wait(20);
    const message = fs.readFileSync(env.CAPTURE_TERMINATION_LOG, 'utf8');
    expect([message.length, message.slice(0, 25)]).toEqual([4096, 'could not load the page: ']);
    expect(exits).toEqual([1]);
  });
});
