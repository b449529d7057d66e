import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';

/** The props of a text typed as it is (an identifier, an address, a code): no capitals added, no spelling checked. */
export const VERBATIM = { type: 'text', autoCapitalize: 'none', spellCheck: false } as const;

/** A control's label, hint and error; the error also marks the control invalid for assistive technology. */
type Frame = { name: string; id?: string; label: ReactNode; hint?: ReactNode; error?: string };

/** A framed control's props: the frame's, and the control's own but its id and name. */
type FramedProps<A> = Frame & Omit<A, keyof Frame>;

/** What a control takes from its frame: its id and name, and what ties it to its hint and error. */
type Tied = { id: string; name: string; 'aria-invalid'?: true; 'aria-describedby'?: string };

/**
 * A labelled control with its hint and error below it, tied to it by aria-describedby: the one
 * frame of the console's inputs, text areas and selects (the id is `field-<name>` unless given).
 */
function framed<A extends object>(control: (tied: Tied, rest: Omit<FramedProps<A>, keyof Frame>) => ReactNode) {
  return function Framed({ name, id = `field-${name}`, label, hint, error, ...rest }: FramedProps<A>) {
    const hintId = hint ? `${id}-hint` : undefined;
    const errorId = error ? `${id}-error` : undefined;
    const described = [hintId, errorId].filter(Boolean).join(' ') || undefined;
    return (
      <div className="field">
        <label htmlFor={id}>{label}</label>
        {control({ id, name, 'aria-invalid': error ? true : undefined, 'aria-describedby': described }, rest)}
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
  };
}

export const Field = framed<InputHTMLAttributes<HTMLInputElement>>((tied, input) => <input {...tied} {...input} />);

export const TextAreaField = framed<TextareaHTMLAttributes<HTMLTextAreaElement>>((tied, area) => <textarea {...tied} {...area} />);

/**
 * A select of `options`; a `placeholder` is a first choice that cannot be chosen back. The select is
 * keyed by its default: React applies a select's default only when it mounts and resets a form after
 * its action, so a new key keeps what the answer says is chosen.
 */
export const SelectField = framed<
  SelectHTMLAttributes<HTMLSelectElement> & { options: readonly { value: string; label?: ReactNode }[]; placeholder?: string }
>((tied, { options, placeholder, ...select }) => (
  <select key={String(select.defaultValue)} {...tied} {...select}>
    {placeholder && (
      <option value="" disabled>
        {placeholder}
      </option>
    )}
    {options.map((o) => (
      <option key={o.value} value={o.value}>
        {o.label ?? o.value}
      </option>
    ))}
  </select>
));

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
