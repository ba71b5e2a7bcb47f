import type { AlarmsTable } from '../db/schema-alarms.ts';
import { ItemTable } from './items.ts';
import type { PeriodRange } from './rules/periods.ts';

/** An alarm record as the engine holds it (the `alarms` row plus scheduling). */
export interface Alarm extends AlarmsTable {
  contact_group_id: number;
  unit: string;
  next_notify_at: number;
}

export interface DeviceRuntime {
  id: number;
  name: string;
  device_group_id: number;
  device_group_name: string;
  comm: Alarm | null;
  /** Unknown to the collector (no answer, or every item silent): its items raise no point fault. */
  down: boolean;
  /** Slots of its items in the item table. */
  items: number[];
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
  /** The items and their rule state, one slot each (items.ts). */
  items: ItemTable;
  devices: Map<number, DeviceRuntime>;
  /** Open alarms by id. */
  open: Map<number, Alarm>;
  /** The open alarms of other areas by their source (sources.ts). */
  sources: Map<string, Alarm>;
  disabledItems: Set<number>;
  disabledDevices: Set<number>;
  periods: Map<number, PeriodRange[]>;
  levelColors: Map<number, string>;
  /** Roles granted each site (an alarm row names them). */
  siteRoles: Map<number, number[]>;
  /** Contact group → the group an unconfirmed alarm escalates to, after `minutes`. */
  escalation: Map<number, { minutes: number; target: number }>;
  /** Slots of the items jittering now (re-judged every tick for the recovery period). */
  jitteringItems: Set<number>;
}

export const createEngineState = (): EngineState => ({
  items: new ItemTable(),
  devices: new Map(),
  open: new Map(),
  sources: new Map(),
  disabledItems: new Set(),
  disabledDevices: new Set(),
  periods: new Map(),
  levelColors: new Map(),
  siteRoles: new Map(),
  escalation: new Map(),
  jitteringItems: new Set(),
});
