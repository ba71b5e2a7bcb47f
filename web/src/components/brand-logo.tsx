import type { LogoKind } from '@sitewatch/contract/branding';
import type { CSSProperties } from 'react';
import { logoUrl, useEdition } from '../session/edition.ts';

/**
 * The edition's logo (002 §2.3, §9): the uploaded login or main logo within its recommended box
 * (290x76, 160x60), or the product's own at `fallbackSize` when none is uploaded.
 */
export const BrandLogo = ({
  kind,
  maxHeight,
  fallbackSize,
  style,
}: {
  kind: LogoKind;
  maxHeight: number;
  fallbackSize: number;
  style?: CSSProperties;
}) => {
  const edition = useEdition();
  const uploaded = (kind === 'login' ? edition.login_logo : edition.main_logo).url !== '';
  const maxWidth = kind === 'login' ? 290 : 160;
  return uploaded ? (
    <img
      src={logoUrl(edition, kind)}
      alt={edition.company || edition.sys_name}
      data-testid={`brand-logo-${kind}`}
      style={{ maxHeight, maxWidth, objectFit: 'contain', display: 'block', ...style }}
    />
  ) : (
    <img src={logoUrl(edition, kind)} alt="" width={fallbackSize} height={fallbackSize} style={style} />
  );
};
