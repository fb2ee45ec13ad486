/**
 * What the explorer reads of `complete`: every field it takes, each with an example, so a
 * model learns them before its first call rather than from refusals.
 */
export const COMPLETE_DESCRIPTION = [
  'Declare the task done. Lift compiles what executed into a capability and rehearses it on a fresh page before writing it (a lookup replays whole; a write only re-reads its result, never writes again); a failed rehearsal comes back as a correction naming the step.',
  'Fields:',
  '- outputs: every output of the task, each read before with {"op":"read","target":…,"as":"NAME"} or taken from the resulting page by "from". Example: "outputs": ["email"].',
  '- checkpoint: where the final page shows a bound input, compared with it on every replay: {"target": {"ref": "e31"}, "input": "memberId"}; "match": "contains" when the element holds more text than the input.',
  '- checkpoint.values: for a write, where the resulting page shows each other value typed in: "values": [{"target": {"ref": "e40"}, "input": "email"}].',
  '- from: outputs no read step reads, by name: the resulting URL {"id": {"url": {"param": "id"}}}, a message {"id": {"message": {"pattern": "Post (\\\\d+) created"}}}, or a link {"url": {"link": {"name": "View post"}}}. Use it for a value this run made (a new record\'s id, a date): a target holding such a value is refused.',
  '- examples: more inputs to rehearse with, by outcome: a record that does not exist {"outcome": "not_found", "inputs": {"id": "999999"}} (replay then answers not_found for such inputs), one a write would duplicate {"outcome": "already_exists", "inputs": {"login": "admin"}}, another existing record with what it must read {"outcome": "found", "inputs": {"id": "7"}, "outputs": {"email": "ann@example.test"}}.',
  'Navigation: a URL you loaded or reached whose path or query holds an input\'s value is compiled with {{input.NAME}} in its place; you may also navigate to "/items?id={{input.id}}" yourself.',
  "The answer lists every action left out of the capability (rejected, without effect, unexpected) and why, and the rehearsal's runs.",
].join('\n');
