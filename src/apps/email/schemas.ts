import { z } from 'zod';

export const Address = z
  .string()
  .max(320)
  .regex(
    /^[^\s@<>",;:()[\]\\]+@[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/,
    'a plain address: name@example.org',
  )
  .describe('A plain address: name@example.org.');

export const DraftId = z
  .string()
  .regex(/^d-[0-9a-f]{12}$/, 'a draft id as email_draft_save returns it: d-0123456789ab')
  .describe('As email_draft_save returned it: d-0123456789ab.');

export const MessageId = z
  .string()
  .max(998)
  .regex(/^<[^<>\s]+@[^<>\s]+>$/, 'a Message-ID with its angle brackets: <id@host>');

/** HTML a mail client shows as written: no scripts, frames, forms, event handlers or javascript: links. */
export const SimpleHtml = z
  .string()
  .min(1)
  .max(200_000)
  .refine(
    (html) =>
      !/<\s*(script|iframe|frame|object|embed|form|style|link|meta|base)\b/i.test(html) &&
      !/\son[a-z]+\s*=/i.test(html) &&
      !/javascript:/i.test(html),
    'simple HTML: no script, iframe, object, embed, form, style, link, meta or base tags, no on* handlers, no javascript: links',
  );

export const AttachmentSummary = z.object({
  name: z.string().describe('File name.'),
  size: z.number().int().describe('Bytes.'),
  sha256: z.string().describe('SHA-256 of the content, hex.'),
});

/** The addresses and subject a saved or sent message carries, as read back from the server. */
export const MessageHeads = {
  message_id: z.string().describe('Message-ID header, with its <>.'),
  from: z.string().describe('Sender address.'),
  to: z.array(z.string()).describe('Recipient addresses.'),
  cc: z.array(z.string()).describe('Copy addresses.'),
  subject: z.string().describe('Subject line.'),
  attachments: z.array(AttachmentSummary).describe('Attached files.'),
};
