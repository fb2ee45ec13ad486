import { pbkdf2 } from 'node:crypto';
import { promisify } from 'node:util';

const derive = promisify(pbkdf2);

interface MechanismEntry {
  name: string;
  mech: new (...args: unknown[]) => ScramLike;
}

interface ScramLike {
  _stage: string;
  _salt: Uint8Array;
  _iterationCount: number;
  response(credentials: Record<string, unknown>): unknown;
}

/**
 * Makes the client's SCRAM-SHA-1 derive the salted password with Node's native PBKDF2. The
 * library's own derivation awaits WebCrypto once per iteration: with a server's 10,000
 * iterations that is seconds per login, and every tool call logs in. The library does the rest
 * of the exchange as before: it takes a salted password it is given for the salt it was sent.
 */
export function useNativeScram(saslFactory: unknown): void {
  const mechs = (saslFactory as { _mechs?: MechanismEntry[] })._mechs;
  const entry = mechs?.find((candidate) => candidate.name === 'SCRAM-SHA-1');
  if (!entry) return;
  const Library = entry.mech;
  class NativeScram extends Library {
    override async response(credentials: Record<string, unknown>): Promise<unknown> {
      if (this._stage !== 'challenge' || typeof credentials.password !== 'string')
        return super.response(credentials);
      const salted = await derive(credentials.password, this._salt, this._iterationCount, 20, 'sha1');
      return super.response({ ...credentials, salt: this._salt, saltedPassword: new Uint8Array(salted) });
    }
  }
  entry.mech = NativeScram;
}
