import { ERROR_STATUS, type ErrorCode, type FieldIssue } from '@atrium/shared';

/** The one error type. Services throw it; one middleware turns it into `{"error": code}` and a status. */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    readonly extra: Record<string, unknown> & { fields?: FieldIssue[] } = {},
  ) {
    super(code);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}

export const notFound = (code: ErrorCode = 'ERR_NOT_FOUND'): AppError => new AppError(code);
