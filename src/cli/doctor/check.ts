/** One line of lift doctor: what was checked, what was found, and the command that fixes it. */
export interface Check {
  name: string;
  /** ok: works; warn: a part of Lift that needs it will not work; fail: Lift itself will not. */
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  fix?: string;
}
