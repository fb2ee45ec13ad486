/**
 * The mail the Roundcube bed delivers before anyone signs in. Awkward on purpose: subjects with
 * error words, a two-character subject, one that starts with a folder's name ("Inbox"), one
 * with "draft" in it, and a PDF attachment.
 */

export const MAIL_DOMAIN = 'example.test';
export const ALICE = { user: `alice@${MAIL_DOMAIN}`, password: 'rc-alice-pass-1' } as const;
export const BOB = { user: `bob@${MAIL_DOMAIN}`, password: 'rc-bob-pass-1' } as const;

export interface SeedAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface SeedMessage {
  to: string;
  /** The folder it is delivered to; INBOX unless said otherwise. */
  folder: string;
  from: string;
  subject: string;
  body: string;
  /** Day of November 2026 it was sent, so that the list has a fixed order. */
  day: number;
  attachment?: SeedAttachment;
}

/** A one-page PDF that says "Invoice 2": small, but a real document any viewer opens. */
function invoicePdf(): Buffer {
  const stream = 'BT /F1 24 Tf 72 720 Td (Invoice 2) Tj ET';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(pdf.length);
    pdf += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

export const SEED_MESSAGES: SeedMessage[] = [
  {
    to: ALICE.user,
    folder: 'INBOX',
    from: 'Support Desk <support@northwind.test>',
    subject: 'Contact form returns 500',
    body: 'Hi Alice,\n\nthe contact form answers 500 again when a file is attached. Can you look?\n\nSupport',
    day: 2,
  },
  {
    to: ALICE.user,
    folder: 'INBOX',
    from: `Bob Stone <${BOB.user}>`,
    subject: 'Cannot log in',
    body: 'Alice, I cannot log in to the portal since this morning.\n\nBob',
    day: 3,
  },
  {
    to: ALICE.user,
    folder: 'INBOX',
    from: 'Acme Billing <billing@acme.test>',
    subject: 'Invoice 2 for November',
    body: 'Dear customer,\n\nplease find invoice 2 attached.\n\nAcme Billing',
    day: 4,
    attachment: { filename: 'invoice-2.pdf', contentType: 'application/pdf', content: invoicePdf() },
  },
  {
    to: ALICE.user,
    folder: 'INBOX',
    from: 'Jane Doe <jane.doe@northwind.test>',
    subject: 'Lunch on Friday?',
    body: 'Shall we try the new place on Friday at noon?\n\nJane',
    day: 5,
  },
  {
    to: ALICE.user,
    folder: 'INBOX',
    from: 'Shop Newsletter <news@shop.test>',
    subject: 'Inbox zero in five steps',
    body: 'Step 1: archive. Step 2: unsubscribe. Steps 3 to 5 are in the next issue.',
    day: 6,
  },
  {
    to: ALICE.user,
    folder: 'INBOX',
    from: `Al Ng <al@${MAIL_DOMAIN}>`,
    subject: 'Re: 2',
    body: 'Yes, option 2.',
    day: 7,
  },
  {
    to: ALICE.user,
    folder: 'Projects',
    from: 'Jane Doe <jane.doe@northwind.test>',
    subject: 'Project Apollo kickoff',
    body: 'Kickoff is on Monday at 10:00 in room 3.',
    day: 8,
  },
  {
    to: ALICE.user,
    folder: 'Projects',
    from: `Bob Stone <${BOB.user}>`,
    subject: 'Apollo budget draft',
    body: 'The budget draft is ready for review.',
    day: 9,
  },
  {
    to: BOB.user,
    folder: 'INBOX',
    from: `Alice Martin <${ALICE.user}>`,
    subject: 'Welcome Bob',
    body: 'Welcome to the team, Bob!',
    day: 10,
  },
];

function encodeBase64(content: Buffer): string {
  return (content.toString('base64').match(/.{1,76}/g) ?? []).join('\r\n');
}

/** The message as it arrives: RFC 5322 headers, MIME multipart when it carries an attachment. */
export function rfc822(message: SeedMessage, index: number): string {
  const date = new Date(Date.UTC(2026, 10, message.day, 9, 30)).toUTCString().replace('GMT', '+0000');
  const headers = [
    `From: ${message.from}`,
    `To: ${message.to}`,
    `Subject: ${message.subject}`,
    `Date: ${date}`,
    `Message-ID: <seed-${index}@lift-bed.${MAIL_DOMAIN}>`,
    'MIME-Version: 1.0',
  ];
  const text = message.body.replace(/\n/g, '\r\n');
  if (!message.attachment) {
    return [...headers, 'Content-Type: text/plain; charset=utf-8', '', text, ''].join('\r\n');
  }
  const boundary = `=_lift_bed_${index}`;
  const { filename, contentType, content } = message.attachment;
  return [
    ...headers,
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    text,
    `--${boundary}`,
    `Content-Type: ${contentType}; name="${filename}"`,
    `Content-Disposition: attachment; filename="${filename}"`,
    'Content-Transfer-Encoding: base64',
    '',
    encodeBase64(content),
    `--${boundary}--`,
    '',
  ].join('\r\n');
}
