import { type Language, sharedText } from '@sitewatch/contract';
import {
  type DeviceTemplateRow,
  type ItemSource,
  type ItemValues,
  itemInput,
  itemSource,
} from '@sitewatch/contract/monitoring';
import type ExcelJS from 'exceljs';
import type { z } from 'zod';
import { badRequest, type FieldError } from '../../http/errors.ts';
import { sheetWorkbook } from '../../http/xlsx.ts';

/**
 * The point tables of the templates as a workbook (002 §7.1 modbus_excel and snmp_excel): one
 * sheet a template, one row a point, so an integrator can check a device's register or OID map.
 */
export const pointTablesWorkbook = async (
  templates: DeviceTemplateRow[],
  kind: 'modbus' | 'snmp',
  lang: Language,
): Promise<Buffer> => {
  const { default: Excel } = await import('exceljs');
  const book = new Excel.Workbook();
  const h = (key: string) => sharedText(lang, `monitoring.pointTable.${key}`);
  for (const t of templates) {
    const points = t.items.filter((i) => i.source.kind === kind);
    if (points.length === 0) continue;
    const sheet = book.addWorksheet(`${t.id} ${t.name}`.replace(/[*?:\\/[\]]/g, ' ').slice(0, 31));
    sheet.addRow(
      kind === 'modbus'
        ? [
            h('name'),
            h('cell'),
            h('unit'),
            h('function'),
            h('register'),
            h('dataType'),
            h('byteOrder'),
            h('bit'),
            h('scale'),
          ]
        : [h('name'), h('cell'), h('unit'), h('oid'), h('scale')],
    );
    for (const p of points) {
      const s = p.source;
      if (s.kind === 'modbus')
        sheet.addRow([
          p.name,
          p.item_cell_name,
          p.unit,
          s.function,
          s.register,
          s.data_type,
          s.byte_order,
          s.bit,
          s.scale,
        ]);
      else if (s.kind === 'snmp') sheet.addRow([p.name, p.item_cell_name, p.unit, s.oid, s.scale]);
    }
    sheet.getRow(1).font = { bold: true };
  }
  if (book.worksheets.length === 0) book.addWorksheet('-');
  return Buffer.from(await book.xlsx.writeBuffer());
};

// ---------- a device's point table: columns, files, rows (docs/point-tables.md) ----------

type Cell = string | number | boolean | null;
/** What a column's cells hold; `blank` is the value of an empty cell (undefined: not given). */
type CellKind = { type: 'number' | 'string' | 'boolean'; nullable: boolean; blank?: null | '' | undefined };
export interface PointColumn {
  /** The header: the API field name, `source.<field>` for how the point is read. */
  name: string;
  kind: CellKind;
}

/** At most this many points in one file (the same bound as a bulk update). */
export const MAX_POINT_ROWS = 5000;
/** An xlsx file that would unpack to more than this is refused before it is opened (a zip bomb). */
const MAX_UNPACKED_BYTES = 64 * 1024 * 1024;

/** What a cell of a field holds, read from the field's contract schema (so new fields need no code here). */
const cellKind = (schema: z.ZodType): CellKind => {
  let s = schema as unknown as { def: Record<string, unknown> & { type: string } };
  let nullable = false;
  for (;;) {
    const d = s.def;
    if (d.type === 'default' || d.type === 'optional' || d.type === 'nullable' || d.type === 'prefault') {
      if (d.type === 'nullable') nullable = true;
      s = d.innerType as typeof s;
    } else if (d.type === 'pipe') s = d.in as typeof s;
    else break;
  }
  const d = s.def;
  if (d.type === 'number' || d.type === 'int' || d.type === 'bigint') return { type: 'number', nullable };
  if (d.type === 'boolean') return { type: 'boolean', nullable };
  if (d.type === 'literal')
    return { type: typeof (d.values as unknown[])[0] === 'number' ? 'number' : 'string', nullable };
  if (d.type === 'union') {
    const kinds = (d.options as z.ZodType[]).map((o) => cellKind(o).type);
    return { type: kinds.every((k) => k === 'number') ? 'number' : 'string', nullable };
  }
  return { type: 'string', nullable };
};

/** Item fields first that a reader looks for, then how the point is read, then the alarm settings. */
const leadFields = ['name', 'item_cell_name', 'unit', 'value_type', 'telemetry_only'];

/** The columns of a point table of `kind` (Modbus, SNMP, MQTT, simulator), from the contract. */
export const pointColumns = (kind: ItemSource['kind']): PointColumn[] => {
  const fields = itemInput.shape as unknown as Record<string, z.ZodType>;
  const variant = itemSource.options.find((o) => o.shape.kind.value === kind);
  const sourceFields = Object.entries(variant?.shape ?? {}).filter(([k]) => k !== 'kind') as [string, z.ZodType][];
  const rest = Object.keys(fields).filter((k) => k !== 'device_id' && k !== 'source' && !leadFields.includes(k));
  // An empty cell is null where the field may be null (no threshold), '' where the field takes
  // empty text, and otherwise not given (the default, or the item's current value).
  const column = (name: string, schema: z.ZodType): PointColumn => {
    const kind = cellKind(schema);
    const blank = kind.nullable ? null : kind.type === 'string' && schema.safeParse('').success ? '' : undefined;
    return { name, kind: { ...kind, blank } };
  };
  return [
    ...leadFields.map((k) => column(k, fields[k]!)),
    ...sourceFields.map(([k, s]) => column(`source.${k}`, s)),
    ...rest.map((k) => column(k, fields[k]!)),
  ];
};

/** One row of cells for an item, in the order of `columns` (null for no value). */
export const pointRow = (item: ItemValues | Record<string, unknown>, columns: PointColumn[]): Cell[] =>
  columns.map((c) => {
    const v = c.name.startsWith('source.')
      ? (item.source as Record<string, unknown>)[c.name.slice(7)]
      : (item as Record<string, unknown>)[c.name];
    return v === undefined || v === null ? null : (v as Cell);
  });

// Text a spreadsheet would run as a formula gets a leading apostrophe in CSV; the import takes it off.
const formulaStart = /^[=+\-@\t\r]/;
const csvCell = (v: Cell, kind: CellKind) => {
  if (v === null) return '';
  let s = String(v);
  if (kind.type === 'string' && (formulaStart.test(s) || s.startsWith("'"))) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};

/** A point table file: xlsx (one sheet) or CSV (UTF-8 with a byte-order mark, comma, CRLF; RFC 4180). */
export const pointTableFile = async (
  format: 'xlsx' | 'csv',
  sheetName: string,
  columns: PointColumn[],
  rows: Cell[][],
): Promise<Buffer> => {
  if (format === 'xlsx') {
    return sheetWorkbook(
      sheetName,
      columns.map((c) => ({ header: c.name, width: c.name.length > 12 ? c.name.length + 2 : 14 })),
      rows,
    );
  }
  const lines = [
    columns.map((c) => c.name).join(','),
    ...rows.map((r) => r.map((v, i) => csvCell(v, columns[i]!.kind)).join(',')),
  ];
  return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8');
};

/** A file that cannot be read as a point table: a 400 with one message. */
const fileError = (key: string, values: Record<string, string | number> = {}) =>
  badRequest(`monitoring.pointTable.errors.${key}`, values);

/**
 * RFC 4180: quoted fields may hold the separator, quotes ("") and line breaks; a stray quote is an
 * error. The separator is a comma, or a semicolon when the header has semicolons and no comma (what
 * a spreadsheet with a decimal comma saves as CSV).
 */
export const parseCsv = (text: string): string[][] => {
  const headerLine = text.slice(0, text.search(/\r|\n|$/));
  const sep = headerLine.includes(';') && !headerLine.includes(',') ? ';' : ',';
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let wasQuoted = false;
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === '\n') line++;
        field += c;
      }
    } else if (c === '"') {
      if (field !== '' || wasQuoted) throw fileError('csvQuote', { row: line });
      quoted = true;
      wasQuoted = true;
    } else if (c === sep) {
      row.push(field);
      field = '';
      wasQuoted = false;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      wasQuoted = false;
      line++;
      if (rows.length > MAX_POINT_ROWS + 1) throw fileError('tooManyRows', { max: MAX_POINT_ROWS });
    } else {
      if (wasQuoted) throw fileError('csvQuote', { row: line });
      field += c;
    }
  }
  if (quoted) throw fileError('csvQuote', { row: line });
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
};

/** The sum of the unpacked sizes an xlsx (zip) declares in its central directory; null when it has none. */
const unpackedSize = (buf: Buffer): number | null => {
  // The end-of-central-directory record sits in the last 22 + 65535 bytes.
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 65_535); i--) {
    if (buf.readUInt32LE(i) !== 0x06054b50) continue;
    const entries = buf.readUInt16LE(i + 10);
    let at = buf.readUInt32LE(i + 16);
    let total = 0;
    for (let n = 0; n < entries; n++) {
      if (at + 46 > buf.length || buf.readUInt32LE(at) !== 0x02014b50) return null;
      total += buf.readUInt32LE(at + 24);
      at += 46 + buf.readUInt16LE(at + 28) + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
    }
    return total;
  }
  return null;
};

/** ExcelJS cell values (rich text, formulas, links) as plain cells. */
const plainCell = (v: ExcelJS.CellValue): Cell => {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object') {
    if ('richText' in v) return v.richText.map((t) => t.text).join('');
    if ('result' in v) return plainCell((v.result ?? null) as ExcelJS.CellValue);
    if ('text' in v) return String(v.text);
    if ('error' in v) return String(v.error);
  }
  return String(v);
};

/** The rows of an uploaded file, the header first; a file that is not what it claims is a 400. */
export const readPointFile = async (format: 'xlsx' | 'csv', content: string): Promise<Cell[][]> => {
  if (format === 'csv') {
    if (content.includes('\u0000')) throw fileError('notCsv');
    return parseCsv(content.replace(/^\uFEFF/, ''));
  }
  if (!/^[A-Za-z0-9+/\r\n]*={0,2}\s*$/.test(content)) throw fileError('notBase64');
  const buf = Buffer.from(content, 'base64');
  // An xlsx file is a zip archive: PK\x03\x04.
  if (buf.length < 30 || buf.readUInt32LE(0) !== 0x04034b50) throw fileError('notXlsx');
  const unpacked = unpackedSize(buf);
  if (unpacked === null) throw fileError('unreadable');
  if (unpacked > MAX_UNPACKED_BYTES) throw fileError('tooLarge');
  const { default: Excel } = await import('exceljs');
  const book = new Excel.Workbook();
  try {
    await book.xlsx.load(buf as unknown as ArrayBuffer);
  } catch {
    throw fileError('unreadable');
  }
  const sheet = book.worksheets[0];
  if (!sheet) throw fileError('noHeader');
  if (sheet.rowCount > MAX_POINT_ROWS + 1) throw fileError('tooManyRows', { max: MAX_POINT_ROWS });
  const rows: Cell[][] = [];
  for (let r = 1; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    const cells: Cell[] = [];
    for (let c = 1; c <= row.cellCount; c++) cells.push(plainCell(row.getCell(c).value));
    rows.push(cells);
  }
  return rows;
};

/** A row-level problem: the spreadsheet row (the header is row 1), the column, a message key. */
interface RowProblem {
  row: number;
  column: string;
  key: string;
  values?: Record<string, string | number>;
}

const isBlank = (v: Cell) => v === null || (typeof v === 'string' && v.trim() === '');

/** A cell as the value its column takes; `undefined` when a number or flag cell is empty (not given). */
const cellValue = (v: Cell, col: PointColumn): { value?: unknown; problem?: string } => {
  const k = col.kind;
  if (isBlank(v)) return k.blank === undefined ? {} : { value: k.blank };
  if (k.type === 'number') {
    if (typeof v === 'number') return Number.isFinite(v) ? { value: v } : { problem: 'notNumber' };
    const s = String(v).trim();
    // Strict: no thousands separators, no decimal commas, no hex (the issue's "12,5" and "0x1A").
    if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(s)) return { problem: 'notNumber' };
    const n = Number(s);
    return Number.isFinite(n) ? { value: n } : { problem: 'notNumber' };
  }
  if (k.type === 'boolean') {
    if (typeof v === 'boolean') return { value: v };
    const s = String(v).trim().toLowerCase();
    if (['true', '1', 'yes'].includes(s)) return { value: true };
    if (['false', '0', 'no'].includes(s)) return { value: false };
    return { problem: 'notBoolean' };
  }
  const s = String(v);
  // The apostrophe a CSV export put before formula-like text.
  return { value: /^'[=+\-@\t\r']/.test(s) ? s.slice(1) : s };
};

/** A zod issue as a message key and values (contract messages are keys; zod's own are mapped). */
const issueText = (issue: z.core.$ZodIssue): { key: string; values?: Record<string, string | number> } => {
  if (issue.message.startsWith('monitoring.')) return { key: issue.message };
  switch (issue.code) {
    case 'too_big':
      return { key: 'monitoring.pointTable.errors.tooBig', values: { max: String(issue.maximum) } };
    case 'too_small':
      return { key: 'monitoring.pointTable.errors.tooSmall', values: { min: String(issue.minimum) } };
    case 'invalid_value':
      return { key: 'monitoring.pointTable.errors.oneOf', values: { values: issue.values.join(', ') } };
    case 'invalid_type':
      return {
        key:
          issue.input === undefined ? 'monitoring.pointTable.errors.required' : 'monitoring.pointTable.errors.invalid',
      };
    default:
      return { key: 'monitoring.pointTable.errors.invalid' };
  }
};

export interface ParsedPoint {
  /** The spreadsheet row. */
  row: number;
  /** The existing item the row updates, or null when it creates one. */
  itemId: number | null;
  values: ItemValues;
}

/**
 * Reads the rows of a point table into items of one device: a row whose name is an item of the
 * device updates it (columns left out keep their values), any other row adds an item. Every
 * problem of every row is collected; any problem refuses the whole file (nothing is changed).
 */
export const parsePointRows = (
  rows: Cell[][],
  kind: ItemSource['kind'],
  deviceId: number,
  existing: Array<{ id: number; values: ItemValues }>,
  lang: Language,
  /** Whether a location may be an item's on this device (its site or under it: issue 38). */
  locationFits: (locationId: number) => boolean = () => true,
): ParsedPoint[] => {
  const columns = new Map(pointColumns(kind).map((c) => [c.name, c]));
  const problems: RowProblem[] = [];
  const header = (rows[0] ?? []).map((h) => (h === null ? '' : String(h).trim()));
  while (header.length > 0 && header[header.length - 1] === '') header.pop();
  if (header.length === 0) throw fileError('noHeader');
  header.forEach((h, i) => {
    if (!columns.has(h)) problems.push({ row: 1, column: h || `#${i + 1}`, key: 'unknownColumn' });
    else if (header.indexOf(h) !== i) problems.push({ row: 1, column: h, key: 'duplicateColumn' });
  });
  if (!header.includes('name')) problems.push({ row: 1, column: 'name', key: 'missingColumn' });
  if (problems.length) throw rowsError(problems, lang);

  const byName = new Map<string, Array<{ id: number; values: ItemValues }>>();
  for (const e of existing) byName.set(e.values.name, [...(byName.get(e.values.name) ?? []), e]);
  const seen = new Map<string, number>();
  const out: ParsedPoint[] = [];
  for (let r = 1; r < rows.length; r++) {
    const cells = rows[r]!;
    if (cells.every(isBlank)) continue;
    const rowNo = r + 1;
    const given: Record<string, unknown> = {};
    const source: Record<string, unknown> = {};
    header.forEach((h, i) => {
      const col = columns.get(h)!;
      const got = cellValue(cells[i] ?? null, col);
      if (got.problem) problems.push({ row: rowNo, column: h, key: got.problem });
      else if ('value' in got) (h.startsWith('source.') ? source : given)[h.replace(/^source\./, '')] = got.value;
    });
    const name = typeof given.name === 'string' ? given.name.trim() : '';
    const first = seen.get(name);
    if (name && first !== undefined) {
      problems.push({ row: rowNo, column: 'name', key: 'duplicateName', values: { first } });
      continue;
    }
    seen.set(name, rowNo);
    const matches = byName.get(name) ?? [];
    if (matches.length > 1) {
      problems.push({ row: rowNo, column: 'name', key: 'ambiguousName' });
      continue;
    }
    const current = matches[0];
    const base: Record<string, unknown> = current ? { ...current.values } : { source: { kind } };
    const raw = {
      ...base,
      ...given,
      device_id: deviceId,
      source: { ...(base.source as object), ...source, kind },
    };
    const parsed = itemInput.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const column = issue.path.map(String).join('.');
        problems.push({ row: rowNo, column: column || 'name', ...issueText(issue) });
      }
      continue;
    }
    if (!locationFits(parsed.data.location_id)) {
      problems.push({ row: rowNo, column: 'location_id', key: 'monitoring.errors.locationInvalid' });
      continue;
    }
    out.push({ row: rowNo, itemId: current?.id ?? null, values: parsed.data });
  }
  if (out.length === 0 && problems.length === 0) throw fileError('noRows');
  if (problems.length) throw rowsError(problems, lang);
  return out;
};

/** One 400 naming every bad row and column, in the caller's language; the first is in the message. */
const rowsError = (problems: RowProblem[], lang: Language) => {
  const fields: FieldError[] = problems.slice(0, 200).map((p) => {
    const text = p.key.startsWith('monitoring.') ? p.key : `monitoring.pointTable.errors.${p.key}`;
    return {
      path: `rows.${p.row}.${p.column}`,
      message: sharedText(lang, 'monitoring.pointTable.errors.at', {
        row: p.row,
        column: p.column,
        message: sharedText(lang, text, p.values ?? {}),
      }),
    };
  });
  return badRequest('monitoring.pointTable.errors.rows', { count: problems.length, first: fields[0]!.message }, fields);
};
