import { defaultCommandPayload, ifMetrics, modbusByteOrders, modbusDataTypes } from '@sitewatch/contract/monitoring';
import { Col, Form, Input, InputNumber, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFieldRules } from '../../../components/form-rules.ts';
import { sourceDefaults } from '../item-body.ts';

/**
 * How an item is read, by kind: Modbus function, register, data type and scale; SNMP OID and
 * scale; MQTT topic (with wildcards), JSON path, command topic and payload; simulator model and its parameters.
 */
export const SourceFields = ({ addressBase = 0 }: { addressBase?: 0 | 1 }) => {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const rules = useFieldRules();
  const kind = Form.useWatch(['source', 'kind'], form);
  const modbusFunction = Form.useWatch(['source', 'function'], form);
  const dataType = Form.useWatch(['source', 'data_type'], form);
  // Coils and discrete inputs are bits whatever the type; a register may be read as one bit of it.
  const bitTable = modbusFunction === 1 || modbusFunction === 2;
  const num = (name: string, label: string, min?: number) => (
    <Col span={6} key={name}>
      <Form.Item rules={rules} name={['source', name]} label={label}>
        <InputNumber min={min} style={{ width: '100%' }} />
      </Form.Item>
    </Col>
  );
  return (
    <Row gutter={12}>
      <Col span={6}>
        <Form.Item rules={rules} name={['source', 'kind']} label={t('monitoringUi.items.sourceKind')}>
          <Select
            // Another kind is read from other fields: they start from that kind's defaults.
            onChange={(next: string) => form.setFieldValue('source', sourceDefaults(next))}
            options={[
              { value: 'simulator', label: t('monitoringUi.items.kindSimulator') },
              { value: 'modbus', label: 'Modbus' },
              { value: 'snmp', label: 'SNMP' },
              { value: 'mqtt', label: 'MQTT' },
              { value: 'snmp-ifmib', label: 'SNMP IF-MIB' },
            ]}
          />
        </Form.Item>
      </Col>
      {kind === 'modbus' ? (
        <>
          <Col span={6}>
            <Form.Item rules={rules} name={['source', 'function']} label={t('monitoringUi.items.modbusFunction')}>
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
          {num(
            'register',
            t(addressBase === 1 ? 'monitoringUi.items.registerBase1' : 'monitoringUi.items.registerBase0'),
            addressBase,
          )}
          <Col span={6}>
            <Form.Item rules={rules} name={['source', 'data_type']} label={t('monitoringUi.items.dataType')}>
              <Select options={modbusDataTypes.map((d) => ({ value: d, label: d }))} />
            </Form.Item>
          </Col>
          {!bitTable && dataType !== 'bit' ? (
            <Col span={6}>
              <Form.Item
                rules={rules}
                name={['source', 'byte_order']}
                label={t('monitoringUi.items.byteOrder')}
                initialValue="ABCD"
              >
                <Select
                  options={modbusByteOrders.map((o) => ({ value: o, label: t(`monitoringUi.items.byteOrder${o}`) }))}
                />
              </Form.Item>
            </Col>
          ) : null}
          {!bitTable && dataType === 'bit' ? (
            <Col span={6}>
              <Form.Item rules={rules} name={['source', 'bit']} label={t('monitoringUi.items.bit')}>
                <InputNumber
                  min={0}
                  max={15}
                  precision={0}
                  placeholder={t('monitoringUi.items.bitWhole')}
                  style={{ width: '100%' }}
                />
              </Form.Item>
            </Col>
          ) : null}
          {num('scale', t('monitoringUi.items.scale'))}
        </>
      ) : null}
      {kind === 'snmp' ? (
        <>
          <Col span={12}>
            <Form.Item rules={rules} name={['source', 'oid']} label="OID">
              <Input maxLength={400} />
            </Form.Item>
          </Col>
          {num('scale', t('monitoringUi.items.scale'))}
        </>
      ) : null}
      {kind === 'snmp-ifmib' ? (
        <>
          {num('if_index', 'ifIndex', 1)}
          <Col span={6}>
            <Form.Item rules={rules} name={['source', 'metric']} label={t('monitoringUi.items.portMetric')}>
              <Select options={ifMetrics.map((m) => ({ value: m, label: m }))} />
            </Form.Item>
          </Col>
        </>
      ) : null}
      {kind === 'mqtt' ? (
        <>
          <Col span={9}>
            <Form.Item
              rules={rules}
              name={['source', 'topic']}
              label={t('monitoringUi.items.topic')}
              tooltip={t('monitoringUi.items.topicHelp')}
            >
              <Input maxLength={300} />
            </Form.Item>
          </Col>
          <Col span={9}>
            <Form.Item rules={rules} name={['source', 'json_path']} label={t('monitoringUi.items.jsonPath')}>
              <Input maxLength={200} />
            </Form.Item>
          </Col>
          {num('scale', t('monitoringUi.items.scale'))}
          <Col span={12}>
            <Form.Item rules={rules} name={['source', 'command_topic']} label={t('monitoringUi.items.commandTopic')}>
              <Input maxLength={300} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              rules={rules}
              name={['source', 'command_payload']}
              label={t('monitoringUi.items.commandPayload')}
              tooltip={t('monitoringUi.items.commandPayloadHelp')}
            >
              <Input maxLength={1000} placeholder={defaultCommandPayload} />
            </Form.Item>
          </Col>
        </>
      ) : null}
      {kind === 'simulator' ? (
        <>
          <Col span={6}>
            <Form.Item rules={rules} name={['source', 'model']} label={t('monitoringUi.items.model')}>
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
