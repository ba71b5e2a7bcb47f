import { useQuery } from '@tanstack/react-query';
import { sitesQuery } from '../../components/site-select.tsx';

/** The name of a duty row's site; `none` for a row of no site (every site, or one's own). */
export const useSiteName = () => {
  const sites = useQuery(sitesQuery);
  return (id: number | null, none: string) =>
    id === null ? none : (sites.data?.data.find((s) => s.id === id)?.name ?? `#${id}`);
};
