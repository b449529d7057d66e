/**
 * The consent rule of every reader and writer: consent.analytics false → only strictly necessary
 * data and events are kept. Absent = granted. In SQL: analyticsAllowedSql (./sessions-repo.ts).
 */
export const analyticsAllowed = (consent: Record<string, unknown> | null | undefined): boolean => consent?.analytics !== false;
