import { fuzzArea } from './harness.ts';

fuzzArea('door-access');
