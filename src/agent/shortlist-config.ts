import { z } from 'zod';

const Signal = z.strictObject({
  pattern: z
    .string()
    .min(1)
    .max(500)
    .describe('A regular expression, matched case-insensitively against the request.'),
  weight: z.number().min(0).max(100).describe("What a match adds to the group's score."),
});

const Group = z
  .strictObject({
    signals: z
      .array(Signal)
      .max(100)
      .default([])
      .describe('Words and phrases that point at this group, each with a weight.'),
    programs: z
      .array(z.string().min(1).max(100))
      .max(100)
      .default([])
      .describe(
        "Programs this group's tools drive; a request naming one raises the group's score to at least `programBonus`.",
      ),
    kinds: z
      .record(z.string(), z.number().min(0).max(100))
      .default({})
      .describe("Attachment kinds (spreadsheet, image, ...) and what each adds to this group's score."),
  })
  .describe('One group of tools: the words, programs and attachment kinds that point at it.');

/**
 * The `shortlist` section of lift.config: groups and signals that extend (or, for a group of the same
 * name, replace) the built-in ones, and the thresholds of the choice.
 */
export const ShortlistConfigSchema = z.strictObject({
  groups: z
    .record(z.string(), Group)
    .default({})
    .describe(
      'Groups of tools by name; one named like a built-in group (office, accounting, ...) replaces it.',
    ),
  general: z
    .array(z.string())
    .max(20)
    .optional()
    .describe('Tool names offered when no group scores; default: the tools without a group.'),
  extensions: z
    .record(z.string(), z.string())
    .default({})
    .describe(
      'Attachment extensions and their kinds (`"xlsx": "spreadsheet"`), added to the built-in table.',
    ),
  clearScore: z
    .number()
    .default(5)
    .describe('One group alone is offered when it scores at least this and leads the next by `clearLead`.'),
  clearLead: z
    .number()
    .default(1.5)
    .describe('How far ahead of the next the leading group must score to be offered alone.'),
  extraSignal: z
    .number()
    .default(0.5)
    .describe('The points each matching signal after the strongest adds (the strongest adds its weight).'),
  programBonus: z
    .number()
    .default(12)
    .describe("A request naming one of a group's programs raises the group's score to at least this."),
  topGroups: z
    .number()
    .int()
    .min(1)
    .max(10)
    .default(3)
    .describe('How many groups are offered when the choice is not clear.'),
});
export type ShortlistConfig = z.infer<typeof ShortlistConfigSchema>;
export type GroupSignals = z.infer<typeof Group>;

/** The built-in groups: the program families Lift ships tools for. Users add theirs in lift.config. */
export const BUILTIN_GROUPS: Record<string, z.input<typeof Group>> = {
  office: {
    signals: [
      {
        pattern: String.raw`\bspreadsheets?\b|\bworkbooks?\b|\bxlsx\b|\bcolumns?\b|\bformulas?\b`,
        weight: 7,
      },
      { pattern: String.raw`\bslides?\b|\bdecks?\b|\bpresentations?\b|\bpptx\b`, weight: 7 },
      { pattern: String.raw`\bdocuments?\b|\bdocx\b|\breport\b|\bletter\b|\bmemo\b`, weight: 6 },
      { pattern: String.raw`\bpdf\b|\bchart\b|\btable\b`, weight: 3 },
    ],
    programs: ['excel', 'libreoffice', 'calc', 'impress', 'writer', 'powerpoint', 'word'],
    kinds: { spreadsheet: 7, presentation: 7, document: 7 },
  },
  accounting: {
    signals: [
      { pattern: String.raw`\bjournal\b|\bledger\b|\bbookkeeping\b|\baccounts?\b`, weight: 7 },
      { pattern: String.raw`\bbalance\b|\bexpenses?\b|\bincome\b|\btransactions?\b`, weight: 5 },
    ],
    programs: ['hledger', 'ledger-cli'],
    kinds: { journal: 10 },
  },
  payroll: {
    signals: [
      { pattern: String.raw`\bpayroll\b|\bpayslips?\b|\bpay ?runs?\b`, weight: 10 },
      { pattern: String.raw`\bsalar(?:y|ies)\b|\bwages?\b|\bemployees?\b`, weight: 6 },
    ],
    programs: [],
    kinds: {},
  },
  git: {
    signals: [
      { pattern: String.raw`\bgit\b|\brepo(?:sitory)?\b|\bcommits?\b|\bbranch(?:es)?\b`, weight: 8 },
      { pattern: String.raw`\bdiff\b|\bmerge\b|\btags?\b`, weight: 4 },
    ],
    programs: ['git'],
    kinds: {},
  },
  postgres: {
    signals: [
      { pattern: String.raw`\bdatabase\b|\bsql\b|\bquery\b|\btables?\b`, weight: 7 },
      { pattern: String.raw`\brows?\b|\bschema\b`, weight: 3 },
    ],
    programs: ['postgres', 'postgresql', 'psql'],
    kinds: {},
  },
  backoffice: {
    signals: [
      { pattern: String.raw`\btickets?\b|\bsupport\b|\bcustomers?\b`, weight: 7 },
      { pattern: String.raw`\bnotes?\b|\bclose\b|\bescalate\b`, weight: 3 },
    ],
    programs: ['back office', 'backoffice'],
    kinds: {},
  },
  email: {
    signals: [
      { pattern: String.raw`\be-?mails?\b|\bmail\b|\bdrafts?\b|\binbox\b|\bsent folder\b`, weight: 9 },
      { pattern: String.raw`[\w.+-]+@[\w-]+\.[\w.-]+`, weight: 6 },
      { pattern: String.raw`\bsend\b|\breply\b|\bcc\b|\battach(?:ed|ment)?s?\b`, weight: 3 },
    ],
    programs: ['thunderbird', 'outlook', 'gmail', 'roundcube', 'postfix', 'dovecot'],
    kinds: {},
  },
  chat: {
    signals: [
      { pattern: String.raw`\bchat\b|\bxmpp\b|\bjabber\b|\bchannel\b|\broom\b|\bslack\b`, weight: 9 },
      { pattern: String.raw`(?:^|\s)#[a-z][\w-]*`, weight: 6 },
      { pattern: String.raw`\bpost(?:ed)?\b|\bundo\b|\bretract\b|\bteam\b`, weight: 4 },
    ],
    programs: ['slack', 'prosody', 'conversations', 'gajim'],
    kinds: {},
  },
  cad: {
    signals: [
      {
        pattern: String.raw`\bmarlas?\b|\bkanals?\b|\bhouse plans?\b|\bfloor plans?\b|\bdxf\b|\bbedrooms?\b`,
        weight: 10,
      },
      { pattern: String.raw`\bhouse\b|\bplot\b|\bkitchen\b|\broom\b|\bsheet\b|\bscale 1:\d+`, weight: 5 },
    ],
    programs: ['autocad', 'librecad'],
    kinds: {},
  },
  three: {
    signals: [
      { pattern: String.raw`\b3d\b|\bthree[- ]d\b|\bblender\b`, weight: 10 },
      { pattern: String.raw`\brender(?:ing)?\b|\bfront view\b`, weight: 6 },
    ],
    programs: ['blender'],
    kinds: {},
  },
  bim: {
    signals: [
      { pattern: String.raw`\bifc4?\b|\bbim\b|\bbuilding models?\b|\brevit\b|\barchicad\b`, weight: 10 },
    ],
    programs: ['revit', 'archicad'],
    kinds: {},
  },
  image: {
    signals: [
      { pattern: String.raw`\bpsd\b|\bphotoshop\b|\blayers?\b|\bposter\b|\bflyer\b`, weight: 8 },
      { pattern: String.raw`\blogo\b|\btitle\b|\bbackground\b`, weight: 4 },
    ],
    programs: ['photoshop', 'gimp', 'photopea'],
    kinds: { image: 6 },
  },
  video: {
    signals: [
      {
        pattern: String.raw`\blottie\b|\bbodymovin\b|\bafter effects\b|\bextendscript\b|\btitle (?:animations?|cards?)\b|\banimated titles?\b|\blower thirds?\b`,
        weight: 10,
      },
      {
        pattern: String.raw`\btimelines?\b|\bclips?\b|\bfootage\b|\bpremiere\b|\bfinal cut\b|\bfcpxml\b|\bedl\b|\botio\b`,
        weight: 9,
      },
      { pattern: String.raw`\bvideos?\b|\bfades? in\b|\bslides? up\b|\bfps\b|\bframe rate\b`, weight: 5 },
    ],
    programs: ['premiere', 'final cut', 'after effects', 'melt', 'kdenlive', 'shotcut'],
    kinds: {},
  },
  inventory: {
    signals: [
      { pattern: String.raw`\binventory\b|\bstock\b|\bskus?\b|\bwarehouse\b`, weight: 8 },
      {
        pattern: String.raw`\b[a-z]{1,3}-\d{3,6}\b|\bshel(?:f|ves)\b|\bbins?\b|\bgadgets?\b|\bwidgets?\b`,
        weight: 7,
      },
      { pattern: String.raw`\breorder\b|\bsuppliers?\b|\bquantit(?:y|ies)\b|\bitems?\b`, weight: 5 },
    ],
    programs: [],
    kinds: {},
  },
  services: {
    signals: [
      { pattern: String.raw`\bservices?\b|\bdaemons?\b|\bsupervisor(?:d|ctl)?\b|\bworkers?\b`, weight: 8 },
      {
        pattern: String.raw`\brestart(?:ed|ing)?\b|\bhealthy\b|\buptime\b|\bcrash(?:ed|ing)?\b|\bpid\b`,
        weight: 6,
      },
      { pattern: String.raw`\bis \S+(?: \S+)? (?:up|down|running)\b|\bstopped\b`, weight: 5 },
    ],
    programs: ['supervisord', 'systemd'],
    kinds: {},
  },
  desktop: {
    signals: [
      {
        pattern: String.raw`\bcalculator\b|\bcharacter map\b|\bclipboard\b|\bdesktop\b|\bwindows?\b`,
        weight: 8,
      },
      { pattern: String.raw`\bbuttons?\b|\bclick\b|\bpress\b|\bskills?\b`, weight: 4 },
    ],
    programs: ['gnome-calculator', 'gucharmap'],
    kinds: {},
  },
};

/** Attachment extensions and the kinds groups score on. */
export const BUILTIN_EXTENSIONS: Record<string, string> = {
  xlsx: 'spreadsheet',
  xls: 'spreadsheet',
  ods: 'spreadsheet',
  csv: 'spreadsheet',
  pptx: 'presentation',
  odp: 'presentation',
  docx: 'document',
  odt: 'document',
  pdf: 'document',
  journal: 'journal',
  ledger: 'journal',
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
};

/** Reads the config's `shortlist` value (anything) into a complete configuration. */
export function parseShortlistConfig(raw: unknown): ShortlistConfig {
  const parsed = ShortlistConfigSchema.safeParse(raw ?? {});
  if (!parsed.success) throw new Error(`lift.config shortlist: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
