import { type InspectionReport, inspectionRoutes as r } from '@sitewatch/contract/inspection';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Segmented, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../../api/client.ts';
import { formatTime } from '../../../components/time.ts';

export const statusColor = ['gold', 'green', 'red'] as const;
export const statusKeys = ['inspectionUi.statuses.0', 'inspectionUi.statuses.1', 'inspectionUi.statuses.2'] as const;
export const statusText = (status: number) => statusKeys[status] ?? statusKeys[0];

/** /polling_record: every report, or the unconfirmed ones (status 0) to review. */
export const RecordPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [status, setStatus] = useState<'all' | 'unconfirmed'>('unconfirmed');
  const [page, setPage] = useState(1);
  const reports = useQuery({
    queryKey: ['inspection', 'reports', status, page],
    queryFn: () => api.call(r.reports, { query: { page, limit: 10, ...(status === 'all' ? {} : { status: 0 }) } }),
  });
  return (
    <Card
      title={t('inspectionUi.records')}
      extra={
        <Segmented
          value={status}
          onChange={(v) => (setStatus(v as 'all' | 'unconfirmed'), setPage(1))}
          options={[
            { value: 'unconfirmed', label: t('inspectionUi.unconfirmed') },
            { value: 'all', label: t('inspectionUi.all') },
          ]}
        />
      }
      data-testid="inspection-records"
    >
      <Table<InspectionReport>
        rowKey="id"
        size="small"
        loading={reports.isFetching}
        dataSource={reports.data?.data ?? []}
        pagination={{ current: page, pageSize: 10, total: reports.data?.total ?? 0, onChange: setPage }}
        columns={[
          { title: t('inspectionUi.time'), render: (_, x) => formatTime(x.create_time) },
          { title: t('inspectionUi.kind'), render: (_, x) => t(`inspectionUi.kinds.${x.kind}`) },
          { title: t('inspectionUi.inspector'), dataIndex: 'inspector' },
          { title: t('inspectionUi.reviewer'), dataIndex: 'reviewer' },
          {
            title: t('inspectionUi.status'),
            render: (_, x) => <Tag color={statusColor[x.status]}>{t(statusText(x.status))}</Tag>,
          },
          { title: t('inspectionUi.result'), render: (_, x) => `${x.abnormal} / ${x.items}` },
          { title: t('inspectionUi.summary'), dataIndex: 'summary', ellipsis: true },
          {
            title: '',
            render: (_, x) => (
              <Button size="small" onClick={() => navigate(`/polling_main_detail?id=${x.id}`)}>
                {t('inspectionUi.open')}
              </Button>
            ),
          },
        ]}
      />
    </Card>
  );
};
