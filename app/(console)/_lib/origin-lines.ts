import { siteOriginListSchema } from '@/lib/sites/schema';
import { safeParseForm } from './forms';

/**
 * A text area of origins, one per line (blank lines ignored), checked with the same schema as
 * POST /api/sites/{id}/origins: the normalized origins, or a message naming every bad line
 * (`Line 3 “…”: reason`, one per line of the message, numbered as the user sees the text area).
 */
export function parseOriginLines(value: string): { origins: string[] } | { error: string } {
  const numbered = value
    .split(/\r?\n/)
    .map((text, i) => ({ text: text.trim(), line: i + 1 }))
    .filter((l) => l.text);
  const parsed = safeParseForm(
    siteOriginListSchema,
    numbered.map((l) => l.text),
  );
  if (parsed.success) return { origins: [...new Set(parsed.data)] };
  const messages: string[] = [];
  const named = new Set<number>();
  for (const issue of parsed.error.issues) {
    const index = issue.path[0];
    if (typeof index !== 'number') {
      messages.push(issue.message);
      continue;
    }
    if (named.has(index)) continue;
    named.add(index);
    messages.push(`Line ${numbered[index].line} “${numbered[index].text}”: ${issue.message}`);
  }
  return { error: messages.join('\n') };
}
