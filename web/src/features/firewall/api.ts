import { authRoutes } from '@sitewatch/contract/auth';
import {
  type FirewallRule,
  type FirewallState,
  firewallRoutes,
  newlyClosedGuardedPorts,
  type RuleShape,
  refusesIncoming,
} from '@sitewatch/contract/firewall';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { encryptForServer } from '../../api/crypto.ts';

export const firewallQuery = queryOptions({
  queryKey: ['firewall', 'state'],
  queryFn: () => api.call(firewallRoutes.ports),
  // A change on trial rolls back on the server by itself: the page follows it.
  refetchInterval: (query) => (query.state.data?.pending ? 5_000 : false),
});
export const openPortsQuery = queryOptions({
  queryKey: ['firewall', 'open-ports'],
  queryFn: () => api.call(firewallRoutes.openPorts),
});

/** A change to send: the whole rule list, or the firewall turned on or off. */
export type FirewallChange = { kind: 'rules'; rules: RuleDraft[] } | { kind: 'status'; enabled: boolean };
export type RuleDraft = Omit<FirewallRule, 'id'> & { id?: number };

/** The port the browser reached the console on (what a refusing rule would cut). */
export const consolePort = () => Number(window.location.port) || (window.location.protocol === 'https:' ? 443 : 80);

/** What a change asks before it is sent (002 §5.3; docs/firewall.md): guarded ports it closes, whether it cuts the author off. */
export const risksOf = (state: FirewallState, change: FirewallChange) => {
  const enabled = change.kind === 'status' ? change.enabled : state.enabled;
  const rules: RuleShape[] = change.kind === 'rules' ? change.rules : state.rules;
  const before = change.kind === 'status' && change.enabled && !state.enabled ? [] : state.rules;
  return {
    closes: enabled ? newlyClosedGuardedPorts(state.enabled ? before : [], rules) : [],
    locksOut: refusesIncoming(enabled, rules, state.own_address, consolePort()),
  };
};

export const useApplyChange = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: { change: FirewallChange; password: string; confirm: boolean; lockout: boolean }) => {
      const { public_key } = await api.call(authRoutes.loginParams);
      const verify_password = await encryptForServer(public_key, input.password);
      const flags = { confirm: input.confirm, confirm_lockout: input.lockout, verify_password };
      return input.change.kind === 'rules'
        ? api.call(firewallRoutes.save, { body: { rules: input.change.rules, ...flags } })
        : api.call(firewallRoutes.status, {
            params: { Disabled: input.change.enabled ? '0' : '1' },
            body: flags,
          });
    },
    onSuccess: (state) => {
      client.setQueryData(firewallQuery.queryKey, state);
      void client.invalidateQueries({ queryKey: ['firewall'] });
    },
  });
};

export const useKeepChange = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.call(firewallRoutes.keep, { body: {} }),
    onSuccess: (state) => client.setQueryData(firewallQuery.queryKey, state),
  });
};
