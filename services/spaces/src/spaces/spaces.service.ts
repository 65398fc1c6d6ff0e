import { Inject, Injectable } from '@nestjs/common';
import { passthroughProblems } from '@platform/api-rules';
import { SPACE_TYPES } from '@platform/api-shapes';
import { DomainError } from '@platform/errors';
import { UnitOfWork } from '@platform/events';
import { newId } from '@platform/ids';
import { common, spaces } from '@platform/proto';
import { BroadcastRepository } from '../broadcasts/broadcast.repository';
import { BroadcastsService } from '../broadcasts/broadcasts.service';
import { BROADCAST_EVENTS, emitBroadcast, emitSpace, SPACE_EVENTS } from './space-events';
import { SpaceEntity } from './space.entity';
import { toSpaceMessage } from './space.mapper';
import { SpaceRepository } from './space.repository';
import { SpaceStates } from './space-states';

/** Spec 4.10: list `limit` defaults to 25 (100 at most, as Mux's other lists). */
export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;

/** Spaces (spec 2.10, 4.10, 3): create (with its broadcasts), get, list, delete while idle. */
@Injectable()
export class SpacesService {
  constructor(
    @Inject(SpaceRepository) private readonly spaces: SpaceRepository,
    @Inject(BroadcastRepository) private readonly broadcastRows: BroadcastRepository,
    @Inject(BroadcastsService) private readonly broadcasts: BroadcastsService,
    @Inject(SpaceStates) private readonly states: SpaceStates,
    @Inject(UnitOfWork) private readonly unitOfWork: UnitOfWork,
  ) {}

  /** Nobody is connected to a process that just started: a space left active by the previous one is idle. */
  async idleAll(): Promise<void> {
    for (const space of await this.spaces.findActive()) await this.states.toIdle(space.id);
  }

  async create(request: spaces.CreateSpaceRequest): Promise<spaces.Space> {
    const problems: string[] = [];
    const type = request.type ?? 'server';
    if (!(SPACE_TYPES as readonly string[]).includes(type)) problems.push(`type: must be one of ${SPACE_TYPES.join(', ')}`);
    problems.push(...passthroughProblems(request.passthrough));
    if (problems.length > 0) throw DomainError.invalid(...problems);
    this.broadcasts.checkLimit(request.broadcasts.length);
    const fields = await this.broadcasts.validFields(request.broadcasts, true);
    const now = new Date();
    const space: SpaceEntity = {
      id: newId(),
      type,
      status: 'idle',
      passthrough: request.passthrough ? request.passthrough : null,
      activeSessionId: null,
      createdAt: now,
      updatedAt: now,
    };
    const broadcasts = fields.map((f) => this.broadcasts.newEntity(space.id, f, now));
    await this.unitOfWork.run(async (manager, emit) => {
      await this.spaces.insert(manager, space);
      for (const b of broadcasts) await this.broadcastRows.insert(manager, b);
      emitSpace(emit, SPACE_EVENTS.created, space, broadcasts);
      for (const b of broadcasts) emitBroadcast(emit, BROADCAST_EVENTS.created, b);
    });
    return toSpaceMessage(space, broadcasts);
  }

  async get(id: string): Promise<spaces.Space> {
    const space = await this.found(id);
    return toSpaceMessage(space, (await this.broadcastRows.ofSpaces([id])).get(id) ?? []);
  }

  async list(request: common.PageRequest): Promise<spaces.SpaceList> {
    const limit = request.limit > 0 ? request.limit : DEFAULT_LIMIT;
    if (limit > MAX_LIMIT) throw DomainError.invalid(`limit: must be at most ${MAX_LIMIT}`);
    const page = request.page > 0 ? request.page : 1;
    const rows = await this.spaces.list(limit, (page - 1) * limit);
    const broadcasts = await this.broadcastRows.ofSpaces(rows.map((s) => s.id));
    return { items: rows.map((s) => toSpaceMessage(s, broadcasts.get(s.id) ?? [])) };
  }

  /** Only while idle, its broadcasts too (spec 3); they go with it, each with its deleted event. */
  async delete(id: string): Promise<void> {
    await this.unitOfWork.run(async (manager, emit) => {
      const current = await this.spaces.lock(manager, id);
      if (!current) throw DomainError.notFound('Space');
      const broadcasts = (await this.broadcastRows.ofSpaces([id], manager)).get(id) ?? [];
      if (broadcasts.some((b) => b.status !== 'idle')) throw DomainError.precondition('A space can be deleted only while its broadcasts are idle');
      const deleted = await this.spaces.deleteIdle(manager, id);
      if (!deleted) throw DomainError.precondition(`A space can be deleted only while idle; it is ${current.status}`);
      for (const b of broadcasts) emitBroadcast(emit, BROADCAST_EVENTS.deleted, b);
      emitSpace(emit, SPACE_EVENTS.deleted, deleted, broadcasts);
    });
  }

  private async found(id: string): Promise<SpaceEntity> {
    const space = await this.spaces.findById(id);
    if (!space) throw DomainError.notFound('Space');
    return space;
  }
}
