import type { ElectricalSafetyOverview } from '@sitewatch/contract/electrical-safety';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Statistic, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { overviewQuery } from '../api.ts';
import { fmt, issueKey } from '../components/labels.ts';

type Site = ElectricalSafetyOverview['sites'][number];
type Issue = ElectricalSafetyOverview['issues'][number];

/**
 * /electricity_safe/overview: meters and their quality issues, switches by state, open alarms of
 * power devices and the load, for all the caller's sites and per site; the worst figures and every
 * figure beyond its limit.
 */
export const OverviewPage = () => {
  const { t } = useTranslation();
  const o = useQuery(overviewQuery).data;
  // At 1366 px eight cards share a row: the cards as high as the highest (a title on two lines), the
  // value on one line, its unit in the title as in the table below (issue 38: "433.8 / kW").
  const stat = (key: string, value: number | string | null | undefined, color?: string, unit?: string) => (
    <Col xs={12} md={6} xl={3}>
      <Card size="small" style={{ height: '100%' }} data-testid={`electrical-stat-${key}`}>
        <Statistic
          title={`${t(`electricalUi.overview.${key}` as 'electricalUi.overview.meters')}${unit ? ` (${unit})` : ''}`}
          value={value ?? '—'}
          valueStyle={{ whiteSpace: 'nowrap', ...(color ? { color } : {}) }}
        />
      </Card>
    </Col>
  );
  return (
    <div data-testid="electrical-overview-page">
      <Row gutter={[12, 12]} style={{ marginBottom: 12 }}>
        {stat('meters', o?.meters)}
        {stat('metersWithIssues', o?.meters_with_issues, o?.meters_with_issues ? '#f5222d' : undefined)}
        {stat('switches', o?.switches)}
        {stat('switchesOn', o?.switches_on, '#52c41a')}
        {stat('switchesOff', o?.switches_off)}
        {stat('switchesUnknown', o?.switches_unknown, o?.switches_unknown ? '#faad14' : undefined)}
        {stat('activeAlarms', o?.active_alarms, o?.active_alarms ? '#f5222d' : undefined)}
        {stat(
          'power',
          o?.power_kw === null || o?.power_kw === undefined ? null : o.power_kw.toFixed(1),
          undefined,
          'kW',
        )}
      </Row>
      <Row gutter={[12, 12]}>
        <Col xs={24} xl={14}>
          <Card size="small" title={t('electricalUi.overview.sites')}>
            <Table<Site>
              size="small"
              rowKey="device_group_id"
              pagination={false}
              dataSource={o?.sites ?? []}
              columns={[
                // A site's name whole on one line; the headers beside it wrap between words instead.
                {
                  title: t('electricalUi.site'),
                  dataIndex: 'device_group_name',
                  onCell: () => ({ style: { whiteSpace: 'nowrap' } }),
                },
                { title: t('electricalUi.overview.meters'), dataIndex: 'meters' },
                {
                  title: t('electricalUi.overview.metersWithIssues'),
                  dataIndex: 'meters_with_issues',
                  render: (v: number) => (v ? <Tag color="error">{v}</Tag> : 0),
                },
                {
                  title: t('electricalUi.overview.switches'),
                  render: (_, s) => `${s.switches_on} / ${s.switches_off} / ${s.switches_unknown}`,
                },
                { title: t('electricalUi.overview.activeAlarms'), dataIndex: 'active_alarms' },
                {
                  title: `${t('electricalUi.overview.power')} (kW)`,
                  dataIndex: 'power_kw',
                  render: (v: number | null) => fmt(v, 1),
                },
              ]}
            />
            <div style={{ marginTop: 8, fontSize: 12, opacity: 0.7 }}>{t('electricalUi.overview.switchesLegend')}</div>
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <Card size="small" title={t('electricalUi.overview.worst')} style={{ marginBottom: 12 }}>
            <Row gutter={[8, 8]}>
              {(
                [
                  ['voltage_unbalance', o?.worst.voltage_unbalance, '%'],
                  ['current_unbalance', o?.worst.current_unbalance, '%'],
                  ['thd_u', o?.worst.thd_u, '%'],
                  ['pf', o?.worst.pf, ''],
                  ['frequency_deviation', o?.worst.frequency_deviation, 'Hz'],
                ] as const
              ).map(([key, v, unit]) => (
                <Col span={12} key={key}>
                  <Statistic
                    title={t(`electricalUi.figures.${key}`)}
                    value={v === null || v === undefined ? '—' : `${fmt(v, key === 'pf' ? 3 : 2)} ${unit}`.trim()}
                    valueStyle={{ fontSize: 18 }}
                  />
                </Col>
              ))}
            </Row>
          </Card>
          <Card size="small" title={t('electricalUi.issuesTitle')}>
            <Table<Issue>
              size="small"
              rowKey={(i) => `${i.device_id}-${i.issue}`}
              pagination={{ pageSize: 8, hideOnSinglePage: true }}
              dataSource={o?.issues ?? []}
              locale={{ emptyText: t('electricalUi.noIssues') }}
              columns={[
                { title: t('electricalUi.site'), dataIndex: 'device_group_name' },
                { title: t('electricalUi.device'), dataIndex: 'device_name' },
                {
                  title: t('electricalUi.issuesTitle'),
                  dataIndex: 'issue',
                  render: (i: Issue['issue']) => <Tag color="error">{t(issueKey(i))}</Tag>,
                },
                {
                  title: t('electricalUi.value'),
                  render: (_, i) => `${fmt(i.value, 3)} (${t('electricalUi.limit')} ${i.limit})`,
                },
              ]}
            />
          </Card>
        </Col>
      </Row>
    </div>
  );
};
