import type { SwitchRow } from '@sitewatch/contract/electrical-safety';
import { theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { switchColor, switchStateKey } from './labels.ts';

const pitch = 120;
const bus = 36;

/**
 * A device's single-line diagram: its busbar and one feeder per switch, each drawn closed (blade on
 * the line), open (blade lifted) or unknown (dashed). A switch that may be operated is a button.
 */
export const SwitchDiagram = ({
  deviceName,
  switches,
  onOperate,
}: {
  deviceName: string;
  switches: SwitchRow[];
  /** Absent: the caller may not operate switches here. */
  onOperate?: ((s: SwitchRow) => void) | undefined;
}) => {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const width = Math.max(260, switches.length * pitch + 40);
  return (
    <svg
      width={width}
      height={210}
      viewBox={`0 0 ${width} 210`}
      role="img"
      aria-label={deviceName}
      style={{ display: 'block', maxWidth: '100%' }}
    >
      <line x1={12} y1={bus} x2={width - 12} y2={bus} stroke={token.colorText} strokeWidth={5} />
      <text x={14} y={bus - 12} fontSize={12} fill={token.colorTextSecondary}>
        {deviceName}
      </text>
      {switches.map((s, i) => {
        const x = 70 + i * pitch;
        const color = switchColor[s.switch_state];
        const operable = Boolean(onOperate && s.writable);
        const label = `${s.name}: ${t(switchStateKey(s.switch_state))}`;
        const body = (
          <>
            <title>{label}</title>
            <rect x={x - 50} y={bus + 4} width={100} height={165} fill="transparent" />
            <line x1={x} y1={bus} x2={x} y2={78} stroke={token.colorText} strokeWidth={2} />
            <circle cx={x} cy={80} r={3} fill={color} />
            {s.switch_state === 'on' ? (
              <line x1={x} y1={80} x2={x} y2={122} stroke={color} strokeWidth={4} />
            ) : (
              <line
                x1={x}
                y1={122}
                x2={x + 24}
                y2={86}
                stroke={color}
                strokeWidth={4}
                strokeDasharray={s.switch_state === 'unknown' ? '5 4' : undefined}
              />
            )}
            <circle cx={x} cy={124} r={3} fill={color} />
            <line x1={x} y1={126} x2={x} y2={150} stroke={token.colorText} strokeWidth={2} />
            <path d={`M ${x - 6} 146 L ${x} 156 L ${x + 6} 146`} fill="none" stroke={token.colorText} strokeWidth={2} />
            <text x={x} y={176} fontSize={12} textAnchor="middle" fill={token.colorText}>
              {s.name.length > 14 ? `${s.name.slice(0, 13)}…` : s.name}
            </text>
            <text x={x} y={196} fontSize={12} textAnchor="middle" fill={color} fontWeight={600}>
              {t(switchStateKey(s.switch_state))}
            </text>
          </>
        );
        const common = { 'data-testid': `switch-${s.item_id}`, 'data-state': s.switch_state };
        if (!operable)
          return (
            <g key={s.item_id} {...common}>
              {body}
            </g>
          );
        return (
          // biome-ignore lint/a11y/useSemanticElements: an SVG group cannot be a <button>; it takes the role and the keys.
          <g
            key={s.item_id}
            {...common}
            role="button"
            tabIndex={0}
            aria-label={label}
            style={{ cursor: 'pointer' }}
            onClick={() => onOperate?.(s)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' || e.key === ' ') onOperate?.(s);
            }}
          >
            {body}
          </g>
        );
      })}
    </svg>
  );
};
