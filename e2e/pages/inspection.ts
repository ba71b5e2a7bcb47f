import { expect, type Locator, type Page } from '@playwright/test';

/** An inspection round (/polling_main) and its report (/polling_main_detail). */
export class Inspection {
  readonly status: Locator;
  constructor(readonly page: Page) {
    this.status = page.getByTestId('inspection-status');
  }

  /** Starts a round of a site: its items with their live values. */
  async walk(site: string) {
    await this.page.goto('/polling_main');
    await this.page.getByTestId('inspection-page').getByRole('combobox').first().click();
    await this.page.locator('.ant-select-tree-title', { hasText: site }).click();
  }

  /** A row of the round or of its report, by its item. */
  row(item: string, within: Locator = this.page.locator('body')): Locator {
    return within.locator('tr', { has: this.page.getByRole('cell', { name: item }) });
  }

  /** Submits the round with its summary; its report opens, waiting for review. */
  async submit(summary: string) {
    await this.page.getByRole('textbox', { name: '巡检总结' }).fill(summary);
    await this.page.getByTestId('inspection-submit').click();
    await expect(this.page).toHaveURL(/\/polling_main_detail\?id=\d+/);
    await expect(this.status).toHaveText('待审核');
  }

  /** The reviewer passes the report with an opinion. */
  async pass(opinion: string) {
    await this.page.getByRole('textbox', { name: '审核意见' }).fill(opinion);
    await this.page.getByRole('button', { name: /^通\s*过$/ }).click();
    await expect(this.status).toHaveText('已通过');
  }
}
