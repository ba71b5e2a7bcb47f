/** Pages reached without a menu entry that still get a tab (always-allowed pages): page name → title key. */
export const extraTabPages: Record<
  string,
  'autoLogin.title' | 'apiTokens.title' | 'shell.home' | 'customMenusUi.configTitle'
> = {
  setting_auto_login: 'autoLogin.title',
  setting_api_tokens: 'apiTokens.title',
  // The dashboard opened inside the shell (not with fullShow=yes) is a tab like the others.
  home: 'shell.home',
  // The custom menu pages (docs/custom-menus.md); their tabs are kept whatever the menu (000 §2.4).
  config_menu: 'customMenusUi.configTitle',
};
