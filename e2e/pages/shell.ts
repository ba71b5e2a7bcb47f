import { expect, type Locator, type Page } from '@playwright/test';

/** The console's shell: the side menu, the open-page tabs, the top bar's pickers and the user menu. */
export class Shell {
  constructor(readonly page: Page) {}

  /** Opens a page through the side menu: its group, then the page, by their texts. */
  async open(...path: (string | RegExp)[]) {
    for (const name of path) await this.page.getByRole('menuitem', { name }).first().click();
  }

  /** The user menu (hover opens it), e.g. to reach API tokens or log out. */
  async userMenu(item: string | RegExp) {
    await this.page.getByTestId('user-menu').hover();
    await this.page.getByRole('menuitem', { name: item }).click();
  }

  /** Switches the interface language with the top bar's picker; the page is then in that language. */
  async language(name: 'English' | '简体中文') {
    const lang = name === 'English' ? 'en-us' : 'zh-cn';
    if ((await this.page.locator('html').getAttribute('lang')) === lang) return;
    await this.page.getByLabel(/^(语言|Language)$/).click();
    // The switch reloads the page: a navigation right after must not race that reload.
    const reloaded = this.page.waitForEvent('load');
    await this.page.getByTitle(name).click();
    await reloaded;
    await expect(this.page.locator('html')).toHaveAttribute('lang', lang);
  }

  /** Switches the theme with the top bar's picker, by the name it shows and the theme's key. */
  async theme(name: string, key: string) {
    await this.page.getByLabel(/^(主题|Theme)$/).click();
    await this.page.getByTitle(name).click();
    await expect(this.page.locator('html')).toHaveAttribute('data-theme', key);
  }

  get signedIn(): Locator {
    return this.page.getByTestId('user-menu');
  }

  async expectSignedIn() {
    await expect(this.signedIn).toBeVisible();
  }
}
