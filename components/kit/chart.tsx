import { scaleLinear, scalePoint } from 'd3-scale';
import { area, line } from 'd3-shape';

export interface ChartSeries {
  name: string;
  values: number[];
}

const W = 720;
const H = 240;
const M = { top: 16, right: 20, bottom: 34, left: 56 };
const COLORS = ['var(--accent)', 'var(--ok)', 'var(--warn)'];

/**
 * A line chart over labelled points (days), drawn on the server as plain SVG: d3-scale places the
 * points and picks round ticks, d3-shape writes the paths. No client JavaScript; every point has a
 * tooltip and the figures are also in a visually hidden table for screen readers.
 */
export function Chart({
  title,
  labels,
  series,
  format = (n: number) => n.toLocaleString('en'),
}: {
  title: string;
  labels: string[];
  series: ChartSeries[];
  format?: (n: number) => string;
}) {
  const max = Math.max(1, ...series.flatMap((s) => s.values));
  const y = scaleLinear()
    .domain([0, max])
    .nice(4)
    .range([H - M.bottom, M.top]);
  const x = scalePoint<number>()
    .domain(labels.map((_, i) => i))
    .range([M.left, W - M.right])
    .padding(0.3);
  const px = (i: number) => x(i) ?? M.left;
  const path = line<number>()
    .x((_, i) => px(i))
    .y((v) => y(v));
  const fill = area<number>()
    .x((_, i) => px(i))
    .y0(y(0))
    .y1((v) => y(v));
  const every = Math.max(1, Math.ceil(labels.length / 7));
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={title} data-chart={title}>
        <title>{title}</title>
        {y.ticks(4).map((t) => (
          <g key={t} className="tick">
            <line x1={M.left} x2={W - M.right} y1={y(t)} y2={y(t)} />
            <text x={M.left - 6} y={y(t)} dy="0.32em" textAnchor="end">
              {format(t)}
            </text>
          </g>
        ))}
        {labels.map((label, i) =>
          i % every === 0 ? (
            <text key={label} className="tick" x={px(i)} y={H - 10} textAnchor="middle">
              {label}
            </text>
          ) : null,
        )}
        {series.map((s, k) => (
          <g key={s.name} className="series" style={{ color: COLORS[k % COLORS.length] }}>
            {k === 0 && <path className="area" d={fill(s.values) ?? undefined} />}
            <path className="line" d={path(s.values) ?? undefined} />
            {s.values.map((v, i) => (
              <circle key={i} cx={px(i)} cy={y(v)} r={labels.length > 60 ? 1.5 : 3}>
                <title>{`${labels[i]}: ${format(v)} ${s.name.toLowerCase()}`}</title>
              </circle>
            ))}
          </g>
        ))}
      </svg>
      {series.length > 1 && (
        <figcaption className="legend">
          {series.map((s, k) => (
            <span key={s.name} style={{ color: COLORS[k % COLORS.length] }}>
              <span aria-hidden="true">●</span> <span className="legend-name">{s.name}</span>
            </span>
          ))}
        </figcaption>
      )}
      {/* A table cannot be narrower than its content: the box around it is what is hidden. */}
      <div className="visually-hidden">
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {series.map((s) => (
                <th key={s.name} scope="col">
                  {s.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {labels.map((label, i) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                {series.map((s) => (
                  <td key={s.name}>{format(s.values[i] ?? 0)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
