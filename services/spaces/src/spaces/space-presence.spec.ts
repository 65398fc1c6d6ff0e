import type { PlatformConfig } from '@platform/config';
import { BroadcastsService } from '../broadcasts/broadcasts.service';
import { SpaceEntity } from './space.entity';
import { SpacePresence } from './space-presence';
import { SpaceStates } from './space-states';

/** Space states as the database would move them: a change from a status the space is not in answers null. */
class FakeStates {
  status = 'idle';
  readonly log: string[] = [];
  async toActive(id: string): Promise<SpaceEntity | null> {
    if (this.status !== 'idle') return null;
    this.status = 'active';
    this.log.push(`${id} active`);
    return { id } as SpaceEntity;
  }
  async toIdle(id: string): Promise<SpaceEntity | null> {
    if (this.status !== 'active') return null;
    this.status = 'idle';
    this.log.push(`${id} idle`);
    return { id } as SpaceEntity;
  }
}

describe('SpacePresence', () => {
  const setup = (emptyGraceMs = 0) => {
    const states = new FakeStates();
    const stopped: string[] = [];
    const broadcasts = { stopAll: async (id: string) => void stopped.push(id) } as unknown as BroadcastsService;
    const config = { spaces: { emptyGraceMs } } as unknown as PlatformConfig;
    const presence = new SpacePresence(states as unknown as SpaceStates, broadcasts, config);
    let count = 0;
    /** The room's count becomes `n`; `told` says whether presence hears of it (else a change not yet handled). */
    const become = async (n: number, told = true) => {
      count = n;
      if (told) await presence.changed('s1', () => count);
    };
    return { states, stopped, presence, become };
  };

  it('makes the space active on the first participant and idle when the count is back to 0, stopping its broadcasts then', async () => {
    const { states, stopped, become } = setup();
    await become(1);
    await become(2);
    expect(states.log).toEqual(['s1 active']);
    await become(1);
    expect(stopped).toEqual([]);
    await become(0);
    expect(states.log).toEqual(['s1 active', 's1 idle']);
    expect(stopped).toEqual(['s1']);
  });

  it('reads the count when each change is handled, so a join and a leave in a burst end in the room’s state', async () => {
    const { states, stopped, presence } = setup();
    let count = 1;
    const joined = presence.changed('s1', () => count);
    count = 0;
    const left = presence.changed('s1', () => count);
    await Promise.all([joined, left]);
    expect(states.status).toBe('idle');
    expect(stopped).toEqual([]);
  });

  it('logs a failure instead of rejecting, and handles the next change', async () => {
    const { states, presence } = setup();
    await expect(
      presence.changed('s1', () => {
        throw new Error('boom');
      }),
    ).resolves.toBeUndefined();
    await presence.changed('s1', () => 1);
    expect(states.status).toBe('active');
  });

  describe('with an empty grace', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    /** A space whose one participant joined and has just left: its grace (10 s) is running. */
    const justEmptied = async () => {
      const space = setup(10_000);
      await space.become(1);
      await space.become(0);
      return space;
    };

    it('goes idle only once the room has stayed empty for the grace, then stops the broadcasts', async () => {
      const { states, stopped } = await justEmptied();
      await jest.advanceTimersByTimeAsync(9_999);
      expect(states.log).toEqual(['s1 active']);
      await jest.advanceTimersByTimeAsync(1);
      expect(states.log).toEqual(['s1 active', 's1 idle']);
      expect(stopped).toEqual(['s1']);
    });

    it('keeps the session when someone is back within the grace (a reload of the last page), counting the grace anew after', async () => {
      const { states, stopped, become } = await justEmptied();
      await jest.advanceTimersByTimeAsync(6_000);
      await become(1);
      await jest.advanceTimersByTimeAsync(20_000);
      expect(states.log).toEqual(['s1 active']);
      await become(0);
      await jest.advanceTimersByTimeAsync(5_000);
      await become(0); // a second leave does not restart the grace
      await jest.advanceTimersByTimeAsync(5_000);
      expect(states.log).toEqual(['s1 active', 's1 idle']);
      expect(stopped).toEqual(['s1']);
    });

    it('reads the count when the grace ends: someone there then (not yet told) keeps it active', async () => {
      const { states, become } = await justEmptied();
      await become(1, false);
      await jest.advanceTimersByTimeAsync(10_000);
      expect(states.status).toBe('active');
    });

    it('drops the waiting spaces on shutdown (the next start makes them idle)', async () => {
      const { states, presence } = await justEmptied();
      presence.onModuleDestroy();
      await jest.advanceTimersByTimeAsync(10_000);
      expect(states.status).toBe('active');
    });
  });
});
