import { monitoringRoutes, type SiteRow, siteInput } from '@sitewatch/contract/monitoring';
import { useMutation } from '@tanstack/react-query';
import { Button, Flex, Form, Input, InputNumber, Modal, Space, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { contractRule } from '../../../components/form-rules.ts';
import { ResourcePage } from '../../../components/resource-page.tsx';
import { SiteSelect } from '../../../components/site-select.tsx';
import { useCan } from '../../../session/permissions.ts';
import { monitoringApi } from '../api.ts';
import { useSaved } from '../feedback.ts';

type SiteNode = SiteRow & { children?: SiteNode[] };
type Values = Record<string, unknown>;

const page = '/setting_device_groups';
const siteRoutes = {
  list: monitoringRoutes.listSites,
  create: monitoringRoutes.createSite,
  update: monitoringRoutes.updateSite,
  remove: monitoringRoutes.deleteSite,
};
const inputFields = Object.keys(siteInput.shape) as (keyof typeof siteInput.shape)[];
const initial = {
  name: '',
  parent_id: 0,
  weight: 1,
  has_device: true,
  longitude: null,
  latitude: null,
  background: '',
  scene: '',
};

/** The request a site form makes: its own fields, top level when no parent is picked, the map styles kept. */
const siteBody = (values: Values, editing: SiteRow | null) => ({
  ...Object.fromEntries(inputFields.filter((k) => k in values).map((k) => [k, values[k]])),
  parent_id: values.parent_id ?? 0,
  extend: editing?.extend ?? '',
});

/** Sites as a tree of their parent ids. */
const toTree = (rows: SiteRow[]): SiteNode[] => {
  const nodes = new Map<number, SiteNode>(rows.map((s) => [s.id, { ...s }]));
  const roots: SiteNode[] = [];
  for (const node of nodes.values()) {
    const parent = nodes.get(node.parent_id);
    if (parent) parent.children = [...(parent.children ?? []), node];
    else roots.push(node);
  }
  return roots;
};

const CopyDialog = ({ site, onClose }: { site: SiteRow | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const saved = useSaved();
  const [count, setCount] = useState(1);
  const [withDevices, setWithDevices] = useState(true);
  const copy = useMutation({
    mutationFn: () => monitoringApi.copySite(site!.id, { count, with_devices: withDevices }),
    onSuccess: () => {
      saved.onSuccess();
      onClose();
    },
  });
  return (
    <Modal
      open={site !== null}
      title={t('monitoringUi.sites.copy')}
      onCancel={onClose}
      onOk={() => copy.mutate()}
      confirmLoading={copy.isPending}
    >
      <Flex vertical gap={12}>
        <Typography.Text>{site?.name}</Typography.Text>
        <Space>
          {t('monitoringUi.common.copies')}
          <InputNumber
            aria-label={t('monitoringUi.common.copies')}
            min={1}
            max={50}
            value={count}
            onChange={(v) => setCount(v ?? 1)}
          />
        </Space>
        <Space>
          {t('monitoringUi.sites.withDevices')}
          <Switch checked={withDevices} onChange={setWithDevices} />
        </Space>
      </Flex>
    </Modal>
  );
};

/** /setting_device_groups: the site tree with add, edit, copy, batch copy and delete. */
export const DeviceGroupsPage = () => {
  const { t } = useTranslation();
  const [copying, setCopying] = useState<SiteRow | null>(null);
  const canCopy = useCan(page, 'copy');
  return (
    <>
      <ResourcePage<SiteNode>
        page={page}
        title={t('monitoringUi.sites.title')}
        routes={siteRoutes}
        // The whole area: device and item pages show site names.
        queryKey={['monitoring']}
        pageSize={false}
        listQuery={{ page: 1, limit: 1000 }}
        rows={toTree}
        table={{ expandable: { defaultExpandAllRows: true } }}
        addLabel={t('monitoringUi.sites.add')}
        dialog={{ addTitle: t('monitoringUi.sites.add'), editTitle: t('monitoringUi.sites.edit'), width: 520 }}
        initial={initial}
        toForm={(row) => Object.fromEntries(inputFields.map((k) => [k, row[k as keyof SiteRow]]))}
        fromForm={(values, editing) => siteInput.parse(siteBody(values, editing))}
        columns={[
          { title: t('monitoringUi.sites.name'), dataIndex: 'name' },
          { title: t('monitoringUi.sites.weight'), dataIndex: 'weight', width: 100 },
          {
            title: t('monitoringUi.sites.hasDevice'),
            dataIndex: 'has_device',
            width: 120,
            render: (v: boolean) => (v ? t('monitoringUi.common.yes') : t('monitoringUi.common.no')),
          },
          { title: t('monitoringUi.sites.deviceCount'), width: 110, render: (_, s) => s.devices.length },
          {
            title: t('monitoringUi.sites.coordinates'),
            width: 200,
            render: (_, s) => (s.longitude !== null && s.latitude !== null ? `${s.longitude}, ${s.latitude}` : '—'),
          },
        ]}
        extraActions={(s) =>
          canCopy && (
            <Button size="small" type="link" onClick={() => setCopying(s)}>
              {t('monitoringUi.common.copy')}
            </Button>
          )
        }
        fields={(_form, editing) => {
          const rule = contractRule(siteInput, { toBody: (v) => siteBody(v, editing) });
          return (
            <>
              <Form.Item name="name" label={t('monitoringUi.sites.name')} required rules={[rule]}>
                <Input maxLength={64} />
              </Form.Item>
              <Form.Item name="parent_id" label={t('monitoringUi.sites.parent')} rules={[rule]}>
                <SiteSelect allowClear exclude={editing?.id} />
              </Form.Item>
              <Form.Item name="weight" label={t('monitoringUi.sites.weight')} required rules={[rule]}>
                <InputNumber min={1} precision={0} style={{ width: '100%' }} />
              </Form.Item>
              <Form.Item name="has_device" label={t('monitoringUi.sites.hasDevice')} valuePropName="checked">
                <Switch />
              </Form.Item>
              <Space>
                <Form.Item name="longitude" label={t('monitoringUi.sites.longitude')} rules={[rule]}>
                  <InputNumber min={0} max={180} step={0.000001} />
                </Form.Item>
                <Form.Item name="latitude" label={t('monitoringUi.sites.latitude')} rules={[rule]}>
                  <InputNumber min={0} max={90} step={0.000001} />
                </Form.Item>
              </Space>
              <Form.Item name="background" label={t('monitoringUi.sites.background')} rules={[rule]}>
                <Input maxLength={300} />
              </Form.Item>
              <Form.Item name="scene" label={t('monitoringUi.sites.scene')} rules={[rule]}>
                <Input maxLength={200} />
              </Form.Item>
            </>
          );
        }}
      />
      <CopyDialog site={copying} onClose={() => setCopying(null)} />
    </>
  );
};
