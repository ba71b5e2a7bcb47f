import { monitorState } from '@sitewatch/contract/monitoring';

/** Text key and colour of each item and device state (002 §4). */
export const stateView = {
  [monitorState.notReady]: { key: 'monitoringUi.state.notReady', color: 'default' },
  [monitorState.normal]: { key: 'monitoringUi.state.normal', color: 'success' },
  [monitorState.abnormal]: { key: 'monitoringUi.state.abnormal', color: 'error' },
  [monitorState.warning]: { key: 'monitoringUi.state.warning', color: 'warning' },
  [monitorState.unknown]: { key: 'monitoringUi.state.unknown', color: 'default' },
  [monitorState.serious]: { key: 'monitoringUi.state.serious', color: 'magenta' },
  [monitorState.jitter]: { key: 'monitoringUi.state.jitter', color: 'purple' },
} as const;

export const stateOf = (state: number) => stateView[state as keyof typeof stateView] ?? stateView[monitorState.unknown];

/** The colour an item's value is drawn in: its own alarm colour while in alarm, else by state. */
export const valueColor = (state: number, alarmColor: string) => {
  if (state === monitorState.normal) return undefined;
  if (alarmColor && state !== monitorState.unknown && state !== monitorState.notReady) return alarmColor;
  if (state === monitorState.unknown || state === monitorState.notReady) return '#8c8c8c';
  return '#f5222d';
};
