import { BellOutlined } from '@ant-design/icons';
import { type AlarmRow, alarmRoutes } from '@sitewatch/contract/alarms';
import { useQuery } from '@tanstack/react-query';
import { Badge, Button, Card, Dropdown, Empty, List, Spin, Tag, Typography, theme } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../../api/client.ts';
import { formatTime } from '../../../components/time.ts';
import { useAlarmNotices } from '../alarm-store.ts';
import { labelKey } from './alarm-notices.tsx';

const pageSize = 10;
/** 000 §9: page size 10, 1 s delay on scroll load. */
const scrollDelayMs = 1000;

/** The bell of the top bar (000 §2.4): the count of current alarms and their list, paged on scroll. */
export const AlarmBell = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const version = useAlarmNotices((s) => s.version);
  const [open, setOpen] = useState(false);
  const [rows, setRows] = useState<AlarmRow[]>([]);
  const [page, setPage] = useState(1);
  const [loadingMore, setLoadingMore] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const first = useQuery({
    queryKey: ['alarms', 'list', 'bell', version],
    queryFn: () => api.call(alarmRoutes.review, { query: { page: 1, limit: pageSize } }),
    refetchInterval: 60_000,
  });
  const total = first.data?.total ?? 0;
  useEffect(() => {
    if (first.data) {
      setRows(first.data.data);
      setPage(1);
    }
  }, [first.data]);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  const onScroll = (e: React.UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget;
    if (loadingMore || rows.length >= total || el.scrollTop + el.clientHeight < el.scrollHeight - 8) return;
    setLoadingMore(true);
    timer.current = setTimeout(async () => {
      const next = await api.call(alarmRoutes.review, { query: { page: page + 1, limit: pageSize } }).catch(() => null);
      if (next) {
        setRows((r) => [...r, ...next.data.filter((n) => !r.some((x) => x.status_id === n.status_id))]);
        setPage((p) => p + 1);
      }
      setLoadingMore(false);
    }, scrollDelayMs);
  };

  return (
    <Dropdown
      open={open}
      onOpenChange={setOpen}
      trigger={['click']}
      popupRender={() => (
        <Card size="small" style={{ width: 380 }} title={t('alarmPages.bellTitle', { n: total })}>
          <div style={{ maxHeight: 360, overflow: 'auto' }} onScroll={onScroll} data-testid="alarm-bell-list">
            {rows.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
            ) : (
              <List
                size="small"
                dataSource={rows}
                renderItem={(a) => (
                  <List.Item>
                    <List.Item.Meta
                      title={
                        <Typography.Text>
                          {a.status === 1000 ? null : <Badge color={a.color || token.colorError} />}{' '}
                          {`${a.device_group_name} / ${a.device_name}${a.item_name ? ` / ${a.item_name}` : ''}`}
                        </Typography.Text>
                      }
                      description={
                        <>
                          <Tag>{t(`alarmPages.label.${labelKey(a.status_label)}`)}</Tag>
                          {formatTime(a.start_time)}
                        </>
                      }
                    />
                  </List.Item>
                )}
              />
            )}
            {loadingMore && <Spin size="small" style={{ display: 'block', margin: 8 }} />}
          </div>
          <Button
            type="link"
            block
            onClick={() => {
              setOpen(false);
              navigate('/alarm');
            }}
          >
            {t('alarmPages.viewAll')}
          </Button>
        </Card>
      )}
    >
      <Button type="text" aria-label={t('alarmPages.bell')} data-testid="alarm-bell">
        <Badge count={total} size="small" overflowCount={999}>
          <BellOutlined style={{ fontSize: 16 }} />
        </Badge>
      </Button>
    </Dropdown>
  );
};
