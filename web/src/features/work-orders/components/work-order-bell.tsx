import { SolutionOutlined } from '@ant-design/icons';
import { workOrderRoutes as r } from '@sitewatch/contract/work-orders';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Card, Dropdown, Empty, List, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../../api/client.ts';
import { pushClient } from '../../../api/push-client.ts';
import { formatTime } from '../../../components/time.ts';
import { normalizePage } from '../../../session/guard.ts';
import { useSession } from '../../../session/session.ts';
import { priorityKey, workOrderKeys } from '../api.ts';

/** 000 §7: the not-received summary every 30 s; a push about one's orders reads both at once. */
const summaryEveryMs = 30_000;

/**
 * The work-order part of the top bar's bell (000 §2.4, §4.8): orders to receive (state=1, page size
 * 10) and the not-received count. Shown only when the work-order menu entry is enabled.
 */
export const WorkOrderBell = () => {
  const enabled = useSession((s) => s.enableMenuList.some((u) => normalizePage(u) === 'work_order'));
  return enabled ? <Bell /> : null;
};

const Bell = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const key = [...workOrderKeys.all, 'bell'];
  const summary = useQuery({
    queryKey: [...key, 'summary'],
    queryFn: () => api.call(r.notReceived),
    refetchInterval: summaryEveryMs,
  });
  const list = useQuery({
    queryKey: [...key, 'list'],
    queryFn: () => api.call(r.list, { query: { index: 0, state: 1, page: 1, limit: 10 } }),
    refetchInterval: summaryEveryMs,
  });
  useEffect(() => {
    const off = pushClient.subscribe((m) => {
      if (m.type === 'work_order') void qc.invalidateQueries({ queryKey: workOrderKeys.all });
    });
    return () => void off();
  }, [qc]);
  const count = summary.data?.count ?? 0;
  const go = (url: string) => {
    setOpen(false);
    navigate(url);
  };
  return (
    <Dropdown
      open={open}
      onOpenChange={setOpen}
      trigger={['click']}
      popupRender={() => (
        <Card size="small" style={{ width: 360 }} title={t('workOrderUi.bellTitle', { n: count })}>
          <div style={{ maxHeight: 360, overflow: 'auto' }} data-testid="work-order-bell-list">
            {(list.data?.data.length ?? 0) === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
            ) : (
              <List
                size="small"
                dataSource={list.data?.data ?? []}
                renderItem={(o) => (
                  <List.Item onClick={() => go(`/work_order?index=0&state=1&id=${o.id}`)} style={{ cursor: 'pointer' }}>
                    <List.Item.Meta
                      title={<Typography.Text ellipsis>{o.description}</Typography.Text>}
                      description={
                        <>
                          <Tag>{t(priorityKey(o.priority))}</Tag>
                          {formatTime(o.creation_time)}
                        </>
                      }
                    />
                  </List.Item>
                )}
              />
            )}
          </div>
          <Button type="link" block onClick={() => go('/work_order?index=0&state=1')}>
            {t('workOrderUi.viewAll')}
          </Button>
        </Card>
      )}
    >
      <Button type="text" aria-label={t('workOrderUi.bell')} data-testid="work-order-bell">
        <Badge count={count} size="small" overflowCount={99}>
          <SolutionOutlined style={{ fontSize: 16 }} />
        </Badge>
      </Button>
    </Dropdown>
  );
};
