import type { MenuNode } from '@sitewatch/contract/auth';
import { customMenuIdStart } from '@sitewatch/contract/custom-menus';
import { Button, Card, Empty, List, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { menuLeaves, useSession } from '../../../session/session.ts';
import { externalLinkPath, isExternalAddress } from '../api.ts';

const find = (nodes: MenuNode[], id: number): MenuNode | undefined => {
  for (const n of nodes) {
    if (n.id === id) return n;
    const hit = find(n.children, id);
    if (hit) return hit;
  }
  return undefined;
};

/**
 * /config_menu[?id=] (002 §2.1; always allowed, 000 §6): the custom entries the user holds (under
 * the group `id` when given), each opened as the menu opens it (docs/custom-menus.md).
 */
export const ConfigMenuPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const menus = useSession((s) => s.menus);
  const groupId = Number(params.get('id') ?? 0);
  const group = groupId ? find(menus, groupId) : undefined;
  const entries = menuLeaves(group ? group.children : menus).filter((n) => n.id >= customMenuIdStart);
  const openEntry = (n: MenuNode) => {
    if (n.target === '_blank') window.open(n.url, '_blank', 'noopener,noreferrer');
    else navigate(isExternalAddress(n.url) ? externalLinkPath(n.url) : n.url);
  };
  return (
    <Card title={group ? group.name : t('customMenusUi.configTitle')}>
      {entries.length === 0 ? (
        <Empty description={t('customMenusUi.none')} />
      ) : (
        <List
          dataSource={entries}
          renderItem={(n) => (
            <List.Item
              actions={[
                <Button key="open" type="link" onClick={() => openEntry(n)}>
                  {t('customMenusUi.open')}
                </Button>,
              ]}
            >
              <List.Item.Meta
                title={n.name}
                description={<Typography.Text type="secondary">{n.url}</Typography.Text>}
              />
              <Tag>{n.target === '_blank' ? t('customMenusUi.targetBlank') : t('customMenusUi.targetSelf')}</Tag>
            </List.Item>
          )}
        />
      )}
    </Card>
  );
};
