import { CaptureJobSpec, CaptureLauncher, CaptureReport } from '@platform/capture';
import { loadConfig } from '@platform/config';
import { of } from 'rxjs';
import { JoinTokens } from '../join/join-tokens';
import { BroadcastEntity } from './broadcast.entity';
import { BROADCAST_MAX_SECONDS, CaptureCompositorJobs, compositorUrl } from './capture-compositor-jobs';

/** A launcher test double: records launches and lets the test end a job as a worker would. */
class RecordingLauncher implements CaptureLauncher {
  readonly launched: CaptureJobSpec[] = [];
  private readonly listeners = new Map<string, (report: CaptureReport) => void>();
  async launch(spec: CaptureJobSpec, onReport: (report: CaptureReport) => void): Promise<void> {
    this.launched.push(spec);
    this.listeners.set(spec.jobId, onReport);
  }
  async reload(): Promise<boolean> {
    return false;
  }
  async stop(jobId: string): Promise<void> {
    this.end(jobId, { type: 'ended', reason: 'stopped', failed: false });
  }
  running(): string[] {
    return [...this.listeners.keys()];
  }
  async adopt(): Promise<string[]> {
    return [];
  }
  async close(): Promise<void> {}
  end(jobId: string, report: CaptureReport): void {
    const listener = this.listeners.get(jobId);
    this.listeners.delete(jobId);
    listener?.(report);
  }
}

const broadcast: BroadcastEntity = {
  id: 'b1',
  spaceId: 's1',
  liveStreamId: 'ls1',
  status: 'active',
  layout: 'active-speaker',
  background: 'https://example.com/bg.png',
  resolution: '1280x720',
  passthrough: null,
  createdAt: new Date(),
  updatedAt: new Date(),
};

describe('CaptureCompositorJobs', () => {
  const config = loadConfig({ SPACES_BASE_URL: 'http://spaces.internal:8085', FFMPEG_PATH: '/usr/bin/ffmpeg', CHROMIUM_PATH: '/usr/bin/chromium' });
  const tokens = new JoinTokens(
    { verifySignedToken: () => of({ valid: false, reason: 'unused', subject: '', audience: '', key_id: '' }) },
    async () => true,
    async () => true,
  );

  it('launches the compositor page of the broadcast with a hidden token of its space, to the stream key, trusting the spaces origin', async () => {
    const launcher = new RecordingLauncher();
    const jobs = new CaptureCompositorJobs(launcher, tokens, config);
    await jobs.start(broadcast, 'key-1', () => undefined);
    const [spec] = launcher.launched;
    const url = new URL(spec.url);
    expect({
      origin: url.origin,
      path: url.pathname,
      layout: url.searchParams.get('layout'),
      size: [url.searchParams.get('width'), url.searchParams.get('height')],
    }).toEqual({
      origin: 'http://spaces.internal:8085',
      path: '/spaces/compositor',
      layout: 'active-speaker',
      size: ['1280', '720'],
    });
    expect(url.searchParams.get('background')).toBe('https://example.com/bg.png');
    await expect(tokens.verify(url.searchParams.get('token')!)).resolves.toEqual({ spaceId: 's1', participantId: 'compositor-b1', hidden: true });
    expect(spec).toMatchObject({
      jobId: 'b1',
      width: 1280,
      height: 720,
      rtmpUrl: `${config.capture.rtmpUrl}/key-1`,
      timeoutSeconds: BROADCAST_MAX_SECONDS,
      chromiumPath: '/usr/bin/chromium',
      trustedOrigins: ['http://spaces.internal:8085'],
    });
    expect(jobs.isRunning('b1')).toBe(true);
  });

  it('calls onEnded once with the worker’s last word, and on stop', async () => {
    const launcher = new RecordingLauncher();
    const jobs = new CaptureCompositorJobs(launcher, tokens, config);
    const ended: Array<[string, boolean]> = [];
    await jobs.start(broadcast, 'key-1', (reason, failed) => ended.push([reason, failed]));
    launcher.end('b1', { type: 'ended', reason: 'the page crashed', failed: true });
    launcher.end('b1', { type: 'ended', reason: 'again', failed: true });
    await jobs.start({ ...broadcast, id: 'b2' }, 'key-2', (reason, failed) => ended.push([reason, failed]));
    await jobs.stop('b2');
    expect(ended).toEqual([
      ['the page crashed', true],
      ['stopped', false],
    ]);
    expect(jobs.isRunning('b1') || jobs.isRunning('b2')).toBe(false);
  });

  it('leaves the background out of the URL when there is none', () => {
    expect(new URL(compositorUrl('http://h:1', { ...broadcast, background: null }, 't')).searchParams.has('background')).toBe(false);
  });
});
