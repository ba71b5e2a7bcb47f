import type { DriverRegistry } from '../driver.ts';
import { modbusRtuDriver } from './modbus-rtu.ts';
import { modbusTcpDriver } from './modbus-tcp.ts';
import { mqttDriver } from './mqtt.ts';
import { createSimulatorDriver } from './simulator.ts';
import { snmpDriver } from './snmp.ts';

/** Every driver the collector knows; the simulator's rare link faults make the demo show unknown devices now and then. */
export const createDrivers = (): DriverRegistry => ({
  simulator: createSimulatorDriver({ commFaultRate: 0.0005 }),
  'modbus-tcp': modbusTcpDriver,
  'modbus-rtu': modbusRtuDriver,
  snmp: snmpDriver,
  mqtt: mqttDriver,
});
