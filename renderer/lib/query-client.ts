import { QueryClient } from '@tanstack/react-query';
import { AppError } from '@shared/ipc/app-error';

/** Errors a repeat cannot fix: the request itself is wrong or not allowed. */
const FINAL_KINDS = new Set(['bad_request', 'unauthorized', 'forbidden', 'not_found', 'conflict', 'unexpected_shape']);

/**
 * The app's QueryClient. Main already retries transient broker failures with backoff, so the
 * renderer retries a failed read only once, and never one that a repeat cannot fix.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 1_000,
        retry: (count, error) => !(error instanceof AppError && FINAL_KINDS.has(error.info.kind)) && count < 1,
        refetchOnWindowFocus: true,
      },
      mutations: { retry: false },
    },
  });
}
