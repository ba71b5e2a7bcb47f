import type { FormInstance, FormRule } from 'antd';
import { createContext, useContext } from 'react';
import type { z } from 'zod';
import { i18n } from '../i18n/index.ts';

/** A form rule: the field must equal `other` (a password confirmation); empty is left to `required`. */
export const matches =
  (other: string, message: string): FormRule =>
  ({ getFieldValue }) => ({
    validator: (_, value) =>
      !value || value === getFieldValue(other) ? Promise.resolve() : Promise.reject(new Error(message)),
  });

/**
 * The form's values, or null when a field is invalid: antd already shows why beside the field, so
 * the refusal is not an error to throw (it surfaced as an uncaught promise error in the page).
 */
export const validValues = async <T>(form: FormInstance<T>): Promise<T | null> => {
  try {
    return await form.validateFields();
  } catch (err) {
    if (err && typeof err === 'object' && 'errorFields' in err) return null;
    throw err;
  }
};

/**
 * The one validation path of forms: a field is valid when the contract schema the server checks the
 * request with finds no issue at that field's path. The whole form is parsed (through `toBody` when
 * the request is built from the values), so defaults and cross-field refinements count as they do
 * on the server. The message is the schema's own where it is a locale key (the server answers the
 * same text), else `message`; a field holding a list (a point table) fails for the issues inside it
 * too, with `message` when given. `path` names the request field when the form field has another name;
 * `required` only draws antd's mark, the schema decides.
 */
export const contractRule =
  (
    schema: z.ZodType,
    options: {
      message?: string;
      required?: boolean;
      path?: string;
      toBody?: (values: Record<string, unknown>) => unknown;
    } = {},
  ): FormRule =>
  ({ getFieldsValue }) => ({
    required: options.required ?? false,
    validator: async (rule, value) => {
      // async-validator names the field on the rule it passes ('config.url' for a nested name).
      const field = (rule as { field?: string }).field ?? '';
      const issueOf = (values: Record<string, unknown>) => {
        const result = schema.safeParse(options.toBody ? options.toBody(values) : values);
        const path = options.path ?? field;
        // A field holding a list (a template's point table) answers for the issues inside it too.
        return result.success
          ? undefined
          : result.error.issues.find((i) => {
              const at = i.path.join('.');
              return at === path || at.startsWith(`${path}.`);
            });
      };
      const values = getFieldsValue(true) as Record<string, unknown>;
      const issue = issueOf(values);
      if (!issue) return;
      // An empty field fails the type check before the schema's own message; as an empty text it
      // meets the check that says what is missing.
      const named = (message: string) => i18n.exists(message);
      const own =
        named(issue.message) || (value !== undefined && value !== null)
          ? issue
          : (issueOf(withValue(values, field.split('.'), '')) ?? issue);
      const inside = own.path.length > (options.path ?? field).split('.').length;
      throw new Error(
        inside && options.message
          ? options.message
          : named(own.message)
            ? i18n.t(own.message as 'validation.invalid', { field: '' })
            : (options.message ?? i18n.t('validation.invalid', { field: '' })),
      );
    },
  });

/** A copy of form values with one (nested) field set. */
const withValue = (values: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> => {
  const [head, ...rest] = path;
  if (head === undefined) return values;
  const inner = values[head];
  return {
    ...values,
    [head]:
      rest.length === 0
        ? value
        : withValue(inner && typeof inner === 'object' ? (inner as Record<string, unknown>) : {}, rest, value),
  };
};

const FieldRulesContext = createContext<FormRule[]>([]);

/**
 * The rules of the form around, for field components shared by several forms (an item's name,
 * thresholds and source appear in the item form and a template point's form): each form provides
 * its own contractRule, so the shared fields are checked with the schema of the request being made.
 */
export const FieldRules = FieldRulesContext.Provider;
export const useFieldRules = (): FormRule[] => useContext(FieldRulesContext);
