import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { extname } from 'node:path';
import { z } from 'zod';
import type { ToolContext } from '../../contract/context.js';
import { defineTool } from '../../contract/define-tool.js';
import type { Check } from '../../contract/envelope.js';
import { LiftError } from '../../contract/errors.js';
import { RequestIdSchema } from '../../contract/request-id.js';
import type { DeckSlide } from './deck-writer.js';
import { normalized, pdfPages } from './pdf.js';
import { slug } from './workbook-plan.js';
import { OFFICE_TIMEOUT_HINT, officeRunner } from './worker.js';
// Declares the events this file emits, with their words (a run log's readers find them there).
import './events.js';

const MIN_BODY_PT = 12;
const ROUNDS = 4;
/** Text may exceed its box by this much before it counts as running out (rounding of line heights). */
const SLACK_PT = 2;

const SlideSchema = z.strictObject({
  title: z.string().trim().min(1).max(200).describe('Slide title.'),
  bullets: z.array(z.string().min(1).max(600)).max(30).default([]).describe('Body points, one line each.'),
  image: z.string().min(1).max(1000).optional().describe('Path of a local .png, .jpg or .gif'),
  notes: z.string().max(4000).optional().describe('Speaker notes.'),
});

const imageScope = (index: number) => ({ family: 'office', what: `slide ${index + 1} image` });

const OutlineSchema = z.strictObject({
  title: z.string().min(1).max(200).describe('Deck title; the file is named after it by default.'),
  file_name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,59}$/)
    .optional()
    .describe('Lower-case slug; default from the title'),
  body_pt: z.number().int().min(MIN_BODY_PT).max(40).default(20).describe('Body text size in points'),
  auto_fit: z
    .enum(['none', 'shrink', 'split'])
    .default('none')
    .describe(
      'What to do with text that runs out of its box: report it, shrink its font (down to 12 pt, then split), or split the slide',
    ),
  slides: z.array(SlideSchema).min(1).max(60).describe('Slides in order.'),
});

interface Box {
  name: string;
  box_pt: number;
  needs_pt: number;
  text: string;
}

interface Overflow {
  slide: number;
  box: Box;
}

/** What LibreOffice measured: for each slide, each text box's height and the height its text needs. */
interface OfficeDeck {
  slides: Array<{ boxes: Box[] }>;
}

function overflows(measured: OfficeDeck): Overflow[] {
  return measured.slides.flatMap((slide, index) =>
    slide.boxes.filter((box) => box.needs_pt > box.box_pt + SLACK_PT).map((box) => ({ slide: index, box })),
  );
}

function describeOverflow({ slide, box }: Overflow): string {
  return `slide ${slide + 1}: ${box.name} text needs ${Math.round(box.needs_pt)} pt, the box has ${Math.round(box.box_pt)} pt`;
}

/** One auto-fit step: shrinks or splits every overflowing body; returns what it changed. */
function autoFitStep(
  slides: DeckSlide[],
  found: Overflow[],
  mode: 'shrink' | 'split',
): { slides: DeckSlide[]; changes: string[] } {
  const changes: string[] = [];
  const bodies = new Map(
    found.filter((overflow) => overflow.box.name === 'Body').map((o) => [o.slide, o.box]),
  );
  const next: DeckSlide[] = [];
  for (const [index, slide] of slides.entries()) {
    const box = bodies.get(index);
    const ratio = box ? box.box_pt / box.needs_pt : 1;
    if (box && mode === 'shrink' && slide.bodyPt > MIN_BODY_PT) {
      const bodyPt = Math.max(
        MIN_BODY_PT,
        Math.min(slide.bodyPt - 1, Math.floor(slide.bodyPt * Math.sqrt(ratio))),
      );
      changes.push(`slide ${next.length + 1}: body text shrunk from ${slide.bodyPt} pt to ${bodyPt} pt`);
      next.push({ ...slide, bodyPt });
    } else if (box && slide.bullets.length >= 2) {
      const keep = Math.max(1, Math.min(slide.bullets.length - 1, Math.floor(slide.bullets.length * ratio)));
      changes.push(
        `slide ${next.length + 1}: split after bullet ${keep} into slides ${next.length + 1} and ${next.length + 2}`,
      );
      next.push({ ...slide, bullets: slide.bullets.slice(0, keep) });
      next.push({
        ...slide,
        title: `${slide.title} (cont.)`,
        bullets: slide.bullets.slice(keep),
        notes: undefined,
      });
    } else {
      next.push(slide);
    }
  }
  return { slides: next, changes };
}

async function render(ctx: ToolContext, title: string, slides: DeckSlide[], pptx: string, pdf: string) {
  const source = `${pptx}.${randomUUID().slice(0, 8)}.tmp.pptx`;
  // The .pptx writer loads when a deck is first built, not when the tool is declared.
  const { writePptx } = await import('./deck-writer.js');
  await writePptx(title, slides, source);
  // The render is most of the call's time (a LibreOffice start, then the layout): say so as it begins.
  ctx.emit({ type: 'deck-written', slides: slides.length });
  const office = await officeRunner(ctx);
  ctx.emit({ type: 'office-job-start', op: 'deck', mode: office.mode });
  const started = performance.now();
  try {
    const measured = (await office.run(
      { op: 'deck', src: source, pdf },
      { signal: ctx.signal, deadline: ctx.deadline },
    )) as OfficeDeck;
    ctx.emit({
      type: 'office-job-end',
      op: 'deck',
      mode: office.mode,
      ms: Math.round(performance.now() - started),
    });
    await rename(source, pptx);
    return measured;
  } finally {
    await rm(source, { force: true });
  }
}

export const buildDeck = defineTool({
  name: 'build_deck',
  title: 'Build a slide deck',
  description: `Builds a .pptx slide deck from a whole outline, has LibreOffice render it to PDF, and checks that every slide is present and that no text runs out of its box (measured by LibreOffice's own text layout).
outline: {title, slides: [{title, bullets?, image?, notes?}], body_pt?, auto_fit?: "none" | "shrink" | "split"}. Overflow is reported like "slide 6: Body text needs 212 pt, the box has 180 pt"; with auto_fit the tool shrinks the body font or splits the slide and checks again. Returns the paths of the .pptx and .pdf.`,
  group: 'office',
  rung: 'file',
  input: z.strictObject({
    outline: OutlineSchema.describe('The whole deck.'),
    request_id: RequestIdSchema.optional(),
  }),
  output: z.strictObject({
    pptx: z.string().describe('Absolute path of the .pptx.'),
    pdf: z.string().describe('Absolute path of the PDF LibreOffice rendered.'),
    slides: z.number().int().describe('Slides in the deck.'),
    pdf_pages: z.number().int().describe('Pages of the PDF.'),
    overflowing: z
      .array(z.string())
      .max(60)
      .describe('Text boxes still too full, e.g. "slide 6: Body text needs 212 pt, the box has 180 pt".'),
    auto_fit: z.array(z.string()).max(120).describe('What auto_fit changed, slide by slide.'),
  }),
  errors: {
    PROGRAM_FAILED: {
      hint: 'LibreOffice could not open or render the deck; the message carries its reason.',
    },
    TIMEOUT: { retry: 'yes', hint: OFFICE_TIMEOUT_HINT },
  },
  effect: { class: 'reversible', repeat: 'A second identical call writes the same two files again.' },
  timeout: {
    deadlineMs: 120_000,
    settle:
      'Look in the output folder build_deck/ for the .pptx and .pdf named after the outline (file_name or the title as a slug).',
  },
  paths: ({ outline }) =>
    outline.slides.flatMap((slide, index) =>
      slide.image === undefined ? [] : [{ path: slide.image, scope: imageScope(index) }],
    ),
  example: {
    outline: {
      title: 'Quarterly review',
      slides: [
        { title: 'Quarterly review', bullets: ['Sales up 12%', 'Two new stores'] },
        {
          title: 'Next steps',
          bullets: ['Hire two engineers', 'Open the Lahore store'],
          notes: 'Ask for budget.',
        },
      ],
    },
  },
  async run({ outline }, ctx) {
    const images = outline.slides.map((slide, index) =>
      slide.image === undefined ? undefined : ctx.resolvePath(slide.image, imageScope(index)),
    );
    for (const [index, slide] of outline.slides.entries()) {
      const image = images[index];
      if (image === undefined) continue;
      if (!existsSync(image) || !['.png', '.jpg', '.jpeg', '.gif'].includes(extname(image).toLowerCase())) {
        throw new LiftError(
          'BAD_INPUT',
          `Slide ${index + 1}: the image ${slide.image} is not a readable .png, .jpg or .gif file.`,
          {
            hint: 'Give the absolute path of an existing picture, or leave image out.',
            outcome: 'not_started',
          },
        );
      }
    }
    const name = outline.file_name ?? slug(outline.title);
    const pptx = ctx.outputFile(`${name}.pptx`);
    const pdf = ctx.outputFile(`${name}.pdf`);
    ctx.markStarted();

    let slides: DeckSlide[] = outline.slides.map((slide, index) => ({
      title: slide.title,
      bullets: slide.bullets,
      image: images[index],
      notes: slide.notes,
      bodyPt: outline.body_pt,
    }));
    const changes: string[] = [];
    let measured = await render(ctx, outline.title, slides, pptx, pdf);
    for (let round = 1; round < ROUNDS && outline.auto_fit !== 'none'; round++) {
      const found = overflows(measured);
      if (found.length === 0) break;
      const step = autoFitStep(slides, found, outline.auto_fit);
      if (step.changes.length === 0) break;
      changes.push(...step.changes);
      slides = step.slides;
      measured = await render(ctx, outline.title, slides, pptx, pdf);
    }

    const remaining = overflows(measured).map(describeOverflow);
    const pages = await pdfPages(pdf, ctx.signal);
    const missing = slides.flatMap((slide, index) =>
      normalized(pages[index] ?? '').includes(normalized(slide.title))
        ? []
        : [`slide ${index + 1} (${slide.title})`],
    );
    const checks: Check[] = [
      {
        name: 'slides_present',
        passed:
          pages.length === slides.length && measured.slides.length === slides.length && missing.length === 0,
        detail:
          missing.length === 0 && pages.length === slides.length
            ? `All ${slides.length} slides are in the PDF, each with its title on its own page.`
            : `The PDF has ${pages.length} page(s) for ${slides.length} slide(s)${missing.length ? `; titles not found on their page: ${missing.join(', ')}` : ''}.`,
      },
      {
        name: 'text_fits',
        passed: remaining.length === 0,
        detail:
          remaining.length === 0
            ? `Every text box on ${slides.length} slides holds its text${changes.length ? ` after auto-fit (${changes.length} change(s))` : ''}.`
            : `Text runs out of its box: ${remaining.join('; ')}.${outline.auto_fit === 'none' ? ' Shorten it, or call again with auto_fit "shrink" or "split".' : ''}`,
      },
    ];
    return {
      fields: {
        pptx,
        pdf,
        slides: slides.length,
        pdf_pages: pages.length,
        overflowing: remaining,
        auto_fit: changes,
      },
      summary: `Made ${name}.pptx and its PDF ${name}.pdf: ${slides.length} slide(s)${changes.length ? `, ${changes.length} auto-fit change(s)` : ''}.`,
      files: { pptx, pdf },
      checks,
      verifiedBy:
        'LibreOffice rendered the deck and measured each text box; the PDF read back with pdftotext',
    };
  },
});
