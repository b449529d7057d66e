'use client';

import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

/**
 * The chart's keyboard: one tab stop; the arrow keys (Home, End) move from day to day, the day's
 * tooltip shows as it does under the pointer, and a live region reads it out. The days are the
 * `.chart-day` columns the server drew (one set per drawing of the chart).
 */
export function ChartKeys({ label, children }: { label: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [said, setSaid] = useState('');
  const days = () => [...(ref.current?.querySelectorAll<HTMLElement>('.chart-plot:first-child .chart-day') ?? [])];
  function show(index: number | null) {
    for (const day of ref.current?.querySelectorAll<HTMLElement>('.chart-day') ?? []) {
      day.classList.toggle('active', index !== null && day.dataset.day === String(index));
    }
    const day = index === null ? undefined : days()[index];
    setSaid(day?.textContent ?? '');
  }
  const active = () => {
    const found = days().findIndex((d) => d.classList.contains('active'));
    return found < 0 ? null : found;
  };
  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    const n = days().length;
    if (n === 0) return;
    const now = active();
    const next =
      e.key === 'ArrowRight' || e.key === 'ArrowUp'
        ? now === null
          ? n - 1
          : Math.min(n - 1, now + 1)
        : e.key === 'ArrowLeft' || e.key === 'ArrowDown'
          ? now === null
            ? n - 1
            : Math.max(0, now - 1)
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? n - 1
              : e.key === 'Escape'
                ? null
                : undefined;
    if (next === undefined) return;
    e.preventDefault();
    show(next);
  }
  return (
    <div ref={ref} className="chart-keys" tabIndex={0} role="group" aria-label={label} onKeyDown={onKeyDown} onBlur={() => show(null)}>
      {children}
      <p className="visually-hidden" aria-live="polite">
        {said}
      </p>
    </div>
  );
}
