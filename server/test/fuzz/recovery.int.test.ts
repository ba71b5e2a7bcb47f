import { fuzzArea } from './harness.ts';

fuzzArea('recovery');
