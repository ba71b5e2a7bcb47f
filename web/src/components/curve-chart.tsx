import { LineChart, type LineSeriesOption } from 'echarts/charts';
import {
  DataZoomComponent,
  type DataZoomComponentOption,
  GridComponent,
  type GridComponentOption,
  LegendComponent,
  type LegendComponentOption,
  TooltipComponent,
  type TooltipComponentOption,
} from 'echarts/components';
import { type ComposeOption, use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { forwardRef, useEffect, useImperativeHandle } from 'react';
import { useEChart } from './use-echart.ts';

// Only what the curve draws, so the chunk stays small (this file is loaded lazily with the tab).
use([LineChart, GridComponent, TooltipComponent, LegendComponent, DataZoomComponent, CanvasRenderer]);

type Option = ComposeOption<
  LineSeriesOption | GridComponentOption | TooltipComponentOption | LegendComponentOption | DataZoomComponentOption
>;

export interface CurveLine {
  /** Legend name; unique. */
  name: string;
  unit: string;
  /** [epoch ms, value] pairs in time order. */
  data: Array<[number, number]>;
  dashed?: boolean;
  color?: string;
}

export interface CurveColors {
  text: string;
  secondary: string;
  border: string;
  background: string;
}

export interface CurveChartHandle {
  /** The chart as a PNG data URL (twice the screen resolution). */
  png(): string | undefined;
}

const palette = [
  '#1677ff',
  '#52c41a',
  '#fa8c16',
  '#eb2f96',
  '#13c2c2',
  '#722ed1',
  '#faad14',
  '#2f54eb',
  '#a0d911',
  '#f5222d',
];

/**
 * A line chart of curves over time: one y axis per unit (alternating left and right), zoom by the
 * mouse wheel or drag (inside) and by the slider, a legend that hides series, an axis tooltip.
 */
export const CurveChart = forwardRef<
  CurveChartHandle,
  {
    lines: CurveLine[];
    colors: CurveColors;
    noUnit: string;
    height: number;
    /** The chosen range in epoch ms: the time axis spans it, whether or not data covers it. */
    range: [number, number];
  }
>(({ lines, colors, noUnit, height, range }, ref) => {
  // The zoom window (percent of the range) is kept on the element, for people's tools and tests.
  const { box, chart } = useEChart((instance, element) =>
    instance.on('datazoom', () => {
      const zoom = (instance.getOption() as { dataZoom?: Array<{ start?: number; end?: number }> }).dataZoom?.[0];
      if (zoom) element.dataset.zoom = `${Math.round(zoom.start ?? 0)}-${Math.round(zoom.end ?? 100)}`;
    }),
  );

  useImperativeHandle(ref, () => ({
    png: () => chart.current?.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: colors.background }),
  }));

  useEffect(() => {
    const instance = chart.current;
    if (!instance) return;
    // A cartesian grid needs a y axis even before the first answer arrives.
    const units = lines.length ? [...new Set(lines.map((l) => l.unit))] : [''];
    const left = units.filter((_, i) => i % 2 === 0).length;
    const right = units.length - left;
    const unitOf = new Map(lines.map((l) => [l.name, l.unit]));
    const option: Option = {
      color: palette,
      animation: false,
      textStyle: { color: colors.text },
      grid: { top: 56, bottom: 64, left: 16 + left * 56, right: 16 + right * 56, containLabel: false },
      legend: { type: 'scroll', top: 4, textStyle: { color: colors.text }, pageTextStyle: { color: colors.text } },
      tooltip: {
        trigger: 'axis',
        confine: true,
        valueFormatter: undefined,
        formatter: (params) => {
          const list = Array.isArray(params) ? params : [params];
          const first = list[0] as { axisValueLabel?: string } | undefined;
          const rows = list.map((p) => {
            const value = (p.value as [number, number])[1];
            const unit = unitOf.get(p.seriesName ?? '') ?? '';
            return `${p.marker}${p.seriesName}: <b>${value}</b>${unit ? ` ${unit}` : ''}`;
          });
          return [first?.axisValueLabel ?? '', ...rows].join('<br/>');
        },
      },
      xAxis: {
        type: 'time',
        min: range[0],
        max: range[1],
        axisLabel: { color: colors.secondary, hideOverlap: true },
        axisLine: { lineStyle: { color: colors.border } },
      },
      yAxis: units.map((unit, i) => ({
        type: 'value' as const,
        name: unit || noUnit,
        nameTextStyle: { color: colors.secondary },
        position: i % 2 === 0 ? ('left' as const) : ('right' as const),
        offset: Math.floor(i / 2) * 56,
        scale: true,
        alignTicks: true,
        axisLine: { show: true, lineStyle: { color: colors.border } },
        axisLabel: { color: colors.secondary },
        splitLine: { show: i === 0, lineStyle: { color: colors.border, type: 'dashed' as const } },
      })),
      series: lines.map((l) => ({
        type: 'line' as const,
        name: l.name,
        yAxisIndex: Math.max(0, units.indexOf(l.unit)),
        showSymbol: l.data.length < 60,
        symbolSize: 4,
        data: l.data,
        ...(l.color ? { itemStyle: { color: l.color } } : {}),
        lineStyle: {
          width: 1.5,
          ...(l.dashed ? { type: 'dashed' as const } : {}),
          ...(l.color ? { color: l.color } : {}),
        },
      })),
    };
    // Zoom is set up once, so refreshed data keeps the reader's zoom window.
    if (!instance.getOption()) {
      option.dataZoom = [
        { type: 'inside', xAxisIndex: 0, filterMode: 'none' },
        {
          type: 'slider',
          xAxisIndex: 0,
          height: 22,
          bottom: 12,
          filterMode: 'none',
          textStyle: { color: colors.secondary },
          borderColor: colors.border,
        },
      ];
    }
    instance.setOption(option, { replaceMerge: ['series', 'yAxis'] });
  }, [lines, colors, noUnit, range[0], range[1], chart]);

  return <div ref={box} style={{ width: '100%', height }} data-testid="curve-canvas" data-zoom="0-100" />;
});
CurveChart.displayName = 'CurveChart';
