import { expect } from 'vitest';
import type { ApiResponse } from './api.js';

/** An error answer with this status and code (the status is reported with the body when it differs). */
export const expectError = (res: ApiResponse, status: number, error: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error).toBe(error);
};

/** An error answer that carries the code and nothing else (no detail that could leak). */
export const expectBareError = (res: ApiResponse, status: number, error: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toEqual({ error });
};

const invalidPaths = (res: ApiResponse): string[] => {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error).toBe('ERR_VALIDATION');
  return res.body.fields.map((f: { path: string }) => f.path);
};

/** A 400 ERR_VALIDATION naming at least these fields. */
export const expectInvalid = (res: ApiResponse, ...paths: string[]) => {
  expect(invalidPaths(res)).toEqual(expect.arrayContaining(paths));
};

/** A 400 ERR_VALIDATION naming exactly these fields. */
export const expectInvalidExactly = (res: ApiResponse, ...paths: string[]) => {
  expect(invalidPaths(res).sort()).toEqual([...paths].sort());
};
