import { type NetworkInterface, type NetworkState, networkDnsInput } from '@sitewatch/contract/time-network';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Flex, Input, Modal, Space, Spin, Table, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../../api/client.ts';
import { useCan } from '../../../session/permissions.ts';
import { networkQuery, useKeepNetwork, useSetDns } from '../api.ts';
import { AddressDialog } from '../components/address-dialog.tsx';
import { HostNotice } from '../components/host-notice.tsx';

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

const PendingNotice = ({ state }: { state: NetworkState }) => {
  const { t } = useTranslation();
  const keep = useKeepNetwork();
  const left = useSecondsLeft(state.pending?.expires_at ?? null);
  if (!state.pending) return null;
  return (
    <Alert
      type="error"
      showIcon
      message={t('timeNetworkPage.pending', {
        name: state.pending.interface,
        address: state.pending.previous.ip,
        seconds: left,
      })}
      action={
        <Button type="primary" danger loading={keep.isPending} onClick={() => keep.mutate()}>
          {t('timeNetworkPage.keep')}
        </Button>
      }
    />
  );
};

/** The name servers: one to three, at least one must remain (002 §5.1); the password asked on save. */
const DnsCard = ({ state, canEdit }: { state: NetworkState; canEdit: boolean }) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const setDns = useSetDns();
  const [draft, setDraft] = useState<string[] | null>(null);
  const [asking, setAsking] = useState(false);
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const values = draft ?? [...state.dns, '', '', ''].slice(0, 3);
  const writable = canEdit && state.dns_host.available;
  const check = () => {
    const parsed = networkDnsInput.safeParse({ dns: values, verify_password: 'x' });
    if (!parsed.success) {
      setProblem(t((parsed.error.issues[0]?.message ?? 'timeNetwork.dnsRequired') as never));
      return;
    }
    setProblem(null);
    setPassword('');
    setAsking(true);
  };
  const save = () =>
    setDns.mutate(
      { dns: values.map((v) => v.trim()).filter(Boolean), password },
      {
        onSuccess: () => {
          setAsking(false);
          setDraft(null);
          void message.success(t('common.operationSuccess'));
        },
        onError: (err) => setProblem(err instanceof ApiError ? err.message : t('common.operationFailed')),
      },
    );
  return (
    <Card size="small" title={t('timeNetworkPage.dnsTitle')}>
      <HostNotice ability={state.dns_host} title={t('timeNetworkPage.dnsReadOnly')} />
      <Flex gap={8} wrap align="center" style={{ marginTop: 8 }}>
        {values.map((value, i) => (
          <Input
            // biome-ignore lint/suspicious/noArrayIndexKey: three fixed slots
            key={i}
            aria-label={t('timeNetworkPage.dnsN', { n: i + 1 })}
            placeholder={t('timeNetworkPage.dnsN', { n: i + 1 })}
            style={{ width: 180 }}
            disabled={!writable}
            value={value}
            onChange={(e) => setDraft(values.map((v, j) => (j === i ? e.target.value : v)))}
          />
        ))}
        <Button type="primary" disabled={!writable} onClick={check}>
          {t('common.save')}
        </Button>
      </Flex>
      {problem && !asking && <Alert style={{ marginTop: 8 }} type="error" showIcon message={problem} />}
      <Modal
        open={asking}
        title={t('timeNetworkPage.dnsTitle')}
        onCancel={() => setAsking(false)}
        onOk={save}
        okText={t('timeNetworkPage.apply')}
        okButtonProps={{ disabled: password === '', loading: setDns.isPending }}
        destroyOnHidden
      >
        <Space direction="vertical" style={{ width: '100%' }}>
          <Input.Password
            aria-label={t('timeNetworkPage.password')}
            placeholder={t('timeNetworkPage.password')}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete="current-password"
          />
          {problem && asking && <Alert type="error" showIcon message={problem} />}
        </Space>
      </Modal>
    </Card>
  );
};

/** The console's own ports: HTTP (a start-up setting), HTTPS (set on the HTTPS page, /setting_port). */
const PortsCard = ({ state }: { state: NetworkState }) => {
  const { t } = useTranslation();
  return (
    <Card size="small" title={t('timeNetworkPage.portsTitle')}>
      <Descriptions size="small" column={2} bordered>
        <Descriptions.Item label={t('timeNetworkPage.httpPort')}>{state.ports.http ?? '-'}</Descriptions.Item>
        <Descriptions.Item label={t('timeNetworkPage.httpsPort')}>
          {state.ports.https ?? t('timeNetworkPage.httpsOff')}
        </Descriptions.Item>
      </Descriptions>
      <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
        {t('timeNetworkPage.portsHelp')} <Link to="/setting_port">{t('timeNetworkPage.portsLink')}</Link>
      </Typography.Paragraph>
    </Card>
  );
};

/** /setting_IP (menu 417; 002 §2.1, §7.1 setting/network, network/ip, network/dns): addresses and name servers. */
export const NetworkPage = () => {
  const { t } = useTranslation();
  const state = useQuery(networkQuery);
  const canEdit = useCan('/setting_IP', 'edit');
  const [editing, setEditing] = useState<NetworkInterface | null>(null);
  if (state.isLoading) return <Spin />;
  if (!state.data) {
    const error = state.error instanceof ApiError ? state.error.message : t('common.operationFailed');
    return <Alert type="error" showIcon message={error} />;
  }
  const current = state.data;
  const writable = canEdit && current.host.available;
  return (
    <Flex vertical gap={12}>
      <HostNotice ability={current.host} title={t('timeNetworkPage.networkReadOnly')} />
      <PendingNotice state={current} />
      <Card size="small" title={t('timeNetworkPage.interfaces')}>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
          {t('timeNetworkPage.explain', { address: current.console_address })}
        </Typography.Paragraph>
        <Table
          size="small"
          rowKey="name"
          dataSource={current.interfaces}
          pagination={false}
          columns={[
            { title: t('timeNetworkPage.interface'), dataIndex: 'name', width: 140 },
            { title: t('timeNetworkPage.mac'), dataIndex: 'mac', width: 170 },
            {
              title: t('timeNetworkPage.linkState'),
              width: 100,
              render: (_, row) => (
                <Tag color={row.up ? 'green' : 'default'}>
                  {row.up ? t('timeNetworkPage.up') : t('timeNetworkPage.down')}
                </Tag>
              ),
            },
            { title: t('timeNetworkPage.ip'), render: (_, row) => row.addresses.map((a) => a.ip).join(', ') || '-' },
            {
              title: t('timeNetworkPage.mask'),
              render: (_, row) => row.addresses.map((a) => a.mask).join(', ') || '-',
            },
            { title: t('timeNetworkPage.gateway'), render: (_, row) => row.gateway || '-' },
            {
              title: t('timeNetworkPage.actions'),
              width: 100,
              render: (_, row) => (
                <Button size="small" disabled={!writable} onClick={() => setEditing(row)}>
                  {t('common.edit')}
                </Button>
              ),
            },
          ]}
        />
      </Card>
      <DnsCard state={current} canEdit={canEdit} />
      <PortsCard state={current} />
      <AddressDialog target={editing} consoleAddress={current.console_address} onClose={() => setEditing(null)} />
    </Flex>
  );
};
