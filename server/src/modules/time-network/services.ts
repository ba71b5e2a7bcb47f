import type { ServiceName, ServiceState } from '@sitewatch/contract/time-network';
import { AppError } from '../../http/errors.ts';
import type { TimeNetworkHost } from './client.ts';
import { reasonKey } from './network.ts';

/** An engine of this process the page can stop and start (the collector, the alarm engine). */
export interface Engine {
  running(): boolean;
  start?(): Promise<void>;
  stop(): Promise<void>;
}

const fine = { available: true, reason: null, detail: '' };

/**
 * The services of `PUT setting/service/{name}` (docs/time-network.md, "Services"): the host's NTP
 * service through the helper (systemctl); the collector and the alarm engine of this process, whose
 * restart is a real stop and start; the notifier shown, not stopped (it has no start: stopping it
 * would leave alarms unsent until the console restarts).
 */
export const createServicesControl = (deps: {
  host: TimeNetworkHost;
  engines: { collector?: Engine | undefined; alarms?: Engine | undefined; notifier?: Engine | undefined };
}) => {
  let work: Promise<unknown> = Promise.resolve();
  const serial = <T>(run: () => Promise<T>): Promise<T> => {
    const next = work.then(run);
    work = next.catch(() => undefined);
    return next;
  };

  const engineState = (name: Exclude<ServiceName, 'ntp'>): ServiceState => {
    const engine = deps.engines[name];
    if (!engine) return { name, state: 'absent', host: { available: false, reason: 'noTool', detail: '' } };
    const host = name === 'notifier' ? { available: false, reason: 'failed' as const, detail: 'notifierFixed' } : fine;
    return { name, state: engine.running() ? 'running' : 'stopped', host };
  };

  const ntpState = async (action: 'state' | 'start' | 'stop' | 'restart'): Promise<ServiceState> => {
    const answer = await deps.host.ask({ op: 'ntpService', action });
    if (!answer.ok) {
      if (action !== 'state') throw new AppError('conflict', reasonKey(answer.reason), { detail: answer.detail });
      return {
        name: 'ntp',
        state: 'unknown',
        host: { available: false, reason: answer.reason, detail: answer.detail },
      };
    }
    if (answer.data.state === 'absent')
      return { name: 'ntp', state: 'absent', host: { available: false, reason: 'noTool', detail: '' } };
    return { name: 'ntp', state: answer.data.state, host: fine };
  };

  return {
    list: async (): Promise<ServiceState[]> => [
      await ntpState('state'),
      engineState('collector'),
      engineState('alarms'),
      engineState('notifier'),
    ],
    act: (name: ServiceName, action: 'start' | 'stop' | 'restart') =>
      serial(async (): Promise<ServiceState> => {
        if (name === 'ntp') return ntpState(action);
        const engine = deps.engines[name];
        if (!engine?.start || name === 'notifier') throw new AppError('conflict', 'timeNetwork.serviceFixed', { name });
        if (action !== 'start' && engine.running()) await engine.stop();
        if (action !== 'stop' && !engine.running()) await engine.start();
        return engineState(name);
      }),
    settled: async () => {
      const before = work;
      await work;
      return before !== work;
    },
  };
};
export type ServicesControl = ReturnType<typeof createServicesControl>;
