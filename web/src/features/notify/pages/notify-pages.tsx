import {
  type ContactGroupRow,
  type ContactRow,
  channelInput,
  type channelKinds,
  contactGroupInput,
  contactInput,
  type EmailService,
  noticeTemplate,
  notifyRoutes,
} from '@sitewatch/contract/notify';
import { useMutation, useQuery } from '@tanstack/react-query';
import { App, Button, Card, Col, Form, Input, InputNumber, Row, Select, Space, Switch, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { api } from '../../../api/client.ts';
import { useChannelKinds } from '../../../components/channel-kinds.ts';
import { FormCol } from '../../../components/form-col.tsx';
import { contractRule } from '../../../components/form-rules.ts';
import { LevelSelect, LevelTag } from '../../../components/levels.tsx';
import { PeriodSelect } from '../../../components/period-select.tsx';
import { ResourcePage } from '../../../components/resource-page.tsx';
import { useSettingsForm } from '../../../components/settings-form.tsx';

/** The notification settings pages (002 §3): mail service, templates, contacts, contact groups, push channels. */

/**
 * A failed test send as the administrator reads it: a refusal of the outbound guard says what to
 * do; the other short classes (HTTP status, timeout, a robot's error code) are shown as they come.
 */
const useFailureText = () => {
  const { t } = useTranslation();
  return (detail: string): string =>
    detail === 'destination not allowed' ? t('alarmSettings.destinationNotAllowed') : detail;
};

const yesNo = (v: boolean) => (v ? <Tag color="green">✓</Tag> : <Tag>—</Tag>);

/** The name field of a contact, group or channel, checked by its contract schema. */
const NameItem = ({ schema }: { schema: z.ZodType }) => {
  const { t } = useTranslation();
  return (
    <Form.Item name="name" label={t('alarmSettings.name')} rules={[contractRule(schema, { required: true })]}>
      <Input maxLength={64} />
    </Form.Item>
  );
};

/** /setting_mailbox: the mail service with a test send (002 §7.1 setting/email_service). */
export const MailboxPage = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [to, setTo] = useState('');
  const { form, data, canEdit, saveButton } = useSettingsForm({
    page: '/setting_mailbox',
    queryKey: ['alarms', 'mail'],
    load: () => api.call(notifyRoutes.emailService),
    save: (body: EmailService) => api.call(notifyRoutes.emailServiceUpdate, { body }),
    toForm: ({ has_password: _, ...rest }) => rest,
  });
  const failureText = useFailureText();
  const test = useMutation({
    mutationFn: () => api.call(notifyRoutes.emailServiceTest, { body: { to } }),
    onSuccess: (r) => (r.result ? void message.success(r.detail) : void message.error(failureText(r.detail))),
  });
  return (
    <Card title={t('alarmSettings.mailTitle')} loading={data.isLoading}>
      <Form form={form} layout="vertical" disabled={!canEdit} style={{ maxWidth: 560 }}>
        <Form.Item name="enable" label={t('alarmSettings.enable')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="host" label={t('alarmSettings.host')}>
          <Input />
        </Form.Item>
        <Form.Item name="port" label={t('alarmSettings.port')}>
          <InputNumber min={1} max={65535} />
        </Form.Item>
        <Form.Item name="security" label={t('alarmSettings.security')}>
          <Select
            options={[
              { value: 'none', label: t('alarmSettings.securityOptions.none') },
              { value: 'starttls', label: t('alarmSettings.securityOptions.starttls') },
              { value: 'tls', label: t('alarmSettings.securityOptions.tls') },
            ]}
          />
        </Form.Item>
        <Form.Item name="user" label={t('alarmSettings.user')}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('alarmSettings.password')}
          extra={data.data?.has_password ? t('alarmSettings.keepSecret') : undefined}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="from" label={t('alarmSettings.from')}>
          <Input />
        </Form.Item>
        {canEdit && (
          <Space>
            {saveButton}
            <Input
              placeholder={t('alarmSettings.testTo')}
              value={to}
              onChange={(e) => setTo(e.target.value)}
              style={{ width: 220 }}
            />
            <Button loading={test.isPending} disabled={!to} onClick={() => test.mutate()}>
              {t('alarmSettings.test')}
            </Button>
          </Space>
        )}
      </Form>
    </Card>
  );
};

/** One of the two templates (notice, recovery): subject and body with placeholders. */
const TemplateForm = ({ kind, title }: { kind: 'notice' | 'recover'; title: string }) => {
  const { t } = useTranslation();
  const { form, canEdit, saveButton } = useSettingsForm({
    page: '/setting_alarm_template',
    queryKey: ['alarms', 'tpl', kind],
    load: () => api.call(kind === 'notice' ? notifyRoutes.noticeTpl : notifyRoutes.recoverTpl),
    save: (body: z.infer<typeof noticeTemplate>) =>
      api.call(kind === 'notice' ? notifyRoutes.noticeTplUpdate : notifyRoutes.recoverTplUpdate, { body }),
  });
  return (
    <Card type="inner" title={title} style={{ marginBottom: 16 }}>
      <Form form={form} layout="vertical" disabled={!canEdit}>
        <Form.Item
          name="subject"
          label={t('alarmSettings.subject')}
          rules={[contractRule(noticeTemplate, { required: true })]}
        >
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item
          name="body"
          label={t('alarmSettings.body')}
          rules={[contractRule(noticeTemplate, { required: true })]}
        >
          <Input.TextArea rows={4} maxLength={4000} />
        </Form.Item>
        {saveButton}
      </Form>
    </Card>
  );
};

/** /setting_alarm_template: notice and recovery templates with placeholders. */
export const AlarmTemplatePage = () => {
  const { t } = useTranslation();
  return (
    <Card
      title={t('alarmSettings.templateTitle')}
      extra={<Tag>{'{site} {device} {item} {value} {unit} {level} {info} {time} {state}'}</Tag>}
    >
      <TemplateForm kind="notice" title={t('alarmSettings.noticeTpl')} />
      <TemplateForm kind="recover" title={t('alarmSettings.recoverTpl')} />
    </Card>
  );
};

/** /setting_contacts (002 §3 Contact). */
export const ContactsPage = () => {
  const { t } = useTranslation();
  return (
    <ResourcePage<ContactRow>
      page="/setting_contacts"
      title={t('alarmSettings.contactsTitle')}
      routes={notifyRoutes.contacts}
      queryKey={['alarms', 'settings', notifyRoutes.contacts.list.path]}
      initial={{ alarm_level: 5, time_period_id: 0, duty: false, enable: true }}
      columns={[
        { title: t('alarmSettings.name'), dataIndex: 'name' },
        { title: t('alarmSettings.alias'), dataIndex: 'alias' },
        { title: t('alarmSettings.email'), dataIndex: 'email' },
        { title: t('alarmSettings.phone'), dataIndex: 'phone' },
        { title: t('alarmSettings.smsNumber'), dataIndex: 'sms_number' },
        { title: t('alarmSettings.voiceNumber'), dataIndex: 'voice_number' },
        {
          title: t('alarmPages.level'),
          dataIndex: 'alarm_level',
          render: (level: number) => <LevelTag level={level} />,
        },
        { title: t('alarmSettings.duty'), dataIndex: 'duty', render: yesNo },
        { title: t('alarmSettings.enable'), dataIndex: 'enable', render: yesNo },
      ]}
      fields={() => (
        <Row gutter={16}>
          <Col span={12}>
            <NameItem schema={contactInput} />
          </Col>
          <FormCol name="alias" label={t('alarmSettings.alias')}>
            <Input maxLength={64} />
          </FormCol>
          <FormCol name="email" label={t('alarmSettings.email')} rules={[contractRule(contactInput)]}>
            <Input />
          </FormCol>
          <FormCol name="phone" rules={[contractRule(contactInput)]} label={t('alarmSettings.phone')}>
            <Input />
          </FormCol>
          <FormCol name="sms_number" rules={[contractRule(contactInput)]} label={t('alarmSettings.smsNumber')}>
            <Input />
          </FormCol>
          <FormCol name="voice_number" rules={[contractRule(contactInput)]} label={t('alarmSettings.voiceNumber')}>
            <Input />
          </FormCol>
          <FormCol span={8} name="alarm_level" label={t('alarmSettings.contactLevel')}>
            <LevelSelect style={{ width: 140 }} />
          </FormCol>
          <FormCol span={8} name="time_period_id" label={t('alarmSettings.timePeriod')}>
            <PeriodSelect noneLabel={t('alarmSettings.anyTime')} />
          </FormCol>
          <FormCol span={4} name="duty" label={t('alarmSettings.duty')} valuePropName="checked">
            <Switch />
          </FormCol>
          <FormCol span={4} name="enable" label={t('alarmSettings.enable')} valuePropName="checked">
            <Switch />
          </FormCol>
        </Row>
      )}
    />
  );
};

/** /setting_contact_groups: members, channels, mode and escalation. */
export const ContactGroupsPage = () => {
  const { t } = useTranslation();
  const contacts = useQuery({
    queryKey: ['alarms', 'settings', 'contacts-all'],
    queryFn: () => api.call(notifyRoutes.contacts.list, { query: { page: 1, limit: 1000 } }),
  });
  const channels = useQuery({
    queryKey: ['alarms', 'settings', 'channels-all'],
    queryFn: () =>
      api.call(notifyRoutes.channels.list, { query: { page: 1, limit: 1000 } }).catch(() => ({ total: 0, data: [] })),
  });
  const groups = useQuery({
    queryKey: ['alarms', 'settings', 'groups-all'],
    queryFn: () => api.call(notifyRoutes.contactGroups.list, { query: { page: 1, limit: 1000 } }),
  });
  return (
    <ResourcePage<ContactGroupRow>
      page="/setting_contact_groups"
      title={t('alarmSettings.groupsTitle')}
      routes={notifyRoutes.contactGroups}
      queryKey={['alarms', 'settings', notifyRoutes.contactGroups.list.path]}
      initial={{
        contact_ids: [],
        channel_ids: [],
        email: true,
        sms: false,
        voice: false,
        escalate_minutes: 0,
        escalate_group_id: 0,
        mode: 0,
        remark: '',
      }}
      columns={[
        { title: t('alarmSettings.name'), dataIndex: 'name' },
        { title: t('alarmSettings.members'), dataIndex: 'contact_ids', render: (ids: number[]) => ids.length },
        { title: t('alarmSettings.email'), dataIndex: 'email', render: yesNo },
        { title: t('alarmSettings.sms'), dataIndex: 'sms', render: yesNo },
        { title: t('alarmSettings.voice'), dataIndex: 'voice', render: yesNo },
        { title: t('alarmSettings.escalateMinutes'), dataIndex: 'escalate_minutes' },
      ]}
      fields={() => (
        <>
          <NameItem schema={contactGroupInput} />
          <Form.Item name="remark" label={t('alarmPages.remarks')}>
            <Input maxLength={200} />
          </Form.Item>
          <Form.Item name="contact_ids" label={t('alarmSettings.members')}>
            <Select
              mode="multiple"
              options={(contacts.data?.data ?? []).map((c) => ({ value: c.id, label: c.alias || c.name }))}
            />
          </Form.Item>
          <Form.Item name="channel_ids" label={t('alarmSettings.channels')}>
            <Select
              mode="multiple"
              options={(channels.data?.data ?? []).map((c) => ({ value: c.id, label: `${c.name} (${c.kind})` }))}
            />
          </Form.Item>
          <Space size={24}>
            <Form.Item name="email" label={t('alarmSettings.email')} valuePropName="checked">
              <Switch />
            </Form.Item>
            <Form.Item name="sms" label={t('alarmSettings.sms')} valuePropName="checked">
              <Switch />
            </Form.Item>
            <Form.Item name="voice" label={t('alarmSettings.voice')} valuePropName="checked">
              <Switch />
            </Form.Item>
            <Form.Item name="mode" label={t('alarmSettings.mode')}>
              <Select
                style={{ width: 140 }}
                options={[
                  { value: 0, label: t('alarmSettings.modeDefault') },
                  { value: 1, label: t('alarmSettings.modeDuty') },
                ]}
              />
            </Form.Item>
          </Space>
          <Space size={24}>
            <Form.Item name="escalate_minutes" label={t('alarmSettings.escalateMinutes')}>
              <InputNumber min={0} max={10080} />
            </Form.Item>
            <Form.Item name="escalate_group_id" label={t('alarmSettings.escalateGroup')}>
              <Select
                style={{ width: 200 }}
                options={[
                  { value: 0, label: '—' },
                  ...(groups.data?.data ?? []).map((g) => ({ value: g.id, label: g.name })),
                ]}
              />
            </Form.Item>
          </Space>
        </>
      )}
    />
  );
};

interface ChannelRow {
  id: number;
  name: string;
  kind: (typeof channelKinds)[number];
  config: Record<string, unknown> & { url: string };
  has_secret: boolean;
  enable: boolean;
}

/** /alarm_push: webhook, DingTalk, WeCom, Feishu, SMS and voice channels with a test send. */
export const AlarmPushPage = () => {
  const { t } = useTranslation();
  const kinds = useChannelKinds();
  const { message } = App.useApp();
  const failureText = useFailureText();
  const test = async (id: number) => {
    const r = await api.call(notifyRoutes.channelTest, { params: { id } });
    if (r.result) void message.success(r.detail);
    else void message.error(`${failureText(r.detail)} (${r.attempts})`);
  };
  return (
    <ResourcePage<ChannelRow>
      page="/alarm_push"
      title={t('alarmSettings.pushTitle')}
      routes={notifyRoutes.channels}
      queryKey={['alarms', 'settings', notifyRoutes.channels.list.path]}
      initial={{ kind: 'webhook', enable: true, config: { retries: 2, timeout_ms: 5000, sign_scheme: 'aliyun' } }}
      columns={[
        { title: t('alarmSettings.name'), dataIndex: 'name' },
        { title: t('alarmSettings.kind'), dataIndex: 'kind', render: kinds.label },
        { title: 'URL', dataIndex: ['config', 'url'], ellipsis: true },
        { title: t('alarmSettings.secret'), dataIndex: 'has_secret', render: yesNo },
        { title: t('alarmSettings.enable'), dataIndex: 'enable', render: yesNo },
      ]}
      extraActions={(row) => (
        <Button size="small" type="link" onClick={() => void test(row.id)}>
          {t('alarmSettings.test')}
        </Button>
      )}
      fromForm={(v) => {
        const config = { ...(v.config as Record<string, unknown>) };
        for (const k of Object.keys(config)) if (config[k] === undefined || config[k] === null) delete config[k];
        return { ...v, config };
      }}
      fields={() => (
        <Row gutter={16}>
          <Col span={12}>
            <NameItem schema={channelInput} />
          </Col>
          <FormCol span={6} name="kind" label={t('alarmSettings.kind')}>
            <Select options={kinds.options} />
          </FormCol>
          <FormCol span={6} name="enable" label={t('alarmSettings.enable')} valuePropName="checked">
            <Switch />
          </FormCol>
          <FormCol
            span={24}
            name={['config', 'url']}
            label="URL"
            rules={[contractRule(channelInput, { required: true })]}
          >
            <Input />
          </FormCol>
          <FormCol name={['config', 'secret']} label={t('alarmSettings.secret')} extra={t('alarmSettings.keepSecret')}>
            <Input.Password autoComplete="new-password" />
          </FormCol>
          <FormCol name={['config', 'access_key_id']} label="AccessKey ID">
            <Input />
          </FormCol>
          <FormCol span={8} name={['config', 'sign_scheme']} label={t('alarmSettings.signScheme')}>
            <Select
              options={[
                { value: 'aliyun', label: t('alarmSettings.signSchemes.aliyun') },
                { value: 'none', label: t('alarmSettings.signSchemes.none') },
              ]}
            />
          </FormCol>
          <FormCol span={8} name={['config', 'sign_name']} label={t('alarmSettings.signName')}>
            <Input />
          </FormCol>
          <FormCol span={8} name={['config', 'template_code']} label={t('alarmSettings.templateCode')}>
            <Input />
          </FormCol>
          <FormCol span={24} name={['config', 'body_template']} label={t('alarmSettings.bodyTemplate')}>
            <Input.TextArea rows={2} />
          </FormCol>
          <FormCol name={['config', 'retries']} label={t('alarmSettings.retries')}>
            <InputNumber min={0} max={10} />
          </FormCol>
          <FormCol name={['config', 'timeout_ms']} label={t('alarmSettings.timeout')}>
            <InputNumber min={100} max={60000} />
          </FormCol>
        </Row>
      )}
    />
  );
};
