import { useLayoutEffect, useRef, useState, type CSSProperties } from 'react';
import { makeStyles, tokens } from '@fluentui/react-components';
import type { Bar } from './format';

const useStyles = makeStyles({
  root: { width: '100%', overflowX: 'auto' },
  // Many users scroll inside the card.
  rows: { width: '100%', maxHeight: '360px', overflowY: 'auto', overflowX: 'hidden' },
  svg: { display: 'block' },
});

/** The container's width in pixels (followed on resize), so the chart is drawn at its real size. */
const useWidth = (fallback: number) => {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setWidth(el.clientWidth > 0 ? el.clientWidth : fallback);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [fallback]);
  return { ref, width };
};

const textStyle: CSSProperties = { fill: tokens.colorNeutralForeground2, fontSize: '11px', fontFamily: tokens.fontFamilyBase };
const barStyle: CSSProperties = { fill: tokens.colorBrandBackground };
const gridStyle: CSSProperties = { stroke: tokens.colorNeutralStroke2 };

/** Gridline values: 0, the middle and the top, whole numbers only. */
const ticks = (max: number) => [...new Set([0, Math.round(max / 2), max])];

const clip = (label: string, length: number) => (label.length > length ? `${label.slice(0, length - 1)}…` : label);

interface ChartProps {
  bars: readonly Bar[];
  /** The chart's accessible name. */
  label: string;
  /** Shown when every bar is 0. */
  empty: string;
}

function EmptyNote({ x, y, text }: { x: number; y: number; text: string }) {
  return (
    <text x={x} y={y} textAnchor="middle" style={{ ...textStyle, fontSize: '13px' }}>
      {text}
    </text>
  );
}

/**
 * Vertical bars in plain SVG (no chart library), for hours and days: each bar scaled to the largest
 * value, the value above it, its label under it (slanted when crowded), the full label in a tooltip.
 * Too many bars for the width scroll sideways.
 */
export function ColumnChart({ bars, label, empty }: ChartProps) {
  const styles = useStyles();
  const { ref, width: available } = useWidth(480);
  const height = 240;
  const [top, bottom, left, right] = [18, 44, 36, 8];
  const width = Math.max(available, left + right + bars.length * 20);
  const plotWidth = width - left - right;
  const plotHeight = height - top - bottom;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const slot = plotWidth / Math.max(1, bars.length);
  const slanted = slot < 36;
  const y = (value: number) => top + plotHeight - (value / max) * plotHeight;
  const total = bars.reduce((sum, b) => sum + b.value, 0);

  return (
    <div className={styles.root} ref={ref}>
      <svg className={styles.svg} width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label}>
        {ticks(max).map((tick) => (
          <g key={tick}>
            <line x1={left} x2={width - right} y1={y(tick)} y2={y(tick)} style={gridStyle} />
            <text x={left - 6} y={y(tick) + 4} textAnchor="end" style={textStyle}>
              {tick}
            </text>
          </g>
        ))}
        {bars.map((bar, i) => {
          const cx = left + i * slot + slot / 2;
          const barTop = y(bar.value);
          const labelY = top + plotHeight + 14;
          return (
            <g key={`${bar.title}-${i}`} data-testid="chart-bar" data-value={bar.value}>
              <rect x={cx - slot * 0.35} y={barTop} width={Math.max(1, slot * 0.7)} height={top + plotHeight - barTop} rx={2} style={barStyle}>
                <title>{`${bar.title}: ${bar.value}`}</title>
              </rect>
              {bar.value > 0 && String(bar.value).length * 7 <= slot ? (
                <text x={cx} y={barTop - 4} textAnchor="middle" style={textStyle}>
                  {bar.value}
                </text>
              ) : null}
              <text
                x={cx}
                y={labelY}
                textAnchor={slanted ? 'end' : 'middle'}
                transform={slanted ? `rotate(-45 ${cx} ${labelY})` : undefined}
                style={textStyle}
              >
                {clip(bar.label, 10)}
              </text>
            </g>
          );
        })}
        {total === 0 ? <EmptyNote x={left + plotWidth / 2} y={top + plotHeight / 2} text={empty} /> : null}
      </svg>
    </div>
  );
}

/**
 * Horizontal bars in plain SVG, for people: one row per item with its name on the left, so any number
 * of users and long names stay readable.
 */
export function RowChart({ bars, label, empty }: ChartProps) {
  const styles = useStyles();
  const { ref, width: available } = useWidth(480);
  const row = 24;
  const [top, bottom, left, right] = [4, 4, 140, 40];
  const width = Math.max(available, 320);
  const plotWidth = width - left - right;
  const height = Math.max(80, top + bottom + bars.length * row);
  const max = Math.max(1, ...bars.map((b) => b.value));
  const total = bars.reduce((sum, b) => sum + b.value, 0);

  return (
    <div className={styles.rows} ref={ref}>
      <svg className={styles.svg} width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label}>
        <line x1={left} x2={left} y1={top} y2={height - bottom} style={gridStyle} />
        {bars.map((bar, i) => {
          const y = top + i * row;
          const length = (bar.value / max) * plotWidth;
          return (
            <g key={`${bar.title}-${i}`} data-testid="chart-bar" data-value={bar.value}>
              <text x={left - 8} y={y + row / 2 + 4} textAnchor="end" style={textStyle}>
                {clip(bar.label, 22)}
              </text>
              <rect x={left} y={y + 4} width={Math.max(bar.value > 0 ? 2 : 0, length)} height={row - 8} rx={2} style={barStyle}>
                <title>{`${bar.title}: ${bar.value}`}</title>
              </rect>
              <text x={left + length + 6} y={y + row / 2 + 4} style={textStyle}>
                {bar.value}
              </text>
            </g>
          );
        })}
        {total === 0 ? <EmptyNote x={left + plotWidth / 2} y={height / 2 + 4} text={empty} /> : null}
      </svg>
    </div>
  );
}
