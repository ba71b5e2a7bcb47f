import type { Driver } from '../driver.ts';
import { modbusSession } from './modbus-common.ts';

/**
 * Modbus RTU on a serial port (`serial.name`, baud rate, data bits, stop bits, parity), or through
 * a serial server over TCP (RTU framing in TCP) when the device has an IP address and port.
 */
export const modbusRtuDriver: Driver = {
  name: 'modbus-rtu',
  sourceKind: 'modbus',
  async connect(device) {
    // Loaded at the first connection (issue 18, memory: see modbus-tcp.ts).
    const { default: ModbusRTU } = await import('modbus-serial');
    const client = new ModbusRTU();
    client.setTimeout(device.options.timeout_ms);
    if (device.ip && device.port) {
      await client.connectTcpRTUBuffered(device.ip, { port: device.port });
    } else {
      await client.connectRTUBuffered(device.serial.name, {
        baudRate: device.serial.baud_rate,
        dataBits: device.serial.data_bit,
        stopBits: device.serial.stop_bit,
        parity: device.serial.parity,
      });
    }
    client.setID(device.protocol_id);
    return modbusSession(client, device.options);
  },
};
