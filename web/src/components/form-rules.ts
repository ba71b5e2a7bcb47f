import type { FormInstance, FormRule } from 'antd';

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
