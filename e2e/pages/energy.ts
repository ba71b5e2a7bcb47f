import { expect, type Page } from '@playwright/test';
import { choose, chooseSite, openList } from './pickers.ts';
import { FormDialog } from './resource-list.ts';

/** The energy pages: each shows one site over a time range chosen in its filters. */
export class Energy {
  constructor(readonly page: Page) {}

  /** Opens an energy page and shows a site over a time range, as its two filters do. */
  async show(url: string, site: string, range = '最近7天') {
    await this.page.goto(url);
    await this.range(range);
    await this.site(site);
  }

  async range(name: string) {
    await choose(this.page, this.page.getByLabel(/^(时间范围|Time range)$/), name);
  }

  async site(name: string) {
    await chooseSite(this.page, this.page.getByLabel(/^(站点|Site)$/), name);
  }

  /**
   * Adds a meter on /setting_energy: a counter item of a device in a site, its category and, for
   * an IT load, where it measures (The Green Grid's PUE category).
   */
  async addMeter(meter: { name: string; site: string; device: string; item: string; category: string; at?: string }) {
    await this.page.getByRole('button', { name: '添加电表' }).click();
    const dialog = new FormDialog(this.page);
    await dialog.field('电表名称').fill(meter.name);
    await chooseSite(this.page, dialog.field('所属站点'), meter.site);
    // The device picker is searched, as a person does in a long list.
    await dialog.field('设备').fill(meter.device);
    await openList(this.page).locator(`.ant-select-item-option[title="${meter.site} / ${meter.device}"]`).click();
    await choose(this.page, dialog.field('监控项'), meter.item);
    await choose(this.page, dialog.field('分类'), meter.category);
    if (meter.at) await choose(this.page, dialog.field('测量点 (The Green Grid)'), meter.at);
    await dialog.save();
    await expect(this.page.getByRole('row', { name: new RegExp(meter.name) })).toBeVisible();
  }
}
