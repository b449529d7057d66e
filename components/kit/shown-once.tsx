'use client';

import { useEffect, useRef, useState, type ReactNode } from 'react';
import { CopyButton } from '@/components/copy-button';

/**
 * A credential the server hands back once (a new key, a signing secret): shown with a copy button
 * until the owner says it is stored; the focus moves to it when it appears. `id` tells one
 * credential from the next, so a new one is shown again after the last was hidden.
 */
export function ShownOnce({
  id,
  value,
  title,
  noun,
  testId,
  headingId,
  children,
}: {
  id: string;
  value: string;
  title: ReactNode;
  noun: 'key' | 'secret' | 'recovery codes';
  testId: string;
  headingId: string;
  children: ReactNode;
}) {
  const [dismissed, setDismissed] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const shown = dismissed !== id;
  useEffect(() => {
    if (shown) heading.current?.focus();
  }, [shown, id]);
  if (!shown) return null;
  return (
    <div className="card secret" role="region" aria-labelledby={headingId}>
      <h3 id={headingId} ref={heading} tabIndex={-1}>
        {title}
      </h3>
      <p>
        <strong>Copy it now: you will not see it again.</strong> {children}
      </p>
      <code className="secret-value" data-testid={testId}>
        {value}
      </code>
      <div className="row">
        <CopyButton text={value} label={`Copy ${noun}`} />
        <button type="button" className="button link" onClick={() => setDismissed(id)}>
          I have stored it, hide the {noun}
        </button>
      </div>
    </div>
  );
}
