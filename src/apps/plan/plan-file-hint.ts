/** What to pass where a plan file is asked for: shared by the inputs and the plan file's reader, below both. */
export const PLAN_FILE_HINT =
  'Pass the plan file a drafting tool returned (files.plan of draw_house_plan, resize_room or set_sheet).';
