import { type AlarmCommons, type AlarmLevelRow, alarmLevelInput, alarmRoutes } from '@sitewatch/contract/alarms';
import { Badge, Card, ColorPicker, Form, Input, InputNumber, Row, Select, Switch, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { FormCol } from '../../../components/form-col.tsx';
import { contractRule } from '../../../components/form-rules.ts';
import { LevelSelect } from '../../../components/levels.tsx';
import { ResourcePage } from '../../../components/resource-page.tsx';
import { useSettingsForm } from '../../../components/settings-form.tsx';

const yesNo = (v: boolean) => (v ? <Tag color="green">✓</Tag> : <Tag>—</Tag>);

/** /setting_alarm_param: voice, pop-up, video, notification, jitter, flood limit, escalation, buzzer and lamp (002 §3, §9). */
export const AlarmParamPage = () => {
  const { t } = useTranslation();
  const { form, data, canEdit, saveButton } = useSettingsForm<AlarmCommons, AlarmCommons>({
    page: '/setting_alarm_param',
    queryKey: ['alarms', 'commons'],
    load: () => api.call(alarmRoutes.commons),
    save: (body) => api.call(alarmRoutes.commonsUpdate, { body }),
  });
  const sw = (name: string | string[], label: string) => (
    <FormCol span={6} name={name} label={label} valuePropName="checked">
      <Switch />
    </FormCol>
  );
  const num = (name: string | string[], label: string, min = 0, max = 100_000) => (
    <FormCol span={6} name={name} label={label}>
      <InputNumber min={min} max={max} style={{ width: '100%' }} />
    </FormCol>
  );
  return (
    <Card title={t('alarmSettings.paramTitle')} loading={data.isLoading}>
      <Form form={form} layout="vertical" disabled={!canEdit}>
        <Row gutter={16}>
          {sw('voice_enable', t('alarmSettings.voice'))}
          {sw('popup_enable', t('alarmSettings.popup'))}
          {sw('video_enable', t('alarmSettings.video'))}
          {sw('notify_enable', t('alarmSettings.notify'))}
        </Row>
        <Row gutter={16}>
          {sw('jitter_enable', t('alarmSettings.jitter'))}
          <FormCol span={6} name="jitter_type" label={t('alarmSettings.jitterType')}>
            <Select
              options={[
                { value: 'standard', label: t('alarmSettings.jitterStandard') },
                { value: 'weighted', label: t('alarmSettings.jitterWeighted') },
              ]}
            />
          </FormCol>
          {num('jitter_start', t('alarmSettings.jitterStart'), 0, 100)}
          {num('jitter_stop', t('alarmSettings.jitterStop'), 0, 100)}
          {num('jitter_period', t('alarmSettings.jitterPeriod'), 0, 604_800)}
          {num('buffer_times', t('alarmSettings.bufferTimes'), 0, 21)}
          {num('max_continuous_lifts', t('alarmSettings.maxLifts'), 0, 1000)}
          {num('recovery_period', t('alarmSettings.recoveryPeriod'), 0, 86_400)}
        </Row>
        <Row gutter={16}>
          {num('notify_times', t('alarmSettings.notifyTimes'), 0, 100)}
          {num('flood_limit', t('alarmSettings.floodLimit'), 0, 10_000)}
          {sw('escalation_enable', t('alarmSettings.escalation'))}
          <FormCol
            span={6}
            name="point_fault_level"
            label={t('alarmSettings.pointFaultLevel')}
            tooltip={t('alarmSettings.pointFaultLevelHelp')}
          >
            <LevelSelect />
          </FormCol>
        </Row>
        <Row gutter={16}>
          {sw(['buzzer', 'enable'], t('alarmSettings.buzzer'))}
          {num(['buzzer', 'frequency'], t('alarmSettings.frequency'), 1, 65_535)}
          {num(['buzzer', 'duty'], t('alarmSettings.dutyCycle'), 0, 100)}
          {num(['buzzer', 'count'], t('alarmSettings.count'), 0, 65_535)}
          {num(['buzzer', 'time'], t('alarmSettings.time'), 0, 65_535)}
        </Row>
        <Row gutter={16}>
          {sw(['lamp', 'enable'], t('alarmSettings.lamp'))}
          {num(['lamp', 'frequency'], t('alarmSettings.frequency'), 0, 1000)}
          {num(['lamp', 'duty'], t('alarmSettings.dutyCycle'), 0, 100)}
          {num(['lamp', 'count'], t('alarmSettings.count'), 0, 65_535)}
          {num(['lamp', 'time'], t('alarmSettings.time'), 0, 65_535)}
        </Row>
        {saveButton}
      </Form>
    </Card>
  );
};

/** /warning_level: levels 1–5 with colours and sound. */
export const WarningLevelPage = () => {
  const { t } = useTranslation();
  return (
    <ResourcePage<AlarmLevelRow>
      page="/warning_level"
      title={t('alarmSettings.levelsTitle')}
      queryKey={['alarms', 'settings', alarmRoutes.levels.path]}
      routes={{
        list: alarmRoutes.levels,
        create: alarmRoutes.levelCreate,
        update: alarmRoutes.levelUpdate,
        remove: alarmRoutes.levelDelete,
      }}
      initial={{ level: 1, color: '#cf1322', sound: true }}
      columns={[
        { title: t('alarmSettings.name'), dataIndex: 'name' },
        { title: t('alarmPages.level'), dataIndex: 'level' },
        { title: t('alarmSettings.color'), dataIndex: 'color', render: (c: string) => <Badge color={c} text={c} /> },
        { title: t('alarmSettings.sound'), dataIndex: 'sound', render: yesNo },
      ]}
      fromForm={(v) => ({
        name: v.name,
        level: v.level,
        sound: v.sound,
        color: typeof v.color === 'string' ? v.color : (v.color as { toHexString(): string }).toHexString(),
      })}
      fields={() => (
        <>
          <Form.Item
            name="name"
            label={t('alarmSettings.name')}
            rules={[contractRule(alarmLevelInput, { required: true })]}
          >
            <Input maxLength={32} />
          </Form.Item>
          <Form.Item
            name="level"
            label={t('alarmPages.level')}
            rules={[contractRule(alarmLevelInput, { required: true })]}
          >
            <InputNumber min={1} max={5} />
          </Form.Item>
          <Form.Item name="color" label={t('alarmSettings.color')}>
            <ColorPicker disabledAlpha format="hex" />
          </Form.Item>
          <Form.Item name="sound" label={t('alarmSettings.sound')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </>
      )}
    />
  );
};
