import { videoRoutes as r, type VideoDevice } from '@sitewatch/contract/video';
import { queryOptions } from '@tanstack/react-query';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../../api/client.ts';

/** The video devices of the granted sites (both pages share it). */
export const videoDevicesQuery = queryOptions({
  queryKey: ['video', 'devices'],
  queryFn: () => api.call(r.list, { query: {} }),
});

const colours = { unchecked: 'default', online: 'success', offline: 'error', unsupported: 'warning' } as const;

/** A device's state as the console last saw it, the reason on hover. */
export const StateTag = ({ device }: { device: VideoDevice }) => {
  const { t } = useTranslation();
  const tag = <Tag color={colours[device.state]}>{t(`videoUi.states.${device.state}`)}</Tag>;
  return device.state_reason ? <Tooltip title={device.state_reason}>{tag}</Tooltip> : tag;
};
