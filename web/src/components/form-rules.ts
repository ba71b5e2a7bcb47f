import type { FormRule } from 'antd';

/** A form rule: the field must equal `other` (a password confirmation); empty is left to `required`. */
export const matches =
  (other: string, message: string): FormRule =>
  ({ getFieldValue }) => ({
    validator: (_, value) =>
      !value || value === getFieldValue(other) ? Promise.resolve() : Promise.reject(new Error(message)),
  });
