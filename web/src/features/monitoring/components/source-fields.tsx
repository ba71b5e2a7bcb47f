import { modbusDataTypes } from '@sitewatch/contract/monitoring';
import { Col, Form, Input, InputNumber, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * How an item is read, by kind: Modbus function, register, data type and scale; SNMP OID and
 * scale; MQTT topic, JSON path and command topic; simulator model and its parameters.
 */
export const SourceFields = () => {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const kind = Form.useWatch(['source', 'kind'], form);
  const num = (name: string, label: string, min?: number) => (
    <Col span={6} key={name}>
      <Form.Item name={['source', name]} label={label}>
        <InputNumber min={min} style={{ width: '100%' }} />
      </Form.Item>
    </Col>
  );
  return (
    <Row gutter={12}>
      <Col span={6}>
        <Form.Item name={['source', 'kind']} label={t('monitoringUi.items.sourceKind')}>
          <Select
            options={[
              { value: 'simulator', label: t('monitoringUi.items.kindSimulator') },
              { value: 'modbus', label: 'Modbus' },
              { value: 'snmp', label: 'SNMP' },
              { value: 'mqtt', label: 'MQTT' },
            ]}
          />
        </Form.Item>
      </Col>
      {kind === 'modbus' ? (
        <>
          <Col span={6}>
            <Form.Item name={['source', 'function']} label={t('monitoringUi.items.modbusFunction')}>
              <Select
                options={[
                  { value: 1, label: '01 Coils' },
                  { value: 2, label: '02 Discrete inputs' },
                  { value: 3, label: '03 Holding registers' },
                  { value: 4, label: '04 Input registers' },
                ]}
              />
            </Form.Item>
          </Col>
          {num('register', t('monitoringUi.items.register'), 0)}
          <Col span={6}>
            <Form.Item name={['source', 'data_type']} label={t('monitoringUi.items.dataType')}>
              <Select options={modbusDataTypes.map((d) => ({ value: d, label: d }))} />
            </Form.Item>
          </Col>
          {num('scale', t('monitoringUi.items.scale'))}
        </>
      ) : null}
      {kind === 'snmp' ? (
        <>
          <Col span={12}>
            <Form.Item name={['source', 'oid']} label="OID">
              <Input maxLength={400} />
            </Form.Item>
          </Col>
          {num('scale', t('monitoringUi.items.scale'))}
        </>
      ) : null}
      {kind === 'mqtt' ? (
        <>
          <Col span={9}>
            <Form.Item name={['source', 'topic']} label={t('monitoringUi.items.topic')}>
              <Input maxLength={300} />
            </Form.Item>
          </Col>
          <Col span={9}>
            <Form.Item name={['source', 'json_path']} label={t('monitoringUi.items.jsonPath')}>
              <Input maxLength={200} />
            </Form.Item>
          </Col>
          {num('scale', t('monitoringUi.items.scale'))}
          <Col span={12}>
            <Form.Item name={['source', 'command_topic']} label={t('monitoringUi.items.commandTopic')}>
              <Input maxLength={300} />
            </Form.Item>
          </Col>
        </>
      ) : null}
      {kind === 'simulator' ? (
        <>
          <Col span={6}>
            <Form.Item name={['source', 'model']} label={t('monitoringUi.items.model')}>
              <Select
                options={[
                  { value: 'analog', label: t('monitoringUi.items.modelAnalog') },
                  { value: 'counter', label: t('monitoringUi.items.modelCounter') },
                  { value: 'status', label: t('monitoringUi.items.modelStatus') },
                ]}
              />
            </Form.Item>
          </Col>
          {num('base', t('monitoringUi.items.base'))}
          {num('spread', t('monitoringUi.items.spread'), 0)}
          {num('noise', t('monitoringUi.items.noise'), 0)}
          {num('period_s', t('monitoringUi.items.period'), 10)}
          {num('fault_rate', t('monitoringUi.items.faultRate'), 0)}
          {num('decimals', t('monitoringUi.items.decimals'), 0)}
        </>
      ) : null}
    </Row>
  );
};
