import { bands, type TariffInput, type TariffMode, tariffInput } from '@sitewatch/contract/energy';
import { tariffProblems } from '@sitewatch/contract/rules/tariff';
import {
  Button,
  Col,
  Flex,
  Form,
  type FormInstance,
  type FormRule,
  Input,
  InputNumber,
  Row,
  Select,
  Typography,
} from 'antd';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../../i18n/index.ts';

type Values = Record<string, unknown>;
type Season = 'all' | 'summer' | 'non_summer';
interface GradientValues {
  season?: Season;
  start?: number | null;
  end?: number | null;
  price?: number | null;
}
interface SlotValues {
  season?: Season;
  start?: string;
  end?: string;
  band?: string;
  price?: number | null;
}

/** Which parts a mode has: stair tiers, time-share slots, summer months (002 §2.3, §3). */
export const modeParts = (mode: TariffMode) => ({
  gradients: mode !== 'time_share',
  slots: mode !== 'stair',
  summer: mode === 'stair_time_share',
});

/** The request of a tariff form; parts the mode has not are sent empty. */
export const tariffBody = (mode: TariffMode, v: Values) => {
  const parts = modeParts(mode);
  const season = (s: Season | undefined) => s ?? 'all';
  return {
    name: (v.name as string | undefined) ?? '',
    summer_months: parts.summer ? ((v.summer_months as number[] | undefined) ?? []) : [],
    gradients: parts.gradients
      ? ((v.gradients as GradientValues[] | undefined) ?? []).map((g) => ({
          season: season(g?.season),
          start: g?.start ?? undefined,
          end: g?.end ?? null,
          price: g?.price ?? undefined,
        }))
      : [],
    slots: parts.slots
      ? ((v.slots as SlotValues[] | undefined) ?? []).map((s) => ({
          season: season(s?.season),
          start: s?.start ?? '',
          end: s?.end ?? '',
          band: s?.band,
          price: s?.price ?? undefined,
        }))
      : [],
  };
};

/** What is wrong at a request path of the form's tariff, as text: the schema first, then the rules of the mode. */
export const tariffError = (mode: TariffMode, values: Values, path: string): string | null => {
  const body = tariffBody(mode, values);
  const parsed = tariffInput.safeParse(body);
  const text = (key: string) =>
    i18n.exists(key) ? i18n.t(key as 'validation.invalid', { field: '' }) : i18n.t('energyUi.tariffs.fill');
  if (!parsed.success) {
    const issue = parsed.error.issues.find((i) => i.path.join('.') === path);
    if (issue) return text(issue.message);
    // A row's own rules (an end below its start) need no whole tariff; the list's rules wait for one.
    if (!/\.\d+\./.test(path)) return null;
    const own = tariffProblems(mode, body as TariffInput).find((p) => p.path === path);
    return own ? text(own.key) : null;
  }
  const problem = tariffProblems(mode, parsed.data).find((p) => p.path === path);
  return problem ? text(problem.key) : null;
};

/** A form rule over the whole tariff: the field (or list) fails when an issue sits at its path. */
const tariffRule =
  (mode: TariffMode, listPath?: string): FormRule =>
  ({ getFieldsValue }) => ({
    validator: async (rule) => {
      const path = listPath ?? (rule as { field?: string }).field ?? '';
      const error = tariffError(mode, getFieldsValue(true) as Values, path);
      if (error) throw new Error(error);
    },
  });

/** The list rule needs the form: Form.List passes its rules no form accessors. */
const listRule = (mode: TariffMode, form: FormInstance, path: 'gradients' | 'slots') => ({
  validator: async () => {
    const error = tariffError(mode, form.getFieldsValue(true) as Values, path);
    if (error) throw new Error(error);
  },
});

const SeasonSelect = ({ value, onChange }: { value?: Season; onChange?: (s: Season) => void }) => {
  const { t } = useTranslation();
  return (
    <Select<Season>
      value={value}
      onChange={onChange}
      aria-label={t('energyUi.tariffs.season')}
      options={[
        { value: 'summer', label: t('energyUi.seasons.summer') },
        { value: 'non_summer', label: t('energyUi.seasons.non_summer') },
      ]}
    />
  );
};

/**
 * Stair gradients: start, end (empty: no upper bound) and price, per season when the tariff has
 * summer months. A new row starts where the last of its season ended.
 */
export const GradientsEditor = ({ mode, form }: { mode: TariffMode; form: FormInstance }) => {
  const { t } = useTranslation();
  const summer = ((Form.useWatch('summer_months', form) as number[] | undefined) ?? []).length > 0;
  const rule = [tariffRule(mode)];
  const span = summer ? 5 : 7;
  return (
    <Form.List name="gradients" rules={[listRule(mode, form, 'gradients')]}>
      {(fields, { add, remove }, { errors }) => (
        <Flex vertical gap={4} data-testid="gradients-editor">
          <Row gutter={8}>
            {summer ? <Col span={5}>{t('energyUi.tariffs.season')}</Col> : null}
            <Col span={span}>{t('energyUi.tariffs.start')}</Col>
            <Col span={span}>{t('energyUi.tariffs.end')}</Col>
            <Col span={span}>{t('energyUi.tariffs.gradientPrice')}</Col>
          </Row>
          {fields.map((field) => (
            <Row gutter={8} key={field.key} data-testid="gradient-row">
              {summer ? (
                <Col span={5}>
                  <Form.Item name={[field.name, 'season']} rules={rule}>
                    <SeasonSelect />
                  </Form.Item>
                </Col>
              ) : null}
              <Col span={span}>
                <Form.Item name={[field.name, 'start']} rules={rule}>
                  <InputNumber
                    aria-label={t('energyUi.tariffs.start')}
                    min={0}
                    style={{ width: '100%' }}
                    suffix="kWh"
                  />
                </Form.Item>
              </Col>
              <Col span={span}>
                <Form.Item name={[field.name, 'end']} rules={rule} dependencies={[['gradients', field.name, 'start']]}>
                  <InputNumber
                    aria-label={t('energyUi.tariffs.end')}
                    min={0}
                    style={{ width: '100%' }}
                    placeholder={t('energyUi.tariffs.open')}
                    suffix="kWh"
                  />
                </Form.Item>
              </Col>
              <Col span={span}>
                <Form.Item name={[field.name, 'price']} rules={rule}>
                  <InputNumber
                    aria-label={t('energyUi.tariffs.gradientPrice')}
                    min={0}
                    step={0.0001}
                    style={{ width: '100%' }}
                    suffix={t('energyUi.tariffs.perKwh')}
                  />
                </Form.Item>
              </Col>
              <Col span={2}>
                <Button type="link" danger onClick={() => remove(field.name)}>
                  {t('common.delete')}
                </Button>
              </Col>
            </Row>
          ))}
          <Button
            style={{ width: 160 }}
            onClick={() => {
              const rows = ((form.getFieldValue('gradients') as GradientValues[] | undefined) ?? []).filter(Boolean);
              const season: Season = summer ? 'summer' : 'all';
              const last = rows.filter((g) => (g.season ?? 'all') === season).at(-1);
              add({ season, start: last ? (last.end ?? null) : 0, end: null, price: null });
            }}
          >
            {t('energyUi.tariffs.addGradient')}
          </Button>
          <Form.ErrorList errors={errors} />
          {mode === 'stair_time_share' ? (
            <Typography.Text type="secondary">{t('energyUi.tariffs.addedHelp')}</Typography.Text>
          ) : null}
        </Flex>
      )}
    </Form.List>
  );
};

const bandKey = (b: (typeof bands)[number]) => `energyUi.bands.${b}` as const;

/** Time-share slots: HH:MM to HH:MM (an end not after the start runs past midnight), period and price. */
export const SlotsEditor = ({ mode, form }: { mode: TariffMode; form: FormInstance }) => {
  const { t } = useTranslation();
  const summer = ((Form.useWatch('summer_months', form) as number[] | undefined) ?? []).length > 0;
  const rule = [tariffRule(mode)];
  const span = summer ? 4 : 5;
  return (
    <Form.List name="slots" rules={[listRule(mode, form, 'slots')]}>
      {(fields, { add, remove }, { errors }) => (
        <Flex vertical gap={4} data-testid="slots-editor">
          <Row gutter={8}>
            {summer ? <Col span={5}>{t('energyUi.tariffs.season')}</Col> : null}
            <Col span={span}>{t('energyUi.tariffs.from')}</Col>
            <Col span={span}>{t('energyUi.tariffs.to')}</Col>
            <Col span={span}>{t('energyUi.tariffs.band')}</Col>
            <Col span={span}>{t('energyUi.tariffs.slotPrice')}</Col>
          </Row>
          {fields.map((field) => (
            <Row gutter={8} key={field.key} data-testid="slot-row">
              {summer ? (
                <Col span={5}>
                  <Form.Item name={[field.name, 'season']} rules={rule}>
                    <SeasonSelect />
                  </Form.Item>
                </Col>
              ) : null}
              <Col span={span}>
                <Form.Item name={[field.name, 'start']} rules={rule}>
                  <Input aria-label={t('energyUi.tariffs.from')} placeholder="08:00" maxLength={5} />
                </Form.Item>
              </Col>
              <Col span={span}>
                <Form.Item name={[field.name, 'end']} rules={rule}>
                  <Input aria-label={t('energyUi.tariffs.to')} placeholder="12:00" maxLength={5} />
                </Form.Item>
              </Col>
              <Col span={span}>
                <Form.Item name={[field.name, 'band']} rules={rule}>
                  <Select
                    aria-label={t('energyUi.tariffs.band')}
                    options={bands.map((b) => ({ value: b, label: t(bandKey(b)) }))}
                  />
                </Form.Item>
              </Col>
              <Col span={span}>
                <Form.Item name={[field.name, 'price']} rules={rule}>
                  <InputNumber
                    aria-label={t('energyUi.tariffs.slotPrice')}
                    min={0}
                    step={0.0001}
                    style={{ width: '100%' }}
                    suffix={t('energyUi.tariffs.perKwh')}
                  />
                </Form.Item>
              </Col>
              <Col span={2}>
                <Button type="link" danger onClick={() => remove(field.name)}>
                  {t('common.delete')}
                </Button>
              </Col>
            </Row>
          ))}
          <Button
            style={{ width: 160 }}
            onClick={() => {
              const rows = ((form.getFieldValue('slots') as SlotValues[] | undefined) ?? []).filter(Boolean);
              const season: Season = summer ? 'summer' : 'all';
              const last = rows.filter((s) => (s.season ?? 'all') === season).at(-1);
              add({ season, start: last?.end ?? '00:00', end: '', band: 'flat', price: null });
            }}
          >
            {t('energyUi.tariffs.addSlot')}
          </Button>
          <Form.ErrorList errors={errors} />
        </Flex>
      )}
    </Form.List>
  );
};

/**
 * Summer months change the seasons of the rows: turning them on makes every all-year row a summer
 * row and a non-summer copy (the tariff stays whole; the user edits what differs), turning them off
 * keeps the summer rows for the whole year.
 */
export const onSummerMonths = (form: FormInstance, months: number[]) => {
  const was = ((form.getFieldValue('summer_months') as number[] | undefined) ?? []).length > 0;
  const now = months.length > 0;
  if (was === now) return;
  for (const list of ['gradients', 'slots'] as const) {
    const rows = ((form.getFieldValue(list) as Array<{ season?: Season }> | undefined) ?? []).filter(Boolean);
    form.setFieldValue(
      list,
      now
        ? [...rows.map((r) => ({ ...r, season: 'summer' })), ...rows.map((r) => ({ ...r, season: 'non_summer' }))]
        : rows.filter((r) => r.season !== 'non_summer').map((r) => ({ ...r, season: 'all' })),
    );
  }
};

/** The tariff dialog's fields for a mode. */
export const TariffFields = ({ mode, form }: { mode: TariffMode; form: FormInstance }) => {
  const { t } = useTranslation();
  const parts = modeParts(mode);
  return (
    <>
      <Row gutter={12}>
        <Col span={parts.summer ? 10 : 24}>
          <Form.Item name="name" label={t('energyUi.tariffs.name')} rules={[tariffRule(mode)]} required>
            <Input maxLength={100} />
          </Form.Item>
        </Col>
        {parts.summer ? (
          <Col span={14}>
            <Form.Item
              name="summer_months"
              label={t('energyUi.tariffs.summerMonths')}
              tooltip={t('energyUi.tariffs.summerHelp')}
              getValueFromEvent={(months: number[]) => {
                onSummerMonths(form, months);
                return [...months].sort((a, b) => a - b);
              }}
            >
              <Select
                mode="multiple"
                allowClear
                aria-label={t('energyUi.tariffs.summerMonths')}
                options={Array.from({ length: 12 }, (_, i) => ({
                  value: i + 1,
                  label: t('energyUi.tariffs.month', { n: i + 1 }),
                }))}
              />
            </Form.Item>
          </Col>
        ) : null}
      </Row>
      {parts.gradients ? (
        <Form.Item label={t('energyUi.tariffs.gradients')} required>
          <GradientsEditor mode={mode} form={form} />
        </Form.Item>
      ) : null}
      {parts.slots ? (
        <Form.Item label={t('energyUi.tariffs.slots')} required>
          <SlotsEditor mode={mode} form={form} />
        </Form.Item>
      ) : null}
    </>
  );
};
