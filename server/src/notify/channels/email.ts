import { isIP } from 'node:net';
import { type Channel, ChannelError } from '../channel.ts';
import { checkedAddress, OutboundRefused } from '../outbound.ts';

/**
 * E-mail through the mail service settings (setting/email_service) with nodemailer. The mail server
 * is reached through the outbound guard like every channel: its name is resolved and checked first,
 * and nodemailer connects to that address (the name kept for TLS), so a test mail cannot probe
 * internal hosts (issue 27).
 */
export const emailChannel: Channel = {
  kind: 'email',
  async send(settings, message, to) {
    if (settings.kind !== 'email') throw new ChannelError('not the mail service');
    const c = settings.config;
    if (!c.host) throw new ChannelError('mail service not set');
    if (!to.address) throw new ChannelError('no e-mail address');
    let address: string;
    try {
      ({ address } = await checkedAddress(c.host));
    } catch (err) {
      if (err instanceof OutboundRefused) throw new ChannelError('destination not allowed');
      throw new ChannelError('connection failed');
    }
    // Loaded at the first mail: ~3 MB of heap that servers without a mail service need not keep.
    const { default: nodemailer } = await import('nodemailer');
    const transport = nodemailer.createTransport({
      host: address,
      // The certificate is checked against the name typed, not the address it was resolved to.
      ...(isIP(c.host) ? {} : { servername: c.host }),
      port: c.port,
      secure: c.security === 'tls',
      requireTLS: c.security === 'starttls',
      ignoreTLS: c.security === 'none',
      ...(c.user ? { auth: { user: c.user, pass: c.password } } : {}),
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    try {
      const info = await transport.sendMail({
        from: c.from || c.user,
        to: to.name ? { name: to.name, address: to.address } : to.address,
        subject: message.subject,
        text: message.text,
      });
      return String(info.response ?? 'sent').slice(0, 200);
    } finally {
      transport.close();
    }
  },
};
