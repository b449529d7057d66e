import Link from 'next/link';
import type { InputHTMLAttributes, ReactNode } from 'react';

/**
 * Links that narrow a list to one value, the first (`all`) to the whole list; the one shown is
 * marked current. `href()` is the whole list's address, `href(value)` the narrowed one's.
 */
export function FilterLinks<V extends string>({
  label,
  all,
  values,
  current,
  href,
  name = (value) => value,
}: {
  label: string;
  all: string;
  values: readonly V[];
  current?: V;
  href: (value?: V) => string;
  name?: (value: V) => ReactNode;
}) {
  return (
    <nav className="range" aria-label={label}>
      <Link href={href()} aria-current={current ? undefined : 'true'}>
        {all}
      </Link>
      {values.map((v) => (
        <Link key={v} href={href(v)} aria-current={current === v ? 'true' : undefined}>
          {name(v)}
        </Link>
      ))}
    </nav>
  );
}

/** A choice of a list's filter form; its first option, `any`, sets no filter. */
export function FilterSelect({
  label,
  name,
  value,
  any = 'Any',
  options,
}: {
  label: ReactNode;
  name: string;
  value?: string;
  any?: string;
  options: readonly (string | { value: string; label: ReactNode })[];
}) {
  return (
    <label>
      {label}
      <select name={name} defaultValue={value ?? ''}>
        <option value="">{any}</option>
        {options.map((o) =>
          typeof o === 'string' ? (
            <option key={o}>{o}</option>
          ) : (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ),
        )}
      </select>
    </label>
  );
}

/** A typed value of a list's filter form (a text input unless `type` says otherwise), shown as it was asked. */
export function FilterInput({ label, value, ...input }: { label: ReactNode; name: string; value?: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label>
      {label}
      <input type="text" {...input} defaultValue={value ?? ''} />
    </label>
  );
}
