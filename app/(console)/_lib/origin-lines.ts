import { siteOriginListSchema } from '@/lib/sites/schema';
import { safeParseForm } from './forms';

/**
 * A text area of origins, one per line (blank lines ignored), checked with the same schema as
 * POST /api/sites/{id}/origins: the normalized origins, or one message naming the first bad line.
 */
export function parseOriginLines(value: string): { origins: string[] } | { error: string } {
  const lines = value
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  const parsed = safeParseForm(siteOriginListSchema, lines);
  if (parsed.success) return { origins: [...new Set(parsed.data)] };
  const issue = parsed.error.issues[0];
  const line = issue.path[0];
  return { error: typeof line === 'number' ? `“${lines[line]}”: ${issue.message}` : issue.message };
}
