import type { DriverRegistry } from '../driver.ts';
import { modbusRtuDriver } from './modbus-rtu.ts';
import { modbusTcpDriver } from './modbus-tcp.ts';
import { mqttDriver } from './mqtt.ts';
import { createSimulatorDriver } from './simulator.ts';
import { snmpDriver } from './snmp.ts';
import { snmpIfMibDriver } from './snmp-ifmib.ts';

/**
 * Chance that one poll of a simulated device goes unanswered: the demo shows an unknown device now
 * and then (about once in three hours with the demo's 66 devices read every 10 s), not every few minutes.
 */
export const demoCommFaultRate = 0.00001;

/** Every driver the collector knows. */
export const createDrivers = (): DriverRegistry => ({
  simulator: createSimulatorDriver({ commFaultRate: demoCommFaultRate }),
  'modbus-tcp': modbusTcpDriver,
  'modbus-rtu': modbusRtuDriver,
  snmp: snmpDriver,
  mqtt: mqttDriver,
  'snmp-ifmib': snmpIfMibDriver,
});
