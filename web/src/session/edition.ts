/**
 * What the login page and top bar show of the edition (000 §2.1, §3 edition information). The
 * licence issue brings the edition data from the server; until then these defaults apply.
 */
export interface EditionInfo {
  company: string;
  sys_name: string;
  sys_show: boolean;
  support_show: boolean;
  sys_info_show: boolean;
  filing_display: boolean;
  filing_info: string;
}

export const defaultEdition: EditionInfo = {
  company: '',
  sys_name: '',
  sys_show: true,
  support_show: false,
  sys_info_show: false,
  filing_display: false,
  filing_info: '',
};
