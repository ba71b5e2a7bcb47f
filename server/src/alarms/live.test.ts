import { monitorState } from '@sitewatch/contract/monitoring';
import { expect, it } from 'vitest';
import { withJitterState } from './live.ts';

it('shows state 6 with the percent for a jittering item and leaves the others as the collector has them', () => {
  const source = {
    liveItem: (id: number) =>
      id === 3 ? undefined : { value: 1, state: monitorState.abnormal, last_check: 9, info: '' },
    other: () => 'kept',
  };
  const engine = { isJittering: (id: number) => id === 1 || id === 3, jitterOf: (id: number) => (id === 1 ? 55 : 0) };
  const live = withJitterState(source, () => engine);
  expect(live.liveItem(1)).toEqual({ value: 1, state: monitorState.jitter, last_check: 9, info: 'jitter 55%' });
  expect(live.liveItem(2)).toEqual({ value: 1, state: monitorState.abnormal, last_check: 9, info: '' });
  expect(live.liveItem(3)).toBeUndefined();
  expect(live.other()).toBe('kept');
  expect(withJitterState(source, () => undefined).liveItem(1)?.state).toBe(monitorState.abnormal);
});
