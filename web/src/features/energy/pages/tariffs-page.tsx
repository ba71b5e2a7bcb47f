import { energyRoutes as r, type TariffMode, type TariffRow, tariffModes } from '@sitewatch/contract/energy';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, DatePicker, Flex, Form, Select, Space, Table, Tabs, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { validValues } from '../../../components/form-rules.ts';
import { ResourcePage } from '../../../components/resource-page.tsx';
import { SiteSelect, sitesQuery } from '../../../components/site-select.tsx';
import { useCan } from '../../../session/permissions.ts';
import { allTariffsQuery, asPage, energyKey, tariffRoutesOf } from '../api.ts';
import { modeParts, TariffFields, tariffBody } from '../components/tariff-editors.tsx';

const page = '/energy_manage/param_config';

const modeKey = (m: TariffMode) => `energyUi.modes.${m}` as const;
/** One mode's tariffs: the list, and add and edit with the gradient and slot editors. */
const TariffList = ({ mode }: { mode: TariffMode }) => {
  const { t } = useTranslation();
  const parts = modeParts(mode);
  return (
    <ResourcePage<TariffRow>
      page={page}
      title={t(modeKey(mode))}
      routes={{ ...tariffRoutesOf[mode], list: asPage(tariffRoutesOf[mode].list) }}
      queryKey={[...energyKey, 'tariffs']}
      pageSize={false}
      columns={[
        { title: t('energyUi.tariffs.name'), dataIndex: 'name' },
        ...(parts.summer
          ? [
              {
                title: t('energyUi.tariffs.summerMonths'),
                render: (_: unknown, x: TariffRow) =>
                  x.summer_months.length > 0 ? x.summer_months.join(', ') : t('energyUi.seasons.all'),
              },
            ]
          : []),
        ...(parts.gradients
          ? [
              {
                title: t('energyUi.tariffs.gradients'),
                render: (_: unknown, x: TariffRow) => (
                  <Flex vertical>
                    {x.gradients.map((g) => (
                      <span key={`${g.season}-${g.start}`}>
                        {g.season === 'all' ? '' : `${t(`energyUi.seasons.${g.season}`)} `}
                        {g.start} – {g.end ?? '∞'} kWh: {g.price}
                      </span>
                    ))}
                  </Flex>
                ),
              },
            ]
          : []),
        ...(parts.slots
          ? [
              {
                title: t('energyUi.tariffs.slots'),
                render: (_: unknown, x: TariffRow) => (
                  <Flex vertical>
                    {x.slots.map((s) => (
                      <span key={`${s.season}-${s.start}`}>
                        {s.season === 'all' ? '' : `${t(`energyUi.seasons.${s.season}`)} `}
                        {s.start}–{s.end} {t(`energyUi.bands.${s.band}`)}: {s.price}
                      </span>
                    ))}
                  </Flex>
                ),
              },
            ]
          : []),
      ]}
      initial={{
        name: '',
        summer_months: [],
        gradients: parts.gradients ? [{ season: 'all', start: 0, end: null, price: null }] : [],
        slots: parts.slots ? [{ season: 'all', start: '00:00', end: '24:00', band: 'flat', price: null }] : [],
      }}
      toForm={(x) => ({ ...x })}
      fromForm={(v) => tariffBody(mode, v)}
      dialog={{ addTitle: t('energyUi.tariffs.add'), editTitle: t('energyUi.tariffs.edit'), width: 980 }}
      addLabel={t('energyUi.tariffs.add')}
      fields={(form) => <TariffFields mode={mode} form={form} />}
    />
  );
};

/** The tariff in force per site from a day on (energy_cost_set): a bill across a change uses both. */
const TariffInForce = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm();
  const [site, setSite] = useState<number | null>(null);
  const canEdit = useCan(page, 'edit');
  const sets = useQuery({
    queryKey: [...energyKey, 'cost-sets', site],
    queryFn: () => api.call(r.costSets, { query: site ? { device_group_id: site } : {} }),
  });
  const sites = useQuery(sitesQuery);
  const tariffs = useQuery(allTariffsQuery);
  const siteName = (id: number) => sites.data?.data.find((s) => s.id === id)?.name ?? String(id);
  const save = useMutation({
    mutationFn: (v: { device_group_id: number; tariff_id: number; valid_from: dayjs.Dayjs }) =>
      api.call(r.setCost, {
        params: { id: v.device_group_id },
        body: { tariff_id: v.tariff_id, valid_from: v.valid_from.startOf('day').unix() },
      }),
    onSuccess: () => {
      void message.success(t('common.operationSuccess'));
      void client.invalidateQueries({ queryKey: energyKey });
    },
  });
  return (
    <Card title={t('energyUi.tariffs.inForce')} data-testid="tariff-in-force">
      <Typography.Paragraph type="secondary">{t('energyUi.tariffs.inForceHelp')}</Typography.Paragraph>
      {canEdit ? (
        <Form
          form={form}
          layout="inline"
          name="tariff-in-force"
          style={{ marginBottom: 16 }}
          initialValues={{ valid_from: dayjs().startOf('month') }}
        >
          <Form.Item
            name="device_group_id"
            label={t('energyUi.site')}
            rules={[{ required: true, message: t('energy.validation.siteRequired') }]}
          >
            <SiteSelect />
          </Form.Item>
          <Form.Item
            name="tariff_id"
            label={t('energyUi.tariffs.tariff')}
            rules={[{ required: true, message: t('energyUi.tariffs.chooseTariff') }]}
          >
            <Select
              style={{ width: 220 }}
              options={(tariffs.data ?? []).map((x) => ({ value: x.id, label: `${x.name} (${t(modeKey(x.mode))})` }))}
            />
          </Form.Item>
          <Form.Item
            name="valid_from"
            label={t('energyUi.tariffs.validFrom')}
            rules={[{ required: true, message: t('energyUi.tariffs.chooseDate') }]}
          >
            <DatePicker />
          </Form.Item>
          <Button
            type="primary"
            loading={save.isPending}
            onClick={() => void validValues(form).then((v) => v && save.mutate(v))}
          >
            {t('energyUi.tariffs.apply')}
          </Button>
        </Form>
      ) : null}
      <Space style={{ marginBottom: 8 }}>
        <SiteSelect
          value={site}
          onChange={setSite}
          allowClear
          placeholder={t('energyUi.allSites')}
          ariaLabel={t('energyUi.site')}
        />
      </Space>
      <Table
        rowKey="id"
        size="small"
        loading={sets.isLoading}
        dataSource={sets.data ?? []}
        pagination={false}
        columns={[
          { title: t('energyUi.site'), render: (_, s) => siteName(s.device_group_id) },
          { title: t('energyUi.tariffs.tariff'), dataIndex: 'tariff_name' },
          {
            title: t('energyUi.tariffs.validFrom'),
            render: (_, s) => dayjs.unix(s.valid_from).format('YYYY-MM-DD HH:mm'),
          },
          {
            title: '',
            render: (_, s) => {
              // The latest start not after now is the one in force today.
              const mine = (sets.data ?? []).filter((x) => x.device_group_id === s.device_group_id);
              const now = Date.now() / 1000;
              const current = mine.filter((x) => x.valid_from <= now).sort((a, b) => b.valid_from - a.valid_from)[0];
              return current?.id === s.id ? <Tag color="green">{t('energyUi.tariffs.current')}</Tag> : null;
            },
          },
        ]}
      />
    </Card>
  );
};

/** /energy_manage/param_config: tariffs in the three billing modes and the tariff in force per site. */
export const TariffsPage = () => {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={16}>
      <Tabs
        items={tariffModes.map((m) => ({ key: m, label: t(modeKey(m)), children: <TariffList mode={m} /> }))}
        destroyOnHidden
      />
      <TariffInForce />
    </Flex>
  );
};
