// undici's Pool on its own: importing the package's index also loads every other dispatcher,
// the mock and fetch layers and Node's bundled copy of undici (~9 MB of memory, ~55 ms).
declare module "undici/lib/dispatcher/pool.js" {
  import type { Pool } from "undici";

  const PoolClass: typeof Pool;
  export default PoolClass;
}
