/** Where the session token and user name are kept (000 §4.5: local storage with remember-me). */
export const tokenKey = 'token';
export const userNameKey = 'user_name';

export const readToken = (): string | null => sessionStorage.getItem(tokenKey) ?? localStorage.getItem(tokenKey);

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
