import type { WireErrorCode } from '../wire/rest-schemas';

/**
 * RFC 9457 problem details: every error the broker answers is one of these.
 *
 * Thrown anywhere below a route and turned into `application/problem+json` by the server, so
 * a handler never writes an error body by hand and never leaks a stack as a 500.
 */

export interface FieldError {
  readonly field: string;
  readonly message: string;
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  431: 'Request Header Fields Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export class Problem extends Error {
  constructor(
    readonly status: number,
    readonly code: WireErrorCode,
    readonly detail: string,
    readonly errors: readonly FieldError[] = [],
    /** Extra members (e.g. `order_id` on duplicate_client_order_id). */
    readonly extra: Readonly<Record<string, unknown>> = {},
    /** Extra response headers (e.g. Retry-After). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(detail);
  }

  /** The JSON body. `type` is a stable URI per code, so clients may switch on either. */
  body(): Record<string, unknown> {
    return {
      type: `https://tradedesk.invalid/problems/${this.code.replaceAll('_', '-')}`,
      title: TITLES[this.status] ?? 'Error',
      status: this.status,
      detail: this.detail,
      code: this.code,
      errors: this.errors,
      ...this.extra,
    };
  }
}

/** 400 naming one field. */
export function badField(field: string, message: string, code: WireErrorCode = 'invalid_field'): Problem {
  return new Problem(400, code, `${field}: ${message}`, [{ field, message }]);
}

export function notFound(what: string): Problem {
  return new Problem(404, 'not_found', `${what} was not found`);
}
