import { routeUrl } from '@sitewatch/contract';
import { type InspectedItem, inspectionRoutes as r } from '@sitewatch/contract/inspection';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Descriptions, Input, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { api } from '../../../api/client.ts';
import { downloadFile } from '../../../components/download.ts';
import { formatTime } from '../../../components/time.ts';
import { useCan } from '../../../session/permissions.ts';
import { statusColor, statusText } from './record-page.tsx';

/** /polling_main_detail?id=: one report with every item, its review and its xlsx export. */
export const DetailPage = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const canReview = useCan('/polling_main', 'review');
  const [comment, setComment] = useState('');
  const report = useQuery({
    queryKey: ['inspection', 'report', id],
    queryFn: () => api.call(r.report, { params: { id }, query: {} }),
    enabled: Number.isInteger(id) && id > 0,
  });
  const review = useMutation({
    mutationFn: (result: 'passed' | 'failed') => api.call(r.review, { params: { id }, body: { result, comment } }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['inspection'] });
      void message.success(t('inspectionUi.saved'));
    },
  });
  const download = (format: 'xlsx' | 'pdf') =>
    downloadFile(routeUrl(r.exportReport).replace(':id', String(id)), { format }, `inspection-${id}.${format}`).catch(
      (e: Error) => void message.error(e.message),
    );
  const x = report.data;
  return (
    <Card
      title={`${t('inspectionUi.report')} ${x ? `#${x.id}` : ''}`}
      loading={report.isLoading}
      extra={
        <Space>
          <Button onClick={() => void download('xlsx')}>{t('inspectionUi.exportXlsx')}</Button>
          <Button onClick={() => void download('pdf')} data-testid="inspection-export-pdf">
            {t('inspectionUi.exportPdf')}
          </Button>
        </Space>
      }
      data-testid="inspection-detail"
    >
      {x && (
        <>
          <Descriptions size="small" column={3} bordered style={{ marginBottom: 16 }}>
            <Descriptions.Item label={t('inspectionUi.inspector')}>{x.inspector}</Descriptions.Item>
            <Descriptions.Item label={t('inspectionUi.time')}>{formatTime(x.create_time)}</Descriptions.Item>
            <Descriptions.Item label={t('inspectionUi.status')}>
              <Tag color={statusColor[x.status]} data-testid="inspection-status">
                {t(statusText(x.status))}
              </Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('inspectionUi.reviewer')}>{x.reviewer || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('inspectionUi.result')}>{`${x.abnormal} / ${x.items}`}</Descriptions.Item>
            <Descriptions.Item label={t('inspectionUi.kind')}>{t(`inspectionUi.kinds.${x.kind}`)}</Descriptions.Item>
            <Descriptions.Item label={t('inspectionUi.summary')} span={3}>
              {x.summary}
            </Descriptions.Item>
            {x.review_comment && (
              <Descriptions.Item label={t('inspectionUi.comment')} span={3}>
                {x.review_comment}
              </Descriptions.Item>
            )}
          </Descriptions>
          {x.status === 0 && canReview && (
            <Space style={{ marginBottom: 16 }} wrap>
              <Input
                style={{ width: 320 }}
                aria-label={t('inspectionUi.comment')}
                placeholder={t('inspectionUi.comment')}
                value={comment}
                onChange={(e) => setComment(e.target.value)}
              />
              <Button type="primary" onClick={() => review.mutate('passed')} loading={review.isPending}>
                {t('inspectionUi.pass')}
              </Button>
              <Button danger onClick={() => review.mutate('failed')} loading={review.isPending}>
                {t('inspectionUi.fail')}
              </Button>
            </Space>
          )}
          <Table<InspectedItem>
            rowKey="item_id"
            size="small"
            pagination={{
              defaultPageSize: 50,
              showSizeChanger: true,
              pageSizeOptions: [20, 50, 100],
              hideOnSinglePage: true,
            }}
            dataSource={x.content}
            columns={[
              { title: t('inspectionUi.site'), dataIndex: 'device_group_name' },
              { title: t('inspectionUi.device'), dataIndex: 'device_name' },
              { title: t('inspectionUi.item'), dataIndex: 'item_name' },
              { title: t('inspectionUi.value'), render: (_, i) => (i.value === null ? '—' : `${i.value} ${i.unit}`) },
              {
                title: t('inspectionUi.result'),
                render: (_, i) => (
                  <Tag color={i.abnormal ? 'red' : 'green'}>
                    {i.abnormal ? t('inspectionUi.abnormal') : t('inspectionUi.normal')}
                  </Tag>
                ),
              },
              { title: t('inspectionUi.note'), dataIndex: 'note' },
            ]}
          />
        </>
      )}
    </Card>
  );
};
