import { LineChart, type LineSeriesOption } from 'echarts/charts';
import {
  GridComponent,
  type GridComponentOption,
  LegendComponent,
  type LegendComponentOption,
  TooltipComponent,
  type TooltipComponentOption,
} from 'echarts/components';
import { type ComposeOption, use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { useEChart } from '../../../components/use-echart.ts';

use([LineChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

type Option = ComposeOption<LineSeriesOption | GridComponentOption | TooltipComponentOption | LegendComponentOption>;

export interface EnvLine {
  name: string;
  unit: string;
  color: string;
  /** [epoch ms, value] in time order, one decimal. */
  data: Array<[number, number]>;
}

export interface ChartColors {
  text: string;
  secondary: string;
  border: string;
}

/**
 * Temperature and humidity over time: one y axis per unit, an axis tooltip with one decimal.
 * `onDrawn` is called after each drawing (the page's readiness mark waits for the first).
 */
export const EnvChart = ({
  lines,
  colors,
  onDrawn,
}: {
  lines: EnvLine[];
  colors: ChartColors;
  onDrawn?: (() => void) | undefined;
}) => {
  const drawn = useRef(onDrawn);
  drawn.current = onDrawn;
  const { box, chart } = useEChart((instance) => instance.on('finished', () => drawn.current?.()));

  useEffect(() => {
    const instance = chart.current;
    if (!instance) return;
    const units = [...new Set(lines.map((l) => l.unit))];
    const option: Option = {
      animation: false,
      textStyle: { color: colors.text },
      grid: { top: 36, bottom: 24, left: 48, right: 48 },
      legend: { top: 0, textStyle: { color: colors.text }, itemHeight: 8 },
      tooltip: {
        trigger: 'axis',
        confine: true,
        valueFormatter: (v) => (typeof v === 'number' ? v.toFixed(1) : String(v ?? '')),
      },
      xAxis: {
        type: 'time',
        axisLabel: { color: colors.secondary, hideOverlap: true },
        axisLine: { lineStyle: { color: colors.border } },
      },
      yAxis: units.map((unit, i) => ({
        type: 'value' as const,
        name: unit,
        nameTextStyle: { color: colors.secondary },
        position: i === 0 ? ('left' as const) : ('right' as const),
        scale: true,
        // One decimal is shown (000 §9): ticks closer than 0.1 would repeat a label.
        minInterval: 0.1,
        axisLabel: { color: colors.secondary, formatter: (v: number) => v.toFixed(1) },
        splitLine: { show: i === 0, lineStyle: { color: colors.border, type: 'dashed' as const } },
      })),
      series: lines.map((l) => ({
        type: 'line' as const,
        name: l.name,
        yAxisIndex: Math.max(0, units.indexOf(l.unit)),
        showSymbol: false,
        smooth: false,
        data: l.data,
        itemStyle: { color: l.color },
        lineStyle: { width: 1.5, color: l.color },
        areaStyle: { color: l.color, opacity: 0.08 },
      })),
    };
    instance.setOption(option, { replaceMerge: ['series', 'yAxis'] });
  }, [lines, colors, chart]);

  const points = lines.reduce((n, l) => n + l.data.length, 0);
  return <div ref={box} style={{ width: '100%', height: '100%' }} data-testid="home-curve" data-points={points} />;
};
