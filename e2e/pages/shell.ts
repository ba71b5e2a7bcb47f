import { expect, type Locator, type Page } from '@playwright/test';

/** The console's shell: the side menu, the open-page tabs and the user menu. */
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

  get signedIn(): Locator {
    return this.page.getByTestId('user-menu');
  }

  async expectSignedIn() {
    await expect(this.signedIn).toBeVisible();
  }
}
