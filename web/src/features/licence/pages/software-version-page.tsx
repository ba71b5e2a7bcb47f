import { useQuery } from '@tanstack/react-query';
import { Card, Descriptions, Flex, Spin, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../components/time.ts';
import { softwareVersionQuery } from '../api.ts';
import { LicenceStateTag } from '../components/product-dialog.tsx';

/**
 * /software_version (002 §2.1, §2.3): version, build, components and their versions, licence summary
 * and the changelog of the build (CHANGELOG.md, kept in English: docs/licence.md).
 */
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
      <Card title={t('licenceUi.changelog')} size="small" data-testid="software-changelog">
        {data.changelog.length === 0 ? (
          <Typography.Text type="secondary">{t('licenceUi.noChangelog')}</Typography.Text>
        ) : (
          data.changelog.map((entry) => (
            <section key={entry.version} style={{ marginBottom: 12 }}>
              <Typography.Title level={5} style={{ margin: 0 }}>
                {entry.version}
                {entry.date && <Typography.Text type="secondary">{`  ${entry.date}`}</Typography.Text>}
              </Typography.Title>
              <ul style={{ margin: '4px 0 0', paddingLeft: 20 }}>
                {entry.changes.map((change) => (
                  <li key={change} data-raw-ok>
                    {change}
                  </li>
                ))}
              </ul>
            </section>
          ))
        )}
      </Card>
    </Flex>
  );
};
