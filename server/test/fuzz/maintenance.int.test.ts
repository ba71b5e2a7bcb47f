import { fuzzArea } from './harness.ts';

fuzzArea('maintenance');
