import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { type EChartsCoreOption, use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect } from 'react';
import { useEChart } from '../../../components/use-echart.ts';

use([BarChart, LineChart, PieChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

/** One ECharts chart of an energy page; a new option replaces the old one whole. */
export const EnergyChart = ({
  option,
  height = 280,
  testId,
}: {
  option: EChartsCoreOption | null;
  height?: number;
  testId?: string;
}) => {
  const { box, chart } = useEChart();
  useEffect(() => {
    // No animation: a figure is read, and a picture of the page shows what it says at once.
    if (option) chart.current?.setOption({ animation: false, ...option }, { notMerge: true });
  }, [option, chart]);
  return <div ref={box} style={{ height }} data-testid={testId} />;
};
