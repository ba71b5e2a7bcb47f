import { authRoutes } from '@sitewatch/contract/auth';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { api } from '../../api/client.ts';
import { timeFormat } from '../../components/time.ts';

/** Server clock (000 §2.4, §9): ticks every 1 s, resynchronised with the server every 120 s. */
export const ServerClock = () => {
  const [offset, setOffset] = useState<number | null>(null);
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const sync = () =>
      api
        .call(authRoutes.serverTime)
        .then(({ server_time }) => setOffset(server_time * 1000 - Date.now()))
        .catch(() => undefined);
    void sync();
    const resync = setInterval(sync, 120_000);
    const tick = setInterval(() => setNow(Date.now()), 1_000);
    return () => {
      clearInterval(resync);
      clearInterval(tick);
    };
  }, []);
  if (offset === null) return null;
  return (
    <span data-testid="server-clock" style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
      {dayjs(now + offset).format(timeFormat)}
    </span>
  );
};
