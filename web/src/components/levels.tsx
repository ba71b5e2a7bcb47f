import { alarmRoutes, levelName } from '@sitewatch/contract/alarms';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { Select, type SelectProps, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../api/client.ts';

/**
 * The alarm levels as configured (/warning_level), under the settings page's key so that its edits
 * refresh every place a level is shown.
 */
export const levelsQuery = queryOptions({
  queryKey: ['alarms', 'settings', alarmRoutes.levels.path, 'all'],
  queryFn: () => api.call(alarmRoutes.levels),
  staleTime: 60_000,
});

/** Fallback colours of levels 1–5 when none is configured (most severe first). */
const fallbackColors = ['#cf1322', '#fa541c', '#fa8c16', '#fadb14', '#1677ff'];

/** A level's name and colour as people see them: seeded names in their language, given names as given. */
export const useLevels = () => {
  const { t } = useTranslation();
  const levels = useQuery(levelsQuery);
  const rows = levels.data?.data ?? [];
  return (level: number) => {
    const row = rows.find((l) => l.level === level);
    return {
      name: row ? levelName(row.name, level, (key) => t(key as never)) : String(level),
      color: row?.color || fallbackColors[level - 1] || undefined,
    };
  };
};

/** One alarm level, named and coloured the same way on every page. */
export const LevelTag = ({ level, color }: { level: number; color?: string | undefined }) => {
  const view = useLevels()(level);
  return (
    <Tag color={color || view.color} data-level={level}>
      {view.name}
    </Tag>
  );
};

/** A choice of alarm level by name (forms and filters). */
export const LevelSelect = (props: Omit<SelectProps<number>, 'options'>) => (
  <Select<number>
    {...props}
    options={[1, 2, 3, 4, 5].map((level) => ({ value: level, label: <LevelTag level={level} /> }))}
  />
);
