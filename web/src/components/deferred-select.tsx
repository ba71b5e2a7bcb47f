import { DownOutlined } from '@ant-design/icons';
import { theme } from 'antd';
import { type CSSProperties, lazy, Suspense, useState } from 'react';

// antd's Select (with its trigger, virtual list and overflow modules) loads on first use.
const Select = lazy(() => import('antd/es/select'));

type Value = string | number;

export interface DeferredSelectProps<T extends Value> {
  value: T;
  options: { value: T; label: string }[];
  onChange: (value: T) => void;
  'aria-label': string;
  disabled?: boolean;
  size?: 'small' | 'middle';
  style?: CSSProperties;
}

/**
 * A select that draws a look-alike of antd's closed Select and swaps in the real one, open, at the
 * first click or key. Used on the login page (and the pickers it shares with the shell), where the
 * Select's modules would otherwise be a sixth of the page's JavaScript (bench/web.ts).
 */
export const DeferredSelect = <T extends Value>(props: DeferredSelectProps<T>) => {
  const { token } = theme.useToken();
  const [live, setLive] = useState(false);
  const small = props.size === 'small';
  const label = props.options.find((o) => o.value === props.value)?.label ?? String(props.value);
  const facade = (
    <button
      type="button"
      // A closed combobox, as antd's Select presents itself.
      role="combobox"
      aria-expanded={false}
      aria-label={props['aria-label']}
      aria-haspopup="listbox"
      disabled={props.disabled}
      onClick={() => setLive(true)}
      onKeyDown={(e) => {
        if (e.key === 'ArrowDown' || e.key === ' ') setLive(true);
      }}
      style={{
        display: 'inline-flex',
        alignItems: 'center',
        justifyContent: 'space-between',
        gap: 8,
        height: small ? token.controlHeightSM : token.controlHeight,
        padding: `0 ${small ? token.paddingXS : token.paddingSM - 1}px`,
        font: 'inherit',
        fontSize: token.fontSize,
        color: props.disabled ? token.colorTextDisabled : token.colorText,
        background: props.disabled ? token.colorBgContainerDisabled : token.colorBgContainer,
        border: `${token.lineWidth}px solid ${token.colorBorder}`,
        borderRadius: small ? token.borderRadiusSM : token.borderRadius,
        cursor: props.disabled ? 'not-allowed' : 'pointer',
        ...props.style,
      }}
    >
      <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{label}</span>
      <DownOutlined style={{ fontSize: 12, color: token.colorTextQuaternary }} />
    </button>
  );
  if (!live) return facade;
  return (
    <Suspense fallback={facade}>
      <Select
        aria-label={props['aria-label']}
        value={props.value}
        options={props.options}
        onChange={(value) => props.onChange(value as T)}
        {...(props.disabled !== undefined ? { disabled: props.disabled } : {})}
        size={props.size ?? 'middle'}
        {...(props.style ? { style: props.style } : {})}
        defaultOpen
        autoFocus
      />
    </Suspense>
  );
};
