import { ApiError } from '@/lib/core/errors';
import type { LintIssue } from './rules';

export interface AppMigrationInput {
  siteId: string;
  appSchema: string;
  name: string;
  sql: string;
}

export interface AppMigrationResult {
  status: 'applied' | 'already_applied';
  name: string;
  checksum: string;
  statements: number;
}

export const refused = (issues: LintIssue[]) => new ApiError('UNPROCESSABLE', 'The migration was refused', { issues });

/** What a second request with this name gets: already applied, or a conflict. */
export function repeat(input: AppMigrationInput, checksum: string, existing: { checksum: string; statements: number }): AppMigrationResult {
  if (existing.checksum !== checksum) throw new ApiError('CONFLICT', `Migration ${input.name} was already applied with different SQL`);
  return { status: 'already_applied', name: input.name, checksum, statements: existing.statements };
}
