import { fuzzArea } from './harness.ts';

fuzzArea('energy');
