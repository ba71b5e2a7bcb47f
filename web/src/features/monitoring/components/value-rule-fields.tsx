import { Col, Form, Input, InputNumber, Select, Switch } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FormCol } from '../../../components/form-col.tsx';
import { useFieldRules } from '../../../components/form-rules.ts';

/** A number input of a monitoring form, checked with the form's rules. */
export const NumberField = ({
  name,
  label,
  min,
  tooltip,
}: {
  name: string | string[];
  label: string;
  min?: number;
  tooltip?: string;
}) => (
  <Form.Item rules={useFieldRules()} name={name} label={label} tooltip={tooltip}>
    <InputNumber min={min} style={{ width: '100%' }} />
  </Form.Item>
);

/**
 * The value type, the telemetry-only and point-fault switches and the thresholds they call for, as
 * the item form and a template point's form both show them (inside a Row of the caller's Form). A
 * telemetry-only value has no thresholds; a status value has its status threshold; a numeric one
 * min and max, then `numericExtra` (the item form's recovery and overrun points).
 */
export const ValueRuleFields = ({
  thresholdSpan,
  numericExtra,
}: {
  thresholdSpan: number;
  numericExtra?: ReactNode;
}) => {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const rules = useFieldRules();
  const valueType = Form.useWatch('value_type', form);
  const telemetry = Form.useWatch('telemetry_only', form);
  return (
    <>
      <FormCol span={6} rules={rules} name="value_type" label={t('monitoringUi.items.valueType')}>
        <Select
          options={[
            { value: 1, label: t('monitoringUi.items.numeric') },
            { value: 0, label: t('monitoringUi.items.status') },
          ]}
        />
      </FormCol>
      <FormCol
        span={6}
        rules={rules}
        name="telemetry_only"
        label={t('monitoringUi.items.telemetryOnly')}
        tooltip={t('monitoringUi.items.telemetryOnlyHelp')}
        valuePropName="checked"
      >
        <Switch />
      </FormCol>
      <FormCol
        span={6}
        rules={rules}
        name="fault_alarm"
        label={t('monitoringUi.items.faultAlarm')}
        tooltip={t('monitoringUi.items.faultAlarmHelp')}
        valuePropName="checked"
      >
        <Switch />
      </FormCol>
      {telemetry ? null : valueType === 0 ? (
        <FormCol
          span={6}
          rules={rules}
          name="status_threshold"
          label={t('monitoringUi.items.statusThreshold')}
          required
        >
          <Input maxLength={32} />
        </FormCol>
      ) : (
        <>
          <Col span={thresholdSpan}>
            <NumberField name="threshold_min" label={t('monitoringUi.items.min')} />
          </Col>
          <Col span={thresholdSpan}>
            <NumberField name="threshold_max" label={t('monitoringUi.items.max')} />
          </Col>
          {numericExtra}
        </>
      )}
    </>
  );
};
