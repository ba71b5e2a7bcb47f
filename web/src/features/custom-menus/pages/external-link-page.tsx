import { isSafeLinkAddress } from '@sitewatch/contract/custom-menus';
import { useQuery } from '@tanstack/react-query';
import { Button, Result, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { frameSandbox, isExternalAddress, linkQuery } from '../api.ts';

/** The frame of an address shown in the main frame: the page's height below the top bar and tabs. */
export const LinkFrame = ({ url, title }: { url: string; title: string }) => (
  <iframe
    title={title}
    src={url}
    sandbox={frameSandbox(url)}
    referrerPolicy="no-referrer"
    data-testid="external-frame"
    style={{ display: 'block', width: '100%', height: 'calc(100vh - 150px)', border: 0 }}
  />
);

/**
 * /external_link?pathUrl= (000 §2.5): an http(s) or /static/ address of a menu entry, in a sandboxed
 * frame of the main frame. The server says whether the caller holds an entry with that address
 * (GET menus/link); any other address, or one of an entry the caller lacks, is the no-permission page.
 */
export const ExternalLinkPage = () => {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const url = params.get('pathUrl') ?? '';
  const valid = isExternalAddress(url) && isSafeLinkAddress(url);
  const link = useQuery({ ...linkQuery(url), enabled: valid });
  if (!valid || link.isError) return <Result status="403" title={t('errors.forbidden')} />;
  if (!link.data) return <Spin />;
  if (link.data.target === '_blank')
    return (
      <Result
        status="info"
        title={link.data.name}
        subTitle={t('customMenusUi.opensInNewTab')}
        extra={
          <Button type="primary" onClick={() => window.open(url, '_blank', 'noopener,noreferrer')}>
            {t('customMenusUi.openInNewTab')}
          </Button>
        }
      />
    );
  return <LinkFrame url={url} title={link.data.name} />;
};
