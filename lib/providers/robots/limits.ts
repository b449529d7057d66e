import { ApiError } from '@/lib/core/errors';

/**
 * The 429 answers of the running-browser limits: per site and per account (the database rule of
 * lib/robots/slots.ts, across every process), and per process (the provider's own slots and its
 * fairness share). The caller may retry once a browser is paused or stopped.
 */
const RETRY_AFTER_S = 60;

const rateLimited = (message: string, details: Record<string, unknown>) =>
  new ApiError('RATE_LIMITED', message, { ...details, retry_after: RETRY_AFTER_S }, { 'retry-after': String(RETRY_AFTER_S) });

export const siteRobotsFull = (limit: number) =>
  rateLimited(`This site already runs ${limit} robot browsers, the most allowed; pause or stop one first`, { running_limit: limit });

export const accountRobotsFull = (limit: number) =>
  rateLimited(`This account already runs ${limit} robot browsers, the most it may; pause or stop one first`, { running_limit: limit });

export const processRobotsFull = () => rateLimited('The service runs as many robot browsers as it allows; try again later', {});
