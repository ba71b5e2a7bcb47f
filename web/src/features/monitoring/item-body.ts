import { itemInput, itemSource, templateItemInput } from '@sitewatch/contract/monitoring';

type Values = Record<string, unknown>;

/** Only the keys a strict request schema knows: a row carries its state, value and names besides. */
const known = (shape: object, values: Values) => Object.fromEntries(Object.entries(values).filter(([k]) => k in shape));

/** How a new item or point of each kind is read until the user says otherwise. */
const newSource: Record<string, Values> = {
  modbus: { function: 3, register: 0, data_type: 'uint16', byte_order: 'ABCD', scale: 1 },
  snmp: { oid: '', scale: 1 },
  'snmp-ifmib': { if_index: 1, metric: 'oper_status' },
  mqtt: { topic: 'sitewatch/{device_id}/data', json_path: '', scale: 1 },
  simulator: { model: 'analog', base: 50, spread: 10, noise: 1, period_s: 86_400, fault_rate: 0, decimals: 1 },
};
export const sourceDefaults = (kind: string): Values => ({ kind, ...newSource[kind] });

/** The fields of the chosen source kind only: the source schema is strict. */
export const pickSource = (source: Values): Values => {
  const variant = itemSource.options.find((o) => o.shape.kind.value === source.kind);
  const keys = Object.keys(variant?.shape ?? { kind: 0 });
  return Object.fromEntries(
    keys.filter((k) => source[k] !== undefined && source[k] !== null).map((k) => [k, source[k]]),
  );
};

/** Telemetry only: recorded, never judged, so it carries no thresholds (the contract refuses them). */
const noThresholds = { threshold_min: null, threshold_max: null, recovery_point: null, overrun_point: null };

/** The item form's request (setting/items) of its values, as its fields and the server check it. */
export const itemBody = (values: Values) => {
  const color = values.alarm_color as string | { toHexString: () => string } | null | undefined;
  return {
    ...known(itemInput.shape, values),
    ...(values.telemetry_only ? { ...noThresholds, status_threshold: '' } : {}),
    source: pickSource((values.source ?? {}) as Values),
    // Empty: the driver's default maximum age (the server stores it).
    max_age: typeof values.max_age === 'number' ? values.max_age : undefined,
    alarm_color: typeof color === 'string' ? color : color ? color.toHexString() : '',
  };
};

/** A template point's values as the point table holds them: only the thresholds its kind is judged by. */
export const pointBody = (values: Values) => {
  const judgedByRange = !values.telemetry_only && values.value_type !== 0;
  return {
    ...known(templateItemInput.shape, values),
    threshold_min: judgedByRange ? (values.threshold_min ?? null) : null,
    threshold_max: judgedByRange ? (values.threshold_max ?? null) : null,
    status_threshold: values.telemetry_only || judgedByRange ? '' : values.status_threshold,
    source: pickSource((values.source ?? {}) as Values),
  };
};
