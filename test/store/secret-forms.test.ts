import { describe, expect, it } from 'vitest';
import { maskInput, unmaskInput } from '../../src/store/held-input.js';
import { literalPattern } from '../../src/store/literal-pattern.js';
import { SECRET_FORMS } from '../../src/store/secret-forms.js';
import { SecretStore } from '../../src/store/secrets.js';
import { tempDir } from '../support/temp.js';

const VALUE = 'pa ss/wörd+"1&2';
const home = tempDir('lift-secret-forms-');
const store = () => new SecretStore(home.path, { LIFT_SECRET_API_KEY: VALUE, LIFT_SECRET_PIN: '4821' });

describe('the scrubber', () => {
  it('replaces every form of a secret, each with its placeholder', () => {
    const secrets = store();
    for (const form of SECRET_FORMS) {
      const text = `before ${form.encode(VALUE)} after`;
      const scrubbed = secrets.scrub(text);
      expect(scrubbed, form.id).toMatch(/^before .*\[secret:api_key(:[a-z0-9]+)?\].* after$/);
      expect(scrubbed, form.id).not.toContain(form.encode(VALUE));
    }
  });

  it('finds base64 of a secret inside a longer encoded run, whatever its offset', () => {
    const secrets = store();
    for (const prefix of ['', 'u:', 'us:', 'use:', 'user:']) {
      const run = Buffer.from(`${prefix}${VALUE} and more`).toString('base64');
      expect(secrets.scrub(`Basic ${run}`), prefix).toContain('[secret:api_key:base64]');
    }
  });

  it('finds a secret as PHP, Python, Go and .NET write it in JSON, and as HTML and Python URL-quote it', () => {
    const secrets = store();
    const unicode = (text: string, pick: RegExp, upper = false) =>
      [...text]
        .map((char) => {
          if (!pick.test(char)) return JSON.stringify(char).slice(1, -1);
          const digits = char.charCodeAt(0).toString(16).padStart(4, '0');
          return `\\u${upper ? digits.toUpperCase() : digits}`;
        })
        .join('');
    const printed = {
      php: `{"key":"${unicode(VALUE, /[^ -~]/).replaceAll('/', '\\/')}"}`,
      python: `{"key": "${unicode(VALUE, /[^ -~]/)}"}`,
      go: `{"key":"${unicode(VALUE, /[<>&]/)}"}`,
      dotnet: `{"key":"${unicode(VALUE, /[^ -~]|["&'+<>`]/, true)}"}`,
      all: `{"key":"${unicode(VALUE, /[^A-Za-z0-9]/)}"}`,
      html: `<input value="${VALUE.replaceAll('&', '&amp;').replaceAll('"', '&quot;')}">`,
      hexEntities: `<b>${[...VALUE].map((c) => (/[A-Za-z0-9]/.test(c) ? c : `&#x${c.codePointAt(0)?.toString(16)};`)).join('')}</b>`,
      quoted: `/files/${encodeURIComponent(VALUE).replaceAll('%2F', '/')}`,
    };
    expect(secrets.scrub(printed.php)).toBe('{"key":"[secret:api_key]"}');
    expect(secrets.scrub(printed.python)).toBe('{"key": "[secret:api_key]"}');
    expect(secrets.scrub(printed.go)).toBe('{"key":"[secret:api_key]"}');
    expect(secrets.scrub(printed.dotnet)).toBe('{"key":"[secret:api_key]"}');
    expect(secrets.scrub(printed.all)).toBe('{"key":"[secret:api_key]"}');
    expect(secrets.scrub(printed.html)).toBe('<input value="[secret:api_key:html]">');
    expect(secrets.scrub(printed.hexEntities)).toBe('<b>[secret:api_key:html]</b>');
    expect(secrets.scrub(printed.quoted)).toBe('/files/[secret:api_key:url]');
  });

  it('keeps scrubbing a secret that has no URL form (a lone surrogate)', () => {
    const secrets = new SecretStore(home.path, { LIFT_SECRET_ODD: 'odd-\uD800-secret' });
    expect(secrets.scrub('x odd-\uD800-secret y')).toBe('x [secret:odd] y');
  });

  it('looks for no fragment so short that it could stand in ordinary text', () => {
    const secrets = store();
    // The PIN is four characters: its encodings are looked for whole, never in parts.
    expect(secrets.scrub('NDgy and 3438 and NDgyMQ==')).toBe('NDgy and 3438 and [secret:pin:base64]');
  });

  it('matches the longest text where several start at one place', () => {
    const pattern = literalPattern(['abc', 'abcdef', 'abd', 'x.y']);
    expect('abcdefg abd abc xzy x.y'.match(pattern)).toEqual(['abcdef', 'abd', 'abc', 'x.y']);
  });
});

describe('a held input', () => {
  it('masks secrets in strings, keys and numbers, and gets them back exactly, in the same forms', () => {
    const secrets = store();
    const input = {
      note: `one ${VALUE} two ${Buffer.from(VALUE).toString('base64')} three ${encodeURIComponent(VALUE)}`,
      php: `{"key":"${JSON.stringify(VALUE).slice(1, -1).replaceAll('/', '\\/')}"}`,
      nested: [{ [`key ${VALUE}`]: { deep: Buffer.from(VALUE).toString('hex') } }],
      pin: 4821,
      plain: 'nothing here',
    };
    const masked = maskInput(input, secrets);
    const text = JSON.stringify(masked);
    expect(text).not.toContain(VALUE);
    expect(text).not.toContain('4821');
    expect(masked.input).toMatchObject({
      pin: '[secret:pin]',
      plain: 'nothing here',
      php: '{"key":"[secret:api_key]"}',
    });
    expect(unmaskInput(masked, secrets)).toEqual(input);
  });

  it('leaves a placeholder that was typed as text', () => {
    const secrets = store();
    const input = { note: `[secret:api_key] is not ${VALUE}` };
    const masked = maskInput(input, secrets);
    expect(masked.input).toEqual({ note: '[secret:api_key] is not [secret:api_key]' });
    expect(unmaskInput(masked, secrets)).toEqual(input);
  });

  it('refuses to run a masked input that was changed after it was stored', () => {
    const secrets = store();
    const masked = maskInput({ note: `x ${VALUE}` }, secrets);
    expect(() => unmaskInput({ ...masked, input: { note: 'changed entirely' } }, secrets)).toThrow(
      /changed after it was stored/,
    );
  });
});
