import { LiftError } from '../../contract/errors.js';
import type { Redactor } from './redact.js';
import {
  literalPasswordsOf,
  type SignInField,
  type SignInRecipe,
  type SignInValue,
  secretsOf,
} from './sign-in.js';
import { SIGN_IN_RECIPE_DOCS, SIGN_IN_RECIPE_SHAPES } from './sign-in-recipe-help.js';

/**
 * Where a harness's sign-in gets what it types: the recipe's literals, its bound inputs and
 * the secret store. Every value that goes into a password field, and every secret, is
 * added to the redactor before it is typed, so none can appear in an observation or event.
 */
export class SignInValues {
  readonly recipe: SignInRecipe | undefined;
  readonly #secret: ((name: string) => string) | undefined;
  readonly #redactor: Redactor;
  readonly #inputs: Record<string, string>;

  constructor(options: {
    recipe: SignInRecipe | undefined;
    secret: ((name: string) => string) | undefined;
    redactor: Redactor;
    inputs: Record<string, string> | undefined;
  }) {
    this.recipe = options.recipe;
    this.#secret = options.secret;
    this.#redactor = options.redactor;
    this.#inputs = options.inputs ?? {};
    // Masked before the page shows anything: a sign-in value can never appear, even in a prefilled form.
    for (const value of this.secretValues()) this.#redactor.addSecret(value);
  }

  /** A recipe, and a way to read the secrets it names. */
  get usable(): boolean {
    return this.recipe !== undefined && (secretsOf(this.recipe).length === 0 || this.#secret !== undefined);
  }

  /** Secret values the sign-in types (for masks), without failing when one is missing. */
  secretValues(): string[] {
    const { recipe } = this;
    if (!recipe) return [];
    const read = this.#secret;
    const stored = read
      ? secretsOf(recipe).flatMap((name) => {
          try {
            return [read(name)];
          } catch {
            return [];
          }
        })
      : [];
    return [...stored, ...literalPasswordsOf(recipe)];
  }

  /** The text to type into the field, masked first when it is a password or a secret. */
  typed(value: SignInValue, field: SignInField): string {
    const text = this.#valueOf(value);
    if (field === 'password' || 'secret' in value) this.#redactor.addSecret(text);
    return text;
  }

  /**
   * AUTH_REQUIRED for a sign-in that did not work: a recipe that does not fit the form says
   * what it lacks and what a recipe may be; a form still showing names the secret to check.
   */
  failed(reason = 'the sign-in form is still showing', options: { misfit?: boolean } = {}): LiftError {
    const names = this.recipe ? secretsOf(this.recipe) : [];
    const secret = names.length
      ? `Check the stored secret '${names[0]}' (lift secrets set ${names[0]}), the recipe's success sign, or let a person sign in.`
      : 'Check the sign-in recipe and its values, or let a person sign in.';
    return new LiftError('AUTH_REQUIRED', `Signing in failed: ${this.#redactor.text(reason)}.`, {
      hint: options.misfit
        ? `Name the form's own fields in the recipe and start again.\n${SIGN_IN_RECIPE_SHAPES}`
        : `${secret} ${SIGN_IN_RECIPE_DOCS} says how a recipe is written.`,
    });
  }

  #valueOf(value: SignInValue): string {
    if ('literal' in value) return value.literal;
    if ('input' in value) {
      const bound = this.#inputs[value.input];
      if (bound === undefined) throw new LiftError('BAD_INPUT', `No input named '${value.input}' is bound.`);
      return bound;
    }
    if (!this.#secret)
      throw new LiftError('AUTH_REQUIRED', `No secret store to read '${value.secret}' from.`);
    return this.#secret(value.secret);
  }
}
