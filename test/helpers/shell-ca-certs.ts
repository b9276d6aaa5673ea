import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** The NODE_EXTRA_CA_CERTS of the shell that started the tests, or "" (vitest.config.ts). */
    shellCaCerts: string;
  }
}

/**
 * The extra CA bundle of the shell that started the tests, which the tests' own processes run
 * without (vitest.config.ts); undefined when the shell had none.
 */
export function shellCaCerts(): string | undefined {
  const value = inject("shellCaCerts");
  return value === "" ? undefined : value;
}
