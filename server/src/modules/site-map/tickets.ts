import { randomBytes } from 'node:crypto';
import { badRequest } from '../../http/errors.ts';

/** A ticket lives one minute: long enough to open a window, too short to be worth stealing from a log. */
export const ticketSeconds = 60;
/** At most this many tickets wait at once; the oldest go first (a flood cannot grow memory). */
const maxTickets = 1000;

/**
 * The editor's one-time tickets (docs/site-map.md "Editor ticket"): minted by a signed-in user with
 * the editor's function for the editor's address, redeemed once for that user's session token.
 * Kept in memory: a restart only means opening the editor again.
 */
export const createTicketStore = (clock: () => number = Date.now) => {
  const tickets = new Map<string, { token: string; expires: number }>();
  return {
    mint(token: string) {
      const now = clock();
      for (const [key, t] of tickets) if (t.expires <= now) tickets.delete(key);
      while (tickets.size >= maxTickets) tickets.delete(tickets.keys().next().value!);
      const ticket = randomBytes(16).toString('hex');
      tickets.set(ticket, { token, expires: now + ticketSeconds * 1000 });
      return { ticket, expires_in: ticketSeconds };
    },
    redeem(ticket: string) {
      const found = tickets.get(ticket);
      tickets.delete(ticket);
      if (!found || found.expires <= clock()) throw badRequest('topView.ticketInvalid');
      return { access_token: found.token };
    },
  };
};
