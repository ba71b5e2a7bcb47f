import { useQuery } from '@tanstack/react-query';
import { Card, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { logsQuery } from '../api.ts';
import { type LogKind, LogTable, logKinds } from '../components/log-table.tsx';

/** /door_logs (002 §2.1): swipes, door events, alarms and gaps read from the controllers, newest first. */
export const DoorLogsPage = () => {
  const { t } = useTranslation();
  const [kind, setKind] = useState<LogKind | undefined>();
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
            options={logKinds.map((k) => ({ value: k, label: t(`doorPage.kinds.${k}`) }))}
          />
        </Space>
      }
    >
      <LogTable
        rows={logs.data?.list ?? []}
        total={logs.data?.total ?? 0}
        page={page}
        pageSize={20}
        loading={logs.isLoading}
        onPage={setPage}
      />
    </Card>
  );
};
