import type { Driver } from '../driver.ts';
import { modbusSession } from './modbus-common.ts';

/** Modbus TCP: one connection a device, unit id from `protocol_id`, contiguous registers read together. */
export const modbusTcpDriver: Driver = {
  name: 'modbus-tcp',
  sourceKind: 'modbus',
  async connect(device) {
    // Loaded at the first connection: the main thread, whose collector worker polls, never needs it (issue 18, memory).
    const { default: ModbusRTU } = await import('modbus-serial');
    const client = new ModbusRTU();
    client.setTimeout(device.options.timeout_ms);
    await client.connectTCP(device.ip, { port: device.port ?? 502 });
    client.setID(device.protocol_id);
    return modbusSession(client, device.options);
  },
};
