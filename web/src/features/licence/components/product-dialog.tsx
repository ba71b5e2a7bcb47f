import type { LicenceInfo } from '@sitewatch/contract/licence';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Descriptions, Flex, Input, Modal, QRCode, Steps, Table, Tabs, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { mutationRefusal } from '../../../api/query-client.ts';
import { formatTime } from '../../../components/time.ts';
import { activate, categoriesLicenceQuery, licenceQuery } from '../api.ts';

const guideSteps = ['1', '2', '3', '4', '5', '6', '7'] as const;

export type ProductTab = 'info' | 'activate';

const stateColour = { activated: 'success', trial: 'processing', expired: 'error', unknown: 'default' } as const;

export const LicenceStateTag = ({ info }: { info: Pick<LicenceInfo, 'status'> }) => {
  const { t } = useTranslation();
  return <Tag color={stateColour[info.status]}>{t(`licenceUi.states.${info.status}`)}</Tag>;
};

/** The product information tab (000 §2.2): status, times, days, counts, serial number and its QR code, categories. */
const InfoTab = ({ info }: { info: LicenceInfo }) => {
  const { t } = useTranslation();
  const categories = useQuery(categoriesLicenceQuery);
  const trial = info.status === 'trial' || (info.status === 'expired' && info.device_quantity === 0);
  const activated = !trial;
  const items = [
    { key: 'status', label: t('licenceUi.status'), children: <LicenceStateTag info={info} /> },
    { key: 'start', label: t('licenceUi.startTime'), children: formatTime(info.start_time) },
    ...(trial
      ? [
          { key: 'trialExpiry', label: t('licenceUi.trialExpiry'), children: formatTime(info.expire_timestamp) },
          { key: 'trialDays', label: t('licenceUi.trialDays'), children: t('licenceUi.days', { n: info.trial_days }) },
          { key: 'remain', label: t('licenceUi.remainDays'), children: t('licenceUi.days', { n: info.remain_days }) },
        ]
      : [
          { key: 'edition', label: t('licenceUi.edition'), children: info.edition },
          {
            key: 'expiry',
            label: t('licenceUi.expiry'),
            children: info.expire_timestamp ? formatTime(info.expire_timestamp) : t('licenceUi.never'),
          },
        ]),
    ...(activated
      ? [
          { key: 'dq', label: t('licenceUi.deviceQuantity'), children: info.device_quantity },
          { key: 'iq', label: t('licenceUi.itemQuantity'), children: info.item_quantity },
        ]
      : []),
    { key: 'devices', label: t('licenceUi.devices'), children: info.devices },
    { key: 'items', label: t('licenceUi.items'), children: info.items },
    {
      key: 'sn',
      label: t('licenceUi.sn'),
      children: (
        <Typography.Text copyable data-testid="licence-sn">
          {info.sn}
        </Typography.Text>
      ),
    },
  ];
  return (
    <Flex vertical gap={12}>
      <Flex gap={16} align="flex-start">
        <Descriptions size="small" column={2} bordered items={items} style={{ flex: 1 }} />
        <Flex vertical align="center" gap={4}>
          <QRCode value={info.sn} size={128} bordered={false} aria-label={t('licenceUi.snQr')} />
          <Typography.Text type="secondary">{t('licenceUi.snQr')}</Typography.Text>
        </Flex>
      </Flex>
      <Table
        size="small"
        rowKey="code"
        pagination={false}
        scroll={{ y: 180 }}
        loading={categories.isLoading}
        dataSource={categories.data?.data ?? []}
        columns={[
          { title: t('licenceUi.category'), dataIndex: 'name' },
          {
            title: t('licenceUi.categoryLimit'),
            dataIndex: 'limit',
            render: (limit: number) => (limit < 0 ? t('licenceUi.noLimit') : limit),
          },
          { title: t('licenceUi.categoryCount'), dataIndex: 'count' },
        ]}
      />
    </Flex>
  );
};

/** The activation tab: the code, the 7-step guide, support contact. */
const ActivateTab = ({ info, onDone }: { info: LicenceInfo; onDone: () => void }) => {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const client = useQueryClient();
  const [code, setCode] = useState('');
  const run = useMutation({
    mutationFn: activate,
    onSuccess: (data) => {
      client.setQueryData(licenceQuery.queryKey, data);
      void client.invalidateQueries({ queryKey: ['licence'] });
      message.success(t('licence.activated'));
      setCode('');
      onDone();
    },
    // The server's message is shown by the query client (mutationRefusal); the fallback when it has none.
    onError: (error) => {
      if (!mutationRefusal(error)) message.warning(t('licenceUi.activateFailed'));
    },
  });
  const submit = () => {
    if (!code.trim()) {
      message.warning(t('licenceUi.codeRequired'));
      return;
    }
    run.mutate(code.trim());
  };
  return (
    <Flex vertical gap={12}>
      <Typography.Text strong>{t('licenceUi.guideTitle')}</Typography.Text>
      <Steps
        direction="vertical"
        size="small"
        current={-1}
        items={guideSteps.map((n) => ({ title: t(`licenceUi.guide.${n}`) }))}
      />
      <label htmlFor="licence-code">{t('licenceUi.code')}</label>
      <Input.TextArea
        id="licence-code"
        rows={3}
        value={code}
        placeholder={t('licenceUi.codePlaceholder')}
        onChange={(e) => setCode(e.target.value)}
      />
      <Flex gap={8} justify="space-between">
        <Button
          onClick={() =>
            modal.info({ title: t('licenceUi.supportTitle'), content: t('licenceUi.supportText', { sn: info.sn }) })
          }
        >
          {t('licenceUi.support')}
        </Button>
        <Button type="primary" loading={run.isPending} onClick={submit}>
          {t('licenceUi.activate')}
        </Button>
      </Flex>
    </Flex>
  );
};

/** The product information and activation dialog (000 §2.2): two tabs. */
export const ProductDialog = ({
  open,
  tab,
  onTab,
  onClose,
}: {
  open: boolean;
  tab: ProductTab;
  onTab: (tab: ProductTab) => void;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const info = useQuery({ ...licenceQuery, enabled: open });
  return (
    <Modal open={open} title={t('licenceUi.title')} width={860} footer={null} onCancel={onClose} destroyOnHidden>
      {info.data && (
        <Tabs
          activeKey={tab}
          onChange={(key) => onTab(key as ProductTab)}
          items={[
            { key: 'info', label: t('licenceUi.tabInfo'), children: <InfoTab info={info.data} /> },
            {
              key: 'activate',
              label: t('licenceUi.tabActivate'),
              children: <ActivateTab info={info.data} onDone={() => onTab('info')} />,
            },
          ]}
        />
      )}
    </Modal>
  );
};
