import { useQuery } from '@tanstack/react-query';
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

/** The dashboard's reads (000 §7, §9), each polled on its own; the page is ready when they have answered. */
export const useHomeQueries = () => ({
  statistics: useQuery(statisticsQuery),
  levels: useQuery(levelCountQuery),
  ranking: useQuery(rankingQuery),
  recent: useQuery(recentAlarmsQuery),
  system: useQuery(systemInfoQuery),
  inspection: useQuery(lastInspectionQuery),
  environment: useQuery(environmentQuery),
  electrical: useQuery(electricalQuery),
});

export type HomeQueries = ReturnType<typeof useHomeQueries>;
/** What one of the dashboard's reads answered (undefined until it has). */
export type HomeData<K extends keyof HomeQueries> = HomeQueries[K]['data'];
