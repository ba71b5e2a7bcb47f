import { useQuery } from '@tanstack/react-query';
import { Card, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { logsQuery } from '../api.ts';

const kinds = ['swipe', 'door', 'alarm', 'gap'] as const;
/** Reasons the WG controllers report that the log names in words; others show their code. */
const namedReasons = [1, 5, 6, 7, 13, 20, 23, 24, 37, 38, 44] as const;
type Named = (typeof namedReasons)[number];
const isNamed = (r: number): r is Named => (namedReasons as readonly number[]).includes(r);

/** /door_logs (002 §2.1): swipes, door events, alarms and gaps read from the controllers, newest first. */
export const DoorLogsPage = () => {
  const { t } = useTranslation();
  const [kind, setKind] = useState<(typeof kinds)[number] | undefined>();
  const [page, setPage] = useState(1);
  const logs = useQuery({ ...logsQuery({ page, page_size: 20, ...(kind ? { kind } : {}) }), refetchInterval: 1000 });
  return (
    <Card
      title={t('doorPage.logsTitle')}
      extra={
        <Space>
          <Select
            allowClear
            style={{ width: 160 }}
            placeholder={t('doorPage.kind')}
            aria-label={t('doorPage.kind')}
            value={kind}
            onChange={(v) => {
              setKind(v);
              setPage(1);
            }}
            options={kinds.map((k) => ({ value: k, label: t(`doorPage.kinds.${k}`) }))}
          />
        </Space>
      }
    >
      <Table
        rowKey="id"
        loading={logs.isLoading}
        dataSource={logs.data?.list ?? []}
        pagination={{
          current: page,
          pageSize: 20,
          total: logs.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
        columns={[
          { title: t('doorPage.time'), render: (_, l) => new Date(l.time * 1000).toLocaleString() },
          { title: t('doorPage.controller'), dataIndex: 'controller_name' },
          { title: t('doorPage.door'), render: (_, l) => (l.door ? t('doorPage.doorN', { n: l.door }) : '') },
          { title: t('doorPage.kind'), render: (_, l) => t(`doorPage.kinds.${l.kind as (typeof kinds)[number]}`) },
          { title: t('doorPage.holder'), dataIndex: 'holder' },
          { title: t('doorPage.cardNumber'), dataIndex: 'card' },
          {
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
        ]}
      />
    </Card>
  );
};
