import { z } from 'zod';
import { ApiError } from '@/lib/core/errors';
import { findInputIssue } from '@/lib/core/text';

/** What a form's server action hands back to the form: errors by field, the typed values, a result. */
export interface FormState<R = never> {
  /** Messages by field name; `form` holds the message for the form as a whole. */
  errors?: Record<string, string>;
  /** What was submitted, to fill the form again after an error (never a password). */
  values?: Record<string, string>;
  result?: R;
}

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

/**
 * `schema.safeParse(input)` after the API's text rule (lib/core/text.ts), so a form refuses what
 * the API refuses — NUL, lone surrogates, control characters — with the same message, next to
 * its field, before anything reaches the database.
 */
export function safeParseForm<T extends z.ZodType>(schema: T, input: unknown): z.ZodSafeParseResult<z.output<T>> {
  const issue = findInputIssue(input);
  if (!issue) return schema.safeParse(input);
  return { success: false, error: new z.ZodError([{ code: 'custom', path: issue.path, message: issue.message, input }]) } as z.ZodSafeParseResult<
    z.output<T>
  >;
}
