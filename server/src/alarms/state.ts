import type { AlarmsTable } from '../db/schema-alarms.ts';
import type { JitterState } from './rules/jitter.ts';
import type { PeriodRange } from './rules/periods.ts';
import type { RepetitionState } from './rules/repetitions.ts';
import type { ThresholdRule } from './rules/threshold.ts';

/** An alarm record as the engine holds it (the `alarms` row plus scheduling). */
export interface Alarm extends AlarmsTable {
  contact_group_id: number;
  unit: string;
  next_notify_at: number;
}

export interface ItemRuntime {
  id: number;
  name: string;
  unit: string;
  device: DeviceRuntime;
  rule: ThresholdRule;
  level: number;
  color: string;
  repetitions: number;
  notification_interval: number;
  contact_group_id: number;
  check_period_id: number;
  alarm_period_id: number;
  notification_period_id: number;
  raw: number;
  /** The item's state as last published on the bus (`item.state`): the one the live views show. */
  shown: number;
  rep: RepetitionState;
  jitter: JitterState;
  value: number | null;
  alarm: Alarm | null;
  /** The last alarm of the item (for the notice after jitter stops). */
  last: Alarm | null;
  /** A problem notice went out and no recovery notice has followed yet. */
  problemNoticed: boolean;
}

export interface DeviceRuntime {
  id: number;
  name: string;
  device_group_id: number;
  device_group_name: string;
  comm: Alarm | null;
  items: ItemRuntime[];
}

export interface OperationInput {
  alarm_action: 0 | 1 | 2 | 3;
  remarks: string;
  item_id: number;
  status_id: number;
}

/**
 * What the alarm engine holds in memory, shared by its parts (loader, store, notices, judge): the
 * items and devices with their rule state, the open alarms, and what the rules read.
 */
export interface EngineState {
  items: Map<number, ItemRuntime>;
  devices: Map<number, DeviceRuntime>;
  /** Open alarms by id. */
  open: Map<number, Alarm>;
  disabledItems: Set<number>;
  disabledDevices: Set<number>;
  periods: Map<number, PeriodRange[]>;
  levelColors: Map<number, string>;
  /** Roles granted each site (an alarm row names them). */
  siteRoles: Map<number, number[]>;
  /** Contact group → the group an unconfirmed alarm escalates to, after `minutes`. */
  escalation: Map<number, { minutes: number; target: number }>;
  jitteringItems: Set<ItemRuntime>;
  /** The id of the newest alarm record. */
  lastId: number;
}

export const createEngineState = (): EngineState => ({
  items: new Map(),
  devices: new Map(),
  open: new Map(),
  disabledItems: new Set(),
  disabledDevices: new Set(),
  periods: new Map(),
  levelColors: new Map(),
  siteRoles: new Map(),
  escalation: new Map(),
  jitteringItems: new Set(),
  lastId: 0,
});
