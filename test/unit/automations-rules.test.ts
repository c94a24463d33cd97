import { describe, expect, it } from 'vitest';
import { advanceRun, segmentIdsOf, sendOffsets, stepsProblem } from '../../shared/automations/rules';
import type { AutomationStep } from '../../shared/automations/records';

const steps: AutomationStep[] = [
  { type: 'send_email', postId: 'hello' },
  { type: 'if_segment', segmentId: 'vip', otherwise: 3 },
  { type: 'send_email', postId: 'vip-extras' },
  { type: 'send_email', postId: 'everyone' },
  { type: 'if_segment', segmentId: 'late', otherwise: 'end' },
  { type: 'wait', hours: 24 },
  { type: 'send_email', postId: 'late-only' },
];

describe('automation steps with segment branches', () => {
  it('a member goes on; a non-member jumps to `otherwise` or leaves at "end"', () => {
    expect(advanceRun(steps, 0, (id) => id === 'vip' || id === 'late')).toEqual({ sends: [0, 2, 3], resume: { step: 6, waitHours: 24 } });
    expect(advanceRun(steps, 0, (id) => id === 'late')).toEqual({ sends: [0, 3], resume: { step: 6, waitHours: 24 } });
    expect(advanceRun(steps, 0, () => false)).toEqual({ sends: [0, 3] });
    expect(advanceRun(steps, 6, () => false)).toEqual({ sends: [6] });
    // Without an answer for the contact, nobody is in a segment.
    expect(advanceRun(steps, 0)).toEqual({ sends: [0, 3] });
  });

  it('refuses branches that do not jump forward within the steps, naming the field', () => {
    expect(stepsProblem(steps)).toBeUndefined();
    expect(stepsProblem([{ type: 'if_segment', segmentId: 's', otherwise: 0 }])).toEqual(['steps.0.otherwise', expect.stringContaining('a later step')]);
    expect(
      stepsProblem([
        { type: 'send_email', postId: 'p' },
        { type: 'if_segment', segmentId: 's', otherwise: 1 },
      ])?.[0],
    ).toBe('steps.1.otherwise');
    expect(stepsProblem([{ type: 'if_segment', segmentId: 's', otherwise: 2 }])?.[0]).toBe('steps.0.otherwise');
    expect(stepsProblem([{ type: 'if_segment', segmentId: 's', otherwise: 1 }])).toBeUndefined();
  });

  it("names each segment once, the trigger's included; offsets skip branches", () => {
    expect(segmentIdsOf({ type: 'order_completed', segmentId: 'vip' }, steps)).toEqual(['vip', 'late']);
    expect(segmentIdsOf({ type: 'order_completed' }, [])).toEqual([]);
    expect(sendOffsets(steps).map((s) => [s.postId, s.hours])).toEqual([
      ['hello', 0],
      ['vip-extras', 0],
      ['everyone', 0],
      ['late-only', 24],
    ]);
  });
});
