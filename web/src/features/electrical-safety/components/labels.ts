import type { MeterRole, QualityIssue } from '@sitewatch/contract/electrical-safety';

/** Locale keys of the meter roles, the issues and the switch states (web/src/i18n electricalUi). */
export const roleKey = (role: MeterRole) => `electricalUi.roles.${role}` as const;
export const issueKey = (issue: QualityIssue) => `electricalUi.issues.${issue}` as const;
export const switchStateKey = (s: 'on' | 'off' | 'unknown') => `electricalUi.switchStates.${s}` as const;
export const switchColor = { on: '#52c41a', off: '#8c8c8c', unknown: '#faad14' } as const;

/** A number for a table cell: '—' when there is none. */
export const fmt = (v: number | null | undefined, digits = 2) =>
  v === null || v === undefined || !Number.isFinite(v) ? '—' : v.toFixed(digits);
