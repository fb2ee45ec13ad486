import type { Check } from '../../contract/envelope.js';
import type { WrittenModel } from './ifc-writer.js';
import type { IfcReading } from './validator.js';

/** The three checks on the saved model, all from IFC++'s reading of the file. */
export function ifcChecks(reading: IfcReading, written: WrittenModel): Check[] {
  // Outer walls are centred on the plot line, so half of one may lie past it.
  const ON_PLOT = written.outerWall / 2 + 0.01;
  const wrong = Object.entries(written.counts).filter(
    ([type, count]) => (reading.counts[type] ?? 0) !== count,
  );
  const counted = Object.entries(written.counts)
    .map(([type, count]) => `${count} ${type.replace(/^Ifc/, '')}`)
    .join(', ');
  const solids = reading.products.filter(
    (product) => product.type === 'IfcWall' || product.type === 'IfcSlab',
  );
  const expectedSolids = written.counts.IfcWall + written.counts.IfcSlab;
  const bad = solids.filter(
    (product) =>
      product.closed < 1 ||
      product.open > 0 ||
      !(product.volume > 0) ||
      (product.min[0] ?? -1) < -ON_PLOT ||
      (product.min[1] ?? -1) < -ON_PLOT ||
      (product.max[0] ?? Infinity) > written.plot.width + ON_PLOT ||
      (product.max[1] ?? Infinity) > written.plot.depth + ON_PLOT,
  );
  const wallVolume = solids
    .filter((product) => product.type === 'IfcWall')
    .reduce((sum, product) => sum + product.volume, 0);
  const volumeOk = Math.abs(wallVolume - written.wallVolume) <= written.wallVolume * 0.02;
  const solidOk = solids.length === expectedSolids && bad.length === 0 && volumeOk;
  const schemaOk = reading.schema === 'IFC4' && reading.problems.length === 0;
  return [
    {
      name: 'ifc_element_counts',
      passed: wrong.length === 0,
      detail:
        wrong.length === 0
          ? `Reopened by IFC++: ${counted}.`
          : `Counts differ: ${wrong.map(([type, count]) => `${type} ${reading.counts[type] ?? 0} of ${count}`).join(', ')}.`,
    },
    {
      name: 'ifc_solids_on_plot',
      passed: solidOk,
      detail: solidOk
        ? `All ${solids.length} walls and slabs build to closed solids on the ${written.plot.width.toFixed(2)} x ${written.plot.depth.toFixed(2)} m plot (outer walls centred on its line); the walls hold ${wallVolume.toFixed(2)} m3 after their openings (the plan says ${written.wallVolume.toFixed(2)}).`
        : `${solids.length} of ${expectedSolids} walls and slabs have geometry; not a closed solid on the plot: ${
            bad
              .map((product) => `#${product.id} ${product.type}`)
              .slice(0, 8)
              .join(', ') || 'none'
          }; wall volume ${wallVolume.toFixed(2)} m3, expected ${written.wallVolume.toFixed(2)}.`,
    },
    {
      name: 'ifc_schema_valid',
      passed: schemaOk,
      detail: schemaOk
        ? `FILE_SCHEMA IFC4; all ${reading.statements} entities are IFC4 entities with IFC4's attribute counts, and every reference binds to the type the schema allows (read by IFC++, not the writer).`
        : `Schema ${reading.schema || 'missing'}; ${reading.problems.slice(0, 6).join('; ')}${reading.problems.length > 6 ? `; and ${reading.problems.length - 6} more` : ''}.`,
    },
  ];
}
