import { scaleLinear, scalePoint } from 'd3-scale';
import { area, line } from 'd3-shape';
import { ChartKeys } from './chart-keys';

export interface ChartSeries {
  name: string;
  values: number[];
}

/** A note on one point (an annotation of a day): a marker on the chart, its text in that day's tooltip. */
export interface ChartNote {
  index: number;
  text: string;
}

/** A drawing of the chart: its box (SVG units), margins, and how many labels each axis gets at most. */
interface Frame {
  kind: 'wide' | 'narrow';
  W: number;
  H: number;
  M: { top: number; right: number; bottom: number; left: number };
  xLabels: number;
  yTicks: number;
}

/**
 * Two drawings of one chart: the wide one for screens where the card is wide, the narrow one for
 * phones (console.css shows one of them). Each has its own box, so its text is drawn at about
 * 12 px on the screen, and its own number of labels, so they never run into each other.
 */
const FRAMES: Frame[] = [
  { kind: 'wide', W: 720, H: 240, M: { top: 16, right: 20, bottom: 34, left: 56 }, xLabels: 7, yTicks: 4 },
  { kind: 'narrow', W: 360, H: 220, M: { top: 14, right: 14, bottom: 30, left: 42 }, xLabels: 4, yTicks: 3 },
];
const COLORS = ['var(--accent)', 'var(--ok)', 'var(--warn)'];

/**
 * A line chart over labelled points (days), drawn on the server as plain SVG: d3-scale places the
 * points and picks round ticks, d3-shape writes the paths. Each day is a column: pointing at it
 * (or tapping it) shows its own tooltip with the day and every series' value — CSS only, no
 * JavaScript needed; with JavaScript the arrow keys walk the days once the chart has the focus
 * (ChartKeys). The figures are also in a visually hidden table for screen readers.
 */
export function Chart({
  title,
  labels,
  series,
  format = (n: number) => n.toLocaleString('en'),
  notes = [],
}: {
  title: string;
  labels: string[];
  series: ChartSeries[];
  format?: (n: number) => string;
  notes?: ChartNote[];
}) {
  const max = Math.max(1, ...series.flatMap((s) => s.values));
  const noteOf = (i: number) =>
    notes
      .filter((n) => n.index === i)
      .map((n) => n.text)
      .join(' · ');
  const tip = (i: number) => {
    const figures = series.map((s) => `${format(s.values[i] ?? 0)} ${s.name.toLowerCase()}`).join(', ');
    const note = noteOf(i);
    return note ? `${figures} — ${note}` : figures;
  };
  return (
    <figure className="chart">
      <ChartKeys label={`${title}: use the arrow keys to read each day`}>
        {FRAMES.map((frame) => (
          <Drawing
            key={frame.kind}
            frame={frame}
            title={title}
            labels={labels}
            series={series}
            max={max}
            format={format}
            tip={tip}
            marked={[...new Set(notes.map((n) => n.index))]}
          />
        ))}
      </ChartKeys>
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
              {notes.length > 0 && <th scope="col">Notes</th>}
            </tr>
          </thead>
          <tbody>
            {labels.map((label, i) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                {series.map((s) => (
                  <td key={s.name}>{format(s.values[i] ?? 0)}</td>
                ))}
                {notes.length > 0 && <td>{noteOf(i)}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

function Drawing({
  frame,
  title,
  labels,
  series,
  max,
  format,
  tip,
  marked,
}: {
  frame: Frame;
  title: string;
  labels: string[];
  series: ChartSeries[];
  max: number;
  format: (n: number) => string;
  tip: (i: number) => string;
  /** Points with a note: a dashed line and a flag at the top. */
  marked: number[];
}) {
  const { W, H, M } = frame;
  const y = scaleLinear()
    .domain([0, max])
    .nice(frame.yTicks)
    .range([H - M.bottom, M.top]);
  // Padding 0.5: each point is the middle of an equal column, the columns tile the plot.
  const x = scalePoint<number>()
    .domain(labels.map((_, i) => i))
    .range([M.left, W - M.right])
    .padding(0.5);
  const px = (i: number) => x(i) ?? M.left;
  const path = line<number>()
    .x((_, i) => px(i))
    .y((v) => y(v));
  const fill = area<number>()
    .x((_, i) => px(i))
    .y0(y(0))
    .y1((v) => y(v));
  // Labels counted from the last day (the newest is always named), at most `xLabels` of them.
  const every = Math.max(1, Math.ceil(labels.length / frame.xLabels));
  const last = labels.length - 1;
  const pct = (v: number, of: number) => `${((v / of) * 100).toFixed(3)}%`;
  return (
    <div className={`chart-plot ${frame.kind}`}>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={title} data-chart={frame.kind}>
        {y.ticks(frame.yTicks).map((t) => (
          <g key={t} className="tick">
            <line x1={M.left} x2={W - M.right} y1={y(t)} y2={y(t)} />
            <text x={M.left - 6} y={y(t)} dy="0.32em" textAnchor="end">
              {format(t)}
            </text>
          </g>
        ))}
        {labels.map((label, i) =>
          (last - i) % every === 0 ? (
            <text key={label} className="tick x-label" x={px(i)} y={H - 8} textAnchor="middle">
              {label}
            </text>
          ) : null,
        )}
        {marked
          .filter((i) => i >= 0 && i < labels.length)
          .map((i) => (
            <g key={`note-${i}`} className="chart-note" data-note={i}>
              <line x1={px(i)} x2={px(i)} y1={M.top} y2={H - M.bottom} />
              <path d={`M${px(i)},${M.top - 2} l5,-4 l-5,-4 z`} />
            </g>
          ))}
        {series.map((s, k) => (
          <g key={s.name} className="series" style={{ color: COLORS[k % COLORS.length] }}>
            {k === 0 && <path className="area" d={fill(s.values) ?? undefined} />}
            <path className="line" d={path(s.values) ?? undefined} />
            {s.values.map((v, i) => (
              <circle key={i} cx={px(i)} cy={y(v)} r={labels.length > 60 ? 1.5 : 3} />
            ))}
          </g>
        ))}
      </svg>
      <div className="chart-days" style={{ left: pct(M.left, W), right: pct(M.right, W), top: pct(M.top, H), bottom: pct(M.bottom, H) }}>
        {labels.map((label, i) => (
          <div key={label} className="chart-day" data-day={i}>
            <div className={`chart-tip${i < labels.length / 4 ? ' start' : i > (labels.length * 3) / 4 ? ' end' : ''}`} aria-hidden="true">
              <strong>{label}</strong> {tip(i)}
            </div>
          </div>
        ))}
      </div>
    </div>
  );
}
