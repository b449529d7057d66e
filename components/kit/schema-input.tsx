import type { SchemaField } from '@/app/(console)/_lib/schema-form';
import { Field } from '@/components/field';

/** One field of a form generated from a body schema (app/(console)/_lib/schema-form.ts), labelled, with its hint and error. */
export function SchemaInput({ field: f, value, error }: { field: SchemaField; value?: string; error?: string }) {
  const label = f.required ? f.label : `${f.label} (optional)`;
  const id = `field-${f.name}`;
  const described = [f.description && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  const hint = f.description && (
    <p className="hint" id={`${id}-hint`}>
      {f.description}
      {f.kind === 'lines' && ' — one per line'}
      {f.kind === 'json' && ' — a JSON object'}
    </p>
  );
  const err = error && (
    <p className="error" id={`${id}-error`}>
      {error}
    </p>
  );
  const shown = value ?? (Array.isArray(f.defaultValue) ? f.defaultValue.join('\n') : typeof f.defaultValue === 'string' ? f.defaultValue : '');
  switch (f.kind) {
    case 'boolean':
      return (
        <div className="field check-field">
          <label>
            <input type="checkbox" name={f.name} defaultChecked={f.defaultValue === true} aria-describedby={described} /> {f.label}
          </label>
          {hint}
          {err}
        </div>
      );
    case 'select':
      return (
        <div className="field">
          <label htmlFor={id}>{label}</label>
          <select id={id} name={f.name} defaultValue={shown} aria-describedby={described} aria-invalid={error ? true : undefined}>
            {!f.required && <option value="">—</option>}
            {f.options!.map((o) => (
              <option key={o}>{o}</option>
            ))}
          </select>
          {hint}
          {err}
        </div>
      );
    case 'checks': {
      const picked = Array.isArray(f.defaultValue) ? f.defaultValue : [];
      return (
        <fieldset aria-describedby={described}>
          <legend>{label}</legend>
          <div className="checks">
            {f.options!.map((o) => (
              <label key={o}>
                <input type="checkbox" name={f.name} value={o} defaultChecked={picked.includes(o)} /> {o}
              </label>
            ))}
          </div>
          {hint}
          {err}
        </fieldset>
      );
    }
    case 'lines':
    case 'json':
      return (
        <div className="field">
          <label htmlFor={id}>{label}</label>
          <textarea id={id} name={f.name} defaultValue={shown} aria-describedby={described} aria-invalid={error ? true : undefined} />
          {hint}
          {err}
        </div>
      );
    default:
      return (
        <Field name={f.name} label={label} type={f.kind === 'number' ? 'number' : 'text'} defaultValue={shown} hint={f.description} error={error} />
      );
  }
}
