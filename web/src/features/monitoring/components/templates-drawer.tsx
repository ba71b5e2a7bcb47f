import {
  type DeviceTemplateRow,
  driverNames,
  driverSourceKind,
  itemSource,
  type TemplateItem,
  templateInput,
  templateItemInput,
} from '@sitewatch/contract/monitoring';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Col,
  Drawer,
  Form,
  Input,
  Modal,
  Popconfirm,
  Row,
  Select,
  Space,
  Table,
  Tag,
  Tooltip,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/form-modal.tsx';
import { useCan } from '../../../session/permissions.ts';
import { categoriesQuery, templatesQuery } from '../api.ts';
import { validateWith } from '../form-errors.ts';
import { templateApi } from '../template-api.ts';
import { ItemNameFields } from './item-name-fields.tsx';
import { SourceFields } from './source-fields.tsx';
import { ValueRuleFields } from './value-rule-fields.tsx';

const page = '/setting_device_mange';
type Point = TemplateItem;

/** Only the fields of the chosen kind go to the server (the source schema is strict). */
const pickSource = (source: Record<string, unknown>) => {
  const variant = itemSource.options.find((o) => o.shape.kind.value === source.kind);
  const keys = Object.keys(variant?.shape ?? { kind: 0 });
  return Object.fromEntries(
    keys.filter((k) => source[k] !== undefined && source[k] !== null).map((k) => [k, source[k]]),
  );
};

/** How a new point of each kind is read until the user says otherwise. */
const newSource: Partial<Record<Point['source']['kind'], Record<string, unknown>>> = {
  modbus: { kind: 'modbus', function: 3, register: 0, data_type: 'uint16', scale: 1 },
  snmp: { kind: 'snmp', oid: '', scale: 1 },
  mqtt: { kind: 'mqtt', topic: 'sitewatch/{device_id}/data', json_path: '', scale: 1 },
  simulator: { kind: 'simulator', model: 'analog', base: 50, spread: 10, noise: 1, period_s: 86_400, decimals: 1 },
};

/** Where a point is read, in one line (register, OID or topic). */
const sourceText = (s: Point['source']) => {
  switch (s.kind) {
    case 'modbus':
      return `${String(s.function).padStart(2, '0')} · ${s.register} · ${s.data_type}`;
    case 'snmp':
      return s.oid;
    case 'mqtt':
      return s.json_path ? `${s.topic} → ${s.json_path}` : s.topic;
    case 'simulator':
      return `${s.model} ${s.base}`;
    default:
      return s.kind;
  }
};

/** One point of a template: what an item made from it is called, how it is judged and read. */
const PointForm = ({
  point,
  kind,
  onSave,
  onClose,
}: {
  point: Point | 'new' | null;
  kind: Point['source']['kind'];
  onSave: (p: Point) => void;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const initial =
    point && point !== 'new'
      ? point
      : {
          name: '',
          value_type: 1,
          telemetry_only: false,
          threshold_min: 0,
          threshold_max: 100,
          source: newSource[kind] ?? { kind },
        };
  return (
    <FormModal
      open={point !== null}
      width={760}
      title={point === 'new' ? t('monitoringUi.templates.addPoint') : t('monitoringUi.templates.editPoint')}
      onCancel={onClose}
      form={form}
      name="template-point"
      initialValues={initial}
      onFinish={(values) => {
        const judged = values.telemetry_only
          ? { threshold_min: null, threshold_max: null, status_threshold: '' }
          : values.value_type === 0
            ? { threshold_min: null, threshold_max: null }
            : { status_threshold: '' };
        const parsed = validateWith(
          templateItemInput,
          {
            ...values,
            ...judged,
            threshold_min: judged.threshold_min === null ? null : (values.threshold_min ?? null),
            threshold_max: judged.threshold_max === null ? null : (values.threshold_max ?? null),
            source: pickSource(values.source ?? {}),
          },
          form,
          (k) => t(k as never),
        );
        if (parsed) {
          onSave(parsed);
          onClose();
        }
      }}
    >
      <Row gutter={12}>
        <ItemNameFields />
        <ValueRuleFields thresholdSpan={6} />
      </Row>
      <SourceFields />
    </FormModal>
  );
};

/** A template's name, category, driver and point table; points are edited one by one. */
const TemplateForm = ({ template, onClose }: { template: DeviceTemplateRow | 'new' | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm();
  const categories = useQuery(categoriesQuery);
  const existing = template && template !== 'new' ? template : null;
  const [points, setPoints] = useState<Point[]>(existing?.items ?? []);
  const [editing, setEditing] = useState<{ index: number | null; point: Point | 'new' } | null>(null);
  const driver = Form.useWatch('driver', form) ?? existing?.driver ?? 'modbus-tcp';
  const save = useMutation({
    mutationFn: (body: Parameters<typeof templateApi.create>[0]) =>
      existing ? templateApi.update(existing.id, body) : templateApi.create(body),
    onSuccess: () => {
      void message.success(t('common.operationSuccess'));
      void client.invalidateQueries({ queryKey: ['monitoring', 'templates'] });
      onClose();
    },
  });
  return (
    <Modal
      open={template !== null}
      width={900}
      title={existing ? t('monitoringUi.templates.edit') : t('monitoringUi.templates.add')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={save.isPending}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        name="template"
        preserve={false}
        initialValues={existing ?? { name: '', category_code: 'other', driver: 'modbus-tcp' }}
        onFinish={(values) => {
          const body = validateWith(templateInput, { ...values, items: points }, form, (k) => t(k as never));
          if (body) save.mutate(body);
          else void message.error(t('monitoringUi.templates.pointsInvalid'));
        }}
      >
        <Row gutter={12}>
          <Col span={10}>
            <Form.Item name="name" label={t('monitoringUi.templates.name')} required>
              <Input maxLength={64} />
            </Form.Item>
          </Col>
          <Col span={7}>
            <Form.Item name="category_code" label={t('monitoringUi.devices.category')} required>
              <Select options={(categories.data?.data ?? []).map((c) => ({ value: c.code, label: c.name }))} />
            </Form.Item>
          </Col>
          <Col span={7}>
            <Form.Item name="driver" label={t('monitoringUi.devices.driver')} required>
              <Select options={driverNames.map((d) => ({ value: d, label: d }))} />
            </Form.Item>
          </Col>
        </Row>
      </Form>
      <Space style={{ marginBottom: 8 }}>
        <strong>{t('monitoringUi.templates.points')}</strong>
        <Button size="small" onClick={() => setEditing({ index: null, point: 'new' })}>
          {t('monitoringUi.templates.addPoint')}
        </Button>
      </Space>
      <Table<Point & { key: number }>
        size="small"
        pagination={{ pageSize: 8, hideOnSinglePage: true }}
        dataSource={points.map((p, key) => ({ ...p, key }))}
        columns={[
          { title: t('monitoringUi.items.name'), dataIndex: 'name' },
          { title: t('monitoringUi.items.unit'), dataIndex: 'unit', width: 70 },
          {
            title: t('monitoringUi.items.threshold'),
            render: (_, p) =>
              p.telemetry_only ? (
                <Tag>{t('monitoringUi.items.telemetryOnly')}</Tag>
              ) : p.value_type === 1 ? (
                `${p.threshold_min ?? '—'} ~ ${p.threshold_max ?? '—'}`
              ) : (
                `= ${p.status_threshold}`
              ),
          },
          {
            title: t('monitoringUi.templates.source'),
            render: (_, p) =>
              p.source.kind === driverSourceKind(driver) ? (
                sourceText(p.source)
              ) : (
                <Tag color="error">{t('monitoringUi.templates.wrongKind')}</Tag>
              ),
          },
          {
            title: t('monitoringUi.common.actions'),
            width: 150,
            render: (_, p) => (
              <Space>
                <Button size="small" onClick={() => setEditing({ index: p.key, point: points[p.key]! })}>
                  {t('monitoringUi.common.edit')}
                </Button>
                <Button size="small" danger onClick={() => setPoints(points.filter((_, i) => i !== p.key))}>
                  {t('monitoringUi.common.delete')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      <PointForm
        point={editing?.point ?? null}
        kind={driverSourceKind(driver)}
        onClose={() => setEditing(null)}
        onSave={(p) =>
          setPoints(
            editing?.index === null || editing?.index === undefined
              ? [...points, p]
              : points.map((q, i) => (i === editing.index ? p : q)),
          )
        }
      />
    </Modal>
  );
};

/** The device templates: a list with add, edit, export and delete (delete while no device uses it). */
export const TemplatesDrawer = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const templates = useQuery({ ...templatesQuery, enabled: open });
  const categories = useQuery(categoriesQuery);
  const [editing, setEditing] = useState<DeviceTemplateRow | 'new' | null>(null);
  const can = { add: useCan(page, 'add'), edit: useCan(page, 'edit'), del: useCan(page, 'delete') };
  const canExport = useCan(page, 'export');
  const remove = useMutation({
    mutationFn: templateApi.remove,
    onSuccess: () => {
      void message.success(t('common.operationSuccess'));
      void client.invalidateQueries({ queryKey: ['monitoring', 'templates'] });
    },
  });
  const categoryName = (code: string) => categories.data?.data.find((c) => c.code === code)?.name ?? code;
  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={980}
      title={t('monitoringUi.templates.title')}
      extra={
        can.add ? (
          <Button type="primary" onClick={() => setEditing('new')}>
            {t('monitoringUi.templates.add')}
          </Button>
        ) : null
      }
    >
      <Table<DeviceTemplateRow>
        rowKey="id"
        size="small"
        loading={templates.isLoading}
        dataSource={templates.data?.data}
        pagination={{ pageSize: 15, hideOnSinglePage: true }}
        columns={[
          {
            title: t('monitoringUi.templates.name'),
            render: (_, tpl) => (
              <Space>
                {tpl.name}
                {tpl.builtin ? <Tag>{t('monitoringUi.templates.builtin')}</Tag> : null}
              </Space>
            ),
          },
          { title: t('monitoringUi.devices.driver'), dataIndex: 'driver', width: 110 },
          {
            title: t('monitoringUi.devices.category'),
            render: (_, tpl) => categoryName(tpl.category_code),
            width: 150,
          },
          { title: t('monitoringUi.templates.points'), render: (_, tpl) => tpl.items.length, width: 70 },
          { title: t('monitoringUi.templates.devices'), dataIndex: 'device_count', width: 70 },
          {
            title: t('monitoringUi.common.actions'),
            width: 250,
            render: (_, tpl) => (
              <Space>
                {can.edit ? (
                  <Button size="small" onClick={() => setEditing(tpl)}>
                    {t('monitoringUi.common.edit')}
                  </Button>
                ) : null}
                {canExport ? (
                  <>
                    <Button size="small" onClick={() => void templateApi.exportTemplate(tpl.id, 'xlsx')}>
                      xlsx
                    </Button>
                    <Button size="small" onClick={() => void templateApi.exportTemplate(tpl.id, 'csv')}>
                      CSV
                    </Button>
                  </>
                ) : null}
                {can.del ? (
                  tpl.device_count > 0 ? (
                    <Tooltip title={t('monitoringUi.templates.inUse', { count: tpl.device_count })}>
                      <Button size="small" danger disabled>
                        {t('monitoringUi.common.delete')}
                      </Button>
                    </Tooltip>
                  ) : (
                    <Popconfirm title={t('monitoringUi.common.confirmDelete')} onConfirm={() => remove.mutate(tpl.id)}>
                      <Button size="small" danger>
                        {t('monitoringUi.common.delete')}
                      </Button>
                    </Popconfirm>
                  )
                ) : null}
              </Space>
            ),
          },
        ]}
      />
      {editing !== null ? (
        <TemplateForm
          key={editing === 'new' ? 'new' : editing.id}
          template={editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </Drawer>
  );
};
