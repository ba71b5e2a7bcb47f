import { Button, Checkbox, Flex, Form, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';

const weekdays = [1, 2, 3, 4, 5, 6, 7] as const;
const hhmm = /^([01]\d|2[0-3]):[0-5]\d$/;
/** A day's end may be written 24:00 where the range runs to midnight (time periods). */
const hhmmOrMidnight = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;

/**
 * A list of weekly ranges — weekdays, a start and an end (HH:mm) — as the security page's allowed
 * periods and the time periods (/week_time) edit them: one row each, at least one kept.
 */
export const WeeklyRangesField = ({
  name,
  addLabel,
  rules,
  endOfDay = false,
}: {
  name: string;
  addLabel: string;
  rules?: Parameters<typeof Form.List>[0]['rules'];
  /** Whether 24:00 is accepted. */
  endOfDay?: boolean;
}) => {
  const { t } = useTranslation();
  const time = endOfDay ? hhmmOrMidnight : hhmm;
  return (
    <Form.List name={name} {...(rules ? { rules } : {})}>
      {(fields, { add, remove }, { errors }) => (
        <Flex vertical gap={8}>
          {fields.map((field) => (
            <Space key={field.key} wrap>
              <Form.Item name={[field.name, 'weekdays']} noStyle rules={[{ required: true, type: 'array', min: 1 }]}>
                <Checkbox.Group options={weekdays.map((d) => ({ value: d, label: t(`securityPage.weekday.${d}`) }))} />
              </Form.Item>
              <Form.Item name={[field.name, 'start']} noStyle rules={[{ required: true, pattern: time }]}>
                <Input style={{ width: 80 }} placeholder="08:00" aria-label={t('systemUi.weekTime.start')} />
              </Form.Item>
              –
              <Form.Item name={[field.name, 'end']} noStyle rules={[{ required: true, pattern: time }]}>
                <Input style={{ width: 80 }} placeholder="18:00" aria-label={t('systemUi.weekTime.end')} />
              </Form.Item>
              <Button size="small" onClick={() => remove(field.name)} disabled={fields.length <= 1}>
                {t('common.delete')}
              </Button>
            </Space>
          ))}
          <Button
            size="small"
            style={{ width: 120 }}
            onClick={() => add({ weekdays: [1, 2, 3, 4, 5], start: '08:00', end: '18:00' })}
          >
            {addLabel}
          </Button>
          <Form.ErrorList errors={errors} />
        </Flex>
      )}
    </Form.List>
  );
};
