export const SCREENCAST = '';
