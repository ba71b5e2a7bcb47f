import { expect, type Locator, type Page } from '@playwright/test';

/** antd's OK button, whose two Chinese characters it spaces apart. */
export const okButton = /确\s*定|OK/;

/** An add or edit dialog: fields by their labels, its own OK, a refusal beside a field. */
export class FormDialog {
  readonly root: Locator;
  constructor(readonly page: Page) {
    this.root = page.getByRole('dialog');
  }

  field(label: string | RegExp, options: { exact?: boolean } = {}) {
    return this.root.getByLabel(label, options);
  }

  async fill(values: Record<string, string>) {
    for (const [label, value] of Object.entries(values)) await this.field(label).fill(value);
  }

  /** Opens a select by its label and picks the option shown with this title. */
  async choose(label: string | RegExp, option: string) {
    await this.field(label).click();
    await this.page.locator(`.ant-select-item-option[title="${option}"]`).click();
  }

  async ok() {
    await this.root.getByRole('button', { name: okButton }).click();
  }

  async expectRefused(message: string) {
    await expect(this.root.getByText(message)).toBeVisible();
  }

  /** OK, and the dialog closes: the server took it. */
  async save() {
    await this.ok();
    await expect(this.root).toBeHidden();
  }

  async close() {
    await this.page.keyboard.press('Escape');
  }
}

/**
 * A list page on the resource page (web/src/components/resource-page.tsx) or shaped like it:
 * filters above the table, the add button, a row's edit and delete (with its confirmation).
 */
export class ResourceList {
  constructor(
    readonly page: Page,
    readonly url: string,
  ) {}

  async goto() {
    await this.page.goto(this.url);
    return this;
  }

  /** A text filter that searches on Enter (its placeholder names it). */
  async search(placeholder: string, text: string) {
    const input = this.page.getByPlaceholder(placeholder);
    await input.fill(text);
    await input.press('Enter');
  }

  /** A searchable select filter (the items page's device): types, then picks the option. */
  async pick(label: string | RegExp, option: string) {
    await this.page.getByRole('combobox', { name: label }).fill(option);
    await this.page.locator('.ant-select-item-option', { hasText: option }).click();
  }

  row(name: string | RegExp): Locator {
    return this.page.getByRole('row', { name: typeof name === 'string' ? new RegExp(name) : name }).first();
  }

  cell(name: string): Locator {
    return this.page.getByRole('cell', { name }).first();
  }

  async add(button: string | RegExp) {
    await this.page.getByRole('button', { name: button }).click();
    return new FormDialog(this.page);
  }

  async edit(name: string | RegExp) {
    await this.row(name)
      .getByRole('button', { name: /编\s*辑|Edit/ })
      .click();
    return new FormDialog(this.page);
  }

  /** Deletes a row after its confirmation. */
  async remove(name: string | RegExp) {
    await this.row(name)
      .getByRole('button', { name: /删\s*除|Delete/ })
      .click();
    await this.page.getByRole('tooltip').getByRole('button', { name: okButton }).click();
  }
}
