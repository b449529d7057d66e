import type { ReactNode } from 'react';

/** A line above a page's content: what just happened, or with `alert` what was refused. */
export function Notice({ alert = false, children }: { alert?: boolean; children: ReactNode }) {
  return alert ? (
    <p className="form-error" role="alert">
      {children}
    </p>
  ) : (
    <p role="status" className="status">
      {children}
    </p>
  );
}
