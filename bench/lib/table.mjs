// Plain-text tables for the terminal.

/** Left-aligned columns separated by two spaces; `rows` are arrays of cells (any value). */
export function formatTable(header, rows) {
  const cells = [header, ...rows].map((row) => row.map((cell) => (cell === null ? "-" : String(cell))));
  const widths = header.map((_, column) => Math.max(...cells.map((row) => row[column]?.length ?? 0)));
  return cells
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
