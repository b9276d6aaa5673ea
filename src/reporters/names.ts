/** The reporter names `--reporter` accepts (docs/suites.md); `json` means suite.json / report.json only. */
export const REPORTER_NAMES = ["junit", "ctrf", "html", "json"] as const;

export type ReporterName = (typeof REPORTER_NAMES)[number];

/** The suite's default reporters. */
export const DEFAULT_SUITE_REPORTERS: readonly ReporterName[] = ["junit", "html"];

/** Parses a comma list (`junit,html`); returns a one-line problem for anything else. */
export function parseReporterList(text: string): ReporterName[] | { readonly problem: string } {
  const names: ReporterName[] = [];
  for (const raw of text.split(",")) {
    const name = raw.trim();
    if (name === "") return { problem: "--reporter needs a comma list of junit, ctrf, html, json" };
    if (!(REPORTER_NAMES as readonly string[]).includes(name)) {
      return { problem: `unknown reporter '${name}' (expected junit, ctrf, html or json)` };
    }
    if (!names.includes(name as ReporterName)) names.push(name as ReporterName);
  }
  return names;
}
