import { createHash } from 'node:crypto';
import { ApiError } from '@/lib/core/errors';
import { isUniqueViolation } from '@/lib/db/errors';
import { lintMigration, MAX_MIGRATION_BYTES } from './lint';
import { refused, repeat, type AppMigrationInput, type AppMigrationResult } from './outcomes';
import { lineAt } from './parser';
import { migrate, recorded, schemaOwner, type MigrationProgress } from './repo';

/**
 * Applies a generated app's migration to its schema `app_<short id>`:
 *   1. lint (./lint.ts): refused → 422 UNPROCESSABLE with `details.issues` [{rule, message, line}];
 *   2. one transaction, serialized per schema: claim the schema for the site, create it and its
 *      NOLOGIN role `<schema>_migrator` (USAGE and CREATE on that schema only), then
 *      `SET LOCAL ROLE` to it and `SET LOCAL search_path` to the schema alone, and run each
 *      statement as parsed, one at a time;
 *   3. back as the service: every table of the schema must have row level security on and a
 *      policy (checked in the catalog too), and the migration is recorded (name + SHA-256).
 * The same name with the same SQL again → `already_applied`; with other SQL → 409 CONFLICT.
 * The statements of steps 2 and 3 are ./repo.ts's.
 */
export const APP_SCHEMA_PATTERN = /^app_[a-z0-9_]{1,48}$/;
export const MIGRATION_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

const checksumOf = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

function validate(input: AppMigrationInput) {
  if (!APP_SCHEMA_PATTERN.test(input.appSchema))
    throw new ApiError('INVALID_REQUEST', 'The app schema must be app_<short id> (lowercase letters, digits, _)');
  if (!MIGRATION_NAME_PATTERN.test(input.name))
    throw new ApiError('INVALID_REQUEST', 'Migration name: 1–128 letters, digits, _ . - (starting with a letter or digit)');
  if (Buffer.byteLength(input.sql, 'utf8') > MAX_MIGRATION_BYTES)
    throw new ApiError('PAYLOAD_TOO_LARGE', `A migration is at most ${MAX_MIGRATION_BYTES} bytes`);
}

export async function applyAppMigration(input: AppMigrationInput): Promise<AppMigrationResult> {
  validate(input);
  const checksum = checksumOf(input.sql);
  const owner = await schemaOwner(input.appSchema);
  if (owner && owner !== input.siteId) throw new ApiError('FORBIDDEN', 'This app schema belongs to another site');
  const existing = await recorded(input.appSchema, input.name);
  if (existing) return repeat(input, checksum, existing);

  const { issues, statements } = await lintMigration(input.appSchema, input.sql);
  if (issues.length) throw refused(issues);

  const progress: MigrationProgress = {};
  try {
    return await migrate(input, checksum, statements, progress);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (isUniqueViolation(error)) {
      const row = await recorded(input.appSchema, input.name);
      if (row) return repeat(input, checksum, row);
    }
    // The statements passed the lint but the database refused one (a missing table, a type
    // error…): the transaction rolled back. The caller gets the database's message about its
    // own SQL; logs get nothing of it.
    const dbError = sqlStateError(error);
    const running = progress.running;
    if (dbError && running) {
      const line = lineAt(input.sql, running.start + (running.text.length - running.text.trimStart().length));
      throw refused([
        {
          rule: 'database',
          message: `The database refused this statement (SQL state ${dbError.code}): ${dbError.message.slice(0, 300)}. Nothing was applied.`,
          line,
        },
      ]);
    }
    throw error;
  }
}

/** The PostgreSQL error (SQL state and message) in an error or its causes. */
function sqlStateError(error: unknown): { code: string; message: string } | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return { code, message: typeof message === 'string' ? message : '' };
  }
  return undefined;
}

export { appSchemaStatus, roleOf } from './repo';
export type { AppMigrationInput, AppMigrationResult } from './outcomes';
