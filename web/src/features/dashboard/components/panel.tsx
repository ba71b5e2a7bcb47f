import { theme } from 'antd';
import type { CSSProperties, ReactNode } from 'react';

/** Font sizes that follow the root font rule (000 §9: 1rem = 100 px at 1920 wide), never below readable. */
export const fs = {
  small: 'max(11px, 0.13rem)',
  body: 'max(12px, 0.15rem)',
  title: 'max(13px, 0.17rem)',
  big: 'max(18px, 0.3rem)',
  huge: 'max(22px, 0.4rem)',
} as const;

/** A dashboard panel: a titled box in the theme's container colours that fills its grid cell. */
export const Panel = ({
  title,
  extra,
  children,
  testId,
  style,
}: {
  title: ReactNode;
  extra?: ReactNode;
  children: ReactNode;
  testId?: string;
  style?: CSSProperties;
}) => {
  const { token } = theme.useToken();
  return (
    <section
      data-testid={testId}
      style={{
        display: 'flex',
        flexDirection: 'column',
        minHeight: 0,
        minWidth: 0,
        background: token.colorBgContainer,
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadiusLG,
        boxShadow: token.boxShadowTertiary,
        overflow: 'hidden',
        ...style,
      }}
    >
      <header
        style={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: 8,
          padding: '8px 12px',
          borderBottom: `1px solid ${token.colorBorderSecondary}`,
          flexWrap: 'wrap',
        }}
      >
        <h2
          style={{
            margin: 0,
            fontSize: fs.title,
            fontWeight: 600,
            color: token.colorText,
            borderLeft: `3px solid ${token.colorPrimary}`,
            paddingLeft: 8,
            lineHeight: 1.3,
            whiteSpace: 'nowrap',
          }}
        >
          {title}
        </h2>
        {extra}
      </header>
      <div style={{ flex: 1, minHeight: 0, padding: '8px 12px', overflow: 'hidden', position: 'relative' }}>
        {children}
      </div>
    </section>
  );
};
