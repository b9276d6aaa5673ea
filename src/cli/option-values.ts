/** A positive whole number of jobs as written on the command line (`--jobs N`), or null. */
export function parseJobs(text: string): number | null {
  return /^[1-9][0-9]{0,3}$/.test(text) ? Number(text) : null;
}
