import { formatValue } from '@sitewatch/contract';
import { type ItemRow, itemBulkUpdate, itemInput, monitoringRoutes } from '@sitewatch/contract/monitoring';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Button, Col, ColorPicker, Form, Input, InputNumber, Modal, Row, Select, Switch, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormCol } from '../../../components/form-col.tsx';
import { contractRule, FieldRules, validValues } from '../../../components/form-rules.ts';
import { LevelSelect, LevelTag } from '../../../components/levels.tsx';
import { PeriodSelect } from '../../../components/period-select.tsx';
import { ResourcePage } from '../../../components/resource-page.tsx';
import { SiteSelect, sitesQuery } from '../../../components/site-select.tsx';
import { stateOf } from '../../../components/states.ts';
import { contactGroupsQuery, devicesQuery, monitoringApi } from '../api.ts';
import { ItemNameFields, ItemPurposeField } from '../components/item-name-fields.tsx';
import { ActionSelect, LocationSelect } from '../components/reference-fields.tsx';
import { SourceFields } from '../components/source-fields.tsx';
import { NumberField, ValueRuleFields } from '../components/value-rule-fields.tsx';
import { useSaved } from '../feedback.ts';
import { itemBody, sourceDefaults } from '../item-body.ts';

const page = '/setting_items';
const itemRoutes = {
  list: monitoringRoutes.listItems,
  create: monitoringRoutes.createItem,
  update: monitoringRoutes.updateItem,
  remove: monitoringRoutes.deleteItem,
};
const itemRules = [contractRule(itemInput, { toBody: itemBody })];

/** A new item until the user says otherwise: numeric 0–100, simulated. */
const newItem = {
  name: '',
  value_type: 1,
  threshold_min: 0,
  threshold_max: 100,
  recovery_point: 0,
  overrun_point: 0,
  alarm_level: 1,
  check_interval: 0,
  repetitions: 1,
  notification_interval: 300,
  fault_alarm: true,
  enable: true,
  source: sourceDefaults('simulator'),
};

/** Devices as the pickers offer them: devices of different sites may share a name, so each says where it stands. */
const useDeviceOptions = (site?: number | null) => {
  const devices = useQuery(devicesQuery({ page: 1, limit: 1000, ...(site ? { device_group_id: site } : {}) }));
  const rows = devices.data?.data ?? [];
  return { rows, options: rows.map((d) => ({ value: d.id, label: `${d.name} · ${d.device_group_name}` })) };
};

/** The item dialog's fields (every field of 002 §3), checked with the item request's schema. */
const ItemFields = () => {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const groups = useQuery(contactGroupsQuery);
  const devices = useDeviceOptions();
  const deviceId = Form.useWatch('device_id', form);
  // How the device numbers its registers (its Modbus option), said in the register's label.
  const addressBase = devices.rows.find((d) => d.id === deviceId)?.options.modbus_address_base ?? 0;
  const periodField = (name: string, label: string) => (
    <FormCol span={6} rules={itemRules} name={name} label={label}>
      <PeriodSelect noneLabel={t('monitoringUi.items.always')} />
    </FormCol>
  );
  // The overrun and recovery actions: the automation area's actions (not the same one twice).
  const actionField = (name: string, label: string) => (
    <FormCol
      span={6}
      rules={itemRules}
      name={name}
      label={label}
      tooltip={t('monitoringUi.items.actionsHelp')}
      extra={t('monitoringUi.items.actionsHint')}
    >
      <ActionSelect />
    </FormCol>
  );
  return (
    <FieldRules value={itemRules}>
      <Row gutter={12}>
        <FormCol rules={itemRules} name="device_id" label={t('monitoringUi.items.device')} required>
          <Select showSearch={{ optionFilterProp: 'label' }} options={devices.options} />
        </FormCol>
        <FormCol
          span={6}
          rules={itemRules}
          name="location_id"
          label={t('monitoringUi.items.location')}
          tooltip={t('monitoringUi.items.locationHelp')}
        >
          <LocationSelect />
        </FormCol>
        <FormCol
          span={6}
          rules={itemRules}
          name="decimals"
          label={t('monitoringUi.items.displayDecimals')}
          tooltip={t('monitoringUi.items.displayDecimalsHelp')}
        >
          <InputNumber min={0} max={6} precision={0} style={{ width: '100%' }} />
        </FormCol>
        <ItemNameFields />
        <ItemPurposeField span={6} />
        <ValueRuleFields
          thresholdSpan={4}
          numericExtra={
            <>
              <Col span={5}>
                <NumberField name="recovery_point" label={t('monitoringUi.items.recoveryPoint')} />
              </Col>
              <Col span={5}>
                <NumberField name="overrun_point" label={t('monitoringUi.items.overrunPoint')} />
              </Col>
            </>
          }
        />
        <FormCol span={6} rules={itemRules} name="alarm_level" label={t('monitoringUi.items.alarmLevel')}>
          <LevelSelect style={{ width: '100%' }} />
        </FormCol>
        <Col span={6}>
          <Form.Item rules={itemRules} name="alarm_color" label={t('monitoringUi.items.alarmColor')}>
            <ColorPicker format="hex" disabledAlpha allowClear />
          </Form.Item>
        </Col>
        <FormCol span={6} rules={itemRules} name="contact_group_id" label={t('monitoringUi.items.contactGroup')}>
          <Select
            options={[
              { value: 0, label: t('monitoringUi.items.noContactGroup') },
              ...(groups.data?.data ?? []).map((g) => ({ value: g.id, label: g.name })),
            ]}
          />
        </FormCol>
        {periodField('working_period_id', t('monitoringUi.items.workingPeriod'))}
        {actionField('overrun_action_id', t('monitoringUi.items.overrunAction'))}
        {actionField('recovery_action_id', t('monitoringUi.items.recoveryAction'))}
        {actionField('confirm_action_id', t('monitoringUi.items.confirmAction'))}
        <Col span={6}>
          <NumberField
            name="check_interval"
            label={t('monitoringUi.items.checkInterval')}
            tooltip={t('monitoringUi.items.checkIntervalHelp')}
            min={0}
          />
        </Col>
        <FormCol
          span={6}
          rules={itemRules}
          name="max_age"
          label={t('monitoringUi.items.maxAge')}
          tooltip={t('monitoringUi.items.maxAgeHelp')}
        >
          <InputNumber min={0} max={604_800} precision={0} style={{ width: '100%' }} />
        </FormCol>
        <Col span={6}>
          <NumberField name="repetitions" label={t('monitoringUi.items.repetitions')} min={0} />
        </Col>
        <Col span={6}>
          <NumberField name="notification_interval" label={t('monitoringUi.items.notificationInterval')} min={0} />
        </Col>
        {periodField('check_period_id', t('monitoringUi.items.checkPeriod'))}
        {periodField('notification_period_id', t('monitoringUi.items.notificationPeriod'))}
        {periodField('alarm_period_id', t('monitoringUi.items.alarmPeriod'))}
        <FormCol
          span={6}
          rules={itemRules}
          name="enable"
          label={t('monitoringUi.devices.enable')}
          valuePropName="checked"
        >
          <Switch />
        </FormCol>
      </Row>
      <SourceFields addressBase={addressBase} />
    </FieldRules>
  );
};

/** The bulk edit's request: only the fields given go into `set`. */
const bulkBody = (ids: number[], values: Record<string, unknown>) => ({
  ids,
  set: Object.fromEntries(
    Object.entries((values.set ?? {}) as Record<string, unknown>).filter(([, v]) => v !== undefined && v !== null),
  ),
});

const BulkDialog = ({ ids, onClose }: { ids: number[] | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const feedback = useSaved();
  const [form] = Form.useForm();
  const [failed, setFailed] = useState<Array<{ id: number; message: string }>>([]);
  const rules = [contractRule(itemBulkUpdate, { toBody: (v) => bulkBody(ids ?? [], v) })];
  const bulk = useMutation({
    mutationFn: (body: Parameters<typeof monitoringApi.bulkItems>[0]) => monitoringApi.bulkItems(body),
    onSuccess: (result) => {
      feedback.onSuccess();
      setFailed(result.failed);
      if (result.failed.length === 0) onClose();
    },
  });
  const labels = {
    threshold_min: t('monitoringUi.items.min'),
    threshold_max: t('monitoringUi.items.max'),
    alarm_level: t('monitoringUi.items.alarmLevel'),
    check_interval: t('monitoringUi.items.checkInterval'),
    repetitions: t('monitoringUi.items.repetitions'),
    notification_interval: t('monitoringUi.items.notificationInterval'),
    decimals: t('monitoringUi.items.displayDecimals'),
  };
  return (
    <Modal
      open={ids !== null}
      title={t('monitoringUi.common.bulkEdit')}
      onCancel={() => {
        setFailed([]);
        onClose();
      }}
      onOk={() =>
        void validValues(form).then(
          (values) => values && bulk.mutate(itemBulkUpdate.parse(bulkBody(ids ?? [], values))),
        )
      }
      confirmLoading={bulk.isPending}
      destroyOnHidden
    >
      {failed.length ? (
        <Alert
          type="warning"
          style={{ marginBottom: 12 }}
          title={t('monitoringUi.items.partialFailure')}
          description={failed.map((f) => `#${f.id}: ${f.message}`).join('; ')}
        />
      ) : null}
      <Form form={form} layout="vertical" preserve={false}>
        <FieldRules value={rules}>
          <Row gutter={12}>
            {Object.entries(labels).map(([f, label]) => (
              <Col span={12} key={f}>
                <NumberField name={['set', f]} label={label} />
              </Col>
            ))}
            <ItemPurposeField span={12} name={['set', 'purpose']} keep />
          </Row>
        </FieldRules>
      </Form>
    </Modal>
  );
};

/** The list's device filter: the devices of the chosen site (all sites when none). */
const DeviceFilter = ({ onChange }: { onChange: (id: number | undefined) => void }) => {
  const { t } = useTranslation();
  const site = Form.useWatch('device_group_id', Form.useFormInstance());
  return (
    <Form.Item name="device_id">
      <Select
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        placeholder={t('monitoringUi.items.device')}
        aria-label={t('monitoringUi.items.device')}
        style={{ width: 280 }}
        options={useDeviceOptions(site).options}
        onChange={onChange}
      />
    </Form.Item>
  );
};

/** /setting_items: monitored items with every field of 002 §3; add, edit, bulk edit, delete by the page's grants. */
export const ItemsPage = () => {
  const { t } = useTranslation();
  const sites = useQuery(sitesQuery);
  const siteName = (id: number) => sites.data?.data.find((s) => s.id === id)?.name ?? '';
  const [device, setDevice] = useState<number | undefined>();
  const [selected, setSelected] = useState<number[]>([]);
  const [bulk, setBulk] = useState<number[] | null>(null);
  return (
    <>
      <ResourcePage<ItemRow>
        page={page}
        title={t('monitoringUi.items.title')}
        routes={itemRoutes}
        queryKey={['monitoring']}
        searchButton={false}
        filters={(submit) => (
          <>
            <Form.Item name="device_group_id">
              <SiteSelect allowClear placeholder={t('monitoringUi.devices.site')} onChange={submit} />
            </Form.Item>
            <DeviceFilter
              onChange={(id) => {
                setDevice(id);
                submit();
              }}
            />
            <Form.Item name="name">
              <Input.Search
                allowClear
                placeholder={t('monitoringUi.items.name')}
                style={{ width: 220 }}
                onSearch={submit}
              />
            </Form.Item>
          </>
        )}
        toQuery={(v) => ({
          device_group_id: v.device_group_id ?? undefined,
          device_id: v.device_id ?? undefined,
          name: v.name || undefined,
        })}
        toolbar={() => (
          <Button disabled={selected.length === 0} onClick={() => setBulk(selected)}>
            {t('monitoringUi.common.bulkEdit')}
          </Button>
        )}
        table={{ rowSelection: { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) } }}
        addLabel={t('monitoringUi.items.add')}
        dialog={{ addTitle: t('monitoringUi.items.add'), editTitle: t('monitoringUi.items.edit'), width: 820 }}
        // A new item belongs to the device the list is filtered by, until the user picks another.
        initial={{ ...newItem, device_id: device }}
        fromForm={(values, editing) => itemInput.parse(itemBody({ ...editing, ...values }))}
        fields={() => <ItemFields />}
        columns={[
          { title: t('monitoringUi.items.name'), dataIndex: 'name' },
          { title: t('monitoringUi.items.site'), dataIndex: 'device_group_id', render: (id: number) => siteName(id) },
          { title: t('monitoringUi.items.device'), dataIndex: 'device_name' },
          { title: t('monitoringUi.items.unit'), dataIndex: 'unit', width: 70 },
          {
            title: t('monitoringUi.items.threshold'),
            render: (_, i) =>
              i.telemetry_only
                ? t('monitoringUi.items.telemetryOnly')
                : i.value_type === 1
                  ? `${i.threshold_min ?? '—'} ~ ${i.threshold_max ?? '—'}`
                  : `= ${i.status_threshold}`,
          },
          {
            title: t('monitoringUi.items.alarmLevel'),
            dataIndex: 'alarm_level',
            width: 100,
            render: (level: number) => <LevelTag level={level} />,
          },
          { title: t('monitoringUi.items.checkInterval'), dataIndex: 'check_interval', width: 100 },
          { title: t('monitoringUi.station.value'), render: (_, i) => formatValue(i.value, i) },
          {
            title: t('monitoringUi.station.state'),
            width: 100,
            render: (_, i) => <Tag color={stateOf(i.state).color}>{t(stateOf(i.state).key)}</Tag>,
          },
        ]}
      />
      <BulkDialog ids={bulk} onClose={() => setBulk(null)} />
    </>
  );
};
