import {
  type FirewallRule,
  ipv4Text,
  ipv6Text,
  portSpan,
  source6Span,
  sourceFamily,
  sourceIsEverything,
  sourceProblem,
  sourceSpan,
} from '@sitewatch/contract/firewall';

export { guardedPorts, newlyClosedGuardedPorts, refusesIncoming } from '@sitewatch/contract/firewall';

/** Sitewatch's own nftables table: the only one the helper ever writes or reads (issue 30 §6). */
export const tableFamily = 'inet';
export const tableName = 'sitewatch';

/** What the renderer needs of a rule (the helper receives exactly this, validated). */
export type RenderRule = Pick<FirewallRule, 'direction' | 'source' | 'port' | 'authorised' | 'Disabled'>;

/**
 * `ip saddr …` / `ip6 saddr …` (in) or `… daddr …` (out) for a source, or '' for `{ip}/0` (every
 * address, IPv4 and IPv6: no address match is written).
 */
const addressMatch = (rule: RenderRule): string => {
  if (sourceIsEverything(rule.source)) return '';
  const side = rule.direction === 'in' ? 'saddr' : 'daddr';
  if (sourceFamily(rule.source) === 6) {
    const [first, last] = source6Span(rule.source);
    const field = `ip6 ${side}`;
    if (first === last) return `${field} ${ipv6Text(first)} `;
    if (rule.source.includes('/')) return `${field} ${ipv6Text(first)}/${rule.source.trim().split('/')[1]} `;
    return `${field} ${ipv6Text(first)}-${ipv6Text(last)} `;
  }
  const [first, last] = sourceSpan(rule.source);
  const field = `ip ${side}`;
  if (first === last) return `${field} ${ipv4Text(first)} `;
  const bits = 32 - Math.log2(last - first + 1);
  // A CIDR block is written as a prefix (its address normalised to the network); a range as a-b.
  if (rule.source.includes('/') && Number.isInteger(bits)) return `${field} ${ipv4Text(first)}/${bits} `;
  return `${field} ${ipv4Text(first)}-${ipv4Text(last)} `;
};

/** One rule's nft statements: accept for both protocols, or reject (a TCP reset, ICMP port unreachable). */
const ruleLines = (rule: RenderRule, index: number): string[] => {
  const [a, b] = portSpan(rule.port)!;
  const ports = a === b ? `${a}` : `${a}-${b}`;
  const match = `${addressMatch(rule)}`;
  const note = `comment "rule ${index + 1}"`;
  if (rule.authorised) return [`${match}meta l4proto { tcp, udp } th dport ${ports} accept ${note}`];
  return [
    `${match}meta l4proto tcp th dport ${ports} reject with tcp reset ${note}`,
    `${match}meta l4proto udp th dport ${ports} reject ${note}`,
  ];
};

/**
 * The whole ruleset as one `nft -f` script that replaces Sitewatch's table atomically: the table is
 * made (a no-op when present) and deleted, then written anew, in one transaction, so the host holds
 * either the old rules or the new ones. Disabled rules are left out; a disabled firewall removes the
 * table. Rules apply in their order, the first that matches decides; what none matches passes
 * (policy accept: Sitewatch's table only refuses what a rule refuses). Invalid rules throw: the
 * helper renders only rules the contract accepts.
 */
export const renderRuleset = (enabled: boolean, rules: readonly RenderRule[]): string => {
  for (const rule of rules) {
    if (sourceProblem(rule.source) || !portSpan(rule.port)) throw new Error(`invalid rule ${JSON.stringify(rule)}`);
  }
  const head = [`table ${tableFamily} ${tableName}`, `delete table ${tableFamily} ${tableName}`];
  if (!enabled) return `${head.join('\n')}\n`;
  const chain = (name: 'input' | 'output', direction: 'in' | 'out') => [
    `\tchain ${name} {`,
    `\t\ttype filter hook ${name} priority filter; policy accept;`,
    // Connections already open stay open: a rule refuses new ones.
    '\t\tct state established,related accept',
    ...rules.flatMap((rule, i) =>
      rule.Disabled || rule.direction !== direction ? [] : ruleLines(rule, i).map((l) => `\t\t${l}`),
    ),
    '\t}',
  ];
  return [
    ...head,
    `table ${tableFamily} ${tableName} {`,
    ...chain('input', 'in'),
    ...chain('output', 'out'),
    '}',
    '',
  ].join('\n');
};
