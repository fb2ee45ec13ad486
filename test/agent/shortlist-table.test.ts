import { describe, expect, it } from 'vitest';
import { Shortlist } from '../../src/agent/shortlist.js';
import { builtinTools } from '../../src/builtin.js';

/** Requests a person types, and the tools each model call must be offered to answer it. */
const TABLE: Array<[request: string, mustInclude: string[]]> = [
  ['is the demo-worker service up?', ['service_status']],
  ['restart the worker', ['service_restart']],
  ['the worker crashed, bring it back', ['service_restart']],
  ['what is the uptime of demo-worker?', ['service_status']],
  ['add 2 Gadgets B-5678 on Shelf 2', ['inventory_create_item']],
  ['do we have any B-5678 left?', ['inventory_find_items']],
  ['how much stock is there of SKU A-1234', ['inventory_find_items']],
  ['put 10 widgets W-0042 in bin 7', ['inventory_create_item']],
  ['import the hours Ana worked this week into payroll', ['payroll_import_hours']],
  ['show the latest payroll export for employee 1042', ['payroll_export_read']],
  ["what's the balance of assets:bank?", ['ledger_balance_read']],
  ['record an expense of 45 EUR for office supplies paid from checking', ['ledger_add_transaction']],
  ['did the rent transaction make it into the journal?', ['ledger_transaction_find']],
  ['make a spreadsheet of Q3 sales by region with a total row', ['build_workbook']],
  ['build a 5-slide deck about our roadmap', ['build_deck']],
  ['write a report on the incident with a table of timings', ['build_report']],
  ['convert minutes.docx to PDF', ['convert_document']],
  ['how many orders were placed yesterday? query the database', ['postgres_query']],
  ['select the ten newest customers from postgres', ['postgres_query']],
  ['what were the last 5 commits on main?', ['git_log_read']],
  ['push the feature branch to origin', ['git_branch_push']],
  ['draft an email to ops@example.com about the outage', ['email_draft_save']],
  ['send the draft I saved this morning', ['email_draft_send']],
  ['find the mail from Priya about the invoice in my inbox', ['email_find']],
  ['post "deploy done" to #team', ['chat_post']],
  ['undo that last chat message', ['chat_undo']],
  ['what did people say in the team room today?', ['chat_history']],
  ['draw a house plan for a 10 marla plot with 3 bedrooms', ['draw_house_plan']],
  ['make the kitchen a foot bigger', ['resize_room']],
  ['put the plan on an A3 sheet at scale 1:50', ['set_sheet']],
  ['render the house in 3D from the front', ['render_plan_3d']],
  ['export the building as IFC for Revit', ['export_building_model']],
  ['make a poster PSD with our logo over a blue background', ['compose_layered_image']],
  ['cut these three clips into a timeline for Premiere at 29.97', ['build_timeline']],
  ['make a lottie title animation that says Launch Day', ['build_title_animation']],
  ['an After Effects script for the opening title card, fading in', ['build_title_animation']],
  ['open the calculator and work out 25*4', ['start_program', 'act_window']],
  ['what text is on the clipboard?', ['read_clipboard']],
  ['good morning', []],
];

describe('the shortlist on realistic requests, with every tool Lift ships', async () => {
  const tools = await builtinTools();
  const shortlist = new Shortlist(tools.filter((tool) => tool.name !== 'run_chain'));

  it.each(TABLE)('%s', (request, mustInclude) => {
    const choice = shortlist.choose(request);
    const offered = choice.tools.map((tool) => tool.name);
    expect(offered.length, `${request}: ${choice.kind} ${choice.groups.join(',')}`).toBeGreaterThan(0);
    expect(offered, `${request}: ${choice.kind} ${choice.groups.join(',')}`).toEqual(
      expect.arrayContaining(mustInclude),
    );
    // A shortlist, not the whole registry, whenever the request names what it is about.
    if (mustInclude.length > 0) expect(offered.length).toBeLessThan(tools.length / 2);
  });

  it('falls back to the groups whose tools share words with a request no signal scores', () => {
    const choice = shortlist.choose('which programs can you start for me?');
    expect(choice.kind).toBe('general');
    expect(choice.tools.map((tool) => tool.name)).toContain('start_program');
    const nothing = shortlist.choose('good morning');
    expect(nothing.tools.length).toBe(tools.length - 1);
  });

  it('has a table of at least 30 requests with the tools they need', () => {
    expect(TABLE.filter(([, mustInclude]) => mustInclude.length > 0).length).toBeGreaterThanOrEqual(30);
  });
});
