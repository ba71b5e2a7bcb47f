import { MutationCache, QueryClient } from '@tanstack/react-query';
import { message } from 'antd';
import { ZodError } from 'zod';
import { i18n } from '../i18n/index.ts';
import { ApiError } from './client.ts';
import { liveStructuralSharing } from './live-sharing.ts';

/**
 * What a failed mutation tells the user: the server's text (or the HTTP error text); or, when the
 * contract refused the request before it was sent (a form built a body its field rules did not
 * cover), the contract's message for the first issue, so a save never fails without a word.
 */
export const mutationRefusal = (error: unknown): string | undefined => {
  if (error instanceof ApiError) return error.message || undefined;
  if (error instanceof ZodError) {
    const issue = error.issues[0];
    const field = issue?.path.join('.') ?? '';
    const key = issue && i18n.exists(issue.message) ? issue.message : 'validation.invalid';
    return i18n.t(key as 'validation.invalid', { field });
  }
  return undefined;
};

/**
 * One query client: a failed mutation says why (mutationRefusal); queries decide themselves,
 * since the dashboard ignores failures silently (000 §8).
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 5_000, structuralSharing: liveStructuralSharing },
  },
  mutationCache: new MutationCache({
    onError: (error) => {
      const text = mutationRefusal(error);
      if (text) void message.error(text);
    },
  }),
});
