/**
 * The counting state of one fault's trigger. It is created per fault object (never shared,
 * never global) so that several faults can each keep their own counter.
 */
export interface TriggerState {
  /**
   * Counts one more matching occurrence (the first call is occurrence 1) and says whether
   * that occurrence is selected for injection. Called exactly once per counted occurrence.
   */
  decide(): boolean;
}
