import type { DriverName } from '@sitewatch/contract/monitoring';
import type { Driver, DriverRegistry } from '../driver.ts';
import { modbusRtuDriver } from './modbus-rtu.ts';
import { modbusTcpDriver } from './modbus-tcp.ts';
import { mqttDriver } from './mqtt.ts';
import { createSimulatorDriver } from './simulator.ts';
import { snmpDriver } from './snmp.ts';
import { snmpIfMibDriver } from './snmp-ifmib.ts';

/**
 * Chance that one poll of a simulated device goes unanswered in the demo's `faults` scenario: an
 * unknown device now and then (about once in three hours with the demo's 66 devices read every
 * 10 s). Without the scenario a simulated device always answers.
 */
export const demoCommFaultRate = 0.00001;

/** Every driver the collector knows; `commFaultRate` for the simulator (0 by default). */
export const createDrivers = (options: { commFaultRate?: number } = {}): DriverRegistry => ({
  simulator: createSimulatorDriver({ commFaultRate: options.commFaultRate ?? 0 }),
  'modbus-tcp': modbusTcpDriver,
  'modbus-rtu': modbusRtuDriver,
  snmp: snmpDriver,
  mqtt: mqttDriver,
  'snmp-ifmib': snmpIfMibDriver,
});

/** The drivers that need no options: a registry holding these very objects can be rebuilt anywhere. */
const standard: DriverRegistry = {
  'modbus-tcp': modbusTcpDriver,
  'modbus-rtu': modbusRtuDriver,
  snmp: snmpDriver,
  mqtt: mqttDriver,
  'snmp-ifmib': snmpIfMibDriver,
};

/** How the collector worker rebuilds a driver of the main thread's registry. */
export interface DriverRecipe {
  name: DriverName;
  options?: Record<string, number> | undefined;
}

/**
 * The recipes of a registry, or null when a driver cannot be rebuilt in a worker thread (a test's
 * fake or wrapper, a simulator with its own clock): the collector then polls in-process.
 */
export const driverRecipes = (registry: DriverRegistry): DriverRecipe[] | null => {
  const recipes: DriverRecipe[] = [];
  for (const [name, driver] of Object.entries(registry) as Array<[DriverName, Driver | undefined]>) {
    if (!driver) continue;
    if (standard[name] === driver) recipes.push({ name });
    else if (name === 'simulator' && driver.workerOptions) recipes.push({ name, options: driver.workerOptions });
    else return null;
  }
  return recipes;
};

/** The registry of `recipes` (in the worker). */
export const driversOf = (recipes: DriverRecipe[]): DriverRegistry => {
  const registry: DriverRegistry = {};
  for (const { name, options } of recipes)
    registry[name] =
      name === 'simulator' ? createSimulatorDriver({ commFaultRate: options?.commFaultRate ?? 0 }) : standard[name];
  return registry;
};
