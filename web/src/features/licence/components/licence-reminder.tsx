import { useQuery } from '@tanstack/react-query';
import { Button, Flex, Modal, Select, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { licenceQuery } from '../api.ts';
import {
  localDay,
  type PopupFrequency,
  popupFrequencyKey,
  popupLastKey,
  popupToShow,
  storedFrequency,
} from '../popup.ts';
import { ProductDialog, type ProductTab } from './product-dialog.tsx';

const activeHash = '#type=active';

/** The product dialog, opened by `#type=active` in the address (000 §2.1) or by `open`. */
export const useProductDialog = () => {
  const [state, setState] = useState<{ open: boolean; tab: ProductTab }>(() => ({
    open: window.location.hash === activeHash,
    tab: 'activate',
  }));
  useEffect(() => {
    const onHash = () => {
      if (window.location.hash === activeHash) setState({ open: true, tab: 'activate' });
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const close = () => {
    setState((s) => ({ ...s, open: false }));
    if (window.location.hash === activeHash)
      window.history.replaceState(null, '', window.location.pathname + window.location.search);
  };
  const dialog = (
    <ProductDialog
      open={state.open}
      tab={state.tab}
      onTab={(tab) => setState((s) => ({ ...s, tab }))}
      onClose={close}
    />
  );
  return { open: (tab: ProductTab) => setState({ open: true, tab }), dialog };
};

/** The trial pop-up (000 §4.6): at most once a day, with the frequency choices; closing an alert opens the dialog. */
const TrialPopup = ({ onOpenDialog }: { onOpenDialog: () => void }) => {
  const { t } = useTranslation();
  const info = useQuery(licenceQuery).data;
  const [frequency, setFrequency] = useState<PopupFrequency>(storedFrequency);
  const [shown, setShown] = useState<ReturnType<typeof popupToShow>>(null);
  useEffect(() => {
    if (!info || shown) return;
    const today = localDay(Date.now());
    const which = popupToShow(info, storedFrequency(), localStorage.getItem(popupLastKey), today);
    // Counted as shown once dismissed: a page left while it was open shows it again.
    if (which) setShown(which);
  }, [info, shown]);
  if (!info || !shown) return null;
  const close = (open: boolean) => {
    localStorage.setItem(popupLastKey, localDay(Date.now()));
    setShown(null);
    if (open || shown !== 'reminder') onOpenDialog();
  };
  return (
    <Modal
      open
      title={t('licenceUi.popupTitle')}
      onCancel={() => close(false)}
      footer={
        <Flex justify="space-between" align="center">
          <Flex gap={8} align="center">
            <Typography.Text>{t('licenceUi.frequency')}</Typography.Text>
            <Select
              aria-label={t('licenceUi.frequency')}
              style={{ width: 220 }}
              value={frequency}
              onChange={(v: PopupFrequency) => {
                setFrequency(v);
                localStorage.setItem(popupFrequencyKey, String(v));
              }}
              options={([1, 2, 3] as const).map((v) => ({ value: v, label: t(`licenceUi.frequencies.${v}`) }))}
            />
          </Flex>
          <Button type="primary" onClick={() => close(true)}>
            {t('licenceUi.openDialog')}
          </Button>
        </Flex>
      }
    >
      {shown === 'reminder' && t('licenceUi.popupText', { days: info.remain_days })}
      {shown === 'expiring' && t('licenceUi.expiryAlert')}
      {shown === 'expired' && t('licenceUi.expiredAlert')}
    </Modal>
  );
};

/** The top bar's licence status when not activated (000 §2.4), the trial pop-up and the product dialog. */
export const LicenceReminder = () => {
  const { t } = useTranslation();
  const info = useQuery(licenceQuery).data;
  const { open, dialog } = useProductDialog();
  const label =
    info?.status === 'trial'
      ? t('licenceUi.reminderTrial', { days: info.remain_days })
      : t('licenceUi.reminder', { status: t(`licenceUi.states.${info?.status ?? 'unknown'}`) });
  return (
    <>
      {info && info.status !== 'activated' && (
        <Button
          type="link"
          danger={info.status !== 'trial'}
          data-testid="licence-reminder"
          onClick={() => open('info')}
          style={{ paddingInline: 4 }}
        >
          {label}
        </Button>
      )}
      <TrialPopup onOpenDialog={() => open('info')} />
      {dialog}
    </>
  );
};
