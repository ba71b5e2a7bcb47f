/** Where the session token and user name are kept (000 §4.5: local storage with remember-me). */
export const tokenKey = 'token';
export const userNameKey = 'user_name';
/** This browser's auto-login device token: a revocable token, never the password. */
export const deviceTokenKey = 'device_token';
/** Epoch milliseconds of the user's last keyboard or mouse activity (idle logout, 000 §4.9). */
export const lastActivityKey = 'last_activity';
/** Why the last session ended (shown on the login page). */
export const signOutReasonKey = 'sign_out_reason';
/**
 * Why this browser was signed out on purpose, told as good news on the login page (not an error):
 * `restored` after the administrator's own configuration restore, which ends every session.
 */
export const signOutNoticeKey = 'sign_out_notice';
export type SignOutNotice = 'restored';

/** Signs out now and opens the login page, which tells `notice`. */
export const signOutWithNotice = (notice: SignOutNotice) => {
  sessionStorage.setItem(signOutNoticeKey, notice);
  sessionStorage.removeItem(signOutReasonKey);
  clearTokens();
  window.location.assign('/login');
};

export const readToken = (): string | null => sessionStorage.getItem(tokenKey) ?? localStorage.getItem(tokenKey);

export const readUserName = (): string | null =>
  sessionStorage.getItem(userNameKey) ?? localStorage.getItem(userNameKey);

export const tokenIsInSession = (): boolean => sessionStorage.getItem(tokenKey) !== null;

export const storeToken = (token: string, userName: string, remember: boolean) => {
  const store = remember ? localStorage : sessionStorage;
  store.setItem(tokenKey, token);
  store.setItem(userNameKey, userName);
};

export const clearTokens = () => {
  for (const store of [sessionStorage, localStorage]) {
    store.removeItem(tokenKey);
    store.removeItem(userNameKey);
  }
};
