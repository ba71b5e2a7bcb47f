/** Pages reached without a menu entry that still get a tab (always-allowed pages): page name → title key. */
export const extraTabPages: Record<string, 'autoLogin.title'> = { setting_auto_login: 'autoLogin.title' };
