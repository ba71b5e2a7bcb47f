import { type CatalogueMenu, roleInput, usersRoutes } from '@sitewatch/contract/users';
import type { VideoDevice } from '@sitewatch/contract/video';
import { useQuery } from '@tanstack/react-query';
import { Checkbox, Col, Form, Input, Row, Tree, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import type { Key, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';
import { contractRule } from '../../../components/form-rules.ts';
import { ResourcePage } from '../../../components/resource-page.tsx';
import { useCan, useIsAdministrator } from '../../../session/permissions.ts';
import { useSession } from '../../../session/session.ts';
import { catalogueQuery, grantableContactsQuery, grantableVideosQuery, siteTreeQuery } from '../api.ts';

type Role = { id: number; name: string; remark: string; user_count: number };
type SiteNode = { id: number; name: string; children: SiteNode[] };

/** Menus and their functions as one checkable tree: function keys are `f<id>`. */
const grantTree = (menus: CatalogueMenu[]): DataNode[] =>
  menus.map((menu) => ({
    key: `m${menu.id}`,
    title: menu.name,
    children: [
      ...grantTree(menu.children),
      ...menu.functions.map((f) => ({ key: `f${f.id}`, title: f.name, isLeaf: true })),
    ],
  }));
const siteTree = (sites: SiteNode[]): DataNode[] =>
  sites.map((s) => ({ key: s.id, title: s.name, children: siteTree(s.children) }));
/**
 * Video channels by site and device (docs/video.md, "Video grants"): channel keys are `c<ID>` (the
 * channel id, device id × 1000 + channel number), the site and device nodes only group them.
 */
const videoTree = (devices: VideoDevice[], channelName: (no: number) => string): DataNode[] => {
  const bySite = new Map<number, VideoDevice[]>();
  for (const d of devices) bySite.set(d.device_group_id, [...(bySite.get(d.device_group_id) ?? []), d]);
  return [...bySite].map(([site, ds]) => ({
    key: `s${site}`,
    title: ds[0]?.device_group_name ?? '',
    children: ds.map((d) => ({
      key: `d${d.id}`,
      title: d.name,
      children: d.channels.map((c) => ({ key: `c${c.ID}`, title: c.Name || channelName(c.ChannelNo), isLeaf: true })),
    })),
  }));
};
const videoIdsOf = (keys: Key[]) =>
  keys
    .map(String)
    .filter((k) => k.startsWith('c'))
    .map((k) => Number(k.slice(1)));

/** A menu is granted when any of its entries is checked, so its group shows too. */
const menuIdsOf = (menus: CatalogueMenu[], checked: Set<string>): number[] =>
  menus.flatMap((menu) => {
    const below = menuIdsOf(menu.children, checked);
    const own = checked.has(`m${menu.id}`) || menu.functions.some((f) => checked.has(`f${f.id}`)) || below.length > 0;
    return own ? [menu.id, ...below] : below;
  });

/** One column of grants: a heading over a scrolling list (the journeys find it by its test id). */
const GrantColumn = ({
  span,
  title,
  testId,
  children,
}: {
  span: number;
  title: string;
  testId: string;
  children: ReactNode;
}) => (
  <Col span={span}>
    <Typography.Title level={5}>{title}</Typography.Title>
    <div style={{ maxHeight: 360, overflow: 'auto' }} data-testid={testId}>
      {children}
    </div>
  </Col>
);

/** A checkable tree as a form field: its value is the checked keys. */
const CheckTree = ({
  value,
  onChange,
  treeData,
}: {
  value?: Key[];
  onChange?: (keys: Key[]) => void;
  treeData: DataNode[];
}) => (
  <Tree
    // defaultExpandAll acts when the tree mounts: a tree whose data came after the dialog opened
    // (a slow answer) stayed folded, so it mounts again once the data is there.
    key={treeData.length > 0 ? 'loaded' : 'empty'}
    checkable
    defaultExpandAll
    treeData={treeData}
    checkedKeys={value ?? []}
    onCheck={(keys) => onChange?.(Array.isArray(keys) ? keys : keys.checked)}
  />
);

/** /authority_groups: roles and their grants over sites, menus and functions (002 §3 Permissions, §6). */
export const RolesPage = () => {
  const { t } = useTranslation();
  const catalogue = useQuery(catalogueQuery);
  const sites = useQuery(siteTreeQuery);
  const contacts = useQuery(grantableContactsQuery);
  // The channels come from the video list the editor sees; without the live page there are none to offer.
  const canSeeVideo = useCan('/video_live', 'view');
  const videos = useQuery({ ...grantableVideosQuery, enabled: canSeeVideo });
  const videoNodes = videoTree(videos.data ?? [], (no) => `${t('userPages.channel')} ${no}`);
  // A restricted user does not edit a role they hold: it would change their own grants (docs/users.md).
  const isAdministrator = useIsAdministrator();
  const ownRoles = useSession((s) => s.user?.role_ids ?? []);
  /** The request of the form: site keys are ids; menu (`m`) and function (`f`) keys share one tree. */
  const toBody = (values: Record<string, unknown>) => {
    const grants = ((values.grants ?? []) as Key[]).map(String);
    return {
      name: values.name,
      remark: values.remark,
      site_ids: ((values.site_ids ?? []) as Key[]).map(Number),
      menu_ids: menuIdsOf(catalogue.data?.list ?? [], new Set(grants)),
      function_ids: grants.filter((k) => k.startsWith('f')).map((k) => Number(k.slice(1))),
      video_ids: videoIdsOf((values.video_ids ?? []) as Key[]),
      contact_ids: values.contact_ids ?? [],
    };
  };
  return (
    <ResourcePage<Role>
      page="/authority_groups"
      title={t('menu.roles')}
      routes={{
        list: usersRoutes.roles,
        create: usersRoutes.roleCreate,
        update: usersRoutes.roleUpdate,
        remove: usersRoutes.roleRemove,
      }}
      queryKey={['users']}
      pageSize={false}
      columns={[
        { title: t('userPages.roleName'), dataIndex: 'name' },
        { title: t('userPages.remark'), dataIndex: 'remark' },
        { title: t('userPages.userCount'), dataIndex: 'user_count', width: 120 },
      ]}
      rowNote={(role) =>
        role.id === 1 || !(isAdministrator || !ownRoles.includes(role.id)) ? (
          <Typography.Text type="secondary">
            {role.id === 1 ? t('userPages.adminRole') : t('userPages.ownRole')}
          </Typography.Text>
        ) : null
      }
      initial={{ name: '', remark: '', site_ids: [], grants: [], contact_ids: [], video_ids: [] }}
      toForm={async (role) => {
        const detail = await api.call(usersRoutes.role, { params: { id: role.id } });
        return {
          name: detail.name,
          remark: detail.remark,
          site_ids: detail.device_groups.map((g) => g.id),
          grants: detail.function_ids.map((id) => `f${id}`),
          contact_ids: detail.contact_ids,
          video_ids: detail.video_ids.map((id) => `c${id}`),
        };
      }}
      fromForm={toBody}
      dialog={{
        addTitle: t('userPages.addRole'),
        editTitle: t('userPages.editRole'),
        width: 860,
        form: { name: 'role' },
      }}
      fields={() => (
        <>
          <Row gutter={16}>
            <Col span={12}>
              <Form.Item
                name="name"
                label={t('userPages.roleName')}
                rules={[contractRule(roleInput, { required: true, message: t('userPages.nameRequired'), toBody })]}
              >
                <Input maxLength={64} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="remark" label={t('userPages.remark')}>
                <Input maxLength={200} />
              </Form.Item>
            </Col>
          </Row>
          {/* A grant needs site, menu and function permissions (002 §6): the contract's refinements. */}
          <Row gutter={16}>
            <GrantColumn span={7} title={t('userPages.siteGrants')} testId="site-grants">
              <Form.Item
                name="site_ids"
                rules={[contractRule(roleInput, { message: t('userPages.needSites'), toBody })]}
              >
                <CheckTree treeData={siteTree((sites.data ?? []) as SiteNode[])} />
              </Form.Item>
            </GrantColumn>
            <GrantColumn span={10} title={t('userPages.menuGrants')} testId="menu-grants">
              <Form.Item
                name="grants"
                rules={[
                  contractRule(roleInput, { message: t('userPages.needFunctions'), toBody, path: 'function_ids' }),
                ]}
              >
                <CheckTree treeData={grantTree(catalogue.data?.list ?? [])} />
              </Form.Item>
            </GrantColumn>
            <GrantColumn span={7} title={t('userPages.contactGrants')} testId="contact-grants">
              {contacts.data?.list.length ? (
                <Form.Item name="contact_ids">
                  <Checkbox.Group
                    style={{ display: 'flex', flexDirection: 'column', gap: 4 }}
                    options={contacts.data.list.map((c) => ({
                      value: c.id,
                      label: c.phone ? `${c.name} (${c.phone})` : c.name,
                    }))}
                  />
                </Form.Item>
              ) : (
                <Typography.Text type="secondary">{t('userPages.noContacts')}</Typography.Text>
              )}
            </GrantColumn>
          </Row>
          <Row gutter={16}>
            <GrantColumn span={24} title={t('userPages.videoGrants')} testId="video-grants">
              {videoNodes.length ? (
                <Form.Item name="video_ids">
                  <CheckTree treeData={videoNodes} />
                </Form.Item>
              ) : (
                <Typography.Text type="secondary">{t('userPages.noVideos')}</Typography.Text>
              )}
            </GrantColumn>
          </Row>
        </>
      )}
    />
  );
};
