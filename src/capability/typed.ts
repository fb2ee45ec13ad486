import type { FieldType } from './capability.js';

export type TypedValue = string | number | boolean;

/** Parses text read from a page into a declared type; undefined when it does not hold one. */
export function parseTypedValue(text: string, type: FieldType): TypedValue | undefined {
  const trimmed = text.replace(/\s+/g, ' ').trim();
  switch (type) {
    case 'string':
      return trimmed.length > 0 ? trimmed : undefined;
    case 'number':
    case 'integer': {
      const plain = trimmed.replace(/[\s,'\u00a0]/g, '').replace(/^[^\d\-+.]+|[^\d.]+$/g, '');
      if (!/^[-+]?\d+(\.\d+)?$/.test(plain)) return undefined;
      const value = Number(plain);
      if (type === 'integer' && !Number.isInteger(value)) return undefined;
      return value;
    }
    case 'boolean': {
      if (/^(yes|true|on|checked)$/i.test(trimmed)) return true;
      if (/^(no|false|off|unchecked)$/i.test(trimmed)) return false;
      return undefined;
    }
  }
}
