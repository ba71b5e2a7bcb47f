import { expect, type Locator, type Page } from '@playwright/test';
import { openList } from './pickers.ts';

/** antd spaces the two characters of a Chinese button's name. */
const button = (name: string) => new RegExp(`^${[...name].join(' ?')}$`);
const ok = /OK|确/;

/** An order's dialog (detail, timeline, photos) and the steps its handler and reviewer take. */
export class WorkOrderDialog {
  readonly root: Locator;
  readonly detail: Locator;
  constructor(readonly page: Page) {
    this.root = page.getByRole('dialog').filter({ has: page.getByTestId('work-order-detail') });
    this.detail = this.root.getByTestId('work-order-detail');
  }

  action(name: string): Locator {
    return this.root.getByRole('button', { name: button(name) });
  }

  /** The order number in the title (WO and six digits). */
  async number() {
    return ((await this.root.locator('.ant-modal-title').textContent()) ?? '').match(/WO\d{6}/)![0];
  }

  async receive() {
    await this.action('接收').click();
    await expect(this.detail).toContainText('已接收');
  }

  /** The submit form, open after `submit` when the server refused it. */
  submitDialog() {
    return this.page.getByRole('dialog', { name: '提交' });
  }

  /** Submits with the method; `outcome` picks another result than the default (fixed). */
  async submit(method: string, outcome?: string) {
    await this.action('提交').click();
    const form = this.submitDialog();
    await form.getByLabel('处理方法').fill(method);
    if (outcome) await form.getByText(outcome, { exact: true }).click();
    await form.getByRole('button', { name: ok }).click();
  }

  async pass() {
    await this.action('通过').click();
    await this.page.getByRole('dialog', { name: '通过' }).getByRole('button', { name: ok }).click();
    await expect(this.detail).toContainText('已通过');
  }

  /** Returned (refused) by its handler with a reason. */
  async giveBack(remarks: string) {
    await this.action('退回').click();
    const form = this.page.getByRole('dialog', { name: '退回' });
    await form.getByLabel('备注').fill(remarks);
    await form.getByRole('button', { name: ok }).click();
    await expect(this.detail).toContainText('已退回');
  }

  /** Transferred to another handler, shown by the name the list shows. */
  async transfer(to: string, remarks: string) {
    await this.action('转派').click();
    const form = this.page.getByRole('dialog', { name: '转派' });
    await form.getByRole('combobox', { name: '新处理人' }).click();
    await openList(this.page).getByTitle(to).click();
    await form.getByLabel('备注').fill(remarks);
    await form.getByRole('button', { name: ok }).click();
    await expect(this.detail).toContainText(to);
  }

  async close() {
    await this.root.locator('.ant-modal-close').click();
    await expect(this.root).toBeHidden();
  }
}

/** /work_order: the bell of orders waiting for me, the lists by tab, an order opened by its address. */
export class WorkOrders {
  readonly bell: Locator;
  constructor(readonly page: Page) {
    this.bell = page.getByTestId('work-order-bell');
  }

  /** The bell's count badge (absent at zero). */
  get count(): Locator {
    return this.bell.locator('.ant-badge-count');
  }

  /** Opens an order from the bell's list by a text of its line. */
  async fromBell(text: string) {
    await this.bell.click();
    await this.page.getByTestId('work-order-bell-list').getByText(text).click();
    return new WorkOrderDialog(this.page);
  }

  /** Opens an order by its address: the list's tab (0 mine to handle … 3 all) and its id. */
  async open(tab: number, id: number) {
    await this.page.goto(`/work_order?index=${tab}&id=${id}`);
    return new WorkOrderDialog(this.page);
  }

  /** A list's row of an order, by its description. */
  row(description: string): Locator {
    return this.page.locator('.ant-table tr', { hasText: description });
  }
}
