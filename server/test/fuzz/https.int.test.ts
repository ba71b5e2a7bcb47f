import { fuzzArea } from './harness.ts';

fuzzArea('https');
