import type { CardRow } from '@sitewatch/contract/door-access';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Col, Modal, Row, Table, Transfer } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../session/permissions.ts';
import { cardsQuery, devicesQuery, permissionsQuery, useSetPermissions } from '../api.ts';
import { chosenDoor, DoorMenu } from '../components/door-menu.tsx';

/** The cards allowed through a door, chosen among the cards of its site. */
const EditDialog = ({
  door,
  held,
  onClose,
}: {
  door: { id: number; device_group_id: number; title: string };
  held: Array<{ card_id: number; profile: number }>;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const cards = useQuery(cardsQuery);
  const save = useSetPermissions();
  const [chosen, setChosen] = useState<number[]>(held.map((h) => h.card_id));
  const options = (cards.data?.list ?? [])
    .filter((c: CardRow) => c.device_group_id === door.device_group_id)
    .map((c) => ({ key: c.id, title: `${c.holder} ${c.job_number} · ${c.display}` }));
  return (
    <Modal
      open
      width={720}
      title={t('doorPage.editPermitted', { door: door.title })}
      confirmLoading={save.isPending}
      onCancel={onClose}
      onOk={async () => {
        const profiles = new Map(held.map((h) => [h.card_id, h.profile]));
        await save.mutateAsync({
          door_id: door.id,
          cards: chosen.map((card_id) => ({ card_id, profile: profiles.get(card_id) ?? 0 })),
        });
        message.success(t('doorPage.saved'));
        onClose();
      }}
    >
      <Transfer
        dataSource={options}
        targetKeys={chosen}
        onChange={(keys) => setChosen(keys.map(Number))}
        render={(o) => o.title}
        titles={[t('doorPage.notPermitted'), t('doorPage.permitted')]}
        operations={[t('doorPage.permit'), t('doorPage.unpermit')]}
        showSearch
        listStyle={{ width: 280, height: 360 }}
      />
    </Modal>
  );
};

/**
 * /door_permission (002 §2.1, §3 door permission): permissions seen from the doors. A door's cards
 * are set as a whole (the card page sets a card's doors); the next sync pushes them.
 */
export const DoorPermissionPage = () => {
  const { t } = useTranslation();
  const devices = useQuery(devicesQuery);
  const canEdit = useCan('/door_permission', 'edit');
  const [chosen, setChosen] = useState<number | null>(null);
  const [editing, setEditing] = useState(false);
  const door = chosenDoor(devices.data?.list ?? [], chosen);
  const perms = useQuery({ ...permissionsQuery(door?.id), enabled: door !== null });
  const title = door ? `${door.controller.name} · ${door.nickname || t('doorPage.doorN', { n: door.number })}` : '';
  const rows = door ? (perms.data?.list ?? []) : [];
  return (
    <Row gutter={12}>
      <Col flex="260px">
        <DoorMenu controllers={devices.data?.list ?? []} doorId={door?.id ?? null} onChoose={setChosen} />
      </Col>
      <Col flex="auto" style={{ minWidth: 0 }}>
        <Card
          title={door ? t('doorPage.permittedAt', { door: title }) : t('doorPage.permissionTitle')}
          extra={
            canEdit &&
            door && (
              <Button type="primary" onClick={() => setEditing(true)}>
                {t('doorPage.editPermissions')}
              </Button>
            )
          }
        >
          <Table
            rowKey="card_id"
            size="small"
            data-testid="door-permissions"
            loading={perms.isLoading && door !== null}
            dataSource={rows}
            pagination={false}
            locale={{ emptyText: t('doorPage.noPermitted') }}
            columns={[
              { title: t('doorPage.holder'), dataIndex: 'holder' },
              { title: t('doorPage.jobNumber'), dataIndex: 'job_number' },
              { title: t('doorPage.department'), dataIndex: 'department' },
              { title: t('doorPage.cardNumber'), dataIndex: 'display' },
              { title: t('doorPage.validity'), render: (_, p) => `${p.valid_from} ~ ${p.valid_to}` },
              {
                title: t('doorPage.timeProfile'),
                render: (_, p) => (p.profile === 0 ? t('doorPage.anyTime') : t('doorPage.profileN', { n: p.profile })),
              },
            ]}
          />
        </Card>
      </Col>
      {editing && door && (
        <EditDialog
          door={{ id: door.id, device_group_id: door.controller.device_group_id, title }}
          held={rows}
          onClose={() => setEditing(false)}
        />
      )}
    </Row>
  );
};
