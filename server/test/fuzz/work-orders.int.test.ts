import { fuzzArea } from './harness.ts';

fuzzArea('work-orders');
