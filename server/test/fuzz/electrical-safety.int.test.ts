import { fuzzArea } from './harness.ts';

fuzzArea('electrical-safety');
