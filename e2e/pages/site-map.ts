import { expect, type Locator, type Page } from '@playwright/test';

/** The site-map editor (/groupmap_edit): the component list, the canvas, the toolbar's commands. */
export class SiteMapEditor {
  readonly canvas: Locator;
  constructor(readonly page: Page) {
    this.canvas = page.getByTestId('editor-canvas');
  }

  /** The canvas's components, of one kind or all. */
  components(kind?: string): Locator {
    return this.canvas.locator(kind ? `[data-kind="${kind}"]` : '[data-kind]');
  }

  /** Adds a component of a kind from the list (it lands at the centre of the canvas). */
  async add(kind: string) {
    await this.page.getByTestId('component-list').locator(`[data-add="${kind}"]`).click();
  }

  /** Drags on the canvas from one point to another, in canvas pixels. */
  async drag(from: [number, number], to: [number, number]) {
    const box = (await this.page.getByTestId('site-scene').first().boundingBox())!;
    await this.page.mouse.move(box.x + from[0], box.y + from[1]);
    await this.page.mouse.down();
    await this.page.mouse.move(box.x + (from[0] + to[0]) / 2, box.y + (from[1] + to[1]) / 2, { steps: 4 });
    await this.page.mouse.move(box.x + to[0], box.y + to[1], { steps: 4 });
    await this.page.mouse.up();
  }

  /** A toolbar command by its id (undo, redo, save, alignTop, group …). */
  command(id: string): Locator {
    return this.page.locator(`[data-command="${id}"]`);
  }

  async save() {
    await this.command('save').click();
    await expect(this.page.getByText(/^(保存成功！|Saved!)$/)).toBeVisible();
  }

  /** What the canvas shows, component by component: kind, box and text (ids and order aside). */
  drawing() {
    return this.canvas.locator('[data-id]').evaluateAll((els) =>
      els
        .map((el) => {
          const e = el as HTMLElement;
          return [e.dataset.kind, e.style.left, e.style.top, e.style.width, e.style.height, e.textContent].join(' ');
        })
        .sort(),
    );
  }
}
