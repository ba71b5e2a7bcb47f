import type { DoorLogRow } from '@sitewatch/contract/door-access';
import { Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../components/time.ts';

export const logKinds = ['swipe', 'door', 'alarm', 'gap'] as const;
export type LogKind = (typeof logKinds)[number];
/** Reasons the WG controllers report that the log names in words; others show their code. */
const namedReasons = [1, 5, 6, 7, 13, 20, 23, 24, 37, 38, 44] as const;
type Named = (typeof namedReasons)[number];
const isNamed = (r: number): r is Named => (namedReasons as readonly number[]).includes(r);

/** The columns every log page shows; `without` drops those the page's filter makes the same on every row. */
export const useLogColumns = (without: Array<'controller' | 'door'> = []): ColumnsType<DoorLogRow> => {
  const { t } = useTranslation();
  const columns: Array<ColumnsType<DoorLogRow>[number] & { key: string }> = [
    { key: 'time', title: t('doorPage.time'), width: 170, render: (_, l) => formatTime(l.time) },
    { key: 'controller', title: t('doorPage.controller'), dataIndex: 'controller_name' },
    {
      key: 'door',
      title: t('doorPage.door'),
      render: (_, l) => (l.door ? l.door_name || t('doorPage.doorN', { n: l.door }) : ''),
    },
    { key: 'kind', title: t('doorPage.kind'), render: (_, l) => t(`doorPage.kinds.${l.kind as LogKind}`) },
    { key: 'holder', title: t('doorPage.holder'), dataIndex: 'holder' },
    { key: 'job', title: t('doorPage.jobNumber'), dataIndex: 'job_number' },
    { key: 'card', title: t('doorPage.cardNumber'), dataIndex: 'card' },
    {
      key: 'result',
      title: t('doorPage.result'),
      render: (_, l) =>
        l.kind === 'gap' ? (
          <Tag color="orange">{t('doorPage.gap', { from: l.event_index, to: l.gap_to })}</Tag>
        ) : (
          <Tag color={l.granted ? 'green' : l.kind === 'alarm' ? 'red' : 'default'}>
            {isNamed(l.reason)
              ? t(`doorPage.reasons.r${l.reason}` as const)
              : t('doorPage.reasonCode', { code: l.reason })}
          </Tag>
        ),
    },
  ];
  return columns.filter((c) => !without.includes(c.key as 'controller' | 'door'));
};

/** A page of the log with its pager (the server pages it). */
export const LogTable = ({
  rows,
  total,
  page,
  pageSize,
  loading,
  onPage,
  without,
}: {
  rows: DoorLogRow[];
  total: number;
  page: number;
  pageSize: number;
  loading: boolean;
  onPage: (page: number) => void;
  without?: Array<'controller' | 'door'>;
}) => {
  const { t } = useTranslation();
  const columns = useLogColumns(without);
  return (
    <Table<DoorLogRow>
      rowKey="id"
      size="small"
      data-testid="door-log"
      loading={loading}
      dataSource={rows}
      columns={columns}
      locale={{ emptyText: t('doorPage.noRecords') }}
      pagination={{
        current: page,
        pageSize,
        total,
        onChange: onPage,
        showSizeChanger: false,
        showTotal: (n) => t('doorPage.total', { n }),
      }}
    />
  );
};
