import { fuzzArea } from './harness.ts';

fuzzArea('system');
