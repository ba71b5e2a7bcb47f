import type { SwitchRow } from '@sitewatch/contract/electrical-safety';
import { useQuery } from '@tanstack/react-query';
import { Card, Empty, Flex, Space, Spin, Tag, Typography } from 'antd';
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
              {s.devices.map((d) => (
                <Card
                  key={d.device_id}
                  type="inner"
                  size="small"
                  title={d.device_name}
                  data-testid={`distribution-device-${d.device_id}`}
                  extra={
                    <Space size={4} wrap>
                      {d.issues.map((i) => (
                        <Tag key={i} color="error">
                          {t(issueKey(i))}
                        </Tag>
                      ))}
                    </Space>
                  }
                >
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {shown
                      .filter((role) => role in d.readings)
                      .map((role) => `${t(roleKey(role))} ${fmt(d.readings[role])} ${d.units[role] ?? ''}`.trim())
                      .join(' · ')}
                  </Typography.Text>
                  {d.switches.length > 0 ? (
                    <SwitchDiagram
                      deviceName={d.device_name}
                      switches={d.switches}
                      onOperate={control ? operate(d.device_name) : undefined}
                    />
                  ) : (
                    <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
                      {t('electricalUi.noSwitches')}
                    </Typography.Paragraph>
                  )}
                </Card>
              ))}
            </Flex>
          </Card>
        ))
      )}
      <SwitchDialog target={target} onClose={() => setTarget(null)} />
    </div>
  );
};
