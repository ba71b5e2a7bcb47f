import { type QueryKey, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../session/permissions.ts';
import { validValues } from './form-rules.ts';

/**
 * A settings page's form (one stored record, no list): read with `load` and put in the form, saved
 * with `save` after the form's checks, said so and read again; only a holder of the page's edit
 * function may change it (`canEdit` disables the form, `saveButton` is null without it).
 */
export const useSettingsForm = <Stored, Body>({
  page,
  queryKey,
  load,
  save,
  toForm,
}: {
  page: string;
  queryKey: QueryKey;
  load: () => Promise<Stored>;
  save: (body: Body) => Promise<unknown>;
  /** The form's values of the stored record (e.g. without what is never sent back). */
  toForm?: (stored: Stored) => Partial<Body>;
}) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<Body>();
  const canEdit = useCan(page, 'edit');
  const data = useQuery({ queryKey, queryFn: load });
  // Filled when the record arrives, not on every render (that would undo what the user types).
  const toFormNow = useRef(toForm);
  toFormNow.current = toForm;
  useEffect(() => {
    if (!data.data) return;
    const values = toFormNow.current ? toFormNow.current(data.data) : data.data;
    form.setFieldsValue(values as Parameters<typeof form.setFieldsValue>[0]);
  }, [data.data, form]);
  const mutation = useMutation({
    mutationFn: save,
    onSuccess: () => {
      void message.success(t('common.operationSuccess'));
      void client.invalidateQueries({ queryKey });
    },
  });
  const saveButton = canEdit ? (
    <Button
      type="primary"
      loading={mutation.isPending}
      onClick={() => void validValues(form).then((body) => body && mutation.mutate(body))}
    >
      {t('common.save')}
    </Button>
  ) : null;
  return { form, data, canEdit, saveButton };
};
