import {
  type MeterRow,
  measurePoints,
  meterCategories,
  meterInput,
  pueCategoryOf,
  energyRoutes as r,
} from '@sitewatch/contract/energy';
import { useQuery } from '@tanstack/react-query';
import { Form, type FormInstance, Input, InputNumber, Row, Select, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { devicesQuery, itemsQuery } from '../../../api/monitoring.ts';
import { FormCol } from '../../../components/form-col.tsx';
import { contractRule } from '../../../components/form-rules.ts';
import { ResourcePage } from '../../../components/resource-page.tsx';
import { SiteSelect } from '../../../components/site-select.tsx';
import { asPage, categoryKey, energyKey } from '../api.ts';

const page = '/setting_energy';
const routes = { list: asPage(r.meters), create: r.createMeter, update: r.updateMeter, remove: r.removeMeter };

const defaults = {
  name: '',
  kind: 'counter',
  category: 'it',
  measure_point: 'ups_output',
  rollover_at: null,
  max_power_kw: null,
};

/** The request of the meter form: the device picker is only a way to the item; a point only for IT meters. */
const meterBody = (values: Record<string, unknown>) => {
  const v = { ...defaults, ...values } as Record<string, unknown>;
  return {
    name: v.name,
    item_id: v.item_id,
    kind: v.kind,
    category: v.category,
    device_group_id: v.device_group_id,
    measure_point: v.category === 'it' ? (v.measure_point ?? null) : null,
    rollover_at: v.rollover_at ?? null,
    max_power_kw: v.max_power_kw ?? null,
  };
};
const rules = [contractRule(meterInput, { toBody: meterBody })];

const pointKey = (p: (typeof measurePoints)[number]) => `energyUi.points.${p}` as const;

const MeterFields = ({ form }: { form: FormInstance }) => {
  const { t } = useTranslation();
  const deviceId = Form.useWatch('device_id', form) as number | undefined;
  const category = Form.useWatch('category', form) as string | undefined;
  const devices = useQuery(devicesQuery({ page: 1, limit: 1000 }));
  const items = useQuery({ ...itemsQuery({ device_id: deviceId, page: 1, limit: 1000 }), enabled: Boolean(deviceId) });
  return (
    <Row gutter={12}>
      <FormCol rules={rules} name="name" label={t('energyUi.meters.name')} required>
        <Input maxLength={100} />
      </FormCol>
      <FormCol
        rules={rules}
        name="device_group_id"
        label={t('energyUi.meters.site')}
        tooltip={t('energyUi.meters.siteHelp')}
        required
      >
        <SiteSelect />
      </FormCol>
      <FormCol name="device_id" label={t('energyUi.meters.device')} required>
        <Select
          showSearch
          optionFilterProp="label"
          onChange={() => form.setFieldValue('item_id', undefined)}
          options={(devices.data?.data ?? []).map((d) => ({
            value: d.id,
            label: `${d.device_group_name} / ${d.name}`,
          }))}
        />
      </FormCol>
      <FormCol rules={rules} name="item_id" label={t('energyUi.meters.item')} required>
        <Select
          showSearch
          optionFilterProp="label"
          disabled={!deviceId}
          options={(items.data?.data ?? []).map((i) => ({
            value: i.id,
            label: i.unit ? `${i.name} (${i.unit})` : i.name,
          }))}
        />
      </FormCol>
      <FormCol
        rules={rules}
        name="kind"
        label={t('energyUi.meters.kind')}
        tooltip={t('energyUi.meters.kindHelp')}
        required
      >
        <Select
          options={[
            { value: 'counter', label: t('energyUi.kinds.counter') },
            { value: 'power', label: t('energyUi.kinds.power') },
          ]}
        />
      </FormCol>
      <FormCol rules={rules} name="category" label={t('energyUi.meters.category')} required>
        <Select options={meterCategories.map((c) => ({ value: c, label: t(categoryKey(c)) }))} />
      </FormCol>
      {category === 'it' ? (
        <FormCol
          span={24}
          rules={rules}
          name="measure_point"
          label={t('energyUi.meters.measurePoint')}
          tooltip={t('energyUi.meters.measurePointHelp')}
        >
          <Select options={measurePoints.map((p) => ({ value: p, label: t(pointKey(p)) }))} />
        </FormCol>
      ) : null}
      <FormCol
        rules={rules}
        name="rollover_at"
        label={t('energyUi.meters.rollover')}
        tooltip={t('energyUi.meters.rolloverHelp')}
      >
        <InputNumber min={0} style={{ width: '100%' }} suffix="kWh" />
      </FormCol>
      <FormCol
        rules={rules}
        name="max_power_kw"
        label={t('energyUi.meters.maxPower')}
        tooltip={t('energyUi.meters.maxPowerHelp')}
      >
        <InputNumber min={0} style={{ width: '100%' }} suffix="kW" />
      </FormCol>
    </Row>
  );
};

/** /setting_energy: which device items are energy meters, of which site and category (docs/energy.md "Meters"). */
export const MetersPage = () => {
  const { t } = useTranslation();
  return (
    <ResourcePage<MeterRow>
      page={page}
      title={t('energyUi.meters.title')}
      routes={routes}
      queryKey={[...energyKey]}
      pageSize={false}
      searchButton={false}
      filters={(submit) => (
        <Form.Item name="device_group_id">
          <SiteSelect
            allowClear
            placeholder={t('energyUi.allSites')}
            ariaLabel={t('energyUi.site')}
            onChange={submit}
          />
        </Form.Item>
      )}
      toQuery={(v) => ({ device_group_id: v.device_group_id ?? undefined })}
      columns={[
        { title: t('energyUi.meters.name'), dataIndex: 'name' },
        { title: t('energyUi.meters.site'), dataIndex: 'device_group_name' },
        {
          title: t('energyUi.meters.item'),
          render: (_, m) => `${m.device_name} / ${m.item_name}`,
        },
        { title: t('energyUi.meters.kind'), render: (_, m) => t(`energyUi.kinds.${m.kind}`) },
        {
          title: t('energyUi.meters.category'),
          render: (_, m) => (
            <>
              <Tag>{t(categoryKey(m.category))}</Tag>
              {m.category === 'it' && m.measure_point ? (
                <Tag color="blue">
                  {t('energyUi.pue.categoryN', { n: pueCategoryOf[m.measure_point] })} · {t(pointKey(m.measure_point))}
                </Tag>
              ) : null}
            </>
          ),
        },
        { title: t('energyUi.meters.rollover'), render: (_, m) => m.rollover_at ?? '—' },
        { title: t('energyUi.meters.maxPower'), render: (_, m) => m.max_power_kw ?? '—' },
      ]}
      initial={defaults}
      toForm={(m) => ({ ...m })}
      fromForm={(v) => meterBody(v)}
      dialog={{ addTitle: t('energyUi.meters.add'), editTitle: t('energyUi.meters.edit'), width: 720 }}
      addLabel={t('energyUi.meters.add')}
      fields={(form) => <MeterFields form={form} />}
    />
  );
};
