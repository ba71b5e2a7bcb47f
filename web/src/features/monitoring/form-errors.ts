import type { FormInstance } from 'antd';
import type { z } from 'zod';

/**
 * Validates form values with the contract's schema (the same the server uses) and shows each
 * issue on its field; the messages are keys of the shared locale files.
 */
export const validateWith = <S extends z.ZodType>(
  schema: S,
  values: unknown,
  form: FormInstance,
  translate: (key: string) => string,
): z.output<S> | null => {
  const parsed = schema.safeParse(values);
  if (parsed.success) return parsed.data;
  const byField = new Map<string, { name: (string | number)[]; errors: string[] }>();
  for (const issue of parsed.error.issues) {
    const name = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
    const key = name.join('.');
    const entry = byField.get(key) ?? { name, errors: [] };
    entry.errors.push(issue.message.startsWith('monitoring.') ? translate(issue.message) : issue.message);
    byField.set(key, entry);
  }
  form.setFields([...byField.values()]);
  return null;
};
