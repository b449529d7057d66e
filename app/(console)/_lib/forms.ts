import { z } from 'zod';
import { labelOf } from '@/components/schema-form/labels';
import { ApiError } from '@/lib/core/errors';
import { findInputIssue } from '@/lib/core/text';

/** A text field: the string as typed, or undefined when it was left empty (so schema defaults apply). */
export function optionalText(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** A number field: the number typed, the text as typed when it is not one (the schema says why), undefined when empty. */
export function optionalNumber(form: FormData, name: string): number | string | undefined {
  const value = optionalText(form, name);
  return value === undefined ? undefined : /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
}

export function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}

/** The first message of each field, keyed by the field's top-level name. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = issue.path.length ? String(issue.path[0]) : 'form';
    errors[field] ??= issue.message;
  }
  return errors;
}

/** Errors already placed on the form's fields, thrown by an action's step that knows where they belong. */
export class FormErrors extends Error {
  constructor(readonly errors: Record<string, string>) {
    super(errors.form ?? Object.values(errors)[0] ?? 'The form has errors');
  }
}

/**
 * A service's ApiError as a form error: next to `field` when given, else for the whole form.
 * Anything else is a bug and is rethrown to the error boundary.
 */
export function apiErrorToForm(error: unknown, field = 'form'): Record<string, string> {
  if (error instanceof ApiError) return { [field]: error.message };
  throw error;
}

const KINDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'yes or no',
  array: 'a list',
  object: 'a set of fields',
  date: 'a date',
};
const FORMATS: Record<string, string> = {
  email: 'an email address',
  url: 'a web address (https://…)',
  uuid: 'an ID',
  datetime: 'a date and time',
  date: 'a date',
  regex: 'in the expected form',
};
const list = (values: readonly unknown[]) => values.map((v) => String(v)).join(', ');

/**
 * zod's own messages in words a person reads ("Name is required", not "Invalid input: expected
 * string, received undefined"); a message the schema states itself is kept as it is.
 */
function humanMessage(issue: z.core.$ZodRawIssue): string | undefined {
  const field = [...issue.path!].reverse().find((p) => typeof p === 'string') as string | undefined;
  const label = field ? labelOf(field) : 'This field';
  const missing = issue.input === undefined || issue.input === null || issue.input === '';
  switch (issue.code) {
    case 'invalid_type':
      return missing ? `${label} is required` : `${label} must be ${KINDS[issue.expected] ?? issue.expected}`;
    case 'too_small': {
      const n = Number(issue.minimum);
      if (issue.origin === 'string') return n <= 1 ? `${label} is required` : `${label} must be at least ${n} characters`;
      if (issue.origin === 'array' || issue.origin === 'set') return `${label}: give at least ${n <= 1 ? 'one' : n}`;
      return `${label} must be at least ${n}`;
    }
    case 'too_big': {
      const n = Number(issue.maximum);
      if (issue.origin === 'string') return `${label} must be at most ${n} characters`;
      if (issue.origin === 'array' || issue.origin === 'set') return `${label}: at most ${n}`;
      return `${label} must be at most ${n}`;
    }
    case 'invalid_format':
      return missing ? `${label} is required` : `${label} must be ${FORMATS[issue.format] ?? 'in the expected form'}`;
    case 'invalid_value':
      return `${label} must be one of: ${list(issue.values)}`;
    case 'not_multiple_of':
      return `${label} must be a multiple of ${String(issue.divisor)}`;
    case 'unrecognized_keys':
      return `Unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}`;
    case 'invalid_union':
    case 'invalid_key':
    case 'invalid_element':
      return missing ? `${label} is required` : `${label} is not valid`;
    default:
      return undefined;
  }
}

/**
 * `schema.safeParse(input)` after the API's text rule (lib/core/text.ts), so a form refuses what
 * the API refuses — NUL, lone surrogates, control characters — with the same message, next to
 * its field, before anything reaches the database. zod's default messages become sentences
 * (humanMessage); the schema's own messages win.
 */
export function safeParseForm<T extends z.ZodType>(schema: T, input: unknown): z.ZodSafeParseResult<z.output<T>> {
  const issue = findInputIssue(input);
  if (!issue) return schema.safeParse(input, { error: humanMessage });
  return { success: false, error: new z.ZodError([{ code: 'custom', path: issue.path, message: issue.message, input }]) } as z.ZodSafeParseResult<
    z.output<T>
  >;
}
