import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@platform/errors';
import { toPlaybackRestriction } from '@platform/api-shapes';
import { Emit, EventTypeFor, UnitOfWork } from '@platform/events';
import { newId } from '@platform/ids';
import { common, playbackAuth } from '@platform/proto';
import { PlaybackRestrictionEntity } from './playback-restriction.entity';
import { toPlaybackRestrictionMessage } from './playback-restriction.mapper';
import { PlaybackRestrictionRepository } from './playback-restriction.repository';
import { normalizeAllowedDomains } from './referrer-rule';
import { userAgentRuleOrDefault } from './user-agent-rule';

const DEFAULT_LIMIT = 25;

export const PLAYBACK_RESTRICTION_EVENTS = {
  created: 'video.playback_restriction.created',
  updated: 'video.playback_restriction.updated',
  deleted: 'video.playback_restriction.deleted',
} as const;

type RuleInput = playbackAuth.ReferrerRule | null | undefined;

/**
 * Playback restrictions (spec 2.7, 4.7): referrer allow-lists, plus Mux's user-agent rule.
 * The gateway validates requests first; the rules are checked again here so no caller can
 * store a bad rule.
 */
@Injectable()
export class PlaybackRestrictionsService {
  constructor(
    @Inject(PlaybackRestrictionRepository) private readonly restrictions: PlaybackRestrictionRepository,
    @Inject(UnitOfWork) private readonly unitOfWork: UnitOfWork,
  ) {}

  async create(request: playbackAuth.CreatePlaybackRestrictionRequest): Promise<playbackAuth.PlaybackRestriction> {
    const rule = validRule(request.referrer, 'referrer');
    const now = new Date();
    const restriction: PlaybackRestrictionEntity = { id: newId(), ...rule, ...userAgentColumns(request.user_agent), createdAt: now, updatedAt: now };
    await this.unitOfWork.run(async (manager, emit) => {
      await this.restrictions.insert(manager, restriction);
      emitChange(emit, PLAYBACK_RESTRICTION_EVENTS.created, restriction);
    });
    return toPlaybackRestrictionMessage(restriction);
  }

  async get(id: string): Promise<playbackAuth.PlaybackRestriction> {
    const restriction = await this.restrictions.findById(id);
    if (!restriction) throw notFound();
    return toPlaybackRestrictionMessage(restriction);
  }

  /** For the playback host, not over gRPC: the restriction, or undefined when it does not exist (deleted). */
  async find(id: string): Promise<playbackAuth.PlaybackRestriction | undefined> {
    const restriction = await this.restrictions.findById(id);
    return restriction ? toPlaybackRestrictionMessage(restriction) : undefined;
  }

  async list(request: common.PageRequest): Promise<playbackAuth.PlaybackRestrictionList> {
    const limit = request.limit > 0 ? request.limit : DEFAULT_LIMIT;
    const page = request.page > 0 ? request.page : 1;
    const { items, total } = await this.restrictions.list(limit, (page - 1) * limit);
    return { items: items.map(toPlaybackRestrictionMessage), total_row_count: total };
  }

  /** PUT …/referrer: the new rule fully replaces the old one. */
  async updateReferrer(request: playbackAuth.UpdateReferrerRequest): Promise<playbackAuth.PlaybackRestriction> {
    const rule = validRule(request.referrer, '');
    const updated = await this.unitOfWork.run(async (manager, emit) => {
      const restriction = await this.restrictions.replaceReferrer(manager, request.id, rule, new Date());
      if (!restriction) throw notFound();
      emitChange(emit, PLAYBACK_RESTRICTION_EVENTS.updated, restriction);
      return restriction;
    });
    return toPlaybackRestrictionMessage(updated);
  }

  /**
   * PUT …/user_agent: the new rule fully replaces the old one. The gateway has already given
   * omitted flags their defaults (proto3 cannot tell an omitted bool from false).
   */
  async updateUserAgent(request: playbackAuth.UpdateUserAgentRequest): Promise<playbackAuth.PlaybackRestriction> {
    const rule = userAgentColumns(request.user_agent);
    const updated = await this.unitOfWork.run(async (manager, emit) => {
      const restriction = await this.restrictions.replaceUserAgent(manager, request.id, rule, new Date());
      if (!restriction) throw notFound();
      emitChange(emit, PLAYBACK_RESTRICTION_EVENTS.updated, restriction);
      return restriction;
    });
    return toPlaybackRestrictionMessage(updated);
  }

  async delete(id: string): Promise<void> {
    await this.unitOfWork.run(async (manager, emit) => {
      const restriction = await this.restrictions.delete(manager, id);
      if (!restriction) throw notFound();
      emitChange(emit, PLAYBACK_RESTRICTION_EVENTS.deleted, restriction);
    });
  }
}

/**
 * The rule to store. `at` is where the rule sits in the REST body (`referrer` on create, the
 * body itself on PUT …/referrer) so that messages name the field the caller sent.
 */
function validRule(rule: RuleInput, at: 'referrer' | ''): Pick<PlaybackRestrictionEntity, 'allowedDomains' | 'allowNoReferrer'> {
  const field = (name: string) => (at ? `${at}.${name}` : name);
  if (!rule) throw DomainError.invalid(`${at || 'allowed_domains'}: is required`);
  return {
    allowedDomains: normalizeAllowedDomains(rule.allowed_domains ?? [], field('allowed_domains')),
    allowNoReferrer: rule.allow_no_referrer === true,
  };
}

function userAgentColumns(rule: playbackAuth.UserAgentRule | null | undefined): Pick<PlaybackRestrictionEntity, 'allowNoUserAgent' | 'allowHighRiskUserAgent'> {
  const { allow_no_user_agent, allow_high_risk_user_agent } = userAgentRuleOrDefault(rule);
  return { allowNoUserAgent: allow_no_user_agent, allowHighRiskUserAgent: allow_high_risk_user_agent };
}

/** The data is the restriction's API body, built by the gateway's own mapper from the same message. */
function emitChange(emit: Emit, type: EventTypeFor<'playback_restriction'>, restriction: PlaybackRestrictionEntity): void {
  emit(type, toPlaybackRestriction(toPlaybackRestrictionMessage(restriction)));
}

function notFound(): DomainError {
  return DomainError.notFound('Playback restriction');
}
