import { Col, Form, type FormItemProps } from 'antd';

/**
 * A form field in a grid column, the layout of most dialogs: `span` of 24 (half a row by default),
 * the rest is Form.Item's.
 */
export const FormCol = ({ span = 12, children, ...item }: FormItemProps & { span?: number }) => (
  <Col span={span}>
    <Form.Item {...item}>{children}</Form.Item>
  </Col>
);
