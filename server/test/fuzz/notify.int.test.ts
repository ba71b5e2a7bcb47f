import { fuzzArea } from './harness.ts';

fuzzArea('notify');
