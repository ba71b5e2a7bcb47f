import { workOrderRoutes as r } from '@sitewatch/contract/work-orders';
import { useQuery } from '@tanstack/react-query';
import { App } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { pushClient } from '../../../api/push-client.ts';
import { workOrderKeys } from '../api.ts';

/** 000 §7: the not-received summary every 30 s, as the shell's bell asks it. */
const summaryEveryMs = 30_000;

/**
 * The work-order alert dialog of 001 §2 for pages without the shell (the site-map editor, the full
 * screens), which have no bell: when the caller's orders waiting to be received grow, a dialog says
 * how many and opens them in a new window, so unsaved work on this page stays. The summary is read
 * every 30 s and at once on a work-order push; a caller without the work-order function (the summary
 * refused) is never asked again and sees nothing.
 */
export const WorkOrderAlert = () => {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const summary = useQuery({
    queryKey: [...workOrderKeys.all, 'alert'],
    queryFn: () => api.call(r.notReceived),
    refetchInterval: (query) => (query.state.status === 'error' ? false : summaryEveryMs),
    retry: false,
  });
  const { refetch } = summary;
  useEffect(() => {
    const off = pushClient.subscribe((m) => {
      if (m.type === 'work_order') void refetch();
    });
    return () => void off();
  }, [refetch]);
  // The count already told (the first answer is the starting point: orders waiting before this page opened are in the bell).
  const told = useRef<number | null>(null);
  const count = summary.data?.count;
  useEffect(() => {
    if (count === undefined) return;
    const before = told.current;
    told.current = count;
    if (before === null || count <= before) return;
    modal.confirm({
      title: t('workOrderUi.alertTitle'),
      content: t('workOrderUi.alertText', { n: count }),
      okText: t('workOrderUi.viewAll'),
      onOk: () => void window.open('/work_order?index=0&state=1', '_blank', 'noopener'),
    });
  }, [count, modal, t]);
  return null;
};
