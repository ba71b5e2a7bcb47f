import type { DistributionAnswer, SwitchRow } from '@sitewatch/contract/electrical-safety';
import { useQuery } from '@tanstack/react-query';
import { Card, Empty, Flex, Space, Spin, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { SiteSelect } from '../../../components/site-select.tsx';
import { distributionQuery } from '../api.ts';
import { ControlNotice, useSwitchControl } from '../components/control-state.tsx';
import { fmt, issueKey, roleKey } from '../components/labels.ts';
import { SwitchDiagram } from '../components/switch-diagram.tsx';
import { SwitchDialog, type SwitchTarget } from '../components/switch-dialog.tsx';

const shown = ['ua', 'ub', 'uc', 'ia', 'ib', 'ic', 'p', 'pf', 'f'] as const;
type Device = DistributionAnswer['data'][number]['devices'][number];

const IssueTags = ({ issues }: { issues: Device['issues'] }) => {
  const { t } = useTranslation();
  return (
    <Space size={4} wrap>
      {issues.map((i) => (
        <Tag key={i} color="error">
          {t(issueKey(i))}
        </Tag>
      ))}
    </Space>
  );
};

/**
 * /electricity_safe/distribution_power: each site's power devices as single-line diagrams with the
 * state of every switch; a switch the caller may operate opens the operation dialog. A device named
 * in the address (deviceId, as the site map links it, 001 §2) is shown alone.
 */
export const DistributionPage = () => {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const onlyDevice = Number(params.get('deviceId')) || null;
  const [site, setSite] = useState<number | null>(null);
  const answer = useQuery(distributionQuery(site));
  const control = useSwitchControl(answer.data);
  const [target, setTarget] = useState<SwitchTarget | null>(null);
  const sites = (answer.data?.data ?? [])
    .map((s) => ({ ...s, devices: s.devices.filter((d) => !onlyDevice || d.device_id === onlyDevice) }))
    .filter((s) => s.devices.length > 0);
  const readingsText = (d: Device) =>
    shown
      .filter((role) => role in d.readings)
      .map((role) => `${t(roleKey(role))} ${fmt(d.readings[role])} ${d.units[role] ?? ''}`.trim())
      .join(' · ');
  const operate = (deviceName: string) => (s: SwitchRow) =>
    setTarget({ item_id: s.item_id, name: s.name, device_name: deviceName, value: s.switch_state === 'on' ? 0 : 1 });

  return (
    <div data-testid="distribution-page">
      <Flex gap={8} align="center" style={{ marginBottom: 12 }}>
        <SiteSelect
          value={site}
          onChange={setSite}
          allowClear
          placeholder={t('electricalUi.allSites')}
          ariaLabel={t('electricalUi.site')}
        />
      </Flex>
      <ControlNotice answer={answer.data} />
      {answer.isPending ? (
        <Spin />
      ) : sites.length === 0 ? (
        <Empty description={t('electricalUi.noDevices')} />
      ) : (
        sites.map((s) => (
          <Card key={s.device_group_id} title={s.device_group_name} size="small" style={{ marginBottom: 12 }}>
            <Flex wrap gap={16}>
              {s.devices
                .filter((d) => d.switches.length > 0)
                .map((d) => (
                  <Card
                    key={d.device_id}
                    type="inner"
                    size="small"
                    title={d.device_name}
                    data-testid={`distribution-device-${d.device_id}`}
                    extra={<IssueTags issues={d.issues} />}
                  >
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {readingsText(d)}
                    </Typography.Text>
                    <SwitchDiagram
                      deviceName={d.device_name}
                      switches={d.switches}
                      onOperate={control ? operate(d.device_name) : undefined}
                    />
                  </Card>
                ))}
            </Flex>
            {/* Meters without switches: their readings in one compact list under the diagrams. */}
            {s.devices.some((d) => d.switches.length === 0) && (
              <Table<Device>
                size="small"
                rowKey="device_id"
                pagination={false}
                style={{ marginTop: 12 }}
                dataSource={s.devices.filter((d) => d.switches.length === 0)}
                columns={[
                  { title: t('electricalUi.meter'), dataIndex: 'device_name', width: 140 },
                  { title: t('electricalUi.readings'), render: (_, d) => readingsText(d) },
                  {
                    title: t('electricalUi.issuesTitle'),
                    width: 220,
                    render: (_, d) => <IssueTags issues={d.issues} />,
                  },
                ]}
              />
            )}
          </Card>
        ))
      )}
      <SwitchDialog target={target} onClose={() => setTarget(null)} />
    </div>
  );
};
