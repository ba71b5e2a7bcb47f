import type { AlarmRow } from '@sitewatch/contract/alarms';
import { Button, Flex, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { Link } from 'react-router';
import { LevelTag } from '../../../components/levels.tsx';
import { formatTime } from '../../../components/time.ts';
import { labelKey } from './alarm-notices.tsx';

export const handlingKeys = ['unprocessed', 'confirmed', 'disabled', 'processed'] as const;

/** The alarm's work order as the page knows it (work_order/of_alarms). */
export interface AlarmOrder {
  id: number;
  number: string;
}

export interface AlarmColumnsOptions {
  t: TFunction;
  /** Recovered alarms listed too: the recovery time has a column. */
  withEnd: boolean;
  canConfirm: boolean;
  canDisable: boolean;
  /** The work-order page is enabled: an alarm's order is linked. */
  canOrders: boolean;
  /** Orders may be made, and the page knows which alarms have one. */
  canAddOrder: boolean;
  orderOf: ReadonlyMap<number, AlarmOrder>;
  onAction(alarm: AlarmRow, action: 0 | 1 | 2 | 3): void;
  onToOrder(alarm: AlarmRow): void;
}

/**
 * Fixed widths that fit the content area at 1366 × 768 (1064 px beside the menu: these add up to 1060) in every language:
 * names cut with an ellipsis (the whole name in the cell's title), a time wraps between date and
 * time, the reason takes what is left (at least `reasonMin`), and the actions stay fixed on the
 * right. With the recovery time (scope "all") the table is wider than that area: it scrolls inside
 * itself, its actions still on screen, never the page.
 */
const widths = {
  site: 100,
  device: 100,
  item: 104,
  level: 84,
  state: 92,
  value: 60,
  time: 100,
  handling: 108,
  remarks: 88,
  actions: 160,
};
const reasonMin = 64;

/** The width the table needs: what `scroll.x` is set to. */
export const alarmTableWidth = (withEnd: boolean) =>
  Object.values(widths).reduce((a, b) => a + b, 0) + reasonMin + (withEnd ? widths.time : 0);

const link = { padding: 0, height: 'auto' } as const;

/** The columns of /alarm: site, device, item, level, state, value, reason, times, handling, remarks, actions. */
export const alarmColumns = (o: AlarmColumnsOptions): ColumnsType<AlarmRow> => {
  const { t } = o;
  const name = (title: string, dataIndex: keyof AlarmRow, width: number) => ({
    title,
    dataIndex,
    width,
    ellipsis: true,
  });
  const time = (title: string, dataIndex: 'start_time' | 'end_time') => ({
    title,
    dataIndex,
    width: widths.time,
    // Date and time on two lines where the column is narrow; the text keeps its space.
    render: (s: number | null) => formatTime(s, ''),
  });
  return [
    name(t('alarmPages.site'), 'device_group_name', widths.site),
    name(t('alarmPages.device'), 'device_name', widths.device),
    {
      title: t('alarmPages.item'),
      dataIndex: 'item_name',
      width: widths.item,
      ellipsis: true,
      render: (v: string) => v || t('alarmPages.communication'),
    },
    {
      title: t('alarmPages.level'),
      dataIndex: 'level',
      width: widths.level,
      render: (l: number, a) => <LevelTag level={l} color={a.color} />,
    },
    {
      title: t('alarmPages.state'),
      dataIndex: 'status_label',
      width: widths.state,
      render: (l: string, a) => (
        <Tag color={a.status === 1000 ? 'green' : a.color || 'red'}>{t(`alarmPages.label.${labelKey(l)}`)}</Tag>
      ),
    },
    { title: t('alarmPages.value'), dataIndex: 'value', width: widths.value, ellipsis: true },
    { title: t('alarmPages.info'), dataIndex: 'info', ellipsis: true },
    time(t('alarmPages.start'), 'start_time'),
    ...(o.withEnd ? [time(t('alarmPages.end'), 'end_time')] : []),
    {
      title: t('alarmPages.handling'),
      dataIndex: 'handling',
      width: widths.handling,
      // Who confirmed it, by their alias (issue 38), under the state.
      render: (h: number, a) => (
        <div data-testid="alarm-handling">
          <Typography.Text ellipsis>
            {t(`alarmPages.handlingState.${handlingKeys[h] ?? 'unprocessed'}`)}
          </Typography.Text>
          {a.confirmed_by && (
            <Typography.Text type="secondary" ellipsis={{ tooltip: a.confirmed_by }} style={{ display: 'block' }}>
              {a.confirmed_by}
            </Typography.Text>
          )}
        </div>
      ),
    },
    name(t('alarmPages.remarks'), 'remarks', widths.remarks),
    {
      title: t('common.actions'),
      key: 'actions',
      width: widths.actions,
      fixed: 'right',
      render: (_: unknown, a) => <AlarmActions alarm={a} o={o} />,
    },
  ];
};

/** Confirm or remove it, disable or enable it, and its work order: the link to it, or "转工单". */
const AlarmActions = ({ alarm: a, o }: { alarm: AlarmRow; o: AlarmColumnsOptions }) => {
  const { t } = o;
  const order = o.orderOf.get(a.status_id);
  return (
    <Flex gap="2px 10px" wrap>
      {o.canConfirm && (
        <Button size="small" type="link" style={link} onClick={() => o.onAction(a, a.handling === 1 ? 1 : 0)}>
          {a.handling === 1 ? t('alarmPages.unconfirm') : t('alarmPages.confirm')}
        </Button>
      )}
      {o.canDisable && (
        <Button
          size="small"
          type="link"
          style={link}
          danger={a.handling !== 2}
          onClick={() => o.onAction(a, a.handling === 2 ? 3 : 2)}
        >
          {a.handling === 2 ? t('alarmPages.enable') : t('alarmPages.disable')}
        </Button>
      )}
      {/* One order per alarm: the link to it, else the action that makes it. */}
      {o.canOrders && order && (
        <Link
          to={`/work_order?index=3&id=${order.id}`}
          data-testid="alarm-work-order"
          title={t('alarmPages.workOrder')}
        >
          {order.number}
        </Link>
      )}
      {o.canAddOrder && !order && (
        <Button size="small" type="link" style={link} data-testid="alarm-to-work-order" onClick={() => o.onToOrder(a)}>
          {t('alarmPages.toWorkOrder')}
        </Button>
      )}
    </Flex>
  );
};
