/**
 * Sites (device groups), device categories and templates, devices, monitored items, time periods
 * and serial ports (002 §2.3, §3, §4, §5.1, §7.1, §7.3; 001 §3, §9). Validation messages are keys
 * of the shared locale files (`monitoring.validation.*`). One file per sub-area under monitoring/.
 */
export * from './monitoring/devices.ts';
export type { DriverName, ItemPurpose, MonitorStateName } from './monitoring/fields.ts';
export {
  deviceNamePattern,
  driverName,
  driverNames,
  idParams,
  itemPurpose,
  itemPurposes,
  monitorState,
  monitorStates,
  stateCode,
  valueType,
  virtualDeviceGroupId,
  weightSchema,
} from './monitoring/fields.ts';
export * from './monitoring/if-mib.ts';
export * from './monitoring/items.ts';
export * from './monitoring/point-tables.ts';
export * from './monitoring/ranges.ts';
export * from './monitoring/routes.ts';
export * from './monitoring/sites.ts';
export * from './monitoring/sources.ts';
export * from './monitoring/views.ts';
