/** What a form's server action hands back to the form: errors by field, the typed values, a result. */
export interface FormState<R = never> {
  /** Messages by field name; `form` holds the message for the form as a whole. */
  errors?: Record<string, string>;
  /** What was submitted, to fill the form again after an error (never a password). */
  values?: Record<string, string>;
  result?: R;
}

/** The message of a form whose fields are hidden (a button's form): its own error, else the first field's. */
export function formMessage(state: FormState<unknown>): string | undefined {
  return state.errors && (state.errors.form ?? Object.values(state.errors)[0]);
}

/** A form's server action (bound to its site where it has one): the state of its last answer and the form in, the next state out. */
export type StateAction<R> = (prev: FormState<R>, form: FormData) => Promise<FormState<R>>;
