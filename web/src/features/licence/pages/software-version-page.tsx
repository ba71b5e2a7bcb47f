import { useQuery } from '@tanstack/react-query';
import { Card, Descriptions, Flex, Spin, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../components/time.ts';
import { softwareVersionQuery } from '../api.ts';
import { LicenceStateTag } from '../components/product-dialog.tsx';

/** /software_version (002 §2.1, §2.3): version, build, components and their versions, licence summary. */
export const SoftwareVersionPage = () => {
  const { t } = useTranslation();
  const { data } = useQuery(softwareVersionQuery);
  if (!data) return <Spin />;
  const l = data.licence;
  return (
    <Flex vertical gap={16} style={{ padding: 16, maxWidth: 960 }}>
      <Card title={t('licenceUi.versionTitle')} size="small">
        <Descriptions
          size="small"
          column={2}
          items={[
            { key: 'v', label: t('licenceUi.version'), children: data.version },
            { key: 'b', label: t('licenceUi.build'), children: data.build },
          ]}
        />
      </Card>
      <Card title={t('licenceUi.licence')} size="small">
        <Descriptions
          size="small"
          column={2}
          items={[
            { key: 's', label: t('licenceUi.status'), children: <LicenceStateTag info={l} /> },
            { key: 'sn', label: t('licenceUi.sn'), children: l.sn },
            ...(l.edition ? [{ key: 'e', label: t('licenceUi.edition'), children: l.edition }] : []),
            {
              key: 'x',
              label: l.status === 'trial' ? t('licenceUi.trialExpiry') : t('licenceUi.expiry'),
              children: l.expire_timestamp ? formatTime(l.expire_timestamp) : t('licenceUi.never'),
            },
            {
              key: 'd',
              label: t('licenceUi.devices'),
              children: l.device_quantity ? `${l.devices} / ${l.device_quantity}` : l.devices,
            },
            {
              key: 'i',
              label: t('licenceUi.items'),
              children: l.item_quantity ? `${l.items} / ${l.item_quantity}` : l.items,
            },
          ]}
        />
      </Card>
      <Card title={t('licenceUi.components')} size="small">
        <Table
          size="small"
          rowKey="name"
          pagination={false}
          dataSource={data.components}
          columns={[
            { title: t('licenceUi.componentName'), dataIndex: 'name' },
            { title: t('licenceUi.componentVersion'), dataIndex: 'version' },
          ]}
        />
      </Card>
    </Flex>
  );
};
