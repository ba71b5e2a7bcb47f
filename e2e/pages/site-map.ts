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

  /**
   * Where a canvas point is on the page, through the view's zoom and pan (the editor opens fitted,
   * so a canvas pixel is rarely a screen pixel).
   */
  async at(x: number, y: number): Promise<[number, number]> {
    const scene = this.page.getByTestId('site-scene').first();
    const box = (await scene.boundingBox())!;
    const zoom = box.width / (await scene.evaluate((el) => (el as HTMLElement).offsetWidth));
    return [box.x + x * zoom, box.y + y * zoom];
  }

  /** Drags on the canvas from one point to another, in canvas pixels. */
  async drag(from: [number, number], to: [number, number]) {
    const [x0, y0] = await this.at(...from);
    const [x1, y1] = await this.at(...to);
    await this.page.mouse.move(x0, y0);
    await this.page.mouse.down();
    await this.page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, { steps: 4 });
    await this.page.mouse.move(x1, y1, { steps: 4 });
    await this.page.mouse.up();
  }

  /**
   * The editor is fitted: the whole canvas in the visible area, that area clear of the panels on
   * either side, the zoom below 100 % at 1366 × 768.
   */
  async expectFitted() {
    await expect(this.page.getByTestId('editor-viewport')).toHaveAttribute('data-fitted', 'true');
    await expect(this.page.getByTestId('editor-zoom')).not.toHaveText('100%');
    const { viewport, scene } = await this.boxes();
    const panel = (await this.page.getByTestId('editor-panel').boundingBox())!;
    const list = (await this.page.getByTestId('component-list').boundingBox())!;
    expect(viewport.x).toBeGreaterThanOrEqual(list.x + list.width);
    expect(viewport.x + viewport.width).toBeLessThanOrEqual(panel.x + 0.5);
    expect(scene.x).toBeGreaterThanOrEqual(viewport.x);
    expect(scene.y).toBeGreaterThanOrEqual(viewport.y);
    expect(scene.x + scene.width).toBeLessThanOrEqual(viewport.x + viewport.width + 0.5);
    expect(scene.y + scene.height).toBeLessThanOrEqual(viewport.y + viewport.height + 0.5);
  }

  /** The canvas's visible area (between the panels) and the scene's box on the page. */
  async boxes() {
    const viewport = (await this.page.getByTestId('editor-viewport').boundingBox())!;
    const scene = (await this.page.getByTestId('site-scene').first().boundingBox())!;
    return { viewport, scene };
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

/** The colour a locator's text is drawn in, as [r, g, b, a]. */
export const textColour = (locator: Locator) =>
  locator.evaluate((el) => {
    const [r, g, b, a = 1] = getComputedStyle(el)
      .color.match(/[\d.]+/g)!
      .map(Number);
    return [r!, g!, b!, a] as [number, number, number, number];
  });
