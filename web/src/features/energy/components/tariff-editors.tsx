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
import type { ReactNode } from 'react';
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

interface RowColumn {
  /** The row's field. */
  name: 'start' | 'end' | 'band' | 'price';
  label: string;
  /** The field's input, named by the column's label. */
  input: (label: string) => ReactNode;
  /** Checked again when the row's start changes (an end below its start). */
  withStart?: boolean;
}

/**
 * The rows of a tariff list (stair gradients or time-share slots): a season column when the tariff
 * has summer months, the list's columns, a delete button per row, and an add button whose new row
 * continues the last row of its season.
 */
const RowsEditor = <Row extends { season?: Season }>({
  mode,
  form,
  list,
  columns,
  span,
  next,
  addLabel,
  footer,
}: {
  mode: TariffMode;
  form: FormInstance;
  list: 'gradients' | 'slots';
  columns: RowColumn[];
  /** A column's width without and with the season column. */
  span: [number, number];
  next: (season: Season, last: Row | undefined) => Row;
  addLabel: string;
  footer?: ReactNode;
}) => {
  const { t } = useTranslation();
  const summer = ((Form.useWatch('summer_months', form) as number[] | undefined) ?? []).length > 0;
  const rule = [tariffRule(mode)];
  const width = summer ? span[1] : span[0];
  const testId = list === 'gradients' ? 'gradient' : 'slot';
  return (
    <Form.List name={list} rules={[listRule(mode, form, list)]}>
      {(fields, { add, remove }, { errors }) => (
        <Flex vertical gap={4} data-testid={`${list}-editor`}>
          <Row gutter={8}>
            {summer ? <Col span={5}>{t('energyUi.tariffs.season')}</Col> : null}
            {columns.map((c) => (
              <Col span={width} key={c.name}>
                {c.label}
              </Col>
            ))}
          </Row>
          {fields.map((field) => (
            <Row gutter={8} key={field.key} data-testid={`${testId}-row`}>
              {summer ? (
                <Col span={5}>
                  <Form.Item name={[field.name, 'season']} rules={rule}>
                    <SeasonSelect />
                  </Form.Item>
                </Col>
              ) : null}
              {columns.map((c) => (
                <Col span={width} key={c.name}>
                  <Form.Item
                    name={[field.name, c.name]}
                    rules={rule}
                    dependencies={c.withStart ? [[list, field.name, 'start']] : undefined}
                  >
                    {c.input(c.label)}
                  </Form.Item>
                </Col>
              ))}
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
              const rows = ((form.getFieldValue(list) as Row[] | undefined) ?? []).filter(Boolean);
              const season: Season = summer ? 'summer' : 'all';
              add(next(season, rows.filter((r) => (r.season ?? 'all') === season).at(-1)));
            }}
          >
            {addLabel}
          </Button>
          <Form.ErrorList errors={errors} />
          {footer}
        </Flex>
      )}
    </Form.List>
  );
};

// Inputs as elements, not components: Form.Item passes its child value and onChange.
/** A price per kWh, to four decimals. */
const priceInput = (label: string, perKwh: string) => (
  <InputNumber aria-label={label} min={0} step={0.0001} style={{ width: '100%' }} suffix={perKwh} />
);
const kwhInput = (label: string, placeholder?: string) => (
  <InputNumber aria-label={label} min={0} style={{ width: '100%' }} placeholder={placeholder} suffix="kWh" />
);
const timeInput = (label: string, placeholder: string) => (
  <Input aria-label={label} placeholder={placeholder} maxLength={5} />
);

/**
 * Stair gradients: start, end (empty: no upper bound) and price, per season when the tariff has
 * summer months. A new row starts where the last of its season ended.
 */
export const GradientsEditor = ({ mode, form }: { mode: TariffMode; form: FormInstance }) => {
  const { t } = useTranslation();
  const perKwh = t('energyUi.tariffs.perKwh');
  return (
    <RowsEditor<GradientValues>
      mode={mode}
      form={form}
      list="gradients"
      span={[7, 5]}
      columns={[
        { name: 'start', label: t('energyUi.tariffs.start'), input: (label) => kwhInput(label) },
        {
          name: 'end',
          label: t('energyUi.tariffs.end'),
          withStart: true,
          input: (label) => kwhInput(label, t('energyUi.tariffs.open')),
        },
        { name: 'price', label: t('energyUi.tariffs.gradientPrice'), input: (label) => priceInput(label, perKwh) },
      ]}
      next={(season, last) => ({ season, start: last ? (last.end ?? null) : 0, end: null, price: null })}
      addLabel={t('energyUi.tariffs.addGradient')}
      footer={
        mode === 'stair_time_share' ? (
          <Typography.Text type="secondary">{t('energyUi.tariffs.addedHelp')}</Typography.Text>
        ) : null
      }
    />
  );
};

const bandKey = (b: (typeof bands)[number]) => `energyUi.bands.${b}` as const;

/** Time-share slots: HH:MM to HH:MM (an end not after the start runs past midnight), period and price. */
export const SlotsEditor = ({ mode, form }: { mode: TariffMode; form: FormInstance }) => {
  const { t } = useTranslation();
  const perKwh = t('energyUi.tariffs.perKwh');
  return (
    <RowsEditor<SlotValues>
      mode={mode}
      form={form}
      list="slots"
      span={[5, 4]}
      columns={[
        { name: 'start', label: t('energyUi.tariffs.from'), input: (label) => timeInput(label, '08:00') },
        { name: 'end', label: t('energyUi.tariffs.to'), input: (label) => timeInput(label, '12:00') },
        {
          name: 'band',
          label: t('energyUi.tariffs.band'),
          input: (label) => (
            <Select aria-label={label} options={bands.map((b) => ({ value: b, label: t(bandKey(b)) }))} />
          ),
        },
        { name: 'price', label: t('energyUi.tariffs.slotPrice'), input: (label) => priceInput(label, perKwh) },
      ]}
      next={(season, last) => ({ season, start: last?.end ?? '00:00', end: '', band: 'flat', price: null })}
      addLabel={t('energyUi.tariffs.addSlot')}
    />
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
