import type { ReactNode } from 'react';

/** One labelled value of a thing's facts (`<dl className="stats">`): its label, then the value. */
export function Fact({ label, testId, className, children }: { label: string; testId?: string; className?: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd data-testid={testId} className={className}>
        {children}
      </dd>
    </div>
  );
}
