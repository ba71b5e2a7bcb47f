// Starts the collector worker from source (tests, SITEWATCH_FROM_SOURCE=1): a worker thread does not
// inherit the main thread's tsx hooks, so it registers its own before loading worker.ts.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
