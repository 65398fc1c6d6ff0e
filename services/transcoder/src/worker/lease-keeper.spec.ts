import { Logger } from '@nestjs/common';
import { InMemoryJobs } from '../testing/in-memory-jobs';
import { JobAbort } from './job-abort';
import { LeaseKeeper } from './lease-keeper';

describe('LeaseKeeper', () => {
  beforeAll(() => Logger.overrideLogger(false));

  function setup() {
    const jobs = new InMemoryJobs();
    jobs.add({ id: 'j1', assetId: 'a1', status: 'running', worker: 'me', attempts: 1, leaseExpiresAt: new Date(jobs.now + 30_000) });
    const controller = new AbortController();
    let clock = 0;
    const keeper = new LeaseKeeper(jobs, 'j1', 'me', 30, controller, () => clock);
    return { jobs, controller, keeper, advance: (ms: number) => (clock += ms) };
  }

  it('extends the lease from now on every renewal while the job is held', async () => {
    const { jobs, controller, keeper } = setup();
    jobs.now += 20_000;
    await keeper.checkpoint();
    expect(jobs.rows.get('j1')!.leaseExpiresAt!.getTime()).toBe(jobs.now + 30_000);
    expect(controller.signal.aborted).toBe(false);
  });

  it('aborts with lease_lost, naming the new holder, when another worker took the job', async () => {
    const { jobs, controller, keeper } = setup();
    jobs.rows.get('j1')!.worker = 'other';
    await expect(keeper.checkpoint()).rejects.toBeInstanceOf(JobAbort);
    expect(controller.signal.reason).toMatchObject({ kind: 'lease_lost', message: 'lease_lost: now held by other' });
    expect(jobs.rows.get('j1')!.worker).toBe('other');
  });

  it('aborts with cancelled when the asset was deleted', async () => {
    const { jobs, controller, keeper } = setup();
    jobs.rows.get('j1')!.status = 'cancelled';
    await keeper.renew();
    expect(controller.signal.reason).toMatchObject({ kind: 'cancelled' });
  });

  it('rides out failed renewals, but stops once the lease may have expired', async () => {
    const { jobs, controller, keeper, advance } = setup();
    jest.spyOn(jobs, 'renew').mockRejectedValue(new Error('connection terminated'));
    advance(20_000);
    await keeper.renew();
    expect(controller.signal.aborted).toBe(false);
    advance(10_000);
    await keeper.renew();
    expect(controller.signal.reason).toMatchObject({ kind: 'lease_lost', message: 'lease_lost: not renewed for 30 s' });
  });
});
