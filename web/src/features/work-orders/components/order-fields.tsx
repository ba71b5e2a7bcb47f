import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Form, InputNumber, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { priorityKey, usersQuery } from '../api.ts';

/** A required pick of one user (a handler or reviewer), searchable by name; `except` leaves one out. */
export const PersonItem = ({ name, label, except }: { name: string; label: string; except?: number }) => {
  const users = useQuery(usersQuery);
  return (
    <Form.Item name={name} label={label} rules={[{ required: true }]}>
      <Select
        showSearch
        optionFilterProp="label"
        options={(users.data ?? []).filter((u) => u.id !== except).map((u) => ({ value: u.id, label: u.name }))}
      />
    </Form.Item>
  );
};

/**
 * The priority (5 urgent to 1 low), which an order and a dispatch rule both have; a rule may leave it to
 * the alarm's level (`byLevel`: the choice 0, sent as null).
 */
export const PriorityItem = ({ byLevel = false }: { byLevel?: boolean }) => {
  const { t } = useTranslation();
  const options = [5, 4, 3, 2, 1].map((p) => ({ value: p, label: t(priorityKey(p)) }));
  return (
    <Form.Item
      name="priority"
      label={t('workOrderUi.priority')}
      rules={[{ required: true }]}
      extra={byLevel ? t('workOrderUi.rules.priorityByLevelHint') : undefined}
    >
      <Select
        data-testid="work-order-priority"
        options={byLevel ? [{ value: 0, label: t('workOrderUi.rules.priorityByLevel') }, ...options] : options}
      />
    </Form.Item>
  );
};

export const DeadlineItem = () => {
  const { t } = useTranslation();
  return (
    <Form.Item
      name="deadline_hours"
      label={t('workOrderUi.deadlineHours')}
      rules={[{ required: true }, { type: 'number', min: 0.1, message: t('workOrderUi.deadlinePositive') }]}
    >
      <InputNumber min={0.1} max={8760} style={{ width: '100%' }} />
    </Form.Item>
  );
};

/** What a work-order dialog does once its request went through: say so, refresh `queryKey`, close. */
export const useSucceeded = (
  text: 'workOrderUi.saved' | 'workOrderUi.done',
  queryKey: readonly unknown[],
  close: () => void,
) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  return () => {
    void message.success(t(text));
    void qc.invalidateQueries({ queryKey });
    close();
  };
};
