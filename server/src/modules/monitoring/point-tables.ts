import { type Language, sharedText } from '@sitewatch/contract';
import type { DeviceTemplateRow } from '@sitewatch/contract/monitoring';
import ExcelJS from 'exceljs';

/**
 * The point tables of the templates as a workbook (002 §7.1 modbus_excel and snmp_excel): one
 * sheet a template, one row a point, so an integrator can check a device's register or OID map.
 */
export const pointTablesWorkbook = async (
  templates: DeviceTemplateRow[],
  kind: 'modbus' | 'snmp',
  lang: Language,
): Promise<Buffer> => {
  const book = new ExcelJS.Workbook();
  const h = (key: string) => sharedText(lang, `monitoring.pointTable.${key}`);
  for (const t of templates) {
    const points = t.items.filter((i) => i.source.kind === kind);
    if (points.length === 0) continue;
    const sheet = book.addWorksheet(`${t.id} ${t.name}`.replace(/[*?:\\/[\]]/g, ' ').slice(0, 31));
    sheet.addRow(
      kind === 'modbus'
        ? [h('name'), h('cell'), h('unit'), h('function'), h('register'), h('dataType'), h('scale')]
        : [h('name'), h('cell'), h('unit'), h('oid'), h('scale')],
    );
    for (const p of points) {
      const s = p.source;
      if (s.kind === 'modbus')
        sheet.addRow([p.name, p.item_cell_name, p.unit, s.function, s.register, s.data_type, s.scale]);
      else if (s.kind === 'snmp') sheet.addRow([p.name, p.item_cell_name, p.unit, s.oid, s.scale]);
    }
    sheet.getRow(1).font = { bold: true };
  }
  if (book.worksheets.length === 0) book.addWorksheet('-');
  return Buffer.from(await book.xlsx.writeBuffer());
};
