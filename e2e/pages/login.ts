import type { Page } from '@playwright/test';
import { adminPassword, enterConsole, loginInBrowser, logoutInBrowser } from '../fixtures/product.ts';

/** The login page as a person meets it; the steps themselves live in fixtures/product.ts. */
export class LoginPage {
  constructor(readonly page: Page) {}

  /** Signs in and goes on from the home dashboard to the console (the menu's first page). */
  async toConsole(userName = 'admin', password = adminPassword) {
    await loginInBrowser(this.page, userName, password);
    await enterConsole(this.page);
  }

  async logout() {
    await logoutInBrowser(this.page);
  }
}
