import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseYaml } from '../../../src/config/yaml.js';
import { isLiftError } from '../../../src/contract/errors.js';
import { parseSignInRecipe, signInRecipeJsonSchema } from '../../../src/rungs/ui/sign-in-recipe.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const SCHEMA_FILE = join(ROOT, 'docs', 'sign-in-recipe.schema.json');
const DOCS = readFileSync(join(ROOT, 'docs', 'sign-in-recipe.md'), 'utf8');

/** The error a recipe that is not one gets, as a person reads it at `lift session start`. */
function recipeError(recipe: unknown): { code: string; message: string; hint: string } {
  try {
    parseSignInRecipe(recipe);
  } catch (error) {
    if (!isLiftError(error)) throw error;
    return { code: error.code, message: error.message, hint: error.hint ?? '' };
  }
  throw new Error('the recipe was accepted');
}

describe('the sign-in recipe is documented', () => {
  // LIFT_WRITE_DOCS=1 npx vitest run test/rungs/ui/sign-in-recipe-docs.test.ts writes it afresh.
  it('docs/sign-in-recipe.schema.json is the JSON Schema the recipe schema makes', () => {
    const generated = `${JSON.stringify(signInRecipeJsonSchema(), null, 2)}\n`;
    if (process.env.LIFT_WRITE_DOCS) writeFileSync(SCHEMA_FILE, generated);
    expect(readFileSync(SCHEMA_FILE, 'utf8'), 'regenerate it with LIFT_WRITE_DOCS=1').toBe(generated);
  });

  it('every example of the docs and of the schema is a recipe Lift accepts, one per shape', () => {
    const blocks = [...DOCS.matchAll(/```(json|yaml)\n([\s\S]*?)```/g)].map(([, kind, text]) =>
      kind === 'json' ? JSON.parse(text!) : parseYaml(text!),
    );
    const examples = (signInRecipeJsonSchema().examples as unknown[]) ?? [];
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    expect(examples.length).toBe(4);
    for (const recipe of [...blocks, ...examples]) expect(() => parseSignInRecipe(recipe)).not.toThrow();
    // User and password; host, user, password and database; a select.
    const fieldsOf = (recipe: unknown) => JSON.stringify((recipe as { fields: unknown[] }).fields);
    expect(blocks.some((recipe) => fieldsOf(recipe).includes('"field":"user"'))).toBe(true);
    expect(blocks.some((recipe) => /Server.*Username.*Password.*Database/.test(fieldsOf(recipe)))).toBe(true);
    expect(blocks.some((recipe) => fieldsOf(recipe).includes('"op":"select"'))).toBe(true);
  });

  it('the README links to it', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain('docs/sign-in-recipe.md');
  });
});

describe('a recipe that is not one', () => {
  it('says where each thing is wrong and what is allowed there, not only "Invalid input"', () => {
    const { code, message } = recipeError({
      fields: [
        { field: 'user', value: { literal: 'admin' } },
        { field: 'password', value: 'hunter2' },
        { target: { label: 'Database' }, value: { literal: 'shop' } },
      ],
      submit: { click: 'Log in' },
    });
    expect(code).toBe('BAD_INPUT');
    expect(message).toContain(
      '✖ at fields[1].value: expected object, received string — a VALUE is {"literal": "text"}, {"secret": "NAME"} or {"input": "NAME"}.',
    );
    expect(message).toContain('✖ at fields[2].target: Unrecognized key: "label" — a TARGET is');
    expect(message).toContain('✖ at submit.click: expected object, received string — a TARGET is');
    // A value written in the recipe is never repeated in its error.
    expect(message).not.toContain('hunter2');
  });

  it('lists every shape with an example and points to the docs, whatever is wrong', () => {
    for (const wrong of [{ user: 'admin', password: { secret: 'x' } }, { fields: [] }, 'admin:secret']) {
      const { message, hint } = recipeError(wrong);
      for (const shape of ['FIELD ', 'VALUE ', 'TARGET ', 'SUBMIT ', 'SUCCESS ', 'Example: {"fields"'])
        expect(message).toContain(shape);
      expect(message).toContain('docs/sign-in-recipe.md');
      expect(hint).toContain('docs/sign-in-recipe.md');
    }
  });
});
