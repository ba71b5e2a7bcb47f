import { operationLogReader } from '@sitewatch/contract/operation-log';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from './time.ts';

/**
 * The operation log's codes in the user's language (module and action names, details in words);
 * the names live in the shared locale files, which the server's xlsx export reads too.
 */
export const useOperationLogReader = () => {
  const { t } = useTranslation();
  // The registry's keys are checked in the four languages by the contract's test, not by t's types.
  return useMemo(() => operationLogReader((key, values) => t(key as never, values ?? {}) as string, formatTime), [t]);
};
