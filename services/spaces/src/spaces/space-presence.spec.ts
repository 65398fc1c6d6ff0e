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
  const setup = () => {
    const states = new FakeStates();
    const stopped: string[] = [];
    const broadcasts = { stopAll: async (id: string) => void stopped.push(id) } as unknown as BroadcastsService;
    return { states, stopped, presence: new SpacePresence(states as unknown as SpaceStates, broadcasts) };
  };

  it('makes the space active on the first participant and idle when the count is back to 0, stopping its broadcasts then', async () => {
    const { states, stopped, presence } = setup();
    let count = 1;
    await presence.changed('s1', () => count);
    count = 2;
    await presence.changed('s1', () => count);
    expect(states.log).toEqual(['s1 active']);
    count = 1;
    await presence.changed('s1', () => count);
    expect(stopped).toEqual([]);
    count = 0;
    await presence.changed('s1', () => count);
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
});
