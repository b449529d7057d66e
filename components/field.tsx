import type { InputHTMLAttributes, ReactNode } from 'react';

type Props = InputHTMLAttributes<HTMLInputElement> & {
  name: string;
  label: string;
  /** The message shown under the field; it also marks the input invalid for assistive technology. */
  error?: string;
  hint?: ReactNode;
};

/** A labelled input with its hint and error tied to it by aria-describedby. */
export function Field({ name, label, error, hint, id = `field-${name}`, ...input }: Props) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
        {...input}
      />
      {hint && (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p className="error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}

/** The message for a form as a whole, announced when it appears. */
export function FormError({ message }: { message?: string }) {
  return (
    <p className="form-error" role="alert" hidden={!message}>
      {message}
    </p>
  );
}

/** How many days a new credential (an API key, a platform key) lives: 1 to 365, 90 unless changed. */
export function ExpiryField({ state }: { state: { values?: Record<string, string>; errors?: Record<string, string> } }) {
  return (
    <Field
      name="expirationDays"
      label="Expires after (days)"
      type="number"
      inputMode="numeric"
      min={1}
      max={365}
      defaultValue={state.values?.expirationDays ?? '90'}
      error={state.errors?.expirationDays}
    />
  );
}
