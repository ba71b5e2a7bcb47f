import type { FirewallRule, FirewallState } from '@sitewatch/contract/firewall';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Flex, Popconfirm, Space, Spin, Switch, Table, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client.ts';
import { useCan } from '../../../session/permissions.ts';
import { type FirewallChange, firewallQuery, openPortsQuery, type RuleDraft, risksOf, useKeepChange } from '../api.ts';
import { ApplyDialog } from '../components/apply-dialog.tsx';
import { RuleDialog } from '../components/rule-dialog.tsx';

/** Seconds left of a change on trial, ticking. */
const useSecondsLeft = (expiresAt: number | null) => {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (expiresAt === null) return;
    setNow(Date.now());
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [expiresAt]);
  return expiresAt === null ? 0 : Math.max(0, Math.ceil(expiresAt - now / 1000));
};

/** Why the host cannot be changed, in words (the server's key per reason). */
const ReadOnlyNotice = ({ state }: { state: FirewallState }) => {
  const { t } = useTranslation();
  if (state.host.available) return null;
  return (
    <Alert
      type="warning"
      showIcon
      message={t('firewallPage.readOnly')}
      description={t(`firewall.${state.host.reason ?? 'failed'}`, { detail: state.host.detail })}
    />
  );
};

const PendingNotice = ({ state }: { state: FirewallState }) => {
  const { t } = useTranslation();
  const keep = useKeepChange();
  const left = useSecondsLeft(state.pending?.expires_at ?? null);
  if (!state.pending) return null;
  return (
    <Alert
      type="error"
      showIcon
      message={t('firewallPage.pending', { address: state.pending.address, seconds: left })}
      action={
        <Button type="primary" danger loading={keep.isPending} onClick={() => keep.mutate()}>
          {t('firewallPage.keep')}
        </Button>
      }
    />
  );
};

const OpenPorts = () => {
  const { t } = useTranslation();
  const ports = useQuery(openPortsQuery);
  return (
    <Card size="small" title={t('firewallPage.openPorts')}>
      {ports.data && !ports.data.available ? (
        <Typography.Text type="secondary">{t('firewallPage.portsUnavailable')}</Typography.Text>
      ) : (
        <Table
          size="small"
          rowKey={(p) => `${p.address}:${p.port}`}
          loading={ports.isLoading}
          dataSource={ports.data?.data ?? []}
          pagination={false}
          columns={[
            { title: t('firewallPage.protocol'), dataIndex: 'protocol', width: 90 },
            { title: t('firewallPage.address'), dataIndex: 'address' },
            { title: t('firewallPage.port'), dataIndex: 'port', width: 100 },
            { title: t('firewallPage.process'), dataIndex: 'process' },
          ]}
        />
      )}
    </Card>
  );
};

/** /firewall (menu 406; 002 §2.1, §3, §4, §5.3): the rules, on or off, the host's listening ports. */
export const FirewallPage = () => {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const state = useQuery(firewallQuery);
  const canEdit = useCan('/firewall', 'edit');
  const [editing, setEditing] = useState<{ index: number | null; rule: RuleDraft | null } | null>(null);
  const [change, setChange] = useState<FirewallChange | null>(null);
  if (state.isLoading) return <Spin />;
  if (!state.data) {
    const error = state.error instanceof ApiError ? state.error.message : t('common.operationFailed');
    return <Alert type="error" showIcon message={error} />;
  }
  const current = state.data;
  const writable = canEdit && current.host.available;
  const risks = change ? risksOf(current, change) : { closes: [], locksOut: false };

  /** Asks what the change needs asked first (the first of the two lock-out confirmations), then the password. */
  const propose = (next: FirewallChange) => {
    const { locksOut } = risksOf(current, next);
    if (!locksOut) {
      setChange(next);
      return;
    }
    modal.confirm({
      title: t('firewallPage.lockoutTitle'),
      content: t('firewallPage.lockoutFirst', { address: current.own_address }),
      okButtonProps: { danger: true },
      okText: t('firewallPage.next'),
      onOk: () => setChange(next),
    });
  };
  const rulesWith = (edit: (rules: RuleDraft[]) => RuleDraft[]): FirewallChange => ({
    kind: 'rules',
    rules: edit(current.rules.map((r) => ({ ...r }))),
  });

  return (
    <Flex vertical gap={16}>
      <ReadOnlyNotice state={current} />
      <PendingNotice state={current} />
      <Card
        size="small"
        title={
          <Space>
            {t('firewallPage.title')}
            <Tag color={current.enabled ? 'green' : 'default'}>
              {current.enabled ? t('firewallPage.on') : t('firewallPage.off')}
            </Tag>
          </Space>
        }
        extra={
          <Space>
            <Switch
              aria-label={t('firewallPage.enable')}
              checked={current.enabled}
              disabled={!writable}
              onChange={(on) => propose({ kind: 'status', enabled: on })}
            />
            <Button type="primary" disabled={!writable} onClick={() => setEditing({ index: null, rule: null })}>
              {t('firewallPage.addRule')}
            </Button>
          </Space>
        }
      >
        <Typography.Paragraph type="secondary">
          {t('firewallPage.explain')}{' '}
          {current.host.available &&
            t('firewallPage.hostTable', {
              state: current.host.table ? t('firewallPage.tablePresent') : t('firewallPage.tableAbsent'),
            })}
        </Typography.Paragraph>
        <Table<FirewallRule>
          size="small"
          rowKey="id"
          dataSource={current.rules}
          pagination={false}
          columns={[
            { title: '#', width: 50, render: (_, __, i) => i + 1 },
            {
              title: t('firewallPage.direction'),
              dataIndex: 'direction',
              render: (d: string) => (d === 'in' ? t('firewallPage.directionIn') : t('firewallPage.directionOut')),
            },
            { title: t('firewallPage.source'), dataIndex: 'source' },
            { title: t('firewallPage.port'), dataIndex: 'port' },
            {
              title: t('firewallPage.authorised'),
              dataIndex: 'authorised',
              render: (a: boolean) =>
                a ? (
                  <Tag color="green">{t('firewallPage.allow')}</Tag>
                ) : (
                  <Tag color="red">{t('firewallPage.deny')}</Tag>
                ),
            },
            {
              title: t('firewallPage.status'),
              dataIndex: 'Disabled',
              render: (disabled: boolean, _, i) => (
                <Switch
                  size="small"
                  aria-label={t('firewallPage.ruleEnabled', { n: i + 1 })}
                  checked={!disabled}
                  disabled={!writable}
                  onChange={(on) =>
                    propose(rulesWith((rules) => rules.map((r, j) => (j === i ? { ...r, Disabled: !on } : r))))
                  }
                />
              ),
            },
            { title: t('firewallPage.remark'), dataIndex: 'remark' },
            {
              title: t('common.actions'),
              render: (_, rule, i) => (
                <Space>
                  <Button size="small" disabled={!writable} onClick={() => setEditing({ index: i, rule })}>
                    {t('common.edit')}
                  </Button>
                  <Popconfirm
                    title={t('firewallPage.deleteConfirm')}
                    disabled={!writable}
                    onConfirm={() => propose(rulesWith((rules) => rules.filter((_, j) => j !== i)))}
                  >
                    <Button size="small" danger disabled={!writable}>
                      {t('common.delete')}
                    </Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <OpenPorts />
      <RuleDialog
        open={editing !== null}
        initial={editing?.rule ?? null}
        onCancel={() => setEditing(null)}
        onDone={(rule) => {
          const at = editing?.index ?? null;
          setEditing(null);
          propose(rulesWith((rules) => (at === null ? [...rules, rule] : rules.map((r, j) => (j === at ? rule : r)))));
        }}
      />
      <ApplyDialog
        change={change}
        closes={risks.closes}
        locksOut={risks.locksOut}
        address={current.own_address}
        onClose={() => setChange(null)}
      />
    </Flex>
  );
};
