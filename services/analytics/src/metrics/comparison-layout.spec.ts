import { COMPARISON_LAYOUT } from './comparison-layout';
import { conditionalAggregate } from './comparison.query';
import { METRIC_CATALOGUE } from './metric-catalogue';

describe('comparison layout', () => {
  const items = COMPARISON_LAYOUT.flatMap((group) => [group, ...(group.items ?? [])]);

  it("asks each metric only for a measurement it takes, and names it as Mux's output does", () => {
    for (const item of items) if (item.measurement) expect(METRIC_CATALOGUE[item.metric].measurements).toContain(item.measurement);
    expect(items.filter((i) => i.metric === 'video_startup_time').map((i) => i.name)).toEqual(['Video Startup Time (median)', 'Video Startup Time (95th %)']);
    expect(items.find((i) => i.metric === 'upscale_percentage' && i.measurement === 'avg')?.name).toBe('Upscale Percentage (average)');
  });

  it('aggregates each metric over its own counted views in the one scan', () => {
    expect(conditionalAggregate(METRIC_CATALOGUE.video_startup_time, 'median')).toBe(
      'if(countIf((time_to_first_frame IS NOT NULL)) = 0, NULL, toFloat64(quantileExactIf(0.5)(time_to_first_frame, (time_to_first_frame IS NOT NULL))))',
    );
    expect(conditionalAggregate(METRIC_CATALOGUE.rebuffer_percentage, 'avg')).toContain(
      'sumIf(ifNull(buffering_duration, 0), (rebuffer_percentage IS NOT NULL)) / nullIf(sumIf(ifNull(watch_time, 0)',
    );
  });
});
