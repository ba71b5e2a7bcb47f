import type { ControllerRow } from '@sitewatch/contract/door-access';
import { Card, Empty, Menu } from 'antd';
import { useTranslation } from 'react-i18next';

/** The doors of the user's sites by controller, one of them chosen (/doors_logs, /door_permission). */
export const DoorMenu = ({
  controllers,
  doorId,
  onChoose,
}: {
  controllers: ControllerRow[];
  doorId: number | null;
  onChoose: (doorId: number) => void;
}) => {
  const { t } = useTranslation();
  return (
    <Card title={t('doorPage.doors')} size="small" styles={{ body: { padding: 0 } }}>
      {controllers.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('doorPage.noDoors')} />
      ) : (
        <Menu
          mode="inline"
          aria-label={t('doorPage.doors')}
          selectedKeys={doorId ? [String(doorId)] : []}
          defaultOpenKeys={controllers.map((c) => `c${c.id}`)}
          onClick={({ key }) => onChoose(Number(key))}
          items={controllers.map((c) => ({
            key: `c${c.id}`,
            label: c.name,
            children: c.doors.map((d) => ({
              key: String(d.id),
              label: d.nickname || t('doorPage.doorN', { n: d.number }),
            })),
          }))}
        />
      )}
    </Card>
  );
};

/** The door chosen on a page, with its controller; the first door until one is chosen. */
export const chosenDoor = (controllers: ControllerRow[], chosen: number | null) => {
  const doors = controllers.flatMap((c) => c.doors.map((d) => ({ ...d, controller: c })));
  return doors.find((d) => d.id === chosen) ?? doors[0] ?? null;
};
