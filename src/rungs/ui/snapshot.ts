/**
 * Parses the text of `page.ariaSnapshot({ mode: 'ai' })` into a tree. The format is
 * YAML-like: `- role "name" [attr] [attr=value] [ref=f1e5]: inline text`, children indented
 * by two spaces, properties such as `- /url: /path`, and `- text: ...` for bare text.
 */
export interface AriaNode {
  role: string;
  name: string;
  ref: string | undefined;
  /** `[level=2]` -> { level: '2' }, `[disabled]` -> { disabled: 'true' } */
  attrs: Record<string, string>;
  /** Inline text after the colon (a cell's text, a textbox's value, a paragraph's text). */
  text: string;
  /** `/url`, `/placeholder`, ... */
  props: Record<string, string>;
  children: AriaNode[];
  /**
   * The name was rebuilt from the node's content: the AI snapshot leaves out a name its
   * content repeats (a link holding an image "Edit" and the text "Edit"). The words are
   * right; the spaces between them may differ from the accessible name ("Edit Edit" for
   * "EditEdit"), so a target takes the element's own name before it is stored.
   */
  nameFromContent?: true;
}

function unquote(value: string): string {
  const trimmed = value.trim();
  if (trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')) {
    try {
      return JSON.parse(trimmed) as string;
    } catch {
      return trimmed.slice(1, -1);
    }
  }
  return trimmed;
}

/** Reads a double-quoted string starting at `start`; returns its value and the index after it. */
function readQuoted(line: string, start: number): [string, number] {
  let index = start + 1;
  while (index < line.length) {
    const char = line[index];
    if (char === '\\') index += 2;
    else if (char === '"') break;
    else index++;
  }
  return [unquote(line.slice(start, index + 1)), index + 1];
}

function parseHeader(body: string): AriaNode {
  const node: AriaNode = { role: '', name: '', ref: undefined, attrs: {}, text: '', props: {}, children: [] };
  let index = 0;
  const roleMatch = /^[^\s":[]+/.exec(body);
  node.role = roleMatch?.[0] ?? '';
  index = node.role.length;
  while (index < body.length) {
    const char = body[index];
    if (char === ' ') {
      index++;
    } else if (char === '"') {
      const [name, next] = readQuoted(body, index);
      node.name = name;
      index = next;
    } else if (char === '[') {
      const end = body.indexOf(']', index);
      if (end < 0) break;
      const attr = body.slice(index + 1, end);
      const eq = attr.indexOf('=');
      if (eq < 0) node.attrs[attr] = 'true';
      else node.attrs[attr.slice(0, eq)] = attr.slice(eq + 1);
      index = end + 1;
    } else if (char === ':') {
      node.text = unquote(body.slice(index + 1));
      break;
    } else {
      index++;
    }
  }
  node.ref = node.attrs.ref;
  delete node.attrs.ref;
  return node;
}

/**
 * A line's body as written without YAML's single quotes: a header holding `: ` is written
 * `'link "Server: db1" [ref=e5]':` (quote doubled inside), which must read as `link "Server: db1"`.
 */
function unquoteLine(body: string): string {
  if (!body.startsWith("'")) return body;
  let index = 1;
  let text = '';
  while (index < body.length) {
    const char = body[index];
    if (char === "'" && body[index + 1] === "'") {
      text += "'";
      index += 2;
    } else if (char === "'") break;
    else {
      text += char;
      index++;
    }
  }
  return `${text}${body.slice(index + 1)}`;
}

export function parseAriaSnapshot(snapshot: string): AriaNode {
  const root: AriaNode = {
    role: 'root',
    name: '',
    ref: undefined,
    attrs: {},
    text: '',
    props: {},
    children: [],
  };
  const stack: Array<{ indent: number; node: AriaNode }> = [{ indent: -1, node: root }];
  for (const raw of snapshot.split('\n')) {
    const match = /^(\s*)- (.*)$/.exec(raw);
    if (!match) continue;
    const indent = match[1]?.length ?? 0;
    const body = unquoteLine(match[2] ?? '');
    while (stack.length > 1 && (stack[stack.length - 1]?.indent ?? -1) >= indent) stack.pop();
    const parent = stack[stack.length - 1]?.node ?? root;
    if (body.startsWith('/')) {
      const colon = body.indexOf(':');
      if (colon > 0) parent.props[body.slice(1, colon)] = unquote(body.slice(colon + 1));
      continue;
    }
    if (body.startsWith('text:')) {
      parent.children.push({
        role: 'text',
        name: '',
        ref: undefined,
        attrs: {},
        text: unquote(body.slice(5)),
        props: {},
        children: [],
      });
      continue;
    }
    const node = parseHeader(body);
    parent.children.push(node);
    stack.push({ indent, node });
  }
  restoreContentNames(root);
  return root;
}

/** Roles named by their content that Lift names elements by (ARIA's "name from content"). */
const NAMED_BY_CONTENT = new Set([
  'button',
  'link',
  'heading',
  'tab',
  'option',
  'treeitem',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'checkbox',
  'radio',
  'switch',
]);

/**
 * Gives back the names the AI snapshot dropped because the node's content repeats them:
 * without them, twelve tab and row-action links of phpMyAdmin ("Structure", "Edit", each an
 * image and its text) read as nameless links nobody can tell apart.
 */
function restoreContentNames(node: AriaNode): void {
  for (const child of node.children) restoreContentNames(child);
  if (node.name || node.ref === undefined || !NAMED_BY_CONTENT.has(node.role)) return;
  // A menu item holding its link is a wrapper: the link is the control and carries the name.
  if (holdsNamedControl(node)) return;
  const content = node.children.map(nodeText).join(' ').replace(/\s+/g, ' ').trim();
  if (!content) return;
  node.name = content;
  node.nameFromContent = true;
}

function holdsNamedControl(node: AriaNode): boolean {
  return node.children.some(
    (child) => (child.ref !== undefined && NAMED_BY_CONTENT.has(child.role)) || holdsNamedControl(child),
  );
}

/** The text a person would read in a node: its name, its inline text and its children's. */
export function nodeText(node: AriaNode): string {
  if (node.role === 'text') return node.text;
  const own = node.text || node.name;
  if (own) return own;
  return node.children
    .map(nodeText)
    .filter((text) => text.length > 0)
    .join(' ');
}
