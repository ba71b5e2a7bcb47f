import { MutationCache, QueryClient } from '@tanstack/react-query';
import { message } from 'antd';
import { ApiError } from './client.ts';
import { liveStructuralSharing } from './live.ts';

/**
 * One query client: a failed mutation shows the server's text (or the HTTP error text); queries
 * decide themselves, since the dashboard ignores failures silently (000 §8).
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 5_000, structuralSharing: liveStructuralSharing },
  },
  mutationCache: new MutationCache({
    onError: (error) => {
      if (error instanceof ApiError && error.message) void message.error(error.message);
    },
  }),
});
