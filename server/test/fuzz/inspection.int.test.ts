import { fuzzArea } from './harness.ts';

fuzzArea('inspection');
