import { labelOf } from '@/components/schema-form/labels';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isScalar = (v: unknown): v is null | boolean | number | string => v === null || ['boolean', 'number', 'string'].includes(typeof v);

/** A value in a sentence: yes/no, a number, the text, "none"; a list or a set of fields by its size. */
function shortValue(value: Json): string {
  if (value === null) return 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number' || typeof value === 'string') return String(value) || '—';
  if (Array.isArray(value)) {
    if (value.length === 0) return 'none';
    if (value.every(isScalar) && value.length <= 5) return value.map((v) => shortValue(v)).join(', ');
    return `${value.length} ${value.length === 1 ? 'item' : 'items'}`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return 'none';
  if (entries.length <= 6 && entries.every(([, v]) => isScalar(v)))
    return entries.map(([k, v]) => `${labelOf(k).toLowerCase()} ${shortValue(v)}`).join(', ');
  return `${entries.length} fields`;
}

/**
 * A run's input or result as a person reads it: its own `summary` lines first when it has them,
 * then each top-level field by its label with a short value; the whole JSON behind "Details".
 */
export function ReadableJson({ value, testId }: { value: unknown; testId: string }) {
  const json = value as Json;
  const summary = json && typeof json === 'object' && !Array.isArray(json) ? json.summary : undefined;
  const lines =
    typeof summary === 'string' ? [summary] : Array.isArray(summary) && summary.every((s) => typeof s === 'string') ? (summary as string[]) : [];
  const fields =
    json && typeof json === 'object' && !Array.isArray(json) ? Object.entries(json).filter(([k]) => !(k === 'summary' && lines.length)) : [];
  return (
    <>
      <div data-testid={`${testId}-summary`}>
        {lines.length > 0 && (
          <ul className="plain-list">
            {lines.map((l, i) => (
              <li key={i}>{l}</li>
            ))}
          </ul>
        )}
        {fields.length > 0 ? (
          <dl className="readable">
            {fields.map(([k, v]) => (
              <div key={k}>
                <dt>{labelOf(k)}</dt>
                <dd>{shortValue(v)}</dd>
              </div>
            ))}
          </dl>
        ) : (
          lines.length === 0 && <p>{json && typeof json === 'object' ? 'Nothing.' : shortValue(json ?? null)}</p>
        )}
      </div>
      <details>
        <summary>Details</summary>
        <pre className="json" data-testid={testId}>
          {JSON.stringify(value, null, 2)}
        </pre>
      </details>
    </>
  );
}
