import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';

/** A monitoring write's success: the message, and every monitoring query read again (names show across pages). */
export const useSaved = () => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  return {
    onSuccess: () => {
      void message.success(t('common.operationSuccess'));
      void client.invalidateQueries({ queryKey: ['monitoring'] });
    },
  };
};
