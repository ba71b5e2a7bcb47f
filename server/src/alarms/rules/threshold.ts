import { monitorState } from '@sitewatch/contract/monitoring';

/** What an item's value is judged by (002 §3 Monitored item). */
export interface ThresholdRule {
  /** 0 status, 1 numeric. */
  value_type: number;
  threshold_min: number | null;
  threshold_max: number | null;
  /** Status items: the value that means abnormal. */
  status_threshold: string;
  /** How far past min/max a value must go to raise (≥ 0). */
  overrun_point: number | null;
  /** How far back inside min/max a value must come to clear (≥ 0). */
  recovery_point: number | null;
}

/**
 * The raw state of one check (before repetitions), with hysteresis: a numeric value raises beyond
 * `min − overrun` or `max + overrun` and, once raised, clears only inside
 * `[min + recovery, max − recovery]`; between the two it keeps the previous state. The alarm engine
 * is its only caller: the live views show the state the engine publishes (docs/architecture.md).
 */
export const thresholdState = (rule: ThresholdRule, value: number, previous: number): number => {
  if (rule.value_type === 0) {
    if (rule.status_threshold.trim() === '') return monitorState.normal;
    return String(value) === rule.status_threshold.trim() ? monitorState.abnormal : monitorState.normal;
  }
  const min = rule.threshold_min;
  const max = rule.threshold_max;
  if (min === null && max === null) return monitorState.normal;
  const overrun = Math.abs(rule.overrun_point ?? 0);
  const recovery = Math.abs(rule.recovery_point ?? 0);
  if ((min !== null && value < min - overrun) || (max !== null && value > max + overrun)) return monitorState.abnormal;
  if (previous === monitorState.abnormal) {
    const inside = (min === null || value >= min + recovery) && (max === null || value <= max - recovery);
    return inside ? monitorState.normal : monitorState.abnormal;
  }
  return monitorState.normal;
};

/** Whether a state is a problem that raises an alarm. */
export const isProblem = (state: number): boolean =>
  state === monitorState.abnormal ||
  state === monitorState.warning ||
  state === monitorState.serious ||
  state === monitorState.unknown;
