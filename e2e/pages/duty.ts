import type { Locator, Page } from '@playwright/test';

/** Shift handover (/duty_manage/change_shifts): the form and the records. */
export class Handover {
  readonly records: Locator;
  constructor(readonly page: Page) {
    this.records = page.getByTestId('duty-handover');
  }

  async goto() {
    await this.page.goto('/duty_manage/change_shifts');
    return this;
  }

  /** Hands the shift over to a successor (by the name the picker shows) with what is left to do. */
  async handOver(successor: string, matters: string) {
    await this.page.getByRole('combobox', { name: '接班人' }).click();
    await this.page.getByTitle(successor).click();
    await this.page.getByRole('textbox', { name: '交接事项' }).fill(matters);
    await this.page.getByRole('button', { name: /^交\s*班$/ }).click();
  }

  /** A handover's record, by a text of its matters. */
  record(text: string): Locator {
    return this.records.locator('tr', { hasText: text });
  }
}
