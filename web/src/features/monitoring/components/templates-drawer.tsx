import {
  type DeviceTemplateRow,
  driverSourceKind,
  monitoringRoutes,
  type TemplateItem,
  templateInput,
  templateItemInput,
} from '@sitewatch/contract/monitoring';
import { useQuery } from '@tanstack/react-query';
import { Button, Col, Drawer, Form, Input, Row, Select, Space, Table, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDriverNames } from '../../../components/driver-names.ts';
import { FormModal } from '../../../components/form-modal.tsx';
import { contractRule, FieldRules } from '../../../components/form-rules.ts';
import { ResourcePage } from '../../../components/resource-page.tsx';
import { useCan } from '../../../session/permissions.ts';
import { categoriesQuery } from '../api.ts';
import { pointBody, sourceDefaults } from '../item-body.ts';
import { templateApi } from '../template-api.ts';
import { ItemNameFields, ItemPurposeField } from './item-name-fields.tsx';
import { SourceFields } from './source-fields.tsx';
import { ValueRuleFields } from './value-rule-fields.tsx';

const page = '/setting_device_mange';
type Point = TemplateItem;
const templateRoutes = {
  list: monitoringRoutes.listTemplates,
  create: monitoringRoutes.createTemplate,
  update: monitoringRoutes.updateTemplate,
  remove: monitoringRoutes.deleteTemplate,
};
const pointRules = [contractRule(templateItemInput, { toBody: pointBody })];
const templateRules = [contractRule(templateInput)];

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
          fault_alarm: true,
          threshold_min: 0,
          threshold_max: 100,
          source: sourceDefaults(kind),
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
      onFinish={() => {
        // The fields' rules passed: the point is what the contract makes of the form.
        onSave(templateItemInput.parse(pointBody(form.getFieldsValue(true))));
        onClose();
      }}
    >
      <FieldRules value={pointRules}>
        <Row gutter={12}>
          <ItemNameFields />
          <ItemPurposeField />
          <ValueRuleFields thresholdSpan={6} />
        </Row>
        <SourceFields />
      </FieldRules>
    </FormModal>
  );
};

/**
 * The point table as one form field (`items`): points are added, edited and removed one by one in
 * their own dialog; a point whose source does not fit the template's driver is flagged, and the
 * template's contract refuses it on save.
 */
const PointsField = ({ value = [], onChange }: { value?: Point[]; onChange?: (points: Point[]) => void }) => {
  const { t } = useTranslation();
  const driver = Form.useWatch('driver', Form.useFormInstance()) ?? 'modbus-tcp';
  const [editing, setEditing] = useState<{ index: number | null; point: Point | 'new' } | null>(null);
  const points = value;
  return (
    <>
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
                <Button size="small" danger onClick={() => onChange?.(points.filter((_, i) => i !== p.key))}>
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
          onChange?.(
            editing?.index === null || editing?.index === undefined
              ? [...points, p]
              : points.map((q, i) => (i === editing.index ? p : q)),
          )
        }
      />
    </>
  );
};

/** A template's name, category, driver and point table, checked with the template's schema. */
const TemplateFields = () => {
  const { t } = useTranslation();
  const drivers = useDriverNames();
  const categories = useQuery(categoriesQuery);
  return (
    <>
      <Row gutter={12}>
        <Col span={10}>
          <Form.Item rules={templateRules} name="name" label={t('monitoringUi.templates.name')} required>
            <Input maxLength={64} />
          </Form.Item>
        </Col>
        <Col span={7}>
          <Form.Item rules={templateRules} name="category_code" label={t('monitoringUi.devices.category')} required>
            <Select options={(categories.data?.data ?? []).map((c) => ({ value: c.code, label: c.name }))} />
          </Form.Item>
        </Col>
        <Col span={7}>
          <Form.Item rules={templateRules} name="driver" label={t('monitoringUi.devices.driver')} required>
            <Select options={drivers.options} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item
        rules={[contractRule(templateInput, { message: t('monitoringUi.templates.pointsInvalid') })]}
        name="items"
      >
        <PointsField />
      </Form.Item>
    </>
  );
};

/** The device templates: a list with add, edit, export and delete (delete while no device uses it). */
export const TemplatesDrawer = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const { t } = useTranslation();
  const drivers = useDriverNames();
  const categories = useQuery(categoriesQuery);
  const canExport = useCan(page, 'export');
  const canDelete = useCan(page, 'delete');
  const categoryName = (code: string) => categories.data?.data.find((c) => c.code === code)?.name ?? code;
  return (
    <Drawer open={open} onClose={onClose} size={980} title={t('monitoringUi.templates.title')}>
      {open && (
        <ResourcePage<DeviceTemplateRow>
          page={page}
          title={null}
          routes={templateRoutes}
          queryKey={['monitoring', 'templates']}
          pageSize={15}
          addLabel={t('monitoringUi.templates.add')}
          dialog={{
            addTitle: t('monitoringUi.templates.add'),
            editTitle: t('monitoringUi.templates.edit'),
            width: 900,
          }}
          initial={{ name: '', category_code: 'other', driver: 'modbus-tcp', items: [] }}
          toForm={(tpl) => ({ name: tpl.name, category_code: tpl.category_code, driver: tpl.driver, items: tpl.items })}
          fromForm={(values) => templateInput.parse(values)}
          fields={() => <TemplateFields />}
          // A template devices were made from stays: its delete is shown disabled, saying why.
          mayDelete={(tpl) => tpl.device_count === 0}
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
            { title: t('monitoringUi.devices.driver'), dataIndex: 'driver', width: 110, render: drivers.label },
            {
              title: t('monitoringUi.devices.category'),
              render: (_, tpl) => categoryName(tpl.category_code),
              width: 150,
            },
            { title: t('monitoringUi.templates.points'), render: (_, tpl) => tpl.items.length, width: 70 },
            { title: t('monitoringUi.templates.devices'), dataIndex: 'device_count', width: 70 },
          ]}
          extraActions={(tpl) => (
            <>
              {canExport ? (
                <>
                  <Button size="small" type="link" onClick={() => void templateApi.exportTemplate(tpl.id, 'xlsx')}>
                    xlsx
                  </Button>
                  <Button size="small" type="link" onClick={() => void templateApi.exportTemplate(tpl.id, 'csv')}>
                    CSV
                  </Button>
                </>
              ) : null}
              {canDelete && tpl.device_count > 0 ? (
                <Tooltip title={t('monitoringUi.templates.inUse', { count: tpl.device_count })}>
                  <Button size="small" type="link" danger disabled>
                    {t('monitoringUi.common.delete')}
                  </Button>
                </Tooltip>
              ) : null}
            </>
          )}
        />
      )}
    </Drawer>
  );
};
