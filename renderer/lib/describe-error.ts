import { AppError } from '@shared/ipc/app-error';

/**
 * A failure in a trader's words, for stale-panel labels and banners.
 *
 * The kind says more than the message ("rate limited by the broker" is actionable, "HTTP 429"
 * is not); the message is kept for detail.
 */
export function describeError(error: unknown): string {
  if (!(error instanceof AppError)) return error instanceof Error ? error.message : 'Unknown error';
  const { kind, message } = error.info;
  switch (kind) {
    case 'rate_limited':
      return 'Rate limited by the broker';
    case 'network':
      return `Connection lost (${message})`;
    case 'disconnected':
      return 'Lost contact with the Tradedesk service mid-call; it may or may not have been done';
    case 'timeout':
      return 'The broker did not answer in time';
    case 'server_error':
      return 'The broker is having trouble';
    case 'unauthorized':
      return 'Session expired';
    case 'unexpected_shape':
      return 'The broker sent an unexpected reply';
    default:
      return message;
  }
}
