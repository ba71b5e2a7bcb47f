import { expect, type Locator, type Page } from '@playwright/test';

/** The open list of an antd select (a closed one stays in the page, hidden). */
export const openList = (page: Page) => page.locator('.ant-select-dropdown:visible');

/** Opens a select and picks the option shown with this title. */
export const choose = async (page: Page, select: Locator, title: string) => {
  await select.click();
  await openList(page).locator(`.ant-select-item-option[title="${title}"]`).click();
};

/** Picks a site in a site picker (a tree select) by its name; the list closes. */
export const chooseSite = async (page: Page, picker: Locator, name: string) => {
  await picker.click();
  await openList(page).locator(`.ant-select-tree-node-content-wrapper[title="${name}"]`).click();
  await expect(openList(page)).toHaveCount(0);
};
