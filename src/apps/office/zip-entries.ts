import { readFile } from 'node:fs/promises';

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;

/**
 * The names of the files inside a zip package (.xlsx, .pptx, .docx), read from its central
 * directory: enough to see what the office suite saved without trusting it to say so.
 */
export async function zipEntries(path: string): Promise<string[]> {
  const zip = await readFile(path);
  let end = -1;
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 65_535); at--) {
    if (zip.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) return [];
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let entry = 0; entry < count && at + 46 <= zip.length; entry++) {
    if (zip.readUInt32LE(at) !== CENTRAL_FILE_HEADER) break;
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    names.push(zip.toString('utf8', at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}
