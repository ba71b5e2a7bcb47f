import { type DriverName, driverNames } from '@sitewatch/contract/monitoring';
import { useTranslation } from 'react-i18next';

const driverKeys = {
  simulator: 'monitoringUi.devices.drivers.simulator',
  'modbus-tcp': 'monitoringUi.devices.drivers.modbusTcp',
  'modbus-rtu': 'monitoringUi.devices.drivers.modbusRtu',
  snmp: 'monitoringUi.devices.drivers.snmp',
  mqtt: 'monitoringUi.devices.drivers.mqtt',
  'snmp-ifmib': 'monitoringUi.devices.drivers.snmpIfmib',
} as const satisfies Record<DriverName, string>;

/** A device driver's name in the user's language; a code this client does not know shows as it is. */
export const useDriverNames = () => {
  const { t } = useTranslation();
  const label = (driver: string) => (driver in driverKeys ? t(driverKeys[driver as DriverName]) : driver);
  return { label, options: driverNames.map((d) => ({ value: d, label: label(d) })) };
};
