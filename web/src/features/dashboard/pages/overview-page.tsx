import { useQuery } from '@tanstack/react-query';
import { Card, Empty, Flex, Spin, Statistic, Tag, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { stateOf } from '../../../components/states.ts';
import { sitesOverviewQuery } from '../api.ts';

/**
 * The state of every granted site at a glance (000 §2.4 /overview, without the tab strip): devices,
 * items, abnormal items, the worst state and open alarms; a site opens its station page.
 */
export const OverviewPage = () => {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const sites = useQuery(sitesOverviewQuery);
  if (sites.isPending) return <Spin />;
  const rows = sites.data?.data ?? [];
  return (
    <div data-testid="overview">
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('homeUi.overview.title')}
      </Typography.Title>
      {rows.length === 0 ? (
        <Empty description={t('homeUi.overview.empty')} />
      ) : (
        <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(280px, 1fr))', gap: 16 }}>
          {rows.map((s) => {
            const state = stateOf(s.worst_state);
            return (
              <Card
                key={s.id}
                hoverable
                data-testid="overview-site"
                data-site-id={s.id}
                onClick={() => navigate(`/station?device_group_id=${s.id}`)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') navigate(`/station?device_group_id=${s.id}`);
                }}
                tabIndex={0}
                role="link"
                aria-label={s.name}
                title={
                  <Flex justify="space-between" align="center" gap={8}>
                    <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{s.name}</span>
                    <Tag color={state.color} data-testid="overview-state" style={{ marginInlineEnd: 0 }}>
                      {t(state.key)}
                    </Tag>
                  </Flex>
                }
                styles={{
                  header: { borderTop: `3px solid ${s.active_alarms > 0 ? token.colorError : token.colorSuccess}` },
                }}
              >
                <div style={{ display: 'grid', gridTemplateColumns: 'repeat(2, 1fr)', gap: 12 }}>
                  <Statistic title={t('homeUi.counters.devices')} value={s.devices} />
                  <Statistic title={t('homeUi.counters.items')} value={s.items} />
                  <Statistic
                    title={t('homeUi.counters.abnormal')}
                    value={s.item_abnormal}
                    styles={{ content: { color: s.item_abnormal ? token.colorError : undefined } }}
                  />
                  <Statistic
                    title={t('homeUi.overview.alarms')}
                    value={s.active_alarms}
                    styles={{ content: { color: s.active_alarms ? token.colorError : undefined } }}
                  />
                </div>
              </Card>
            );
          })}
        </div>
      )}
    </div>
  );
};
