import type { Capability, ToolResult } from '@sitewatch/contract/system';
import { systemRoutes as r } from '@sitewatch/contract/system';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, InputNumber, Radio, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { useIsAdministrator } from '../../../session/permissions.ts';
import { toolsQuery } from '../api.ts';
import { hostReasonKey } from '../format.ts';

type Tool = 'ping' | 'traceroute' | 'port';
interface Values {
  host: string;
  count: number;
  max_hops: number;
  port: number;
  timeout_ms: number;
}

const toolLabel = {
  ping: 'systemUi.tools.ping',
  traceroute: 'systemUi.tools.traceroute',
  port: 'systemUi.tools.port',
} as const;
const portOutcome = {
  open: 'systemUi.tools.portOpen',
  refused: 'systemUi.tools.portRefused',
  timeout: 'systemUi.tools.portTimeout',
  unreachable: 'systemUi.tools.portUnreachable',
} as const;

const run = (tool: Tool, v: Values) =>
  tool === 'ping'
    ? api.call(r.ping, { body: { host: v.host, count: v.count } })
    : tool === 'traceroute'
      ? api.call(r.traceroute, { body: { host: v.host, max_hops: v.max_hops } })
      : api.call(r.portCheck, { body: { host: v.host, port: v.port, timeout_ms: v.timeout_ms } });

/** /tools: ping, traceroute and a port check from the server, for administrators (docs/system.md). */
export const ToolsPage = () => {
  const { t } = useTranslation();
  const admin = useIsAdministrator();
  if (!admin) return <Alert type="info" showIcon message={t('systemUi.adminOnly')} />;
  return <Tools />;
};

const Tools = () => {
  const { t } = useTranslation();
  const state = useQuery(toolsQuery);
  const [tool, setTool] = useState<Tool>('ping');
  const [form] = Form.useForm<Values>();
  const mutation = useMutation({ mutationFn: (v: Values) => run(tool, v) });
  const capability: Capability | undefined = state.data?.[tool];
  const unavailable = capability && !capability.available;
  return (
    <Card title={t('systemUi.tools.title')} size="small" loading={state.isPending}>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('systemUi.tools.explain')}</Typography.Text>
        <Radio.Group
          value={tool}
          optionType="button"
          onChange={(e) => {
            setTool(e.target.value as Tool);
            mutation.reset();
          }}
          options={(['ping', 'traceroute', 'port'] as const).map((k) => ({
            value: k,
            label: (
              <span>
                {t(toolLabel[k])}
                {state.data && !state.data[k].available && (
                  <Tag color="warning" style={{ marginLeft: 6, marginRight: 0 }}>
                    {t('systemUi.readOnly')}
                  </Tag>
                )}
              </span>
            ),
          }))}
        />
        {unavailable && (
          <Alert
            type="warning"
            showIcon
            message={t('systemUi.tools.unavailable', { tool: t(toolLabel[tool]) })}
            description={t(hostReasonKey(capability.reason))}
          />
        )}
        <Form
          form={form}
          layout="inline"
          initialValues={{ host: '', count: 4, max_hops: 15, port: 502, timeout_ms: 3000 }}
          onFinish={(v) => mutation.mutate(v)}
          disabled={unavailable}
        >
          <Form.Item
            name="host"
            label={t('systemUi.tools.host')}
            rules={[{ required: true, whitespace: true, message: t('systemUi.tools.hostRequired') }]}
          >
            <Input style={{ width: 240 }} placeholder="192.168.1.10" maxLength={253} />
          </Form.Item>
          {tool === 'ping' && (
            <Form.Item name="count" label={t('systemUi.tools.count')}>
              <InputNumber min={1} max={10} precision={0} />
            </Form.Item>
          )}
          {tool === 'traceroute' && (
            <Form.Item name="max_hops" label={t('systemUi.tools.maxHops')}>
              <InputNumber min={1} max={30} precision={0} />
            </Form.Item>
          )}
          {tool === 'port' && (
            <>
              <Form.Item name="port" label={t('systemUi.tools.portNumber')} rules={[{ required: true }]}>
                <InputNumber min={1} max={65535} precision={0} />
              </Form.Item>
              <Form.Item name="timeout_ms" label={t('systemUi.tools.timeout')}>
                <InputNumber min={100} max={10000} step={500} precision={0} addonAfter="ms" />
              </Form.Item>
            </>
          )}
          <Form.Item>
            <Button type="primary" htmlType="submit" loading={mutation.isPending}>
              {t('systemUi.tools.run')}
            </Button>
          </Form.Item>
        </Form>
        {mutation.error && <Alert type="error" showIcon message={mutation.error.message} />}
        {mutation.data && <Outcome tool={tool} result={mutation.data} />}
      </Space>
    </Card>
  );
};

const Outcome = ({ tool, result }: { tool: Tool; result: ToolResult }) => {
  const { t } = useTranslation();
  const verdict =
    tool === 'port'
      ? t(portOutcome[result.output as keyof typeof portOutcome] ?? 'systemUi.tools.portUnreachable')
      : t(result.success ? 'systemUi.tools.reached' : 'systemUi.tools.notReached');
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="tool-result">
      <Alert
        type={result.success ? 'success' : 'warning'}
        showIcon
        message={`${verdict} · ${result.address} · ${result.elapsed_ms} ms`}
      />
      {tool !== 'port' && (
        <pre
          style={{
            maxHeight: 360,
            overflow: 'auto',
            padding: 12,
            margin: 0,
            fontSize: 12,
            background: 'rgba(127,127,127,0.08)',
          }}
        >
          {result.output}
          {result.truncated ? `\n${t('systemUi.tools.truncated')}` : ''}
        </pre>
      )}
    </Space>
  );
};
