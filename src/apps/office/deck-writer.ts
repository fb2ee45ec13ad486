import { writeFile } from 'node:fs/promises';
import PptxGenJSImport from 'pptxgenjs';
import { PRIVATE_FILE_MODE } from '../../contract/paths.js';

// The package's types describe a CommonJS module; under ESM its default export is the class itself.
const PptxGenJS = PptxGenJSImport as unknown as typeof PptxGenJSImport.default;

/** One slide as code writes it; the body font size is what auto-fit changes. */
export interface DeckSlide {
  title: string;
  bullets: string[];
  image: string | undefined;
  notes: string | undefined;
  bodyPt: number;
}

/** Box geometry on a 16:9 slide (10 x 5.625 in), in inches. */
const TITLE_BOX = { x: 0.5, y: 0.3, w: 9, h: 0.9 };
const BODY_BOX = { x: 0.5, y: 1.35, h: 3.9 };
const IMAGE_BOX = { x: 6.1, y: 1.35, w: 3.4, h: 3.9 };

export const BOX_NAMES = { title: 'Title', body: 'Body' } as const;

/** Writes the slides as .pptx: a title box and a body box per slide, text never auto-shrunk by the file. */
export async function writePptx(title: string, slides: DeckSlide[], path: string): Promise<void> {
  const deck = new PptxGenJS();
  deck.layout = 'LAYOUT_16x9';
  deck.title = title;
  deck.author = 'Lift';
  for (const spec of slides) {
    const slide = deck.addSlide();
    slide.addText(spec.title, {
      ...TITLE_BOX,
      objectName: BOX_NAMES.title,
      fontSize: 30,
      bold: true,
      valign: 'middle',
      fit: 'none',
    });
    if (spec.bullets.length > 0) {
      slide.addText(
        spec.bullets.map((text) => ({ text, options: { bullet: true, breakLine: true } })),
        {
          ...BODY_BOX,
          w: spec.image ? 5.3 : 9,
          objectName: BOX_NAMES.body,
          fontSize: spec.bodyPt,
          valign: 'top',
          paraSpaceAfter: 6,
          fit: 'none',
        },
      );
    }
    if (spec.image) {
      slide.addImage({
        path: spec.image,
        ...IMAGE_BOX,
        sizing: { type: 'contain', w: IMAGE_BOX.w, h: IMAGE_BOX.h },
      });
    }
    if (spec.notes) slide.addNotes(spec.notes);
  }
  const bytes = (await deck.write({ outputType: 'nodebuffer' })) as Buffer;
  await writeFile(path, bytes, { mode: PRIVATE_FILE_MODE });
}
