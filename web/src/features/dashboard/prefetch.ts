import type { FetchQueryOptions, QueryClient } from '@tanstack/react-query';
import {
  electricalQuery,
  environmentQuery,
  lastInspectionQuery,
  levelCountQuery,
  rankingQuery,
  recentAlarmsQuery,
  statisticsQuery,
  systemInfoQuery,
} from './api.ts';
import { firstCurve } from './curve.ts';

/**
 * The dashboard's reads, asked for as the app starts on /home (app/router.tsx `prefetchLanding`),
 * beside the texts, the user and the menus instead of after the shell's first render; the curve's
 * first reads follow the environment answer at once instead of waiting for the panel to mount.
 */
export const prefetchHomeReads = (client: QueryClient) => {
  for (const query of [
    statisticsQuery,
    levelCountQuery,
    rankingQuery,
    recentAlarmsQuery,
    systemInfoQuery,
    lastInspectionQuery,
    electricalQuery,
  ])
    void client.prefetchQuery(query as FetchQueryOptions); // seven reads of seven answer types
  void client.fetchQuery(environmentQuery).then(
    (environment) => {
      const first = environment.data[0];
      if (first) void client.prefetchQuery(firstCurve(first.device_name));
    },
    () => undefined, // the panel shows the failure when it reads again
  );
};
