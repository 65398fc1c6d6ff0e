import { errorTypeId } from './view-errors';
import { ViewMetrics } from './view-metrics';
import { smoothnessScore, startupTimeScore, tradeoff, videoQualityScore, viewerExperienceScore } from './view-scores';
import { VIEW_COLUMN_TYPES } from './view-row';
import { VIEW_MIGRATIONS } from './views.migrations';

const played = (m: Partial<ViewMetrics>) => ({ watched: true, ...m }) as ViewMetrics;

describe('scores (Mux documents these examples)', () => {
  it('startup: 400 ms → 0.95, 2 s → 0.8, 8 s → 0.5, 20 s → 0.29', () => {
    expect([400, 2000, 8000, 20_000].map((t) => Number(startupTimeScore(played({ time_to_first_frame: t }))?.toFixed(2)))).toEqual([0.95, 0.8, 0.5, 0.29]);
  });

  // Mux's text says 85 and 54; its own formula gives 0.870 and 0.527 (0.534 with the rebuffering inside a 21 min watch time).
  it('smoothness: one 5 s rebuffer in 5 min ≈ 0.87; four 15 s in 20 min ≈ 0.53', () => {
    expect(smoothnessScore(played({ buffering_count: 1, rebuffer_percentage: 5 / 300 }))).toBeCloseTo(0.87, 2);
    expect(smoothnessScore(played({ buffering_count: 4, rebuffer_percentage: 60 / 1260 }))).toBeCloseTo(0.534, 3);
  });

  it('quality: 50 % upscale throughout → 0.85', () => {
    expect(videoQualityScore(played({ upscale_percentage: 0.5, view_max_upscale_percentage: 0.5 }))).toBeCloseTo(0.85, 2);
  });

  it('viewer experience: success × mean pairwise tradeoff; the worse score of a pair dominates', () => {
    expect(viewerExperienceScore(1, 1, 1, 1)).toBe(1);
    expect(viewerExperienceScore(0, 1, 1, 1)).toBe(0);
    expect(viewerExperienceScore(0.5, null, null, null)).toBe(0.5);
    expect(tradeoff(0.2, 3, 1, 1)).toBeLessThan(0.5);
    expect(viewerExperienceScore(1, 0.5, 1, 1)).toBeLessThan(viewerExperienceScore(1, 1, 1, 0.5) as number);
  });
});

describe('error type ids', () => {
  it('are stable positive 31-bit integers per code and message', () => {
    expect(errorTypeId('networkError', 'manifestLoadError')).toBe(errorTypeId('networkError', 'manifestLoadError'));
    expect(errorTypeId('networkError', 'manifestLoadError')).not.toBe(errorTypeId('networkError', 'fragLoadError'));
    expect(errorTypeId('2', null)).toBeGreaterThan(0);
    expect(errorTypeId('2', null)).toBeLessThanOrEqual(0x7fffffff);
  });
});

describe('views migrations', () => {
  it('create every column of VIEW_COLUMNS with its type (a new column needs a new migration)', () => {
    const ddl = VIEW_MIGRATIONS.flatMap((m) => m.statements).join('\n');
    for (const [column, type] of Object.entries(VIEW_COLUMN_TYPES)) expect(ddl).toContain(`  ${column} ${type}`);
    expect(VIEW_MIGRATIONS.every((m) => m.version >= 100 && m.version <= 199)).toBe(true);
  });
});
