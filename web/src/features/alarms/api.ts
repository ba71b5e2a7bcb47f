import { type AlarmRow, alarmRoutes } from '@sitewatch/contract/alarms';
import { api } from '../../api/client.ts';

export const alarmParamsQuery = {
  queryKey: ['alarms', 'params'],
  queryFn: () => api.call(alarmRoutes.params),
  staleTime: 60_000,
};

/** One alarm operation (000 §4.7): 0 confirm, 1 remove confirmation, 2 disable, 3 enable. */
export const operateAlarm = (alarm: Pick<AlarmRow, 'item_id' | 'status_id'>, action: 0 | 1 | 2 | 3, remarks: string) =>
  api.call(alarmRoutes.operation, {
    body: { alarm_action: action, remarks, item_id: alarm.item_id, status_id: alarm.status_id },
  });

export const confirmAllAlarms = (remarks: string) => api.call(alarmRoutes.operateAll, { body: { remarks } });

/**
 * Where "转工单" goes: the work-order page opens its new-order form prefilled from this alarm
 * (docs/work-orders.md, "From an alarm"). The address is the one link between the two features.
 */
export const orderFromAlarmPath = (statusId: number) => `/work_order?index=1&from_alarm=${statusId}`;
