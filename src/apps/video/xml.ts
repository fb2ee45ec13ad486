/** An XML element as saxes read it: its name, attributes, children and text. */
export interface Element {
  name: string;
  attributes: Record<string, string>;
  children: Element[];
  text: string;
}

/** Escapes text and attribute values for the writers. */
export function escapeXml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

/**
 * Parses a whole document with saxes (a conformant, non-validating XML parser this project did
 * not write): a file that is not well-formed XML throws with the parser's message.
 */
export async function parseXml(text: string): Promise<Element> {
  const { SaxesParser } = await import('saxes');
  const parser = new SaxesParser();
  const root: Element = { name: '#document', attributes: {}, children: [], text: '' };
  const open: Element[] = [root];
  parser.on('opentag', (tag) => {
    const element: Element = {
      name: tag.name,
      attributes: Object.fromEntries(
        Object.entries(tag.attributes).map(([key, value]) => [key, String(value)]),
      ),
      children: [],
      text: '',
    };
    open.at(-1)?.children.push(element);
    open.push(element);
  });
  parser.on('text', (chunk) => {
    const current = open.at(-1);
    if (current) current.text += chunk;
  });
  parser.on('closetag', () => {
    open.pop();
  });
  parser.write(text).close();
  const [top] = root.children;
  if (!top) throw new Error('The document has no root element.');
  return top;
}

/** The child elements of `element` named `name`. */
export function childrenNamed(element: Element, name: string): Element[] {
  return element.children.filter((child) => child.name === name);
}

/** The first child named `name`, or undefined. */
export function child(element: Element | undefined, name: string): Element | undefined {
  return element?.children.find((candidate) => candidate.name === name);
}

/** The trimmed text of the element at a path of child names, or undefined. */
export function textAt(element: Element | undefined, ...path: string[]): string | undefined {
  let at = element;
  for (const name of path) at = child(at, name);
  return at?.text.trim();
}

/** Every element named `name` under `element`, depth first. */
export function descendants(element: Element, name: string): Element[] {
  const found: Element[] = [];
  for (const next of element.children) {
    if (next.name === name) found.push(next);
    found.push(...descendants(next, name));
  }
  return found;
}
