import { type ECharts, init } from 'echarts/core';
import { useEffect, useRef } from 'react';

/**
 * An ECharts instance on a box element for the life of the component: it follows the box's size
 * and is disposed with it. `setup` attaches the caller's event handlers once, at creation. Each
 * chart registers only the ECharts parts it draws (`use([...])`), so its lazy chunk stays small.
 */
export const useEChart = (setup?: (instance: ECharts, box: HTMLDivElement) => void) => {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);
  const atCreation = useRef(setup);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const instance = init(element, undefined, { renderer: 'canvas' });
    chart.current = instance;
    atCreation.current?.(instance, element);
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(element);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);
  return { box, chart };
};
