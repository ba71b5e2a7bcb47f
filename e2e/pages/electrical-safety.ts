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

  /**
   * How the overview lays out (issue 38, 1366 × 768): how far the page is wider than the window, the
   * heights of its counter cards (one height: a row of equals), counters whose value runs onto a second
   * line or out of its card, and site names of the by-site table broken over lines.
   */
  async overviewLayout() {
    return this.page.getByTestId('electrical-overview-page').evaluate((root) => {
      const doc = document.scrollingElement!;
      const cards = Array.from(root.querySelectorAll<HTMLElement>('[data-testid^="electrical-stat-"]'));
      const lines = (e: Element) => {
        const range = document.createRange();
        range.selectNodeContents(e);
        return new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top))).size;
      };
      const values = cards.map((c) => c.querySelector('.ant-statistic-content')!);
      return {
        overflow: doc.scrollWidth - doc.clientWidth,
        cardHeights: [...new Set(cards.map((c) => Math.round(c.getBoundingClientRect().height)))],
        // One line of the value's font high (two lines are over twice its size), and inside its card.
        valuesWrapped: values.filter(
          (v) =>
            v.getBoundingClientRect().height > 2 * Number.parseFloat(getComputedStyle(v).fontSize) ||
            v.scrollWidth > v.clientWidth + 1,
        ).length,
        sitesWrapped: Array.from(root.querySelectorAll('.ant-table-tbody tr td:first-child')).filter(
          (td) => lines(td) > 1,
        ).length,
      };
    });
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
