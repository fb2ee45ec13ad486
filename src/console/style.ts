/** The console's one style sheet: system fonts, high contrast, visible focus, one column on a phone. */
export const CSS = `
:root { color-scheme: light; --ink: #17202a; --muted: #5b6670; --line: #d5dbe1; --paper: #f6f7f9; --card: #fff;
  --accent: #1f5fbf; --yes: #146c2e; --no: #a3231a; --warn: #8a5a00; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--paper); color: var(--ink); line-height: 1.45; font-size: 15px; }
a { color: var(--accent); }
code, pre, textarea { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 13px; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 8px; top: 8px; background: #fff; padding: 6px; z-index: 9; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
:focus-visible { outline: 3px solid #f0b400; outline-offset: 2px; }
.top { display: flex; align-items: center; gap: 16px; padding: 10px 24px; background: #17202a; color: #fff; flex-wrap: wrap; }
.top .brand { margin: 0; font-weight: 700; } .top .brand a { color: #fff; text-decoration: none; }
.top nav ul { list-style: none; display: flex; gap: 4px; margin: 0; padding: 0; flex-wrap: wrap; }
.top nav a { color: #dfe6ee; text-decoration: none; padding: 6px 10px; border-radius: 6px; display: inline-block; }
.top nav a[aria-current="page"] { background: #fff; color: #17202a; font-weight: 600; }
.top nav a:hover { background: #2c3a48; color: #fff; }
.logout { margin-left: auto; }
main { max-width: 1120px; margin: 0 auto; padding: 20px 24px 48px; }
h1 { font-size: 24px; margin: 8px 0 16px; } h2 { font-size: 18px; margin: 24px 0 10px; } h3 { font-size: 16px; margin: 0 0 8px; }
h4 { font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 12px 0 4px; }
.flash { background: #e8f1fd; border: 1px solid #b9d1f5; padding: 10px 14px; border-radius: 8px; margin: 0 0 12px; overflow-wrap: anywhere; }
.error { background: #fdecea; border: 1px solid #f3b9b3; padding: 10px 14px; border-radius: 8px; }
.empty { color: var(--muted); }
.cards { list-style: none; padding: 0; margin: 0; display: grid; gap: 14px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 16px 18px; box-shadow: 0 1px 2px rgba(0,0,0,.04); }
.card.held { border-left: 5px solid var(--warn); }
.badge { display: inline-block; font-size: 12px; font-weight: 600; padding: 2px 8px; border-radius: 999px; background: #fff4d6; color: var(--warn); vertical-align: middle; }
.badge.signature { background: #fde2e0; color: var(--no); }
.badge.ok { background: #e3f4e8; color: var(--yes); } .badge.failed { background: #fde2e0; color: var(--no); }
.facts { display: flex; flex-wrap: wrap; gap: 4px 24px; margin: 0; }
.facts div { display: flex; gap: 6px; } .facts dt { color: var(--muted); } .facts dd { margin: 0; }
pre { background: #f1f3f6; border: 1px solid var(--line); border-radius: 6px; padding: 10px; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere; margin: 4px 0; }
.preview { background: #fffbea; border-color: #f1dfa0; font-size: 14px; }
.digest { color: var(--muted); margin: 4px 0 8px; }
details { margin: 8px 0; } summary { cursor: pointer; color: var(--accent); padding: 4px 0; }
.answers { display: flex; flex-wrap: wrap; gap: 10px; align-items: end; margin-top: 12px; }
.answer { display: flex; flex-wrap: wrap; gap: 8px; align-items: end; }
.answer label { flex-basis: 100%; }
label { display: block; font-weight: 600; margin: 6px 0 4px; }
input[type=text], input[type=password], input:not([type]), textarea, select { font: inherit; padding: 8px 10px; border: 1px solid #9aa5b1; border-radius: 6px; background: #fff; color: var(--ink); max-width: 100%; }
textarea { width: 100%; }
button, .button { font: inherit; font-weight: 600; padding: 8px 16px; border-radius: 6px; border: 1px solid #9aa5b1; background: #fff; color: var(--ink); cursor: pointer; min-height: 40px; text-decoration: none; display: inline-block; }
button:hover { filter: brightness(.96); }
button.yes { background: var(--yes); border-color: var(--yes); color: #fff; }
button.no { background: #fff; border-color: var(--no); color: var(--no); }
button.quiet { background: transparent; color: #dfe6ee; border-color: #52606d; min-height: 32px; padding: 4px 12px; }
.scroll { overflow-x: auto; background: var(--card); border: 1px solid var(--line); border-radius: 10px; }
table { border-collapse: collapse; width: 100%; font-size: 14px; }
th, td { text-align: left; padding: 8px 12px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: #eef1f4; font-weight: 600; } tr:last-child td { border-bottom: 0; }
td code { overflow-wrap: anywhere; } code.nowrap { white-space: nowrap; }
.filters { display: flex; flex-wrap: wrap; gap: 12px; align-items: end; background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 12px 16px; margin-bottom: 14px; }
.filters label { margin: 0 0 4px; font-size: 13px; }
.login { max-width: 440px; margin: 40px auto; background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 24px; }
.login input { width: 100%; margin-bottom: 12px; }
.diff-add { color: var(--yes); } .diff-remove { color: var(--no); }
.keys { display: flex; flex-wrap: wrap; gap: 8px; margin: 10px 0; }
.screen { display: block; max-width: 100%; border: 2px solid var(--ink); border-radius: 6px; background: #000; cursor: crosshair; }
.screen:focus { outline: 4px solid #f0b400; }
.card pre.card-text { font-size: 12px; }
.shots { list-style: none; padding: 0; margin: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(320px, 1fr)); gap: 14px; }
.shots figure { margin: 0; background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 8px; }
.shots img { display: block; width: 100%; height: auto; border-radius: 4px; }
.shots figcaption { font-size: 13px; color: var(--muted); margin-top: 6px; }
@media (max-width: 600px) {
  body { font-size: 14px; } main { padding: 12px 12px 40px; } .top { padding: 8px 12px; gap: 8px; }
  .top nav { order: 3; flex-basis: 100%; } .top nav a { padding: 6px 8px; }
  .answers { flex-direction: column; align-items: stretch; } .answer button { width: 100%; }
  .card { padding: 12px; } th, td { padding: 6px 8px; }
}
`;
