import { type DeviceRow, deviceInput, monitoringRoutes, serialSettings } from '@sitewatch/contract/monitoring';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Button, Divider, Form, type FormInstance, Input, InputNumber, Row, Select, Space, Switch, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDriverNames } from '../../../components/driver-names.ts';
import { FormCol } from '../../../components/form-col.tsx';
import { FormModal } from '../../../components/form-modal.tsx';
import { contractRule } from '../../../components/form-rules.ts';
import { ResourcePage } from '../../../components/resource-page.tsx';
import { SiteSelect } from '../../../components/site-select.tsx';
import { stateOf } from '../../../components/states.ts';
import { useCan } from '../../../session/permissions.ts';
import { categoriesQuery, monitoringApi, serialPortsQuery, templatesQuery } from '../api.ts';
import { PointTableDialog } from '../components/point-table-dialog.tsx';
import { TemplatesDrawer } from '../components/templates-drawer.tsx';
import { useSaved } from '../feedback.ts';

const page = '/setting_device_mange';
const deviceRoutes = {
  list: monitoringRoutes.listDevices,
  create: monitoringRoutes.createDevice,
  update: monitoringRoutes.updateDevice,
  remove: monitoringRoutes.deleteDevice,
};

const defaults = {
  name: '',
  driver: 'simulator',
  code: 'temp_hum',
  template_id: null,
  ip: '',
  port: null,
  protocol_id: 1,
  classification_id: 0,
  device_count: 1,
  serial: serialSettings.parse({}),
  zigbee_enable: false,
  zigbee_address: '',
  protocol_version: '',
  options: {
    community: 'public',
    v3_user: '',
    v3_level: 'authPriv',
    v3_auth_protocol: 'sha',
    v3_auth_key: '',
    v3_priv_protocol: 'aes',
    v3_priv_key: '',
    mqtt_username: '',
    mqtt_password: '',
    timeout_ms: 3000,
    modbus_merge: true,
    modbus_merge_gap: 0,
    modbus_max_block: 64,
    modbus_address_base: 0,
  },
  check_interval: 10,
  enable: true,
};

/** The request of a device form: the defaults under what the form holds (nested settings merged). */
const deviceBody = (values: Record<string, unknown>) => {
  const v = values as typeof defaults;
  return {
    ...defaults,
    ...v,
    serial: { ...defaults.serial, ...v.serial },
    options: { ...defaults.options, ...v.options },
  };
};
const rules = [contractRule(deviceInput, { toBody: deviceBody })];

/** The device dialog's fields; what they show follows the chosen driver. */
const DeviceFields = ({ form, device }: { form: FormInstance; device: DeviceRow | null }) => {
  const { t } = useTranslation();
  const drivers = useDriverNames();
  const categories = useQuery(categoriesQuery);
  const templates = useQuery(templatesQuery);
  const ports = useQuery(serialPortsQuery);
  const driver = Form.useWatch('driver', form) ?? device?.driver ?? defaults.driver;
  const zigbee = Form.useWatch('zigbee_enable', form);
  const version = Form.useWatch('protocol_version', form);
  const isNew = device === null;
  // Stored secrets are never sent back: say one is kept unless a new one is typed.
  const keptHint = (f: 'community' | 'mqtt_password' | 'v3_auth_key' | 'v3_priv_key') =>
    device?.options[`${f}_set`] ? t('monitoringUi.devices.secretSet') : undefined;
  return (
    <>
      <Row gutter={12}>
        <FormCol rules={rules} name="name" label={t('monitoringUi.devices.name')} required>
          <Input maxLength={64} />
        </FormCol>
        <FormCol rules={rules} name="device_group_id" label={t('monitoringUi.devices.site')} required>
          <SiteSelect devicesOnly />
        </FormCol>
        <FormCol span={8} rules={rules} name="driver" label={t('monitoringUi.devices.driver')} required>
          <Select options={drivers.options} />
        </FormCol>
        <FormCol span={8} rules={rules} name="code" label={t('monitoringUi.devices.category')} required>
          <Select options={(categories.data?.data ?? []).map((c) => ({ value: c.code, label: c.name }))} />
        </FormCol>
        <FormCol span={8} rules={rules} name="template_id" label={t('monitoringUi.devices.template')}>
          <Select
            allowClear
            disabled={!isNew}
            options={(templates.data?.data ?? [])
              .filter((tpl) => tpl.driver === driver)
              .map((tpl) => ({ value: tpl.id, label: `${tpl.name} (${tpl.items.length})` }))}
          />
        </FormCol>
        <FormCol span={8} rules={rules} name="ip" label={t('monitoringUi.devices.ip')}>
          <Input maxLength={253} />
        </FormCol>
        <FormCol span={4} rules={rules} name="port" label={t('monitoringUi.devices.port')}>
          <InputNumber min={1} max={65535} precision={0} style={{ width: '100%' }} />
        </FormCol>
        <FormCol span={4} rules={rules} name="protocol_id" label={t('monitoringUi.devices.protocolId')}>
          <InputNumber min={1} max={255} precision={0} style={{ width: '100%' }} />
        </FormCol>
        <FormCol span={4} rules={rules} name="check_interval" label={t('monitoringUi.devices.checkInterval')}>
          <InputNumber min={0} precision={0} style={{ width: '100%' }} />
        </FormCol>
        <FormCol span={4} rules={rules} name="enable" label={t('monitoringUi.devices.enable')} valuePropName="checked">
          <Switch />
        </FormCol>
        <FormCol span={8} rules={rules} name="protocol_version" label={t('monitoringUi.devices.protocolVersion')}>
          {driver === 'snmp' || driver === 'snmp-ifmib' ? (
            <Select options={['v1', 'v2c', 'v3'].map((v) => ({ value: v, label: v }))} />
          ) : (
            <Input maxLength={16} />
          )}
        </FormCol>
        <FormCol span={8} rules={rules} name="classification_id" label={t('monitoringUi.devices.classification')}>
          <InputNumber min={0} precision={0} style={{ width: '100%' }} />
        </FormCol>
        <FormCol span={8} rules={rules} name="device_count" label={t('monitoringUi.devices.deviceCount')}>
          <InputNumber min={1} precision={0} style={{ width: '100%' }} />
        </FormCol>
        <FormCol span={8} rules={rules} name={['options', 'timeout_ms']} label={t('monitoringUi.devices.timeout')}>
          <InputNumber min={100} max={60000} precision={0} style={{ width: '100%' }} />
        </FormCol>
      </Row>
      {driver === 'snmp' || driver === 'snmp-ifmib' ? (
        <>
          <Divider titlePlacement="start">SNMP</Divider>
          <Row gutter={12}>
            {version === 'v3' ? (
              <>
                <FormCol span={8} rules={rules} name={['options', 'v3_user']} label={t('monitoringUi.devices.v3User')}>
                  <Input />
                </FormCol>
                <FormCol
                  span={8}
                  rules={rules}
                  name={['options', 'v3_level']}
                  label={t('monitoringUi.devices.v3Level')}
                >
                  <Select
                    options={[
                      { value: 'noAuthNoPriv', label: t('monitoringUi.devices.v3Levels.noAuthNoPriv') },
                      { value: 'authNoPriv', label: t('monitoringUi.devices.v3Levels.authNoPriv') },
                      { value: 'authPriv', label: t('monitoringUi.devices.v3Levels.authPriv') },
                    ]}
                  />
                </FormCol>
                <FormCol
                  span={8}
                  rules={rules}
                  name={['options', 'v3_auth_protocol']}
                  label={t('monitoringUi.devices.v3Auth')}
                >
                  <Select options={['md5', 'sha', 'sha256'].map((v) => ({ value: v, label: v.toUpperCase() }))} />
                </FormCol>
                <FormCol
                  span={8}
                  rules={rules}
                  name={['options', 'v3_auth_key']}
                  label={t('monitoringUi.devices.v3AuthKey')}
                  extra={keptHint('v3_auth_key')}
                >
                  <Input.Password autoComplete="new-password" />
                </FormCol>
                <FormCol
                  span={8}
                  rules={rules}
                  name={['options', 'v3_priv_protocol']}
                  label={t('monitoringUi.devices.v3Priv')}
                >
                  <Select options={['des', 'aes'].map((v) => ({ value: v, label: v.toUpperCase() }))} />
                </FormCol>
                <FormCol
                  span={8}
                  rules={rules}
                  name={['options', 'v3_priv_key']}
                  label={t('monitoringUi.devices.v3PrivKey')}
                  extra={keptHint('v3_priv_key')}
                >
                  <Input.Password autoComplete="new-password" />
                </FormCol>
              </>
            ) : (
              <FormCol
                span={8}
                rules={rules}
                name={['options', 'community']}
                label={t('monitoringUi.devices.community')}
                extra={keptHint('community')}
              >
                <Input.Password autoComplete="new-password" />
              </FormCol>
            )}
          </Row>
        </>
      ) : null}
      {driver === 'modbus-tcp' || driver === 'modbus-rtu' ? (
        <>
          <Divider titlePlacement="start">{t('monitoringUi.devices.modbus')}</Divider>
          <Row gutter={12}>
            <FormCol
              span={5}
              rules={rules}
              name={['options', 'modbus_merge']}
              label={t('monitoringUi.devices.modbusMerge')}
              tooltip={t('monitoringUi.devices.modbusMergeHelp')}
              valuePropName="checked"
            >
              <Switch />
            </FormCol>
            <FormCol
              span={6}
              rules={rules}
              name={['options', 'modbus_merge_gap']}
              label={t('monitoringUi.devices.modbusMergeGap')}
            >
              <InputNumber min={0} max={100} precision={0} style={{ width: '100%' }} />
            </FormCol>
            <FormCol
              span={6}
              rules={rules}
              name={['options', 'modbus_max_block']}
              label={t('monitoringUi.devices.modbusMaxBlock')}
            >
              <InputNumber min={1} max={125} precision={0} style={{ width: '100%' }} />
            </FormCol>
            <FormCol
              span={7}
              rules={rules}
              name={['options', 'modbus_address_base']}
              label={t('monitoringUi.devices.modbusAddressBase')}
            >
              <Select
                options={[
                  { value: 0, label: t('monitoringUi.devices.addressBase0') },
                  { value: 1, label: t('monitoringUi.devices.addressBase1') },
                ]}
              />
            </FormCol>
          </Row>
        </>
      ) : null}
      {driver === 'mqtt' ? (
        <>
          <Divider titlePlacement="start">MQTT</Divider>
          <Row gutter={12}>
            <FormCol rules={rules} name={['options', 'mqtt_username']} label={t('monitoringUi.devices.mqttUser')}>
              <Input />
            </FormCol>
            <FormCol
              rules={rules}
              name={['options', 'mqtt_password']}
              label={t('monitoringUi.devices.mqttPassword')}
              extra={keptHint('mqtt_password')}
            >
              <Input.Password autoComplete="new-password" />
            </FormCol>
          </Row>
        </>
      ) : null}
      <Divider titlePlacement="start">{t('monitoringUi.devices.serial')}</Divider>
      <Row gutter={12}>
        <FormCol span={8} rules={rules} name={['serial', 'name']} label={t('monitoringUi.devices.serialName')}>
          <Select allowClear options={(ports.data ?? []).map((p) => ({ value: p.name, label: p.name }))} />
        </FormCol>
        <FormCol span={4} rules={rules} name={['serial', 'baud_rate']} label={t('monitoringUi.devices.baudRate')}>
          <Select
            options={[1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200].map((v) => ({ value: v, label: v }))}
          />
        </FormCol>
        <FormCol span={4} rules={rules} name={['serial', 'data_bit']} label={t('monitoringUi.devices.dataBit')}>
          <Select options={[5, 6, 7, 8].map((v) => ({ value: v, label: v }))} />
        </FormCol>
        <FormCol span={4} rules={rules} name={['serial', 'stop_bit']} label={t('monitoringUi.devices.stopBit')}>
          <Select options={[1, 2].map((v) => ({ value: v, label: v }))} />
        </FormCol>
        <FormCol span={4} rules={rules} name={['serial', 'parity']} label={t('monitoringUi.devices.parity')}>
          <Select
            options={[
              { value: 'none', label: t('monitoringUi.devices.parityNone') },
              { value: 'even', label: t('monitoringUi.devices.parityEven') },
              { value: 'odd', label: t('monitoringUi.devices.parityOdd') },
            ]}
          />
        </FormCol>
        <FormCol span={8} rules={rules} name={['serial', 'listen_port']} label={t('monitoringUi.devices.listenPort')}>
          <InputNumber min={0} max={65535} precision={0} style={{ width: '100%' }} />
        </FormCol>
        <FormCol
          span={8}
          rules={rules}
          name={['serial', 'passive']}
          label={t('monitoringUi.devices.passive')}
          valuePropName="checked"
        >
          <Switch />
        </FormCol>
        <FormCol
          span={8}
          rules={rules}
          name={['serial', 'register_package']}
          label={t('monitoringUi.devices.registerPackage')}
        >
          <Input maxLength={100} />
        </FormCol>
        <FormCol
          span={8}
          rules={rules}
          name="zigbee_enable"
          label={t('monitoringUi.devices.zigbee')}
          valuePropName="checked"
        >
          <Switch />
        </FormCol>
        {zigbee ? (
          <FormCol span={16} rules={rules} name="zigbee_address" label={t('monitoringUi.devices.zigbeeAddress')}>
            <Input maxLength={16} />
          </FormCol>
        ) : null}
      </Row>
    </>
  );
};

const BulkDialog = ({ ids, onClose }: { ids: number[] | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const feedback = useSaved();
  const [form] = Form.useForm();
  const bulk = useMutation({
    mutationFn: (body: Parameters<typeof monitoringApi.bulkDevices>[0]) => monitoringApi.bulkDevices(body),
    onSuccess: () => {
      feedback.onSuccess();
      onClose();
    },
  });
  return (
    <FormModal
      open={ids !== null}
      title={t('monitoringUi.common.bulkEdit')}
      onCancel={onClose}
      form={form}
      onFinish={(v) =>
        bulk.mutate({
          ids: ids ?? [],
          ...(v.device_group_id ? { device_group_id: v.device_group_id } : {}),
          ...(v.check_interval !== undefined && v.check_interval !== null ? { check_interval: v.check_interval } : {}),
          ...(v.enable !== undefined ? { enable: v.enable } : {}),
        })
      }
    >
      <Form.Item name="device_group_id" label={t('monitoringUi.devices.site')}>
        <SiteSelect devicesOnly allowClear />
      </Form.Item>
      <Form.Item name="check_interval" label={t('monitoringUi.devices.checkInterval')}>
        <InputNumber min={0} precision={0} />
      </Form.Item>
      <Form.Item name="enable" label={t('monitoringUi.devices.enable')}>
        <Select
          allowClear
          options={[
            { value: true, label: t('monitoringUi.common.yes') },
            { value: false, label: t('monitoringUi.common.no') },
          ]}
        />
      </Form.Item>
    </FormModal>
  );
};

/** /setting_device_mange: devices with every field, add, edit, copy, batch copy, bulk edit, delete. */
export const DeviceManagePage = () => {
  const { t } = useTranslation();
  const drivers = useDriverNames();
  const feedback = useSaved();
  const [selected, setSelected] = useState<number[]>([]);
  const [bulk, setBulk] = useState<number[] | null>(null);
  const [templatesOpen, setTemplatesOpen] = useState(false);
  const [points, setPoints] = useState<DeviceRow | null>(null);
  const [copyCount, setCopyCount] = useState(1);
  const canCopy = useCan(page, 'copy');
  const copy = useMutation({
    mutationFn: (id: number) => monitoringApi.copyDevice(id, { count: copyCount, with_devices: true }),
    ...feedback,
  });
  return (
    <>
      <ResourcePage<DeviceRow>
        page={page}
        title={t('monitoringUi.devices.title')}
        routes={deviceRoutes}
        queryKey={['monitoring']}
        searchButton={false}
        filters={(submit) => (
          <>
            <Form.Item name="device_group_id">
              <SiteSelect allowClear placeholder={t('monitoringUi.devices.site')} onChange={submit} />
            </Form.Item>
            <Form.Item name="name">
              <Input.Search
                allowClear
                placeholder={t('monitoringUi.devices.name')}
                style={{ width: 220 }}
                onSearch={submit}
              />
            </Form.Item>
          </>
        )}
        toQuery={(v) => ({ device_group_id: v.device_group_id ?? undefined, name: v.name || undefined })}
        toolbar={() => (
          <>
            {canCopy && (
              <Space>
                {t('monitoringUi.common.copies')}
                <InputNumber
                  aria-label={t('monitoringUi.common.copies')}
                  min={1}
                  max={50}
                  value={copyCount}
                  onChange={(v) => setCopyCount(v ?? 1)}
                />
              </Space>
            )}
            <Button onClick={() => setTemplatesOpen(true)}>{t('monitoringUi.templates.open')}</Button>
            <Button disabled={selected.length === 0} onClick={() => setBulk(selected)}>
              {t('monitoringUi.common.bulkEdit')}
            </Button>
          </>
        )}
        table={{ rowSelection: { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) } }}
        addLabel={t('monitoringUi.devices.add')}
        dialog={{ addTitle: t('monitoringUi.devices.add'), editTitle: t('monitoringUi.devices.edit'), width: 760 }}
        initial={defaults}
        fromForm={(values) => deviceInput.parse(deviceBody(values))}
        fields={(form, editing) => <DeviceFields form={form} device={editing} />}
        columns={[
          { title: t('monitoringUi.devices.name'), dataIndex: 'name' },
          { title: t('monitoringUi.devices.site'), dataIndex: 'device_group_name' },
          { title: t('monitoringUi.devices.driver'), dataIndex: 'driver', width: 110, render: drivers.label },
          {
            title: t('monitoringUi.devices.address'),
            render: (_, d) => (d.ip ? `${d.ip}${d.port ? `:${d.port}` : ''}` : d.serial.name || '—'),
          },
          { title: t('monitoringUi.devices.items'), dataIndex: 'item_count', width: 90 },
          {
            title: t('monitoringUi.station.state'),
            width: 110,
            render: (_, d) => (
              <Tag color={stateOf(d.state).color} title={d.state_reason}>
                {t(stateOf(d.state).key)}
              </Tag>
            ),
          },
        ]}
        extraActions={(d) => (
          <>
            {canCopy && (
              <Button size="small" type="link" onClick={() => copy.mutate(d.id)}>
                {t('monitoringUi.common.copy')}
              </Button>
            )}
            <Button size="small" type="link" onClick={() => setPoints(d)}>
              {t('monitoringUi.pointTable.open')}
            </Button>
          </>
        )}
      />
      <BulkDialog ids={bulk} onClose={() => setBulk(null)} />
      <TemplatesDrawer open={templatesOpen} onClose={() => setTemplatesOpen(false)} />
      <PointTableDialog device={points} onClose={() => setPoints(null)} />
    </>
  );
};
