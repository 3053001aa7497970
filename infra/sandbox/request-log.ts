/**
 * The sandbox's record of recent API requests: one line per request in the terminal, and the last ones in memory
 * for the activity page. Sandbox only; in AWS, API Gateway's access log and the functions' logs carry the same ids.
 */

export interface RequestLogEntry {
  /** Sandbox-clock time the request arrived, ISO 8601 UTC. */
  at: string;
  method: string;
  /** Path and query string as sent. */
  path: string;
  status: number;
  requestId: string;
  /** The error's machine code; null for a success. */
  code: string | null;
  durationMs: number;
  /** The merchant the request authenticated as; null when it did not get that far (401, 404 of an unknown path). */
  merchantId: string | null;
}

/** How many requests the activity page can show: enough for a debugging session, a few hundred KB at most. */
export const REQUEST_LOG_SIZE = 200;

/**
 * The last REQUEST_LOG_SIZE requests, oldest dropped first.
 *
 * @example
 * const log = new RequestLog();
 * log.add(entry);
 * log.recent(); // newest first
 */
export class RequestLog {
  private readonly entries: RequestLogEntry[] = [];
  constructor(private readonly size = REQUEST_LOG_SIZE) {}

  add(entry: RequestLogEntry): void {
    this.entries.push(entry);
    if (this.entries.length > this.size) this.entries.shift();
  }

  /** Newest first. */
  recent(): RequestLogEntry[] {
    return [...this.entries].reverse();
  }
}

/**
 * Whether an answer is an API request's, for the log: JSON answers and every error; not the pages and their assets.
 */
export const isApiAnswer = (status: number, contentType: string | undefined): boolean => status >= 400 || /^application\/json/.test(contentType ?? '');

/**
 * The terminal line of one request.
 *
 * @example
 * formatRequestLine(entry) // 'POST /v1/sessions 400 req_1f0e... parameter_invalid 12 ms'
 */
export const formatRequestLine = (entry: RequestLogEntry): string =>
  [entry.method, entry.path, entry.status, entry.requestId, entry.code, `${entry.durationMs} ms`].filter((part) => part !== null).join(' ');
