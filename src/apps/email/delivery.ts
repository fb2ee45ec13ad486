import type { ToolContext } from '../../contract/context.js';
import { isLiftError } from '../../contract/errors.js';
import { uidsWithHeader, withImap } from './imap.js';
import type { ResolvedEmailSettings } from './settings.js';

export interface Delivery {
  address: string;
  /** How delivery was confirmed: found in the local mailbox, or accepted by the server for a remote one. */
  by: 'mailbox' | 'server_acceptance';
  found: boolean;
  folder?: string;
  uid?: number;
  detail?: string;
}

const POLL_MS = 250;

/** Waits (bounded) for the Message-ID to arrive in one local mailbox's INBOX. */
async function findInMailbox(
  ctx: ToolContext,
  settings: ResolvedEmailSettings,
  mailbox: ResolvedEmailSettings['deliveryMailboxes'][number],
  messageId: string,
): Promise<Delivery> {
  const login = {
    server: settings.imap,
    user: mailbox.user ?? mailbox.address,
    passwordSecret: mailbox.passwordSecret,
  };
  const until = Math.min(Date.now() + settings.deliveryWaitMs, ctx.deadline - 1_000);
  try {
    return await withImap(ctx, login, async (client) => {
      await client.mailboxOpen('INBOX');
      for (;;) {
        const uid = (await uidsWithHeader(client, 'Message-ID', messageId)).at(-1);
        if (uid !== undefined)
          return { address: mailbox.address, by: 'mailbox', found: true, folder: 'INBOX', uid };
        if (Date.now() + POLL_MS > until) {
          return {
            address: mailbox.address,
            by: 'mailbox',
            found: false,
            detail: `not in INBOX after ${settings.deliveryWaitMs} ms`,
          };
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        await client.noop();
      }
    });
  } catch (error) {
    if (!isLiftError(error) || error.code === 'TIMEOUT' || error.code === 'CANCELLED') throw error;
    return {
      address: mailbox.address,
      by: 'mailbox',
      found: false,
      detail: `${error.code}: ${error.message}`,
    };
  }
}

/**
 * Delivery of a sent message to each recipient: local mailboxes the operator listed are opened and
 * searched by Message-ID; for any other recipient the submission server's acceptance is the evidence.
 */
export async function confirmDelivery(
  ctx: ToolContext,
  settings: ResolvedEmailSettings,
  recipients: string[],
  accepted: string[],
  messageId: string,
): Promise<Delivery[]> {
  const acceptedSet = new Set(accepted.map((address) => address.toLowerCase()));
  return Promise.all(
    recipients.map((address) => {
      const local = settings.deliveryMailboxes.find(
        (mailbox) => mailbox.address.toLowerCase() === address.toLowerCase(),
      );
      if (local && acceptedSet.has(address.toLowerCase()))
        return findInMailbox(ctx, settings, local, messageId);
      return Promise.resolve<Delivery>({
        address,
        by: 'server_acceptance',
        found: acceptedSet.has(address.toLowerCase()),
        ...(acceptedSet.has(address.toLowerCase()) ? {} : { detail: 'refused by the server' }),
      });
    }),
  );
}
