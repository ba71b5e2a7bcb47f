import { type ItemRow, itemBulkUpdate, itemInput } from '@sitewatch/contract/monitoring';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Col,
  ColorPicker,
  Flex,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Row,
  Select,
  Space,
  Switch,
  Table,
  Tag,
  Tooltip,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/form-modal.tsx';
import { LevelSelect, LevelTag } from '../../../components/levels.tsx';
import { SiteSelect, sitesQuery } from '../../../components/site-select.tsx';
import { stateOf } from '../../../components/states.ts';
import { formatValue } from '../../../components/value-format.ts';
import { contactGroupsQuery, devicesQuery, itemsQuery, monitoringApi, periodsQuery } from '../api.ts';
import { ItemNameFields } from '../components/item-name-fields.tsx';
import { SourceFields } from '../components/source-fields.tsx';
import { numberField, ValueRuleFields } from '../components/value-rule-fields.tsx';
import { useSaved } from '../feedback.ts';
import { validateWith } from '../form-errors.ts';

const sourceKeys: Record<string, string[]> = {
  simulator: ['kind', 'model', 'base', 'spread', 'noise', 'period_s', 'fault_rate', 'decimals'],
  modbus: ['kind', 'function', 'register', 'data_type', 'byte_order', 'bit', 'scale'],
  snmp: ['kind', 'oid', 'scale'],
  mqtt: ['kind', 'topic', 'json_path', 'scale', 'command_topic', 'command_payload'],
};
const pickSource = (source: Record<string, unknown>) =>
  Object.fromEntries(
    (sourceKeys[String(source.kind)] ?? ['kind'])
      .filter((k) => source[k] !== undefined && source[k] !== null)
      .map((k) => [k, source[k]]),
  );

const ItemForm = ({
  item,
  deviceId,
  addressBase,
  onClose,
}: {
  item: ItemRow | 'new' | null;
  deviceId?: number;
  /** How the device numbers its registers (its Modbus option), said in the register's label. */
  addressBase: 0 | 1;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const feedback = useSaved();
  const periods = useQuery(periodsQuery);
  const groups = useQuery(contactGroupsQuery);
  const periodOptions = [
    { value: 0, label: t('monitoringUi.items.always') },
    ...(periods.data?.data ?? []).map((p) => ({ value: p.id, label: p.name })),
  ];
  const save = useMutation({
    mutationFn: (body: Parameters<typeof monitoringApi.createItem>[0]) =>
      item && item !== 'new' ? monitoringApi.updateItem(item.id, body) : monitoringApi.createItem(body),
    onSuccess: () => {
      feedback.onSuccess();
      onClose();
    },
  });
  const initial =
    item && item !== 'new'
      ? item
      : {
          device_id: deviceId,
          name: '',
          value_type: 1,
          threshold_min: 0,
          threshold_max: 100,
          recovery_point: 0,
          overrun_point: 0,
          alarm_level: 1,
          check_interval: 10,
          repetitions: 1,
          notification_interval: 300,
          enable: true,
          source: {
            kind: 'simulator',
            model: 'analog',
            base: 50,
            spread: 10,
            noise: 1,
            period_s: 86_400,
            fault_rate: 0,
            decimals: 1,
          },
        };
  return (
    <FormModal
      open={item !== null}
      width={820}
      title={item === 'new' ? t('monitoringUi.items.add') : t('monitoringUi.items.edit')}
      onCancel={onClose}
      confirmLoading={save.isPending}
      form={form}
      name="item"
      initialValues={initial}
      onFinish={(values) => {
        // Only the fields of the chosen kind go to the server (the schema is strict).
        const source = pickSource(values.source ?? {});
        const {
          id: _id,
          device_name: _d,
          device_group_id: _g,
          state: _s,
          value: _v,
          last_check: _l,
          info: _i,
          ...rest
        } = { ...(item && item !== 'new' ? item : {}), ...values } as Record<string, unknown>;
        const color = values.alarm_color;
        // Telemetry only: recorded, never judged, so it carries no thresholds (the contract refuses them).
        const noThresholds = values.telemetry_only
          ? {
              threshold_min: null,
              threshold_max: null,
              recovery_point: null,
              overrun_point: null,
              status_threshold: '',
            }
          : {};
        const body = validateWith(
          itemInput,
          {
            ...rest,
            ...noThresholds,
            source,
            // Empty: the driver's default maximum age (the server stores it).
            max_age: typeof values.max_age === 'number' ? values.max_age : undefined,
            alarm_color: typeof color === 'string' ? color : color ? color.toHexString() : '',
          },
          form,
          (k) => t(k as never),
        );
        if (body) save.mutate(body);
      }}
    >
      <Row gutter={12}>
        <ItemNameFields unitSpan={4} />
        <Col span={4}>
          <Form.Item name="location_id" label={t('monitoringUi.items.location')}>
            <InputNumber min={0} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={6}>
          <Form.Item
            name="decimals"
            label={t('monitoringUi.items.displayDecimals')}
            tooltip={t('monitoringUi.items.displayDecimalsHelp')}
          >
            <InputNumber min={0} max={6} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <ValueRuleFields
          thresholdSpan={4}
          numericExtra={
            <>
              <Col span={5}>{numberField('recovery_point', t('monitoringUi.items.recoveryPoint'))}</Col>
              <Col span={5}>{numberField('overrun_point', t('monitoringUi.items.overrunPoint'))}</Col>
            </>
          }
        />
        <Col span={6}>
          <Form.Item name="alarm_level" label={t('monitoringUi.items.alarmLevel')}>
            <LevelSelect style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={6}>
          <Form.Item name="alarm_color" label={t('monitoringUi.items.alarmColor')}>
            <ColorPicker format="hex" disabledAlpha allowClear />
          </Form.Item>
        </Col>
        <Col span={6}>
          <Form.Item name="contact_group_id" label={t('monitoringUi.items.contactGroup')}>
            <Select
              options={[
                { value: 0, label: t('monitoringUi.items.noContactGroup') },
                ...(groups.data?.data ?? []).map((g) => ({ value: g.id, label: g.name })),
              ]}
            />
          </Form.Item>
        </Col>
        <Col span={6}>
          <Form.Item name="working_period_id" label={t('monitoringUi.items.workingPeriod')}>
            <Select options={periodOptions} />
          </Form.Item>
        </Col>
        <Col span={6}>{numberField('overrun_action_id', t('monitoringUi.items.overrunAction'), 0)}</Col>
        <Col span={6}>{numberField('recovery_action_id', t('monitoringUi.items.recoveryAction'), 0)}</Col>
        <Col span={6}>{numberField('check_interval', t('monitoringUi.items.checkInterval'), 0)}</Col>
        <Col span={6}>
          <Form.Item name="max_age" label={t('monitoringUi.items.maxAge')} tooltip={t('monitoringUi.items.maxAgeHelp')}>
            <InputNumber min={0} max={604_800} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={6}>{numberField('repetitions', t('monitoringUi.items.repetitions'), 0)}</Col>
        <Col span={6}>{numberField('notification_interval', t('monitoringUi.items.notificationInterval'), 0)}</Col>
        <Col span={6}>
          <Form.Item name="check_period_id" label={t('monitoringUi.items.checkPeriod')}>
            <Select options={periodOptions} />
          </Form.Item>
        </Col>
        <Col span={6}>
          <Form.Item name="notification_period_id" label={t('monitoringUi.items.notificationPeriod')}>
            <Select options={periodOptions} />
          </Form.Item>
        </Col>
        <Col span={6}>
          <Form.Item name="alarm_period_id" label={t('monitoringUi.items.alarmPeriod')}>
            <Select options={periodOptions} />
          </Form.Item>
        </Col>
        <Col span={6}>
          <Form.Item name="enable" label={t('monitoringUi.devices.enable')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Col>
      </Row>
      <SourceFields addressBase={addressBase} />
      <Form.Item name="device_id" hidden>
        <Input />
      </Form.Item>
    </FormModal>
  );
};

const BulkDialog = ({ ids, onClose }: { ids: number[] | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const feedback = useSaved();
  const [form] = Form.useForm();
  const [failed, setFailed] = useState<Array<{ id: number; message: string }>>([]);
  const bulk = useMutation({
    mutationFn: (body: Parameters<typeof monitoringApi.bulkItems>[0]) => monitoringApi.bulkItems(body),
    onSuccess: (result) => {
      feedback.onSuccess();
      setFailed(result.failed);
      if (result.failed.length === 0) onClose();
    },
  });
  const fields = [
    'threshold_min',
    'threshold_max',
    'alarm_level',
    'check_interval',
    'repetitions',
    'notification_interval',
    'decimals',
  ] as const;
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
      onOk={() => form.submit()}
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
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        onFinish={(values) => {
          const set = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== null));
          const body = validateWith(itemBulkUpdate, { ids: ids ?? [], set }, form, (k) => t(k as never));
          if (body) bulk.mutate(body);
        }}
      >
        <Row gutter={12}>
          {fields.map((f) => (
            <Col span={12} key={f}>
              {numberField(f, labels[f])}
            </Col>
          ))}
        </Row>
      </Form>
    </Modal>
  );
};

/** /setting_items: monitored items of a device with every field of 002 §3, edit, bulk edit, delete. */
export const ItemsPage = () => {
  const { t } = useTranslation();
  const feedback = useSaved();
  const [site, setSite] = useState<number | null>(null);
  const [query, setQuery] = useState<{ page: number; limit: number; device_id?: number; name?: string }>({
    page: 1,
    limit: 20,
  });
  const devices = useQuery(devicesQuery({ page: 1, limit: 1000, ...(site ? { device_group_id: site } : {}) }));
  const items = useQuery(itemsQuery({ ...query, ...(site ? { device_group_id: site } : {}) }));
  const sites = useQuery(sitesQuery);
  const siteName = (id: number) => sites.data?.data.find((s) => s.id === id)?.name ?? '';
  const [editing, setEditing] = useState<ItemRow | 'new' | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const [bulk, setBulk] = useState<number[] | null>(null);
  const remove = useMutation({ mutationFn: monitoringApi.deleteItem, ...feedback });
  return (
    <Card
      title={t('monitoringUi.items.title')}
      extra={
        <Space>
          <Button disabled={selected.length === 0} onClick={() => setBulk(selected)}>
            {t('monitoringUi.common.bulkEdit')}
          </Button>
          <Tooltip title={query.device_id ? undefined : t('monitoringUi.items.chooseDeviceFirst')}>
            <Button type="primary" disabled={!query.device_id} onClick={() => setEditing('new')}>
              {t('monitoringUi.items.add')}
            </Button>
          </Tooltip>
        </Space>
      }
    >
      <Flex gap={12} style={{ marginBottom: 12 }} wrap>
        <SiteSelect
          allowClear
          placeholder={t('monitoringUi.devices.site')}
          value={site}
          onChange={(v) => {
            setSite(v);
            setQuery({ page: 1, limit: query.limit });
          }}
        />
        <Select
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={t('monitoringUi.items.device')}
          aria-label={t('monitoringUi.items.device')}
          style={{ width: 280 }}
          value={query.device_id}
          onChange={(v) => setQuery({ ...query, page: 1, device_id: v })}
          // Devices of different sites may share a name: each says where it stands.
          options={(devices.data?.data ?? []).map((d) => ({
            value: d.id,
            label: `${d.name} · ${d.device_group_name}`,
          }))}
        />
        <Input.Search
          allowClear
          placeholder={t('monitoringUi.items.name')}
          style={{ width: 220 }}
          onSearch={(name) => setQuery({ ...query, page: 1, name: name || undefined })}
        />
      </Flex>
      <Table<ItemRow>
        rowKey="id"
        loading={items.isLoading}
        dataSource={items.data?.data}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }}
        pagination={{
          current: query.page,
          pageSize: query.limit,
          total: items.data?.total,
          onChange: (page, limit) => setQuery({ ...query, page, limit }),
        }}
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
          {
            title: t('monitoringUi.station.value'),
            render: (_, i) => formatValue(i.value, i),
          },
          {
            title: t('monitoringUi.station.state'),
            width: 100,
            render: (_, i) => <Tag color={stateOf(i.state).color}>{t(stateOf(i.state).key)}</Tag>,
          },
          {
            title: t('monitoringUi.common.actions'),
            width: 160,
            render: (_, i) => (
              <Space>
                <Button size="small" onClick={() => setEditing(i)}>
                  {t('monitoringUi.common.edit')}
                </Button>
                <Popconfirm title={t('monitoringUi.common.confirmDelete')} onConfirm={() => remove.mutate(i.id)}>
                  <Button size="small" danger>
                    {t('monitoringUi.common.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <ItemForm
        item={editing}
        deviceId={query.device_id}
        addressBase={
          devices.data?.data.find((d) => d.id === (editing && editing !== 'new' ? editing.device_id : query.device_id))
            ?.options.modbus_address_base ?? 0
        }
        onClose={() => setEditing(null)}
      />
      <BulkDialog ids={bulk} onClose={() => setBulk(null)} />
    </Card>
  );
};
