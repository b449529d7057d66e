import type { ChangeEvent, ReactNode } from 'react';
import { fieldId, type FormNode, type FormValue } from './nodes';

/**
 * The nested form's inputs for one value (./node-input.tsx renders the tree): controlled, each
 * with its label, hint and error tied to it; the editor owns the values and the focus.
 */
export interface EditorCtx {
  errors: Record<string, string>;
  set(path: string, value: FormValue): void;
  /** Moves the focus to an element (or the first field inside it) once the next render is on screen. */
  focusLater(id: string): void;
}

/** The props of a node's input: the node, its path in the form's value, its value, the editor. */
export interface NodeProps<N extends FormNode = FormNode> {
  node: N;
  path: string;
  value: FormValue | undefined;
  ctx: EditorCtx;
}

export function ErrorText({ path, ctx }: { path: string; ctx: EditorCtx }) {
  const message = ctx.errors[path];
  return message ? (
    <p className="error" id={`${fieldId(path)}-error`}>
      {message}
    </p>
  ) : null;
}

export function describedBy(path: string, node: { hint?: string }, ctx: EditorCtx) {
  const id = fieldId(path);
  return [node.hint ? `${id}-hint` : '', ctx.errors[path] ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
}

export function Hint({ path, node }: { path: string; node: { hint?: string } }) {
  return node.hint ? (
    <p className="hint" id={`${fieldId(path)}-hint`}>
      {node.hint}
    </p>
  ) : null;
}

export const str = (v: FormValue | undefined) => (typeof v === 'string' ? v : '');
export const arr = (v: FormValue | undefined) => (Array.isArray(v) ? v : []);
export const obj = (v: FormValue | undefined) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v : {});

const humanizeKey = (k: string) => {
  const text = k.replaceAll('_', ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
};

/** One input: text, long text, number, yes/no or a choice, with its label, hint and error. */
export function Leaf({ node, path, value, ctx, label, hideLabel = false }: NodeProps & { label?: string; hideLabel?: boolean }) {
  const id = fieldId(path);
  const invalid = ctx.errors[path] ? true : undefined;
  const common = { id, 'aria-invalid': invalid, 'aria-describedby': describedBy(path, node, ctx) };
  /** What every input of text (a choice, a number, a line, a box) shares: the value as typed, kept in the editor. */
  const typed = {
    ...common,
    value: str(value),
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => ctx.set(path, e.target.value),
  };
  const text = label ?? node.label;
  let input: ReactNode;
  if (node.kind === 'boolean') {
    return (
      <div className="field check">
        <label>
          <input type="checkbox" {...common} checked={value === true} onChange={(e) => ctx.set(path, e.target.checked)} /> {text}
        </label>
        <Hint path={path} node={node} />
        <ErrorText path={path} ctx={ctx} />
      </div>
    );
  }
  if (node.kind === 'choice') {
    const options = node.options.map((o) => [o, humanizeKey(o)]);
    input = (
      <select {...typed}>
        <option value="">— not set —</option>
        {options.map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
    );
  } else if (node.kind === 'text' && node.multiline) {
    input = <textarea {...typed} rows={path === 'about' ? 8 : 3} maxLength={node.maxLength} />;
  } else if (node.kind === 'number') {
    input = <input {...typed} type="number" inputMode={node.integer ? 'numeric' : 'decimal'} step={node.integer ? 1 : 'any'} min={node.min} />;
  } else if (node.kind === 'text') {
    input = <input {...typed} type={node.input} maxLength={node.maxLength} spellCheck={node.input === 'text' ? undefined : false} />;
  }
  return (
    <div className={node.kind === 'text' && node.multiline ? 'field wide' : 'field'}>
      <label htmlFor={id} className={hideLabel ? 'visually-hidden' : undefined}>
        {text}
        {node.required && <span className="required"> (required)</span>}
      </label>
      {input}
      <Hint path={path} node={node} />
      <ErrorText path={path} ctx={ctx} />
    </div>
  );
}
