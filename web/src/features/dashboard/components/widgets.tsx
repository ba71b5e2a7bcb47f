import type { ServiceState } from '@sitewatch/contract/dashboard';
import { Badge, Flex, Progress, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { fs } from './panel.tsx';

/** The small pieces the dashboard's panels are made of: a counter, a service state, a meter, signal bars. */

/**
 * A counter label's font size: the panel's small size, or less when its longest word would not fit
 * the cell's width (a Latin letter is at most about 0.62 em wide; a CJK character 1 em and breaks
 * anywhere, so it counts as a word of one).
 */
const labelSize = (label: string) => {
  const longest = Math.max(1, ...label.split(/\s+/).map((w) => (/[\u3000-\u9fff]/.test(w) ? 1 : w.length * 0.62)));
  return `min(${fs.small}, ${Math.floor((92 / longest) * 10) / 10}cqi)`;
};

export const Stat = ({
  label,
  value,
  color,
  testId,
}: {
  label: string;
  value: number | string;
  color?: string;
  testId?: string;
}) => {
  const { token } = theme.useToken();
  return (
    <div
      style={{
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        padding: '4px 2px',
        borderRadius: token.borderRadius,
        background: token.colorFillQuaternary,
        minWidth: 0,
        // The label's size is measured against the cell's width (cqi below).
        containerType: 'inline-size',
      }}
    >
      <span
        data-testid={testId}
        style={{ fontSize: fs.big, fontWeight: 700, color: color ?? token.colorText, lineHeight: 1.2 }}
      >
        {value}
      </span>
      <span
        style={{
          fontSize: labelSize(label),
          color: token.colorTextSecondary,
          textAlign: 'center',
          // A label longer than its cell wraps between words, never inside one ("Abnorma/l" in English);
          // a word wider than the cell makes the label smaller instead.
          overflowWrap: 'normal',
          wordBreak: 'normal',
          lineHeight: 1.2,
          maxWidth: '100%',
        }}
      >
        {label}
      </span>
    </div>
  );
};

export const ServiceRow = ({
  label,
  state,
  testId,
}: {
  label: string;
  state: ServiceState | undefined;
  testId: string;
}) => {
  const { t } = useTranslation();
  return (
    <Flex justify="space-between" align="center" style={{ fontSize: fs.body }}>
      <span>{label}</span>
      <Badge
        data-testid={testId}
        data-state={state ?? ''}
        status={state === 'running' ? 'success' : state === 'stopped' ? 'error' : 'default'}
        text={state ? t(state === 'running' ? 'homeUi.running' : 'homeUi.stopped') : '—'}
      />
    </Flex>
  );
};

export const Meter = ({
  label,
  percent,
  detail,
  testId,
}: {
  label: string;
  percent: number | null;
  detail: string;
  testId: string;
}) => {
  const { token } = theme.useToken();
  const color =
    percent === null
      ? undefined
      : percent >= 90
        ? token.colorError
        : percent >= 70
          ? token.colorWarning
          : token.colorPrimary;
  return (
    <div style={{ fontSize: fs.body }}>
      <Flex justify="space-between">
        <span>{label}</span>
        <span data-testid={testId} style={{ color: token.colorTextSecondary }}>
          {detail}
        </span>
      </Flex>
      <Progress percent={percent ?? 0} showInfo={false} size="small" strokeColor={color} style={{ margin: 0 }} />
    </div>
  );
};

/** Signal level bars (000 §4.3): level 0–5 filled bars of five. */
export const SignalBars = ({ level }: { level: number }) => {
  const { token } = theme.useToken();
  return (
    <span
      data-testid="home-signal-level"
      data-level={level}
      style={{ display: 'inline-flex', alignItems: 'flex-end', gap: 2, height: 16 }}
    >
      {[1, 2, 3, 4, 5].map((n) => (
        <span
          key={n}
          style={{
            width: 4,
            height: 3 + n * 2.6,
            background: n <= level ? token.colorSuccess : token.colorFillSecondary,
            borderRadius: 1,
          }}
        />
      ))}
    </span>
  );
};
