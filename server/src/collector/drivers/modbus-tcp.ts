import ModbusRTU from 'modbus-serial';
import type { Driver } from '../driver.ts';
import { modbusSession } from './modbus-common.ts';

/** Modbus TCP: one connection a device, unit id from `protocol_id`, contiguous registers read together. */
export const modbusTcpDriver: Driver = {
  name: 'modbus-tcp',
  sourceKind: 'modbus',
  async connect(device) {
    const client = new ModbusRTU();
    client.setTimeout(device.options.timeout_ms);
    await client.connectTCP(device.ip, { port: device.port ?? 502 });
    client.setID(device.protocol_id);
    return modbusSession(client, device.options);
  },
};
