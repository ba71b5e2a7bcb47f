import { expect, type Locator, type Page } from '@playwright/test';
import { chooseSite } from './pickers.ts';

/** The electrical safety pages: the meters' monitor, the distribution diagram and its switches. */
export class ElectricalSafety {
  constructor(readonly page: Page) {}

  /** The monitor of one room's meters, picked in its site picker. */
  async monitor(site: string) {
    await this.page.goto('/energy_manage/elect_monitor');
    await chooseSite(this.page, this.page.getByTestId('elect-monitor-page').getByRole('combobox').first(), site);
  }

  /** A reading's cell of a monitor row (`ua` … `ic`, `p`, `pf`, `vu`, `iu`, `thd`, `f`). */
  monitorCell(row: Locator, key: string): Locator {
    return row.locator(`td[data-col="${key}"]`);
  }

  /** How far the monitor's table is wider than its box (px; 0 or less: it fits without scrolling). */
  async monitorOverflow() {
    return this.page
      .getByTestId('elect-monitor-page')
      .locator('.ant-table-content, .ant-table-body')
      .first()
      .evaluate((el) => el.scrollWidth - el.clientWidth);
  }

  /** A switch of the distribution diagram, by its item id. */
  switch(itemId: number): Locator {
    return this.page.getByTestId(`switch-${itemId}`);
  }

  /** Clicks a closed switch and tries to open it with this verification password. */
  async openSwitch(itemId: number, password: string) {
    const dialog = this.page.getByRole('dialog', { name: '开关分闸' });
    if (!(await dialog.isVisible())) await this.switch(itemId).click();
    await dialog.getByLabel('开关操作验证密码').fill(password);
    await dialog.getByRole('button', { name: /^分 ?闸$/ }).click();
    return dialog;
  }

  /** The settings drawer of /electricity_safe/switch_opt. */
  async settings() {
    await this.page.getByRole('button', { name: '用电安全设置' }).click();
    const drawer = this.page.getByRole('dialog', { name: '用电安全设置' });
    await expect(drawer).toBeVisible();
    return drawer;
  }
}
