import { fuzzArea } from './harness.ts';

fuzzArea('monitoring');
