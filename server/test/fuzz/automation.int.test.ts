import { fuzzArea } from './harness.ts';

fuzzArea('automation');
