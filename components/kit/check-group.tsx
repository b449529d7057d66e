import { useId, type ReactNode } from 'react';

/**
 * A named group of checkboxes (scopes, capabilities, event types) with its hint and error. After
 * an answer of the action the boxes show what was sent (`values`, a repeated field joined by
 * commas); a fresh form checks what `initially` says. Its error's id is the group's own: a page may
 * hold several groups of one name (the add form and each endpoint's edit form of the webhooks).
 */
export function CheckGroup({
  name,
  legend,
  options,
  values,
  initially,
  hint,
  error,
}: {
  name: string;
  legend: string;
  options: { value: string; label?: ReactNode; title?: string }[];
  values?: Record<string, string>;
  initially: (value: string) => boolean;
  hint?: ReactNode;
  error?: string;
}) {
  const sent = values ? (values[name] ?? '').split(',') : undefined;
  const errorId = `${name}-error-${useId().replace(/[^\w-]/g, '')}`;
  return (
    <fieldset aria-describedby={error ? errorId : undefined}>
      <legend>{legend}</legend>
      <div className="checks">
        {options.map((o) => (
          <label key={o.value} title={o.title}>
            <input type="checkbox" name={name} value={o.value} defaultChecked={sent ? sent.includes(o.value) : initially(o.value)} />{' '}
            {o.label ?? o.value}
          </label>
        ))}
      </div>
      {hint && <p className="hint">{hint}</p>}
      {error && (
        <p className="error" id={errorId}>
          {error}
        </p>
      )}
    </fieldset>
  );
}
