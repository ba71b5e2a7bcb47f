import { Form, type FormInstance, type FormProps, Modal } from 'antd';
import type { ReactNode } from 'react';

export interface FormModalProps extends Omit<FormProps, 'form' | 'children' | 'title'> {
  open: boolean;
  title: ReactNode;
  width?: number;
  onCancel: () => void;
  confirmLoading?: boolean;
  form: FormInstance;
  children: ReactNode;
}

/**
 * A dialog that is one vertical form: OK submits it (`onFinish` gets the values), and its fields
 * leave with it (closing forgets what was typed).
 */
export const FormModal = ({
  open,
  title,
  width,
  onCancel,
  confirmLoading,
  form,
  children,
  ...props
}: FormModalProps) => (
  <Modal
    open={open}
    width={width}
    title={title}
    onCancel={onCancel}
    onOk={() => form.submit()}
    confirmLoading={confirmLoading}
    destroyOnHidden
  >
    <Form form={form} layout="vertical" preserve={false} {...props}>
      {children}
    </Form>
  </Modal>
);
