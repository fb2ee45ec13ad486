import { afterAll, describe, expect, it } from 'vitest';
import { Registrations } from '../../src/replay/registrations.js';
import { ReplaySignIns } from '../../src/replay/sign-ins.js';
import { parseSignInRecipe, passwordFormSignIn } from '../../src/rungs/ui/sign-in.js';
import { openDatabase } from '../../src/store/database.js';
import { tempDir } from '../support/temp.js';

const dir = tempDir('lift-sign-in-recipes-');
afterAll(() => dir.remove());
let homes = 0;

const RECIPE = parseSignInRecipe({
  fields: [
    { target: { locator: { by: 'field', label: 'Username' } }, value: { literal: 'shopadmin' } },
    { target: { locator: { by: 'field', label: 'Password' } }, value: { secret: 'shop_password' } },
    {
      target: { locator: { by: 'role', role: 'combobox', name: 'Server' } },
      value: { input: 'server' },
      op: 'select',
    },
  ],
  submit: { click: { locator: { by: 'role', role: 'button', name: 'Log in' } } },
  success: { visible: { locator: { by: 'role', role: 'link', name: 'Log out' } } },
  page: '/index.php',
  open: '/index.php?route=/',
});

describe('the sign-in a capability is registered or replayed with', () => {
  it('is kept whole: every field, the button, the sign of success, the page and where it opens', () => {
    const db = openDatabase(`${dir.path}/home-${++homes}`);
    try {
      const registrations = new Registrations(db);
      registrations.register({
        name: 'shop_row_insert',
        revision: 'a'.repeat(64),
        effectClass: 'visible',
        signIn: RECIPE,
      });
      expect(registrations.get('shop_row_insert')?.signIn).toEqual(RECIPE);
      // Registering again with the short form replaces the recipe, it does not mix with it.
      const short = passwordFormSignIn('clerk', { secret: 'backoffice_password' });
      registrations.register({
        name: 'shop_row_insert',
        revision: 'b'.repeat(64),
        effectClass: 'visible',
        signIn: short,
      });
      expect(registrations.get('shop_row_insert')?.signIn).toEqual(short);
      registrations.register({ name: 'shop_row_insert', revision: 'c'.repeat(64), effectClass: 'visible' });
      expect(registrations.get('shop_row_insert')?.signIn).toBeUndefined();
    } finally {
      db.close();
    }
  });

  it('reads a registration made before recipes (a user and a secret name) as the short form', () => {
    const db = openDatabase(`${dir.path}/home-${++homes}`);
    try {
      db.prepare(
        `INSERT INTO capability_tools (name, revision, effect_class, enabled, surface_failures, sign_in_user, sign_in_secret, registered_at)
         VALUES ('member_lookup', ?, 'read', 1, 0, 'clerk', 'backoffice_password', ?)`,
      ).run('d'.repeat(64), new Date().toISOString());
      expect(new Registrations(db).get('member_lookup')?.signIn).toEqual(
        passwordFormSignIn('clerk', { secret: 'backoffice_password' }),
      );
    } finally {
      db.close();
    }
  });

  it('is remembered whole for a capability file nobody registered, for its held calls', () => {
    const db = openDatabase(`${dir.path}/home-${++homes}`);
    try {
      const signIns = new ReplaySignIns(db);
      signIns.remember('e'.repeat(64), RECIPE);
      expect(signIns.get('e'.repeat(64))).toEqual(RECIPE);
      expect(signIns.get('f'.repeat(64))).toBeUndefined();
    } finally {
      db.close();
    }
  });
});
