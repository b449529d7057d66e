import { csvFileName, toCsv, type CsvCell } from '@/lib/core/csv';
import type { Breakdown, Overview, Revenue } from './schema';

/**
 * The analytics answers as CSV documents (lib/core/csv.ts): the series of an overview (one record
 * per day) and the items of a breakdown, with one revenue column per currency that occurs.
 */
function currenciesOf(lists: (Revenue | undefined)[]): string[] {
  const all = new Set<string>();
  for (const list of lists) for (const r of list ?? []) all.add(r.currency);
  return [...all].sort();
}

const amountIn = (list: Revenue | undefined, currency: string): CsvCell => list?.find((r) => r.currency === currency)?.amount ?? 0;

/** The series, one record per day; with `total`, a last record `total` of the period's totals. */
export function overviewCsv(o: Overview, { total = false } = {}): { csv: string; fileName: string } {
  const currencies = currenciesOf([...o.series.map((d) => d.revenue), o.totals.revenue]);
  const header = [
    'date',
    'visitors',
    'sessions',
    'page_views',
    'bounce_rate',
    'avg_duration_ms',
    'conversions',
    'new_leads',
    ...currencies.map((c) => `revenue_${c}`),
  ];
  const rows = total ? [...o.series, { ...o.totals, date: 'total' }] : o.series;
  const records = rows.map((d) => [
    d.date,
    d.visitors,
    d.sessions,
    d.page_views,
    d.bounce_rate,
    d.avg_duration_ms,
    d.conversions,
    d.new_leads,
    ...currencies.map((c) => amountIn(d.revenue, c)),
  ]);
  return { csv: toCsv(header, records), fileName: csvFileName('analytics', 'series', o.range.from, o.range.to) };
}

export function breakdownCsv(b: Breakdown): { csv: string; fileName: string } {
  const currencies = currenciesOf(b.items.map((i) => i.revenue));
  const header = [
    'value',
    'visitors',
    'sessions',
    'page_views',
    'bounce_rate',
    'avg_duration_ms',
    'conversions',
    'conversion_rate',
    'clicks',
    'avg_engaged_ms',
    'avg_scroll_depth',
    ...currencies.map((c) => `revenue_${c}`),
  ];
  const records = b.items.map((i) => [
    i.value,
    i.visitors,
    i.sessions,
    i.page_views,
    i.bounce_rate,
    i.avg_duration_ms,
    i.conversions,
    i.conversion_rate,
    i.clicks,
    i.avg_engaged_ms,
    i.avg_scroll_depth,
    ...currencies.map((c) => amountIn(i.revenue, c)),
  ]);
  return { csv: toCsv(header, records), fileName: csvFileName('analytics', b.dimension, b.range.from, b.range.to) };
}
