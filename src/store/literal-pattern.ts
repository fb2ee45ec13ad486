interface Node {
  next: Map<string, Node>;
  end: boolean;
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function source(node: Node): string {
  const branches = [...node.next].map(([char, child]) => escaped(char) + source(child));
  // The longer text first: at one place, the longest form of a secret is the one replaced.
  if (branches.length === 0) return '';
  if (node.end) branches.push('');
  if (branches.length === 1) return branches[0] as string;
  return `(?:${branches.join('|')})`;
}

/**
 * A global regular expression matching any of the texts, longest first where several start
 * at one place. The texts are merged on their common prefixes (`ab(?:c|d)` for `abc|abd`):
 * the engine then decides on each character once instead of trying every text in turn,
 * which keeps scrubbing as cheap with many forms of a secret as it was with two.
 */
export function literalPattern(texts: Iterable<string>): RegExp {
  const root: Node = { next: new Map(), end: false };
  for (const text of texts) {
    let node = root;
    for (const char of text) {
      let child = node.next.get(char);
      if (!child) {
        child = { next: new Map(), end: false };
        node.next.set(char, child);
      }
      node = child;
    }
    node.end = true;
  }
  return new RegExp(source(root), 'g');
}
