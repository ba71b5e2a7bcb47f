import { expect, type Locator, type Page } from '@playwright/test';

/** The alarm furniture of the shell (bell, notices) and the /alarm page. */
export class Alarms {
  readonly bell: Locator;
  readonly notices: Locator;
  constructor(readonly page: Page) {
    this.bell = page.getByTestId('alarm-bell');
    this.notices = page.getByTestId('alarm-notices');
  }

  /** The bell's count badge (absent at zero). */
  get count(): Locator {
    return this.bell.locator('.ant-badge-count');
  }

  /** The notice of an alarm in the pop-up panel, by the item it names. */
  notice(item: string): Locator {
    return this.notices.getByTestId('alarm-notice').filter({ hasText: item });
  }

  /** Opens the bell's list. */
  async openBell() {
    await this.bell.click();
    return this.page.getByTestId('alarm-bell-list');
  }

  /** The /alarm page's row of an item's alarm. */
  async row(item: string) {
    await this.page.goto('/alarm');
    return this.page.getByRole('row').filter({ hasText: item });
  }

  async expectCount(n: number, timeout?: number) {
    if (n === 0) await expect(this.count).toHaveCount(0, { timeout });
    else await expect(this.count).toHaveText(String(n), { timeout });
  }
}
