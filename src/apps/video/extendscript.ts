import type { Rate } from './rate.js';
import { type Key, rgb, type TitlePlan } from './title.js';

/**
 * The same title as an After Effects ExtendScript (ES3): a comp of the same size, length and
 * exact rate, with a background solid, a box shape layer and a text layer as the Lottie file
 * has them, and the same keyframes set by setValueAtTime at whole frames, each eased with Easy
 * Ease (speed 0, 33.33% influence). Run it from File > Scripts > Run Script File.
 */

/** A string as an ES3 literal: JSON's escapes, and every character past ASCII as \uXXXX. */
export function scriptString(text: string): string {
  return JSON.stringify(text).replace(
    /[\u007f-\uffff]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Seconds of a frame as an exact expression: "15 * 1001 / 30000", or "15 / 25". */
export function frameTime(frame: number, rate: Rate): string {
  return rate.den === 1 ? `${frame} / ${rate.num}` : `${frame} * ${rate.den} / ${rate.num}`;
}

const number = (value: number) => String(Math.round(value * 1000) / 1000);
const list = (values: readonly number[]) => `[${values.map(number).join(', ')}]`;

/** Sets a transform property: one value, or a key per frame eased in and out. */
function keys<T>(
  target: string,
  property: string,
  plan: TitlePlan,
  frames: Key<T>[],
  shape: (value: T) => string,
): string[] {
  const variable = `${target}${property}`;
  const line = `  var ${variable} = ${target}.property("Transform").property("${property}");`;
  if (frames.length === 1) return [line, `  ${variable}.setValue(${shape(frames[0]!.value)});`];
  return [
    line,
    ...frames.map(
      (key) => `  ${variable}.setValueAtTime(${frameTime(key.frame, plan.rate)}, ${shape(key.value)});`,
    ),
    `  easeAll(${variable});`,
  ];
}

/** The transform of a layer, the same for the text and the box. */
function transform(target: string, plan: TitlePlan): string[] {
  return [
    `  ${target}.property("Transform").property("Anchor Point").setValue(${list(plan.anchor)});`,
    ...keys(target, 'Opacity', plan, plan.opacity, number),
    ...keys(target, 'Position', plan, plan.position, list),
    ...keys(target, 'Scale', plan, plan.scale, list),
  ];
}

export function writeExtendScript(plan: TitlePlan): string {
  const { rate } = plan;
  const lines = [
    '// Builds the title in After Effects: File > Scripts > Run Script File. Written by Lift',
    '// beside the Lottie file of the same name, with the same size, length, rate and keyframes.',
    '(function () {',
    '  function easeAll(property) {',
    '    var type = property.propertyValueType;',
    '    var dimensions = type === PropertyValueType.TwoD ? 2 : type === PropertyValueType.ThreeD ? 3 : 1;',
    '    for (var key = 1; key <= property.numKeys; key++) {',
    '      var ease = [];',
    '      for (var d = 0; d < dimensions; d++) ease.push(new KeyframeEase(0, 33.333));',
    '      property.setTemporalEaseAtKey(key, ease, ease);',
    '    }',
    '  }',
    '',
    '  app.beginUndoGroup("Lift title");',
    `  var comp = app.project.items.addComp(${scriptString(plan.name)}, ${plan.width}, ${plan.height}, 1, ${frameTime(plan.frames, rate)}, ${rate.den === 1 ? rate.num : `${rate.num} / ${rate.den}`});`,
  ];
  if (plan.colors.background) {
    lines.push(`  comp.bgColor = ${list(rgb(plan.colors.background))};`);
    lines.push(
      `  comp.layers.addSolid(${list(rgb(plan.colors.background))}, "Background", ${plan.width}, ${plan.height}, 1);`,
    );
  }
  if (plan.box && plan.colors.box) {
    lines.push(
      '  var box = comp.layers.addShape();',
      '  box.name = "Box";',
      '  var group = box.property("ADBE Root Vectors Group").addProperty("ADBE Vector Group");',
      '  var rectangle = group.property("ADBE Vectors Group").addProperty("ADBE Vector Shape - Rect");',
      `  rectangle.property("ADBE Vector Rect Size").setValue(${list([plan.box.width, plan.box.height])});`,
      `  rectangle.property("ADBE Vector Rect Position").setValue(${list(plan.anchor)});`,
      '  var fill = group.property("ADBE Vectors Group").addProperty("ADBE Vector Graphic - Fill");',
      `  fill.property("ADBE Vector Fill Color").setValue(${list(rgb(plan.colors.box))});`,
      ...transform('box', plan),
    );
  }
  lines.push(
    `  var title = comp.layers.addText(${scriptString(plan.lines.join('\r'))});`,
    '  title.name = "Title";',
    '  var source = title.property("Source Text");',
    '  var text = source.value;',
    '  text.resetCharStyle();',
    `  text.font = ${scriptString(plan.font.postscript)};`,
    `  text.fontSize = ${plan.size};`,
    '  text.applyFill = true;',
    `  text.fillColor = ${list(rgb(plan.colors.text))};`,
    '  text.applyStroke = false;',
    '  text.tracking = 0;',
    `  text.leading = ${number(plan.lineHeight)};`,
    '  text.justification = ParagraphJustification.CENTER_JUSTIFY;',
    '  source.setValue(text);',
    ...transform('title', plan),
    '  comp.openInViewer();',
    '  app.endUndoGroup();',
    '})();',
    '',
  );
  return lines.join('\n');
}
